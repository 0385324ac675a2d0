#!/usr/bin/env python3
"""Graphs of gpu_bench result files: PNG (and SVG with --svg) under analysis/graphs/<gpu>/.

    scripts/plot.py results/*.json              # regenerate every graph of every GPU
    scripts/plot.py results/nvidia-h100-80gb-hbm3.json --svg --out-dir /tmp/graphs

Per algorithm, and per value of its extra axes (keep fraction, keys/pairs, distribution), with
POT and NPOT sizes side by side:
  <alg>[-<axes>]-time.png          median time vs n (log-log), every variant
  <alg>[-<axes>]-bandwidth.png     effective GB/s vs n, with the copy baseline of the same run
                                   and the theoretical peak as reference lines
  <alg>[-<axes>]-speedup.png       speedup of every variant over the CPU reference and over CUB
  <alg>[-<axes>]-blocks-<variant>.png   block size x n heatmap of each variant with several blocks
Variants with a block axis are drawn at their best block for each n. Rows skipped with an error
are left out, printed, and listed in skipped.txt beside the graphs.

Each GPU gets its own folder. Files of one GPU and one commit (e.g. the parts of one bench.sh
run) are drawn together (a benchmark in several files: the last file wins); files of one GPU at
different commits are refused unless --merge-runs. Titles name the GPU, the commit and the date.
Variants, their order, colours and roles come from the file's metadata (results.py).

Exit status: 0 graphs written; 2 bad input or usage (a bad file, an --out-dir that is a file,
runs of different commits without --merge-runs, nothing left to plot).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

import results
import style  # selects the Agg backend before pyplot loads
from results import ScriptError

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "analysis" / "graphs"
SIZES = [("pot", "POT: n = $2^k$"), ("npot", "NPOT: n = $2^k - 3$")]
DPI = 120


@dataclass
class GpuRun:
    """Every row of one GPU at one commit (or, with --merge-runs, at several), from its files."""

    slug: str
    gpu: str
    peak_gbs: Optional[float]
    rows: pd.DataFrame
    skipped: List[Tuple[str, str]]
    algorithms: Dict[str, results.AlgorithmInfo]
    files: List[results.ResultFile] = field(default_factory=list)
    l2_mode: str = ""

    @property
    def commits(self) -> List[str]:
        return list(dict.fromkeys(f.commit for f in self.files))

    @property
    def mixed(self) -> bool:
        """Rows of more than one file: the copy line may come from another process."""
        return len(self.files) > 1

    @property
    def title(self) -> str:
        """'NVIDIA H200 @ 4ff90fa7816c, 2026-11-21 07:27' (dates as a range for several files)."""
        dates = sorted(set(f.date for f in self.files))
        when = dates[0] if len(dates) == 1 else f"{dates[0]} .. {dates[-1]}"
        commits = ", ".join(self.commits)
        mixed = "; mixed runs" if len(self.commits) > 1 else ""
        return f"{self.gpu} @ {commits}, {when}{mixed}"

    def info(self, algorithm: str) -> results.AlgorithmInfo:
        return self.algorithms.get(algorithm) or results.AlgorithmInfo(algorithm)


# ---- input -----------------------------------------------------------------------------------


def _merge_tables(into: Dict[str, results.AlgorithmInfo],
                  more: Dict[str, results.AlgorithmInfo]) -> None:
    for name, info in more.items():
        mine = into.setdefault(name, results.AlgorithmInfo(name, info.unit, info.traffic,
                                                           list(info.axes), []))
        for v in info.variants:
            if mine.variant(v.name) is None:
                mine.variants.append(v)


def group_runs(files: List[results.ResultFile], merge_runs: bool) -> List[GpuRun]:
    """One GpuRun per GPU; files of one GPU at different commits only with merge_runs."""
    runs: Dict[str, GpuRun] = {}
    for f in files:
        run = runs.get(f.gpu_slug)
        if run is None:
            runs[f.gpu_slug] = GpuRun(slug=f.gpu_slug, gpu=f.gpu_title, peak_gbs=f.peak_gbs,
                                      rows=f.rows, skipped=list(f.skipped), algorithms={},
                                      files=[f], l2_mode=str(f.context.get("l2_mode", "")))
            _merge_tables(runs[f.gpu_slug].algorithms, f.algorithms)
            continue
        first = run.files[0]
        if f.commit != first.commit and not merge_runs:
            raise ScriptError(
                f"{f.path} (commit {f.commit}) and {first.path} (commit {first.commit}) are runs "
                f"of {f.gpu_title} at different commits: plot them one at a time, or pass "
                "--merge-runs to draw them together")
        run.rows = pd.concat([run.rows, f.rows], ignore_index=True)
        run.rows = run.rows.drop_duplicates("name", keep="last").reset_index(drop=True)
        run.skipped += f.skipped
        run.files.append(f)
        run.peak_gbs = run.peak_gbs or f.peak_gbs
        _merge_tables(run.algorithms, f.algorithms)
    for run in runs.values():  # a row skipped in one file but measured in another is not skipped
        measured = set(run.rows["name"])
        seen = set()
        run.skipped = [
            (n, m) for n, m in run.skipped if n not in measured and not (n in seen or seen.add(n))
        ]
    return list(runs.values())


# ---- naming -----------------------------------------------------------------------------------


def facet_slug(facet: str) -> str:
    """'keep:0.50' -> 'keep-0.50', 'pairs/uniform' -> 'pairs-uniform'."""
    return "".join(c if c.isalnum() or c in "._" else "-" for c in facet).strip("-")


def facet_title(facet: str) -> str:
    return ", ".join(a.replace(":", " ") for a in facet.split("/")) if facet else ""


def graph_stem(algorithm: str, facet: str, kind: str) -> str:
    return "-".join(p for p in (algorithm, facet_slug(facet), kind) if p)


def algorithms_in(run: GpuRun) -> List[str]:
    """The algorithms with rows, in suite order (the metadata's, else the files' order)."""
    present = set(run.rows["algorithm"])
    ordered = [a for a in run.algorithms if a in present]
    return ordered + sorted(present - set(ordered))


def facets_of(rows: pd.DataFrame, algorithm: str) -> List[str]:
    """The extra-axis values of an algorithm's rows (not the roofline's, which has none).
    Rows without extra axes that are only references (CPU rows, vendor anchors) beside rows with
    extra axes serve as references of every value and get no graphs of their own."""
    own = rows[(rows["algorithm"] == algorithm) & (rows["role"] != "roofline")]
    facets = sorted(set(own["facet"]))
    if len(facets) > 1 and "" in facets:
        plain = own[own["facet"] == ""]
        if ((plain["target"] == "cpu") | (plain["role"] == "vendor")).all():
            facets.remove("")
    return facets


# ---- figures ----------------------------------------------------------------------------------


class Figures:
    """Saves figures into one GPU's folder and remembers what it wrote."""

    def __init__(self, out_dir: Path, svg: bool):
        self.out_dir = out_dir
        self.svg = svg
        self.written: List[Path] = []

    def save(self, fig, stem: str) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for ext in ("png", "svg") if self.svg else ("png",):
            path = self.out_dir / f"{stem}.{ext}"
            style.save_figure(fig, path, DPI)
            self.written.append(path)
        plt.close(fig)


def _label(variant: str, block_variants) -> str:
    blocks = block_variants.get(variant, [])
    if len(blocks) == 1:  # measured at one block size in this facet (e.g. a trimmed sweep)
        return f"{variant} (block {blocks[0]})"
    return f"{variant} (best block)" if blocks else variant


def _legend(fig, axes) -> None:
    handles, labels = {}, []
    for ax in np.ravel(axes):
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in handles:
                handles[l] = h
                labels.append(l)
    if labels:
        fig.legend([handles[l] for l in labels], labels, loc="center left",
                   bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=9)
        # constrained layout ignores a legend outside the figure: savefig's tight bbox keeps it


def _subtitle(run: GpuRun) -> str:
    parts = ["block variants at their best block per n"]
    if run.l2_mode:
        parts.append(f"L2 {run.l2_mode.split(' ')[0]}")
    return "; ".join(parts)


@dataclass
class Scope:
    """What every graph of one algorithm and one value of its extra axes draws from."""

    run: GpuRun
    figs: "Figures"
    algorithm: str
    facet: str
    rows: pd.DataFrame  # every row of this algorithm and facet, every block size
    best: pd.DataFrame  # one row per variant and size: block variants at their best block
    copies: pd.DataFrame  # the algorithm's roofline rows
    block_variants: Dict[str, List[int]]  # variant -> the block sizes measured (block variants)
    ks: List[int]  # the exponents measured
    sizes: List[Tuple[str, str]]  # (pot|npot, panel title) of the sizes measured
    plain: pd.DataFrame  # best rows of the algorithm without extra axes (reference fallback)

    @property
    def info(self) -> results.AlgorithmInfo:
        return self.run.info(self.algorithm)

    def title(self, what: str) -> str:
        name = f"{self.algorithm} ({facet_title(self.facet)})" if self.facet else self.algorithm
        return f"{name}: {what}\n{self.run.title}"

    def stem(self, kind: str) -> str:
        return graph_stem(self.algorithm, self.facet, kind)


def _plot_lines(ax, scope: Scope, table: pd.DataFrame, size: str, column: str,
                band: bool = False) -> None:
    rows = table[table["size"] == size]
    for variant in scope.info.order(rows["variant"]):
        r = rows[rows["variant"] == variant].sort_values("log2n")
        r = r[r[column].notna()]
        if r.empty or r["role"].iloc[0] == "roofline":
            continue
        look = style.variant_look(scope.info, variant)
        ax.plot(r["log2n"], r[column], color=look.colour, marker=look.marker or None,
                linestyle=look.linestyle, markersize=4, linewidth=1.4,
                label=_label(variant, scope.block_variants))
        if band:
            ax.fill_between(r["log2n"], r["time_lo_us"], r["time_hi_us"], color=look.colour,
                            alpha=0.15, linewidth=0)


def _copy_line(ax, scope: Scope, table: pd.DataFrame, size: str, column: str) -> None:
    c = table[(table["size"] == size) & (table["role"] == "roofline")].sort_values("log2n")
    c = c[c[column].notna()]
    if c.empty:
        return
    look = style.variant_look(scope.info, c["variant"].iloc[0])
    where = "" if scope.run.mixed else " (same run)"
    ax.plot(c["log2n"], c[column], color=look.colour, linestyle=look.linestyle, linewidth=1.6,
            label=f"{c['variant'].iloc[0]}: device-to-device copy{where}")


def _size_axes(scope: Scope, n_rows: int = 1, height: float = 4.6):
    """One panel per size kind (POT, NPOT) measured, side by side, for each of n_rows rows."""
    n_cols = len(scope.sizes)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(6.5 * n_cols, height * n_rows),
                             squeeze=False, sharey="row", constrained_layout=True)
    return fig, axes


def plot_time(scope: Scope) -> None:
    fig, axes = _size_axes(scope)
    for ax, (size, size_label) in zip(axes[0], scope.sizes):
        _plot_lines(ax, scope, scope.best, size, "time_us", band=True)
        _copy_line(ax, scope, scope.copies, size, "time_us")
        style.log_y_axis(ax)
        style.pow2_axis(ax, scope.ks)
        ax.set_title(size_label, fontsize=10)
        ax.set_xlabel("n")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("median time per run (µs, log)")
    fig.suptitle(scope.title("time vs n") + "\n" + _subtitle(scope.run)
                 + "; shaded: noise band", fontsize=11)
    _legend(fig, axes)
    scope.figs.save(fig, scope.stem("time"))


def plot_bandwidth(scope: Scope) -> None:
    run = scope.run
    fig, axes = _size_axes(scope)
    for ax, (size, size_label) in zip(axes[0], scope.sizes):
        _plot_lines(ax, scope, scope.best, size, "gbs")
        _copy_line(ax, scope, scope.copies, size, "gbs")
        if run.peak_gbs:
            ax.axhline(run.peak_gbs, color="grey", linestyle=":", linewidth=1.5,
                       label=f"theoretical peak ({run.peak_gbs:.0f} GB/s)")
        style.pow2_axis(ax, scope.ks)
        ax.set_ylim(bottom=0)
        ax.set_title(size_label, fontsize=10)
        ax.set_xlabel("n")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("effective GB/s (minimum bytes moved / median time)")
    fig.suptitle(scope.title("effective bandwidth vs n") + "\n" + _subtitle(run), fontsize=11)
    _legend(fig, axes)
    scope.figs.save(fig, scope.stem("bandwidth"))


def speedup_table(best: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Adds 'speedup' = reference time / variant time at the same size and n."""
    ref = best[best["variant"] == reference][["size", "log2n", "time_us"]]
    ref = ref.rename(columns={"time_us": "ref_us"})
    merged = best[best["variant"] != reference].merge(ref, on=["size", "log2n"])
    merged["speedup"] = merged["ref_us"] / merged["time_us"]
    return merged


def plot_speedup(scope: Scope) -> bool:
    """Speedup over the CPU reference (top) and over the vendor anchor (bottom); False when
    neither ran."""
    best = scope.best
    info = scope.info
    # a reference that runs without the extra axes (e.g. one CPU sort for every distribution)
    # serves every value of them
    for name in (info.reference, info.anchor):
        if name and name not in set(best["variant"]) and name in set(scope.plain["variant"]):
            best = pd.concat([best, scope.plain[scope.plain["variant"] == name]])
    references = []
    if info.reference in set(best["variant"]):
        references.append((info.reference, f"over the CPU reference ({info.reference})"))
    if info.anchor in set(best["variant"]):
        references.append((info.anchor, f"over {info.anchor}"))
    if not references:
        return False
    fig, axes = _size_axes(scope, len(references), height=4.2)
    with_copy = pd.concat([best, scope.copies], ignore_index=True)
    for row, (reference, what) in enumerate(references):
        table = speedup_table(with_copy, reference)
        for ax, (size, size_label) in zip(axes[row], scope.sizes):
            _plot_lines(ax, scope, table, size, "speedup")
            _copy_line(ax, scope, table, size, "speedup")
            ax.axhline(1.0, color="grey", linewidth=1)
            style.log_y_axis(ax)
            style.pow2_axis(ax, scope.ks)
            ax.set_title(f"{size_label}: {what}", fontsize=10)
            ax.set_xlabel("n")
            ax.grid(True, which="both", alpha=0.3)
        axes[row][0].set_ylabel(f"speedup {what.split(' (')[0]}\n(×, log; > 1 is faster)")
    fig.suptitle(scope.title("speedup") + "\n" + _subtitle(scope.run), fontsize=11)
    _legend(fig, axes)
    scope.figs.save(fig, scope.stem("speedup"))
    return True


def _heatmap(ax, rows: pd.DataFrame, ks: List[int], blocks: List[int]) -> object:
    """One size's block x n heatmap: colour = GB/s as a fraction of the best block at that n,
    the cell text = GB/s, the best block outlined."""
    gbs = rows.pivot_table(index="block", columns="log2n", values="gbs", aggfunc="first")
    time = rows.pivot_table(index="block", columns="log2n", values="time_us", aggfunc="first")
    gbs = gbs.reindex(index=blocks, columns=ks)
    time = time.reindex(index=blocks, columns=ks)
    frac = gbs / gbs.max(axis=0)
    cmap = plt.get_cmap("viridis").with_extremes(bad="#dddddd", under="#303030")
    image = ax.imshow(frac.to_numpy(dtype=float), aspect="auto", cmap=cmap, vmin=0.5, vmax=1.0,
                      origin="lower")
    measured = set(rows["log2n"])
    fontsize = 6 if len(ks) > 12 else 8
    for i, block in enumerate(blocks):
        for j, k in enumerate(ks):
            value = gbs.loc[block, k]
            if value != value:  # skipped, or not run
                ax.text(j, i, "–" if k in measured else "", ha="center", va="center",
                        fontsize=fontsize)
                continue
            dark = frac.loc[block, k] < 0.8
            ax.text(j, i, style.short_number(value), ha="center", va="center",
                    fontsize=fontsize, color="white" if dark else "black")
    for j, k in enumerate(ks):
        column = time[k].dropna()
        if not column.empty:
            i = blocks.index(int(column.idxmin()))
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red",
                                   linewidth=1.8))
    ax.set_yticks(range(len(blocks)))
    ax.set_yticklabels([str(b) for b in blocks])
    ax.set_xticks(range(len(ks)))
    ax.set_xticklabels([f"$2^{{{k}}}$" for k in ks], fontsize=7)
    return image


def _blocks_measured(rows: pd.DataFrame) -> Dict[str, List[int]]:
    blocked = rows[rows["block"] > 0]
    return {v: sorted(set(int(b) for b in g["block"])) for v, g in blocked.groupby("variant")}


def plot_block_heatmaps(scope: Scope) -> None:
    blocked = scope.rows[scope.rows["block"] > 0]
    ks = scope.ks
    for variant in scope.info.order(blocked["variant"]):
        r = blocked[blocked["variant"] == variant]
        blocks = sorted(set(int(b) for b in r["block"]))
        if len(blocks) < 2:  # one block size measured in this facet: nothing to compare
            continue
        width = len(scope.sizes) * max(5.0, 0.42 * len(ks) + 1.5) + 1.0
        fig, axes = plt.subplots(1, len(scope.sizes), figsize=(width, 1.2 + 0.45 * len(blocks)),
                                 squeeze=False, constrained_layout=True)
        image = None
        for ax, (size, size_label) in zip(axes[0], scope.sizes):
            image = _heatmap(ax, r[r["size"] == size], ks, blocks)
            ax.set_title(size_label, fontsize=10)
            ax.set_xlabel("n")
        axes[0][0].set_ylabel("threads per block")
        bar = fig.colorbar(image, ax=list(axes[0]), extend="min", fraction=0.03, pad=0.01)
        bar.set_label("GB/s / best block's GB/s\nat this n", fontsize=8)
        fig.suptitle(scope.title(f"{variant}, block size x n")
                     + "\ncells: effective GB/s; red outline: fastest block at each n",
                     fontsize=11)
        scope.figs.save(fig, scope.stem(f"blocks-{variant}"))


def plot_algorithm(run: GpuRun, figs: "Figures", algorithm: str) -> None:
    rows = run.rows[run.rows["algorithm"] == algorithm]
    copies = rows[rows["role"] == "roofline"]
    measured = set(rows["size"])
    sizes = [(size, label) for size, label in SIZES if size in measured]
    plain = results.best_blocks(rows[(rows["facet"] == "") & (rows["role"] != "roofline")])
    for facet in facets_of(run.rows, algorithm) or [""]:
        own = rows[(rows["facet"] == facet) & (rows["role"] != "roofline")]
        if own.empty and facet:
            continue
        scope = Scope(run=run, figs=figs, algorithm=algorithm, facet=facet, rows=own,
                      best=results.best_blocks(own), copies=copies,
                      block_variants=_blocks_measured(own),
                      ks=sorted(set(rows["log2n"])), sizes=sizes, plain=plain)
        plot_time(scope)
        plot_bandwidth(scope)
        if not plot_speedup(scope):
            print(f"plot.py: {run.slug}: {scope.stem('speedup')}: no CPU reference and no vendor "
                  "rows, no speedup graph", file=sys.stderr)
        plot_block_heatmaps(scope)


# ---- skipped rows --------------------------------------------------------------------------


def report_skipped(run: GpuRun, out_dir: Path) -> Optional[Path]:
    """Prints the skipped rows and writes them to skipped.txt (removes a stale one if none)."""
    path = out_dir / "skipped.txt"
    if not run.skipped:
        if path.exists():
            path.unlink()
        return None
    print(f"plot.py: {run.slug}: {len(run.skipped)} benchmark(s) skipped with an error, left "
          f"out of the graphs (listed in {path}):", file=sys.stderr)
    lines = [f"{name}: {message}" for name, message in sorted(run.skipped)]
    for line in lines:
        print(f"  {line}", file=sys.stderr)
    out_dir.mkdir(parents=True, exist_ok=True)
    header = (f"# {run.title}: benchmarks skipped with an error, left out of the graphs\n"
              f"# from: {', '.join(f.path for f in run.files)}\n")
    path.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    return path


# ---- main -----------------------------------------------------------------------------------


def parse_args(argv=None):
    parser = results.ArgumentParser(
        prog="plot.py",
        description="Graphs (PNG, optionally SVG) of gpu_bench JSON result files, written "
        "under <out-dir>/<gpu-slug>/.")
    parser.add_argument("files", nargs="+", metavar="FILE.json",
                        help="Google Benchmark JSON files written by gpu_bench")
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT,
                        help="where the <gpu-slug>/ folders go (default: analysis/graphs of "
                        "this repository)")
    parser.add_argument("--svg", action="store_true", help="also write every graph as SVG")
    parser.add_argument("--filter", metavar="REGEX",
                        help="only benchmarks whose name matches (re.search), e.g. '^scan/'; "
                        "the copy baseline of the algorithms left is always kept")
    parser.add_argument("--merge-runs", action="store_true",
                        help="draw files of one GPU at different commits into the same graphs "
                        "(the titles list the commits; refused without this flag)")
    return parser.parse_args(argv)


def apply_filter(run: GpuRun, pattern: "re.Pattern") -> None:
    run.rows = results.filter_rows(run.rows, pattern)
    run.skipped = [(n, m) for n, m in run.skipped if pattern.search(n)]


def check_out_dir(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise ScriptError(f"--out-dir {out_dir}: is a file, not a folder")
    parent = next((p for p in [out_dir, *out_dir.parents] if p.exists()), None)
    if parent is None or not parent.is_dir():
        raise ScriptError(f"--out-dir {out_dir}: {parent} is not a folder")


def _main(argv=None) -> int:
    args = parse_args(argv)
    files, pattern = results.inputs(args.files, args.filter)
    check_out_dir(args.out_dir)
    runs = group_runs(files, args.merge_runs)
    for run in runs:
        if pattern is not None:
            apply_filter(run, pattern)
    if all(run.rows[run.rows["role"] != "roofline"].empty for run in runs):
        what = "matches --filter" if pattern is not None else "was measured"
        raise ScriptError(f"no benchmark {what}: nothing to plot"
                          + (" (every benchmark was skipped with an error)"
                             if pattern is None else ""))
    written: List[Path] = []
    for run in runs:
        out_dir = args.out_dir / run.slug
        figs = Figures(out_dir, args.svg)
        for algorithm in algorithms_in(run):
            plot_algorithm(run, figs, algorithm)
        written += figs.written
        skipped = report_skipped(run, out_dir)
        if skipped:
            written.append(skipped)
    for path in written:
        print(path)
    return 0


def main(argv=None) -> int:
    return results.run_main("plot.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
