"""Plot styling shared by plot.py and compare.py: each variant's look comes from its role and its
position in its algorithm's variant table (results.AlgorithmInfo), never from its name, so a
variant looks the same in every graph of its algorithm whatever else is drawn, and a new variant
needs no entry here. Also the 2^k axis labels.

  roofline   black, dashed, no marker (the device-to-device copy)
  vendor     black and dark grey, solid, fixed markers (* for the anchor, CUB; P, X before it)
  reference, baseline (CPU rows)   light greys, dotted, x / + / 1 markers
  study      a colour of the 'turbo' colour map by position in the study (first step blue,
             last step red), markers cycling
"""

import io
import math
from dataclasses import dataclass
from typing import Iterable

import deps  # noqa: F401

import matplotlib

matplotlib.use("Agg")  # headless: files only, never a window

import matplotlib.ticker as mticker  # noqa: E402
from matplotlib import colormaps  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import results  # noqa: E402

_STUDY_MARKERS = ["o", "s", "^", "v", "D", "p", "h", "<", ">", "8", "d", "H"]
_VENDOR = [("#000000", "*"), ("#4d4d4d", "P"), ("#7a7a7a", "X")]  # anchor first, then earlier
_CPU = [("#8c8c8c", "x"), ("#ababab", "+"), ("#c4c4c4", "1")]


@dataclass(frozen=True)
class Look:
    colour: str
    marker: str
    linestyle: str = "-"


def variant_look(info: results.AlgorithmInfo, variant: str) -> Look:
    """How `variant` of the algorithm `info` is drawn."""
    v = info.variant(variant)
    role = v.role if v is not None else "study"
    if role == "roofline":
        return Look("#000000", "", "--")
    if role == "vendor":
        vendors = info.with_role("vendor")
        back = len(vendors) - 1 - vendors.index(variant)  # 0: the anchor (last vendor row)
        colour, marker = _VENDOR[min(back, len(_VENDOR) - 1)]
        return Look(colour, marker, "-")
    if role in ("reference", "baseline") or (v is not None and v.target == "cpu"):
        cpus = [x.name for x in info.variants if x.role in ("reference", "baseline")
                or x.target == "cpu"]
        i = cpus.index(variant) if variant in cpus else 0
        colour, marker = _CPU[i % len(_CPU)]
        return Look(colour, marker, ":")
    study = info.with_role("study")
    i = study.index(variant) if variant in study else len(study)
    count = max(len(study), i + 1)
    position = 0.5 if count == 1 else i / (count - 1)
    colour = to_hex(colormaps["turbo"](0.08 + 0.84 * position))
    return Look(colour, _STUDY_MARKERS[i % len(_STUDY_MARKERS)], "-")


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


def save_figure(fig, path, dpi: int) -> None:
    """Writes fig to path. A PNG is stored with a palette of 256 colours (PIL's median cut, which
    matplotlib's own dependency Pillow provides): line graphs look the same and take about a third
    of the bytes, which keeps the committed graphs of several GPUs small."""
    path = str(path)
    if not path.endswith(".png"):
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
        return
    from PIL import Image  # a dependency of matplotlib

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    buffer.seek(0)
    with Image.open(buffer) as image:
        median_cut = getattr(getattr(Image, "Quantize", Image), "MEDIANCUT")  # Pillow < 9.1 too
        palette = image.convert("RGB").quantize(colors=256, method=median_cut)
        palette.save(path, optimize=True)
