#!/usr/bin/env python3
"""Compares gpu_bench result files: two GPUs, or one GPU at two commits.

    scripts/compare.py results/old.json results/new.json
    scripts/compare.py results/h100.json results/h200.json --filter '^scan/' --plot cmp.png
    scripts/compare.py base.json new.json --fail-above 10     # CI gate: exit 1 on a regression

The first file is the baseline A; every further file B is compared with it. For each benchmark
present in both: the median time in A and in B, the ratio B/A (below 1: B is faster), and the
effective GB/s of each as a fraction of its own file's device-to-device copy at the same size
(<algorithm>/copy/<pot|npot>/log2n:<k>), so GPUs of different bandwidth compare fairly.

Noise: each time has a band (min..max of the repetitions with --benchmark_repetitions=N, N >= 2;
else the p10..p90 of the iteration times), widened to at least ±1% (--min-noise) around the
time. When the two bands overlap the verdict is "same", otherwise "faster" or "slower" (B
against A). --fail-above PCT exits 1 when some benchmark is slower by more than PCT percent and
outside the noise; it applies to pairs of files of the same GPU only (across GPUs a slower time
is a property of the hardware, not a regression).

Output: a Markdown report on stdout, fit for $GITHUB_STEP_SUMMARY.
"""

import argparse
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import List, Optional, Pattern

import pandas as pd

import results

COLLAPSE_ROWS = 40  # longer tables go inside <details> (GitHub renders it folded)
DEFAULT_MIN_NOISE = 1.0  # percent: the narrowest noise band, see --min-noise


@dataclass
class Comparison:
    a: results.ResultFile
    b: results.ResultFile
    table: pd.DataFrame  # one row per benchmark in both files
    only_a: int
    only_b: int
    skipped: List[str]  # in both files' scheme, but skipped with an error in one of them
    best_block: bool = False  # block variants compared at their best block per n

    @property
    def same_gpu(self) -> bool:
        return self.a.gpu_name == self.b.gpu_name


def verdict(a_lo: float, a_hi: float, b_lo: float, b_hi: float, a: float, b: float) -> str:
    """'same' when the noise bands overlap, else 'faster'/'slower' for B against A."""
    if b_lo <= a_hi and a_lo <= b_hi:
        return "same"
    return "faster" if b < a else "slower"


BLOCK_RE = re.compile(r"/block:\d+$")


def _select(f: results.ResultFile, pattern: Optional[Pattern], best_block: bool):
    """The rows to compare, keyed by name (by name without /block:N with best_block), and
    the keys of the benchmarks skipped with an error."""
    rows = f.rows
    skipped = [n for n, _ in f.skipped]
    if pattern is not None:
        rows = rows[rows["name"].map(lambda n: bool(pattern.search(n)))]
        skipped = [n for n in skipped if pattern.search(n)]
    if best_block:
        rows = results.best_blocks(rows)
        rows = rows.assign(key=rows["name"].map(lambda n: BLOCK_RE.sub("", n)))
        skipped = [BLOCK_RE.sub("", n) for n in skipped]
    else:
        rows = rows.assign(key=rows["name"])
    return rows, set(skipped) - set(rows["key"])


def _widen(rows: pd.DataFrame, min_noise_pct: float) -> pd.DataFrame:
    """Widens every noise band to at least ±min_noise_pct around the time: a band of width 0
    (a single timed iteration, or identical repetitions) would make any difference count."""
    m = min_noise_pct / 100.0
    return rows.assign(time_lo_us=rows["time_lo_us"].clip(upper=rows["time_us"] * (1 - m)),
                       time_hi_us=rows["time_hi_us"].clip(lower=rows["time_us"] * (1 + m)))


def compare(a: results.ResultFile, b: results.ResultFile, pattern: Optional[Pattern] = None,
            best_block: bool = False, min_noise_pct: float = DEFAULT_MIN_NOISE) -> Comparison:
    """Every benchmark of both files side by side with its verdict (B against A)."""
    ra, skipped_a = _select(a, pattern, best_block)
    rb, skipped_b = _select(b, pattern, best_block)
    ra, rb = _widen(ra, min_noise_pct), _widen(rb, min_noise_pct)
    keep = ["key", "block", "time_us", "time_lo_us", "time_hi_us", "gbs", "of_copy"]
    table = ra[keep].merge(rb[keep], on="key", suffixes=("_a", "_b"), sort=False)
    table = table.rename(columns={"key": "name"})
    table["ratio"] = table["time_us_b"] / table["time_us_a"]
    table["change_pct"] = (table["ratio"] - 1.0) * 100.0
    table["verdict"] = [
        verdict(r.time_lo_us_a, r.time_hi_us_a, r.time_lo_us_b, r.time_hi_us_b, r.time_us_a,
                r.time_us_b)
        for r in table.itertuples(index=False)
    ]
    keys_a, keys_b = set(ra["key"]), set(rb["key"])
    skipped = sorted((skipped_a & (keys_b | skipped_b)) | (skipped_b & keys_a))
    return Comparison(a=a, b=b, table=table, only_a=len(keys_a - keys_b - skipped_b),
                      only_b=len(keys_b - keys_a - skipped_a), skipped=skipped,
                      best_block=best_block)


def regressions(c: Comparison, pct: float) -> pd.DataFrame:
    t = c.table
    bad = t[(t["verdict"] == "slower") & (t["change_pct"] > pct)]
    return bad.sort_values("change_pct", ascending=False)


def list_some(names, changes, quote: str = "", limit: int = 10) -> str:
    """'a (+20.1%), b (+15.0%), and 3 more' (the first `limit`)."""
    items = [f"{quote}{n}{quote} ({p:+.1f}%)" for n, p in zip(names, changes)]
    more = len(items) - limit
    return ", ".join(items[:limit]) + (f", and {more} more" if more > 0 else "")


# ---- Markdown ---------------------------------------------------------------------------------


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


def noise_kind(f: results.ResultFile) -> str:
    kinds = sorted(set(f.rows["noise"]))
    reps = sorted(set(int(r) for r in f.rows["repetitions"]))
    rep_text = "/".join(str(r) for r in reps)
    return f"{rep_text} repetition{'s' if reps != [1] else ''}, noise band {'/'.join(kinds)}"


def short(f: results.ResultFile) -> str:
    return os.path.basename(f.path)


def describe(tag: str, f: results.ResultFile) -> str:
    return f"- **{tag}** `{f.path}`: {f.label} ({noise_kind(f)})"


def geomean(values) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def markdown_table(table: pd.DataFrame, best_block: bool) -> List[str]:
    blocks = " best block A / B |" if best_block else ""
    lines = [
        "| benchmark |" + blocks + " A (µs) | B (µs) | B/A time | change | A % of copy "
        "| B % of copy | verdict |",
        "|:--|" + ("--:|" if best_block else "") + "--:|--:|--:|--:|--:|--:|:--|",
    ]
    marks = {"faster": "faster ✅", "slower": "slower ❌", "same": "same"}
    for r in table.itertuples(index=False):
        block = ""
        if best_block:
            block = " – |" if not r.block_a and not r.block_b else \
                f" {r.block_a or '–'} / {r.block_b or '–'} |"
        lines.append(
            f"| `{r.name}` |{block} {fmt_time(r.time_us_a)} | {fmt_time(r.time_us_b)} "
            f"| {r.ratio:.3f} | {r.change_pct:+.1f}% | {fmt_frac(r.of_copy_a)} "
            f"| {fmt_frac(r.of_copy_b)} | {marks[r.verdict]} |"
        )
    return lines


def markdown_section(c: Comparison, index: int, changed_only: bool,
                     fail_above: Optional[float]) -> List[str]:
    t = c.table
    counts = t["verdict"].value_counts()
    lines = [f"### {index}. B `{short(c.b)}` vs A `{short(c.a)}`", "",
             describe("A", c.a), describe("B", c.b), ""]
    if c.best_block:
        lines += ["Variants with a block axis are compared at their best block for each n "
                  "(in A and in B separately).", ""]
    if not c.same_gpu:
        lines += ["Different GPUs: the times show the hardware difference; the **% of copy** "
                  "columns divide each run's GB/s by its own device-to-device copy bandwidth "
                  "at the same n, and compare the implementations fairly.", ""]
    if t.empty:
        lines += ["No benchmark is in both files (check --filter).", ""]
    else:
        lines.append(
            f"{len(t)} benchmarks in both: **{counts.get('faster', 0)} faster, "
            f"{counts.get('slower', 0)} slower, {counts.get('same', 0)} same** within the noise; "
            f"geometric mean of B/A time: {geomean(t['ratio']):.3f} (below 1: B is faster)."
        )
        lines.append("")
    notes = []
    if c.only_a or c.only_b:
        notes.append(f"{c.only_a} only in A, {c.only_b} only in B")
    if c.skipped:
        notes.append(f"{len(c.skipped)} skipped with an error in A or B: "
                     + ", ".join(f"`{n}`" for n in c.skipped[:10])
                     + (", ..." if len(c.skipped) > 10 else ""))
    if notes:
        lines += ["Not compared: " + "; ".join(notes) + ".", ""]
    if fail_above is not None:
        if c.same_gpu:
            bad = regressions(c, fail_above)
            lines += [f"Regressions slower by more than {fail_above:g}% beyond the noise: "
                      + (list_some(bad["name"], bad["change_pct"], "`") or "none") + ".", ""]
        else:
            lines += [f"--fail-above {fail_above:g} does not apply: different GPUs.", ""]
    shown = t[t["verdict"] != "same"] if changed_only else t
    if shown.empty:
        return lines
    table = markdown_table(shown, c.best_block)
    if len(shown) > COLLAPSE_ROWS:
        what = "changed benchmarks" if changed_only else "benchmarks"
        lines += [f"<details><summary>{len(shown)} {what}</summary>", ""] + table + [
            "", "</details>"]
    else:
        lines += table
    lines.append("")
    return lines


def markdown_report(comparisons: List[Comparison], changed_only: bool,
                    fail_above: Optional[float], min_noise_pct: float = DEFAULT_MIN_NOISE) -> str:
    lines = ["## Benchmark comparison", "",
             "Times are median times per run; **B/A** below 1 means B is faster. A difference "
             "is **same** when the noise bands of A and B overlap (each band at least "
             f"±{min_noise_pct:g}%).", ""]
    for i, c in enumerate(comparisons, start=1):
        lines += markdown_section(c, i, changed_only, fail_above)
    return "\n".join(lines).rstrip() + "\n"


# ---- graph ------------------------------------------------------------------------------------


def plot_comparisons(comparisons: List[Comparison], path: str) -> None:
    import style  # noqa: F401  (Agg backend, colours) imported only when a graph is asked for
    import matplotlib.pyplot as plt

    colours = {"faster": "#2ca02c", "slower": "#d62728", "same": "#9e9e9e"}
    fig, axes = plt.subplots(len(comparisons), 2, figsize=(13, 4.6 * len(comparisons)),
                             squeeze=False, constrained_layout=True)
    for row, c in zip(axes, comparisons):
        t = c.table.sort_values("ratio").reset_index(drop=True)
        ax = row[0]
        for v, colour in colours.items():
            part = t[t["verdict"] == v]
            ax.scatter(part.index, part["ratio"], s=10, color=colour, label=f"{v} ({len(part)})")
        ax.axhline(1.0, color="black", linewidth=1)
        style.log_y_axis(ax)
        ax.set_xlabel("benchmarks, sorted by B/A")
        ax.set_ylabel("time B / time A (log; < 1: B faster)")
        ax.set_title(f"B = {short(c.b)}: {c.b.label}\nvs A = {short(c.a)}: {c.a.label}",
                     fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)

        ax = row[1]
        gpu = t[t["of_copy_a"].notna() & t["of_copy_b"].notna()]
        variants = gpu["name"].map(lambda n: results.parse_name(n).variant)
        for variant in style.variant_order(set(variants)):
            part = gpu[variants == variant]
            colour, marker = style.variant_style(variant)
            ax.scatter(part["of_copy_a"] * 100, part["of_copy_b"] * 100, s=14, color=colour,
                       marker=marker or "o", label=variant)
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
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


# ---- main -----------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Compare gpu_bench JSON result files: every file against the first. "
        "Prints a Markdown report.")
    parser.add_argument("files", nargs="+", metavar="FILE.json",
                        help="the baseline A first, then one or more files B")
    parser.add_argument("--filter", metavar="REGEX",
                        help="only benchmarks whose name matches (re.search), e.g. '^scan/cub/'")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the comparison")
    parser.add_argument("--fail-above", type=float, metavar="PCT",
                        help="exit 1 when a benchmark is slower by more than PCT%% beyond the "
                        "noise (files of the same GPU only)")
    parser.add_argument("--best-block", action="store_true",
                        help="compare variants with a block axis at their best block per n "
                        "(one row per variant and size instead of one per block size)")
    parser.add_argument("--min-noise", type=float, default=DEFAULT_MIN_NOISE, metavar="PCT",
                        help="widen every noise band to at least ±PCT%% around its time "
                        "(default %(default)s; a single timed iteration has a band of width 0)")
    parser.add_argument("--changed-only", action="store_true",
                        help="list only the benchmarks whose verdict is not 'same'")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if len(args.files) < 2:
        print("compare.py: give at least two result files (the baseline first)", file=sys.stderr)
        return 2
    opened = results.open_inputs("compare.py", args.files, args.filter)
    if opened is None:
        return 2
    files, pattern = opened
    base = files[0]
    comparisons = [compare(base, other, pattern, args.best_block, args.min_noise)
                   for other in files[1:]]
    sys.stdout.write(markdown_report(comparisons, args.changed_only, args.fail_above,
                                     args.min_noise))
    if args.plot:
        plot_comparisons(comparisons, args.plot)
        print(f"compare.py: wrote {args.plot}", file=sys.stderr)
    status = 0
    for c in comparisons:
        if not c.table.size:
            print(f"compare.py: {c.b.path}: no benchmark in common with {c.a.path}",
                  file=sys.stderr)
        if args.fail_above is None:
            continue
        if not c.same_gpu:
            print(f"compare.py: --fail-above not applied to {c.b.path}: another GPU "
                  f"({c.b.gpu_title}) than {c.a.path} ({c.a.gpu_title})", file=sys.stderr)
            continue
        bad_rows = regressions(c, args.fail_above)
        if not bad_rows.empty:
            print(f"compare.py: {c.b.path}: {len(bad_rows)} benchmark(s) slower than "
                  f"{c.a.path} by more than {args.fail_above:g}% beyond the noise: "
                  + list_some(bad_rows["name"], bad_rows["change_pct"]), file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
