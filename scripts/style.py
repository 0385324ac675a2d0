"""Plot styling shared by plot.py and compare.py: a fixed colour and marker per variant name (so
a variant looks the same in every graph, whatever else is in it) and the 2^k axis labels."""

import math
import zlib
from typing import Iterable, List, Tuple

import matplotlib

matplotlib.use("Agg")  # headless: files only, never a window

import matplotlib.ticker as mticker  # noqa: E402

# Variants known today, each pinned to a colour and a marker. Baselines are dark/neutral:
# the copy baseline black, CPU variants grey, the vendor anchors red/orange.
_FIXED = {
    "copy": ("#000000", ""),
    "cpu": ("#7f7f7f", "x"),
    "cpu_parallel": ("#b0b0b0", "+"),
    "cpu_std_sort": ("#7f7f7f", "x"),
    "cub": ("#d62728", "*"),
    "thrust": ("#ff7f0e", "P"),
    "naive": ("#8c564b", "v"),
    "work_efficient": ("#9467bd", "^"),
    "work_efficient_compact": ("#c5b0d5", "<"),
    "shared_mem": ("#1f77b4", "o"),
    "kogge_stone": ("#aec7e8", ">"),
    "coarsened": ("#17becf", "s"),
    "warp_shuffle": ("#2ca02c", "D"),
    "chained": ("#bcbd22", "h"),
    "decoupled_lookback": ("#e377c2", "p"),
}
# Variants not listed above (other algorithms' variants) get a colour and marker from a hash of
# their name: stable across runs and graphs, though two names may share a colour (then they
# almost always differ in marker).
_SPARE_COLOURS = [
    "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79",
    "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#31a354", "#756bb1", "#e6550d",
    "#636363", "#6baed6", "#fd8d3c", "#74c476",
]
_SPARE_MARKERS = ["o", "s", "^", "v", "D", "p", "h", "<", ">", "8", "d", "H"]

# legend order: CPU variants, the known GPU variants (roughly slow to fast), any other variant
# alphabetically, then the vendor anchors and the copy baseline
_ANCHORS = ["thrust", "cub", "copy"]
_ORDER = [v for v in _FIXED if v not in _ANCHORS]


def variant_style(variant: str) -> Tuple[str, str]:
    """(colour, marker) of a variant; the same in every graph."""
    if variant in _FIXED:
        return _FIXED[variant]
    h = zlib.crc32(variant.encode("utf-8"))
    return _SPARE_COLOURS[h % len(_SPARE_COLOURS)], _SPARE_MARKERS[(h // 7) % len(_SPARE_MARKERS)]


def variant_order(variants: Iterable[str]) -> List[str]:
    """Variants in a stable legend order."""
    present = set(variants)
    known = [v for v in _ORDER if v in present]
    anchors = [v for v in _ANCHORS if v in present]
    return known + sorted(present - set(known) - set(anchors)) + anchors


def pow2_axis(ax, ks: Iterable[int]) -> None:
    """X axis in log2(n) units labelled 2^k (every k when few, else every second)."""
    ks = sorted(set(int(k) for k in ks))
    if not ks:
        return
    step = 1 if len(ks) <= 12 else 2
    ticks = list(range(ks[0], ks[-1] + 1, step))
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"$2^{{{k}}}$" for k in ticks])
    ax.set_xlim(ks[0] - 0.5, ks[-1] + 0.5)


def log_y_axis(ax) -> None:
    """Log y axis with plain numbers (0.1, 1, 10, ...) rather than 10^k."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(_MinorLogFormatter())


class _MinorLogFormatter(mticker.Formatter):
    """Labels the minor ticks of a log axis only when it spans little more than a decade."""

    def __call__(self, x, pos=None):
        lo, hi = sorted(self.axis.get_view_interval())
        if lo <= 0 or math.log10(hi / lo) > 1.2:
            return ""
        return f"{x:.3g}"


def short_number(value: float) -> str:
    """A value in three significant figures at most, for cell labels: 1234, 45.6, 3.21."""
    if value != value:  # NaN
        return ""
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"
