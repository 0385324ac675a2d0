#!/usr/bin/env python3
"""Compares gpu_bench result files: one GPU at two commits (the regression gate), or two GPUs.

    scripts/compare.py base.json new.json                       # text table
    scripts/compare.py base.json new.json --fail-above 3        # CI gate: exit 1 on a regression
    scripts/compare.py base.json new.json --markdown --changed-only >> "$GITHUB_STEP_SUMMARY"
    scripts/compare.py h100.json h200.json --allow-different-gpus --best-block --plot cmp.png

The first file is the baseline A; every further file B is compared with it. Benchmarks are
matched by algorithm, variant, extra axes, size, n and block (from the files' metadata, else
their names). For each: the time of A and B (median over repetitions), the ratio B/A (below 1:
B is faster) with its confidence interval and p-value (stats.py: Mann-Whitney U over the
repetitions, with a Hodges-Lehmann interval; a z test on the medians from the samples' noise
when a side has too few repetitions), and each file's GB/s as a fraction of its own copy.

Verdict: "slower" or "faster" only when the difference is significant at --confidence (0.95)
*and* B/A is beyond 1 +- --min-effect (2.5%); else "same". Two runs of one commit differ by a
little more than their repetitions say (clocks, placement): the minimum effect keeps that out.
Run with --benchmark_repetitions=5 (or more) for a rank test that can reach 95%.

--fail-above PCT: the regression gate, exit 1 on either of
  - a group, one algorithm at one size (pot or npot 2^k, the GPU variants' rows without copy),
    whose geometric mean of B/A is above 1 + PCT% while most of its rows are "slower": what a
    change that slows the code everywhere does;
  - one benchmark "slower" by more than --fail-row-above (default 2 x PCT) percent.
Two runs of one commit on the H200 (blocking-kernel timing, 5 repetitions each) differed by up to
2.9% in a group's geometric mean and 5.1% in one row at 2^16..2^20 (run-to-run shifts of a few
tenths of a microsecond that the repetitions inside one run do not show), while a 5% slowdown
moved every group by 5.0% or more: scripts/gpu_check.sh's gate uses --fail-above 3.5 (rows 7%).
CPU rows, and GPU rows timed directly with the host's launch gaps in them (counter blocked = 0),
follow the host's load and are gated only with --gate-cpu. Files of different GPUs are refused
unless --allow-different-gpus; then the gate does not apply (a slower GPU is not a regression).

Output: a text table (default), --markdown (for $GITHUB_STEP_SUMMARY; with --title, one heading
level down, for a document: scripts/doc_tables.py), --json or --csv.
Exit status: 0 compared, no regression; 1 a regression above --fail-above; 2 bad input or usage
(a bad file, fewer than two files, a --filter that matches nothing, nothing in common, different
GPUs without --allow-different-gpus, a --plot path in a missing folder).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import csv
import io
import json
import math
import os
import sys
from dataclasses import dataclass
from typing import List, Optional, Pattern

import pandas as pd

import results
import stats
from results import ScriptError

COLLAPSE_ROWS = 40  # longer Markdown tables go inside <details> (GitHub renders it folded)
DEFAULT_CONFIDENCE = 0.95
DEFAULT_MIN_EFFECT = 2.5  # percent: halfway between no change and the 5% the gate must catch
KEY = ["algorithm", "variant", "facet", "size", "log2n", "block"]


@dataclass
class Settings:
    confidence: float = DEFAULT_CONFIDENCE
    min_effect_pct: float = DEFAULT_MIN_EFFECT
    best_block: bool = False
    per_copy: bool = False
    fail_row_above: Optional[float] = None  # percent; None: twice --fail-above


@dataclass
class Comparison:
    a: results.ResultFile
    b: results.ResultFile
    table: pd.DataFrame  # one row per benchmark in both files
    only_a: int
    only_b: int
    skipped: List[str]  # in both files, but skipped with an error in one of them
    settings: Settings

    @property
    def same_gpu(self) -> bool:
        return self.a.gpu_name == self.b.gpu_name


def display_name(r) -> str:
    """The benchmark's name without /block:N (for best-block rows), built from its parts."""
    parts = [r.algorithm, r.variant] + ([r.facet] if r.facet else []) + [r.size, f"log2n:{r.log2n}"]
    return "/".join(parts)


def _select(f: results.ResultFile, pattern: Optional[Pattern], best_block: bool):
    """The rows to compare (with a 'key' column and a display name) and the keys of the
    benchmarks skipped with an error."""
    rows = results.matching(f.rows, pattern)
    skipped = [n for n, _ in f.skipped if pattern is None or pattern.search(n)]
    skipped_keys = {}  # key -> name shown
    for n in skipped:
        info = f.skipped_info[n]
        if best_block:
            skipped_keys[info.key[:-1]] = display_name(info)
        else:
            skipped_keys[info.key] = n
    if best_block:
        rows = results.best_blocks(rows)
        keys = [tuple(k) for k in rows[KEY[:-1]].itertuples(index=False)]
        names = [display_name(r) for r in rows.itertuples(index=False)]
    else:
        keys = [tuple(k) for k in rows[KEY].itertuples(index=False)]
        names = list(rows["name"])
    rows = rows.assign(key=keys, shown=names)
    return rows, {k: n for k, n in skipped_keys.items() if k not in set(keys)}


def copy_scale(ra, rb) -> float:
    """B's copy bandwidth over A's at this n (from each row's GB/s, time and fraction of copy):
    B's times times this are B's times had its copy been as fast as A's. NaN for CPU rows."""
    return (ra.time_us * ra.of_copy) / (rb.time_us * rb.of_copy)


def _test_row(ra, rb, settings: Settings) -> dict:
    scale = 1.0
    if settings.per_copy:  # compare fractions of each run's own copy bandwidth
        scale = copy_scale(ra, rb)
    test = stats.compare_runs(ra.time_us, ra.rep_us, ra.noise_rel, ra.samples,
                              rb.time_us * scale, [t * scale for t in rb.rep_us], rb.noise_rel,
                              rb.samples, settings.confidence)
    return {
        "name": ra.shown, "algorithm": ra.algorithm, "variant": ra.variant, "role": ra.role,
        "target": ra.target, "facet": ra.facet, "size": ra.size, "log2n": ra.log2n,
        "block_a": int(ra.block), "block_b": int(rb.block),
        "time_a_us": ra.time_us, "time_b_us": rb.time_us,
        "reps_a": len(ra.rep_us), "reps_b": len(rb.rep_us),
        "ratio": test.ratio, "ci_low": test.low, "ci_high": test.high, "p": test.p,
        "method": test.method, "change_pct": (test.ratio - 1.0) * 100.0,
        "verdict": stats.verdict(test, settings.confidence, settings.min_effect_pct / 100.0),
        "of_copy_a": ra.of_copy, "of_copy_b": rb.of_copy,
        "host_timed": bool(ra.host_timed or rb.host_timed),
    }


TABLE_COLUMNS = ["name", "algorithm", "variant", "role", "target", "facet", "size", "log2n",
                 "block_a", "block_b", "time_a_us", "time_b_us", "reps_a", "reps_b", "ratio",
                 "ci_low", "ci_high", "p", "method", "change_pct", "verdict", "of_copy_a",
                 "of_copy_b", "host_timed"]


def compare(a: results.ResultFile, b: results.ResultFile, pattern: Optional[Pattern] = None,
            settings: Optional[Settings] = None) -> Comparison:
    """Every benchmark of both files side by side with its test and verdict (B against A)."""
    settings = settings or Settings()
    ra, skipped_a = _select(a, pattern, settings.best_block)
    rb, skipped_b = _select(b, pattern, settings.best_block)
    by_key = {r.key: r for r in rb.itertuples(index=False)}
    records = [_test_row(r, by_key[r.key], settings) for r in ra.itertuples(index=False)
               if r.key in by_key and not (settings.per_copy and not
                                           math.isfinite(copy_scale(r, by_key[r.key])))]
    table = pd.DataFrame.from_records(records, columns=TABLE_COLUMNS)
    keys_a, keys_b = set(ra["key"]), set(rb["key"])
    names = {**skipped_b, **skipped_a}
    skipped = (set(skipped_a) & (keys_b | set(skipped_b))) | (set(skipped_b) & keys_a)
    return Comparison(a=a, b=b, table=table, only_a=len(keys_a - keys_b - set(skipped_b)),
                      only_b=len(keys_b - keys_a - set(skipped_a)),
                      skipped=sorted(names[k] for k in skipped), settings=settings)


def row_limit(c: Comparison, pct: float) -> float:
    return c.settings.fail_row_above if c.settings.fail_row_above is not None else 2.0 * pct


def gated_rows(c: Comparison, gate_cpu: bool) -> pd.DataFrame:
    t = c.table
    if not gate_cpu:
        t = t[(t["target"] != "cpu") & ~t["host_timed"].astype(bool)]
    return t


def group_regressions(c: Comparison, pct: float, gate_cpu: bool = False) -> pd.DataFrame:
    """Groups (algorithm, pot/npot, log2n) of non-copy rows whose geometric-mean B/A is above
    1 + pct% while most of their rows are 'slower': one row per such group ('name', 'change_pct',
    'rows')."""
    t = gated_rows(c, gate_cpu)
    t = t[t["role"] != "roofline"]
    out = []
    for (algorithm, size, log2n), g in t.groupby(["algorithm", "size", "log2n"], sort=False):
        mean = geomean(g["ratio"])
        slower = int((g["verdict"] == "slower").sum())
        if mean > 1.0 + pct / 100.0 and 2 * slower > len(g):
            out.append({"name": f"{algorithm} at {size} 2^{int(log2n)} ({slower} of {len(g)} "
                        "rows slower, geometric mean)", "change_pct": (mean - 1.0) * 100.0,
                        "rows": len(g)})
    return pd.DataFrame(out, columns=["name", "change_pct", "rows"])


def regressions(c: Comparison, pct: float, gate_cpu: bool = False) -> pd.DataFrame:
    """What fails the gate: the groups of group_regressions, then single rows slower by more than
    the row limit ('name' and 'change_pct' columns)."""
    t = gated_rows(c, gate_cpu)
    rows = t[(t["verdict"] == "slower") & (t["change_pct"] > row_limit(c, pct))]
    rows = rows.sort_values("change_pct", ascending=False)[["name", "change_pct"]]
    groups = group_regressions(c, pct, gate_cpu).sort_values("change_pct", ascending=False)
    return pd.concat([groups[["name", "change_pct"]], rows], ignore_index=True)


def list_some(names, changes, quote: str = "", limit: int = 10) -> str:
    """'a (+20.1%), b (+15.0%), and 3 more' (the first `limit`)."""
    items = [f"{quote}{n}{quote} ({p:+.1f}%)" for n, p in zip(names, changes)]
    more = len(items) - limit
    return ", ".join(items[:limit]) + (f", and {more} more" if more > 0 else "")


# ---- shared text ------------------------------------------------------------------------------


def fmt_time(us: float) -> str:
    if us != us:
        return "–"
    if us >= 1000:
        return f"{us:,.0f}"
    if us >= 10:
        return f"{us:.1f}"
    return f"{us:.2f}"


def fmt_frac(frac: float) -> str:
    return "–" if frac != frac else f"{frac * 100:.0f}%"


def fmt_ci(low: float, high: float) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "–"
    return f"{low:.3f}..{high:.3f}"


def fmt_p(p: float) -> str:
    if p != p:
        return "–"
    return f"{p:.3f}" if p >= 0.001 else "<0.001"


def repetitions(f: results.ResultFile) -> str:
    reps = sorted(set(int(r) for r in f.rows["repetitions"]))
    return "/".join(str(r) for r in reps) + (" repetition" if reps == [1] else " repetitions")


def describe(tag: str, f: results.ResultFile) -> str:
    return f"{tag} = {f.path}: {f.label} ({repetitions(f)})"


def summary(c: Comparison) -> str:
    t = c.table
    counts = t["verdict"].value_counts()
    return (f"{len(t)} benchmarks in both: {counts.get('faster', 0)} faster, "
            f"{counts.get('slower', 0)} slower, {counts.get('same', 0)} same; geometric mean "
            f"of B/A: {geomean(t['ratio']):.3f}")


def rule(s: Settings) -> str:
    return (f"a difference counts when it is significant at {s.confidence:.0%} and B/A is "
            f"beyond 1 ± {s.min_effect_pct:g}%; else 'same'")


def notes(c: Comparison) -> List[str]:
    out = []
    if c.only_a or c.only_b:
        out.append(f"{c.only_a} only in A, {c.only_b} only in B")
    if c.skipped:
        out.append(f"{len(c.skipped)} skipped with an error in A or B: "
                   + ", ".join(c.skipped[:10]) + (", ..." if len(c.skipped) > 10 else ""))
    if c.settings.per_copy:
        out.append("--per-copy: B/A compares fractions of each run's own copy bandwidth at the same n "
                   "(below 1: B comes closer to its copy), GPU rows only")
    methods = c.table["method"].map(lambda m: m.split(" (")[0]).value_counts()
    if len(methods):
        out.append("tests: " + ", ".join(f"{m} ({k})" for m, k in methods.items()))
    return out


def gate_line(c: Comparison, fail_above: Optional[float], gate_cpu: bool) -> Optional[str]:
    if fail_above is None:
        return None
    if not c.same_gpu:
        return f"--fail-above {fail_above:g} does not apply: different GPUs."
    bad = regressions(c, fail_above, gate_cpu)
    return (f"Regressions (a group's geometric mean above +{fail_above:g}% with most rows slower, "
            f"or a row significantly slower by more than {row_limit(c, fail_above):g}%): "
            + (list_some(bad["name"], bad["change_pct"]) or "none") + ".")


def geomean(values) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def shown_rows(c: Comparison, changed_only: bool) -> pd.DataFrame:
    return c.table[c.table["verdict"] != "same"] if changed_only else c.table


# ---- text -------------------------------------------------------------------------------------


def text_report(comparisons: List[Comparison], changed_only: bool, fail_above: Optional[float],
                gate_cpu: bool) -> str:
    lines = [f"compare.py: B/A below 1 means B is faster; {rule(comparisons[0].settings)}", ""]
    ci_head = f"{comparisons[0].settings.confidence:.0%} CI"
    for i, c in enumerate(comparisons, start=1):
        lines += [f"[{i}] {describe('A', c.a)}", f"    {describe('B', c.b)}",
                  f"    {summary(c)}"]
        lines += [f"    {n}" for n in notes(c)]
        gate = gate_line(c, fail_above, gate_cpu)
        if gate:
            lines.append(f"    {gate}")
        t = shown_rows(c, changed_only)
        if not t.empty:
            width = max(len("benchmark"), max(len(n) for n in t["name"]))
            lines.append("")
            lines.append(f"{'benchmark':<{width}}  {'A us':>10}  {'B us':>10}  {'B/A':>6}  "
                         f"{ci_head:>13}  {'p':>6}  verdict")
            for r in t.itertuples(index=False):
                lines.append(f"{r.name:<{width}}  {fmt_time(r.time_a_us):>10}  "
                             f"{fmt_time(r.time_b_us):>10}  {r.ratio:>6.3f}  "
                             f"{fmt_ci(r.ci_low, r.ci_high):>13}  {fmt_p(r.p):>6}  {r.verdict}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---- Markdown ---------------------------------------------------------------------------------


def markdown_table(c: Comparison, table: pd.DataFrame) -> List[str]:
    best_block = c.settings.best_block
    blocks = " best block A / B |" if best_block else ""
    ci_head = f"{c.settings.confidence:.0%} CI"
    lines = [
        "| benchmark |" + blocks + f" A (µs) | B (µs) | B/A | {ci_head} | p | A % of copy "
        "| B % of copy | verdict |",
        "|:--|" + ("--:|" if best_block else "") + "--:|--:|--:|--:|--:|--:|--:|:--|",
    ]
    marks = {"faster": "faster ✅", "slower": "slower ❌", "same": "same"}
    for r in table.itertuples(index=False):
        block = ""
        if best_block:
            block = " – |" if not r.block_a and not r.block_b else \
                f" {r.block_a or '–'} / {r.block_b or '–'} |"
        lines.append(
            f"| `{r.name}` |{block} {fmt_time(r.time_a_us)} | {fmt_time(r.time_b_us)} "
            f"| {r.ratio:.3f} | {fmt_ci(r.ci_low, r.ci_high)} | {fmt_p(r.p)} "
            f"| {fmt_frac(r.of_copy_a)} | {fmt_frac(r.of_copy_b)} | {marks[r.verdict]} |")
    return lines


def markdown_section(c: Comparison, index: int, changed_only: bool,
                     fail_above: Optional[float], gate_cpu: bool, level: int = 3) -> List[str]:
    number = f"{index}. " if level == 3 else ""
    lines = [f"{'#' * level} {number}B `{os.path.basename(c.b.path)}` vs A "
             f"`{os.path.basename(c.a.path)}`",
             "", f"- **A** `{c.a.path}`: {c.a.label} ({repetitions(c.a)})",
             f"- **B** `{c.b.path}`: {c.b.label} ({repetitions(c.b)})", ""]
    if c.settings.best_block:
        lines += ["Variants with a block axis are compared at their best block for each n "
                  "(in A and in B separately).", ""]
    if not c.same_gpu:
        lines += ["Different GPUs: the times show the hardware difference; the **% of copy** "
                  "columns divide each run's GB/s by its own device-to-device copy bandwidth "
                  "at the same n, and compare the implementations fairly.", ""]
    lines += [f"**{summary(c)}**.", ""]
    lines += ["Notes: " + "; ".join(notes(c)) + ".", ""]
    gate = gate_line(c, fail_above, gate_cpu)
    if gate:
        lines += [gate, ""]
    shown = shown_rows(c, changed_only)
    if shown.empty:
        return lines
    table = markdown_table(c, shown)
    if len(shown) > COLLAPSE_ROWS:
        what = "changed benchmarks" if changed_only else "benchmarks"
        lines += [f"<details><summary>{len(shown)} {what}</summary>", ""] + table + [
            "", "</details>"]
    else:
        lines += table
    lines.append("")
    return lines


def markdown_report(comparisons: List[Comparison], changed_only: bool,
                    fail_above: Optional[float], gate_cpu: bool = False,
                    title: Optional[str] = None) -> str:
    """The Markdown report; with a title, one heading level down (`### title`, then `####` for
    each pair, unnumbered), to sit inside a document's section."""
    lines = [f"### {title}" if title else "## Benchmark comparison", "",
             f"Times are median times per run; **B/A** below 1 means B is faster; "
             f"{rule(comparisons[0].settings)}.", ""]
    for i, c in enumerate(comparisons, start=1):
        lines += markdown_section(c, i, changed_only, fail_above, gate_cpu, 4 if title else 3)
    return "\n".join(lines).rstrip() + "\n"


# ---- JSON and CSV -----------------------------------------------------------------------------


def _file_json(f: results.ResultFile) -> dict:
    return {"path": f.path, "gpu": f.gpu_name, "commit": f.commit,
            "date": str(f.context.get("date", "")), "repetitions": repetitions(f)}


def _clean(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _clean(value.item())
    return value


def _records(table: pd.DataFrame) -> List[dict]:
    return [{k: _clean(v) for k, v in r.items()} for r in table.to_dict("records")]


def json_report(comparisons: List[Comparison], changed_only: bool, fail_above: Optional[float],
                gate_cpu: bool) -> str:
    s = comparisons[0].settings
    out = {"settings": {"confidence": s.confidence, "min_effect_pct": s.min_effect_pct,
                        "best_block": s.best_block, "fail_above_pct": fail_above,
                        "gate_cpu": gate_cpu},
           "comparisons": []}
    for c in comparisons:
        counts = c.table["verdict"].value_counts()
        bad = regressions(c, fail_above, gate_cpu) if fail_above is not None and c.same_gpu \
            else c.table.iloc[0:0]
        out["comparisons"].append({
            "a": _file_json(c.a), "b": _file_json(c.b), "same_gpu": c.same_gpu,
            "summary": {"compared": int(len(c.table)),
                        **{v: int(counts.get(v, 0)) for v in ("faster", "slower", "same")},
                        "geomean_ratio": _clean(geomean(c.table["ratio"])),
                        "only_a": c.only_a, "only_b": c.only_b, "skipped": c.skipped},
            "regressions": list(bad["name"]),
            "rows": _records(shown_rows(c, changed_only)),
        })
    return json.dumps(out, indent=1) + "\n"


def csv_report(comparisons: List[Comparison], changed_only: bool) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["a_file", "b_file", "a_commit", "b_commit", "a_gpu", "b_gpu"]
                    + TABLE_COLUMNS)
    for c in comparisons:
        head = [c.a.path, c.b.path, c.a.commit, c.b.commit, c.a.gpu_name, c.b.gpu_name]
        for r in _records(shown_rows(c, changed_only)):
            writer.writerow(head + ["" if r[k] is None else r[k] for k in TABLE_COLUMNS])
    return buffer.getvalue()


# ---- graph ------------------------------------------------------------------------------------


def plot_comparisons(comparisons: List[Comparison], path: str) -> None:
    import style  # Agg backend; imported only when a graph is asked for
    import matplotlib.pyplot as plt
    from matplotlib import colormaps

    colours = {"faster": "#2ca02c", "slower": "#d62728", "same": "#9e9e9e"}
    markers = {"roofline": "s", "vendor": "*", "reference": "x", "baseline": "+", "study": "o"}
    fig, axes = plt.subplots(len(comparisons), 2, figsize=(13, 4.6 * len(comparisons)),
                             squeeze=False, constrained_layout=True)
    for row, c in zip(axes, comparisons):
        t = c.table.sort_values("ratio").reset_index(drop=True)
        ax = row[0]
        for v, colour in colours.items():
            part = t[t["verdict"] == v]
            low = (part["ratio"] - part["ci_low"]).clip(lower=0).fillna(0)
            high = (part["ci_high"] - part["ratio"]).clip(lower=0).fillna(0)
            finite = low.map(math.isfinite) & high.map(math.isfinite)
            ax.errorbar(part.index[finite], part["ratio"][finite],
                        yerr=[low[finite], high[finite]], fmt="none", ecolor=colour, alpha=0.4,
                        linewidth=0.8)
            ax.scatter(part.index, part["ratio"], s=10, color=colour, label=f"{v} ({len(part)})")
        ax.axhline(1.0, color="black", linewidth=1)
        m = c.settings.min_effect_pct / 100.0
        ax.axhspan(1.0 / (1.0 + m), 1.0 + m, color="#9e9e9e", alpha=0.15, linewidth=0,
                   label=f"within ±{c.settings.min_effect_pct:g}% (same)")
        style.log_y_axis(ax)
        ax.set_xlabel(f"benchmarks, sorted by B/A (bars: {c.settings.confidence:.0%} interval)")
        ax.set_ylabel("time B / time A (log; < 1: B faster)")
        ax.set_title(f"B = {os.path.basename(c.b.path)}: {c.b.label}\n"
                     f"vs A = {os.path.basename(c.a.path)}: {c.a.label}", fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)

        ax = row[1]
        gpu = t[t["of_copy_a"].notna() & t["of_copy_b"].notna()]
        algorithms = [a for a in c.a.suites if a in set(gpu["algorithm"])]
        cmap = colormaps["tab10"]
        for i, algorithm in enumerate(algorithms):
            for role, marker in markers.items():
                part = gpu[(gpu["algorithm"] == algorithm) & (gpu["role"] == role)]
                if part.empty:
                    continue
                ax.scatter(part["of_copy_a"] * 100, part["of_copy_b"] * 100, s=14,
                           color=cmap(i % 10), marker=marker, label=f"{algorithm} {role}")
        top = max(110.0, float(gpu[["of_copy_a", "of_copy_b"]].max().max() * 100)
                  if not gpu.empty else 110.0)
        ax.plot([0, top], [0, top], color="black", linewidth=1, linestyle="--")
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel("A: % of A's copy bandwidth")
        ax.set_ylabel("B: % of B's copy bandwidth")
        ax.set_title("GB/s as a fraction of each run's own copy (above the line: B better)",
                     fontsize=9)
        if not gpu.empty:
            ax.legend(fontsize=7, ncol=2)
        ax.grid(True, alpha=0.3)
    style.save_figure(fig, path, 110)
    plt.close(fig)


# ---- main -----------------------------------------------------------------------------------


def parse_args(argv=None):
    parser = results.ArgumentParser(
        prog="compare.py",
        description="Compare gpu_bench JSON result files: every file against the first.")
    parser.add_argument("files", nargs="+", metavar="FILE.json",
                        help="the baseline A first, then one or more files B")
    parser.add_argument("--filter", metavar="REGEX",
                        help="only benchmarks whose name matches (re.search), e.g. '^scan/cub/'")
    parser.add_argument("--fail-above", type=float, metavar="PCT",
                        help="the regression gate (files of the same GPU only): exit 1 when an "
                        "algorithm at one size is slower by more than PCT%% (geometric mean, most "
                        "rows slower) or one benchmark by more than --fail-row-above")
    parser.add_argument("--fail-row-above", type=float, metavar="PCT",
                        help="the gate's limit for a single benchmark (default: 2 x --fail-above)")
    parser.add_argument("--gate-cpu", action="store_true",
                        help="let CPU benchmarks fail --fail-above too (their times depend on "
                        "the host's load; off by default)")
    parser.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE, metavar="C",
                        help="confidence of the tests and intervals (default %(default)s)")
    parser.add_argument("--min-effect", type=float, default=DEFAULT_MIN_EFFECT, metavar="PCT",
                        help="the smallest change that counts, in %% (default %(default)s)")
    parser.add_argument("--best-block", action="store_true",
                        help="compare variants with a block axis at their best block per n "
                        "(one row per variant and size instead of one per block size)")
    parser.add_argument("--allow-different-gpus", action="store_true",
                        help="compare files of different GPUs (by their fraction of copy; "
                        "the gate does not apply)")
    parser.add_argument("--per-copy", action="store_true",
                        help="compare each run's fraction of its own device-to-device copy "
                        "bandwidth instead of times (B's times scaled by A's copy over B's at the "
                        "same n; GPU rows only): for runs of different GPUs, whether a variant "
                        "uses each GPU's memory as well")
    parser.add_argument("--changed-only", action="store_true",
                        help="list only the benchmarks whose verdict is not 'same'")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the comparison")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="Markdown (CI step summaries)")
    parser.add_argument("--title", metavar="TEXT",
                        help="with --markdown: the report's heading, one level down (### TEXT), "
                        "for a report pasted into a document (scripts/doc_tables.py)")
    form.add_argument("--json", action="store_true", help="JSON, for machines")
    form.add_argument("--csv", action="store_true", help="CSV, one line per benchmark")
    args = parser.parse_args(argv)
    if len(args.files) < 2:
        raise ScriptError("give at least two result files (the baseline first)")
    if not 0.5 <= args.confidence < 1.0:
        raise ScriptError(f"--confidence {args.confidence:g}: give a value in [0.5, 1)")
    if args.min_effect < 0:
        raise ScriptError(f"--min-effect {args.min_effect:g}: give a percentage >= 0")
    if args.title is not None and not args.markdown:
        raise ScriptError("--title needs --markdown")
    if args.plot:
        folder = os.path.dirname(os.path.abspath(args.plot))
        if not os.path.isdir(folder):
            raise ScriptError(f"--plot {args.plot}: the folder {folder} does not exist")
    return args


def check_inputs(files: List[results.ResultFile], comparisons: List[Comparison], pattern,
                 args) -> None:
    base = files[0]
    if pattern is not None and all(results.matching(f.rows, pattern).empty for f in files):
        raise ScriptError(f"--filter '{args.filter}' matches no benchmark in "
                          + ", ".join(f.path for f in files))
    for c in comparisons:
        if c.table.empty:
            raise ScriptError(f"{c.b.path}: no benchmark in common with {base.path}"
                              + (f" (with --filter '{args.filter}')" if args.filter else ""))


def _main(argv=None) -> int:
    args = parse_args(argv)
    files, pattern = results.inputs(args.files, args.filter)
    base = files[0]
    for other in files[1:]:
        if other.gpu_name != base.gpu_name and not args.allow_different_gpus:
            raise ScriptError(f"{base.path} is from {base.gpu_title} and {other.path} from "
                              f"{other.gpu_title}: different GPUs are compared only with "
                              "--allow-different-gpus")
        for key in ("gpu_timing", "l2_mode"):
            mine, theirs = base.context.get(key, "unknown"), other.context.get(key, "unknown")
            if mine != theirs:
                print(f"compare.py: warning: {base.path} and {other.path} were measured "
                      f"differently ({key}: '{mine}' vs '{theirs}'): differences may come from "
                      "the method, above all at small sizes", file=sys.stderr)
    settings = Settings(args.confidence, args.min_effect, args.best_block, args.per_copy,
                        args.fail_row_above)
    comparisons = [compare(base, other, pattern, settings) for other in files[1:]]
    check_inputs(files, comparisons, pattern, args)
    if args.json:
        report = json_report(comparisons, args.changed_only, args.fail_above, args.gate_cpu)
    elif args.csv:
        report = csv_report(comparisons, args.changed_only)
    elif args.markdown:
        report = markdown_report(comparisons, args.changed_only, args.fail_above, args.gate_cpu,
                                 args.title)
    else:
        report = text_report(comparisons, args.changed_only, args.fail_above, args.gate_cpu)
    sys.stdout.write(report)
    if args.plot:
        plot_comparisons(comparisons, args.plot)
        print(f"compare.py: wrote {args.plot}", file=sys.stderr)
    status = 0
    for c in comparisons:
        if args.fail_above is None:
            continue
        if not c.same_gpu:
            print(f"compare.py: --fail-above not applied to {c.b.path}: another GPU "
                  f"({c.b.gpu_title}) than {c.a.path} ({c.a.gpu_title})", file=sys.stderr)
            continue
        bad_rows = regressions(c, args.fail_above, args.gate_cpu)
        if not bad_rows.empty:
            print(f"compare.py: {c.b.path}: {len(bad_rows)} regression(s) against {c.a.path} "
                  f"(groups above +{args.fail_above:g}%, rows above "
                  f"+{row_limit(c, args.fail_above):g}%): "
                  + list_some(bad_rows["name"], bad_rows["change_pct"]), file=sys.stderr)
            status = 1
    return status


def main(argv=None) -> int:
    return results.run_main("compare.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
