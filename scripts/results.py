"""Loading and parsing of gpu_bench result files, shared by plot.py, compare.py and export_gab.py.

A result file is the Google Benchmark JSON written by `gpu_bench --benchmark_out_format=json`.
`load(path)` turns it into a `ResultFile`: the context, one table row per benchmark that ran
(repetitions folded into one row), and the list of benchmarks that were skipped with an error.

Benchmark names follow the harness's scheme (bench/harness.cpp, benchmark_name()):

    <algorithm>/<variant>[/<extra axis>...]/<pot|npot>/log2n:<k>[/block:<b>]/manual_time

Time of a row: the median iteration time (the `ms_median` counter, the same median the `GB/s`
counter is computed from), and with repetitions the median over the repetitions. Its noise band:
the minimum..maximum of the repetitions' medians when there are at least two repetitions, else
(one repetition) the `ms_p10`..`ms_p90` spread of the iteration times.
"""

import json
import math
import re
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import pandas as pd

NAME_RE = re.compile(
    r"^(?P<algorithm>[A-Za-z0-9_]+)/(?P<variant>[A-Za-z0-9_]+)"
    r"(?P<axes>(?:/[^/]+)*?)"
    r"/(?P<size>pot|npot)/log2n:(?P<log2n>\d+)"
    r"(?:/block:(?P<block>\d+))?"
    r"(?:/(?:manual|real)_time)?$"
)
NAME_SCHEME = "<algorithm>/<variant>[/axes]/<pot|npot>/log2n:<k>[/block:<b>]"

COPY_VARIANT = "copy"  # the device-to-device copy baseline, one per algorithm
CPU_REFERENCES = ("cpu", "cpu_std_sort")  # the CPU reference variant, by preference
VENDOR_ANCHOR = "cub"

# seconds per unit of Google Benchmark's time_unit
_TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

COLUMNS = [
    "name",  # canonical name without the /manual_time suffix
    "algorithm",
    "variant",
    "facet",  # the extra axes joined by '/', "" when none (e.g. "keep:0.50", "pairs/uniform")
    "size",  # "pot" or "npot"
    "log2n",
    "block",  # 0 when the row has no block axis
    "n",
    "time_us",  # median iteration time (median over repetitions when there are several)
    "time_lo_us",  # noise band of time_us
    "time_hi_us",
    "gbs",  # effective GB/s (minimum bytes moved / median time)
    "copy_frac",  # the in-process copy_frac counter (NaN when absent)
    "copy_gbs",  # GB/s of this file's <algorithm>/copy row at the same size (NaN when absent)
    "of_copy",  # gbs / copy_gbs, else the copy_frac counter; NaN for CPU variants
    "repetitions",
    "noise",  # what the band is: "repetitions min..max", "mean±stddev" or "p10..p90"
]


class ResultsError(Exception):
    """A result file that cannot be used; str() is a one-line message naming the file."""

    def __init__(self, path: str, what: str):
        self.path = path
        self.what = what
        super().__init__(f"{path}: {what}")


@dataclass
class ParsedName:
    algorithm: str
    variant: str
    axes: Tuple[str, ...]
    size: str
    log2n: int
    block: int

    @property
    def facet(self) -> str:
        return "/".join(self.axes)


def parse_name(name: str) -> Optional[ParsedName]:
    """Splits a benchmark name into its parts, or None when it is not in our scheme."""
    m = NAME_RE.match(name)
    if not m:
        return None
    axes = tuple(a for a in m.group("axes").split("/") if a)
    return ParsedName(
        algorithm=m.group("algorithm"),
        variant=m.group("variant"),
        axes=axes,
        size=m.group("size"),
        log2n=int(m.group("log2n")),
        block=int(m.group("block") or 0),
    )


def canonical_name(name: str) -> str:
    """The benchmark name without the timing suffix Google Benchmark adds (/manual_time)."""
    return re.sub(r"/(?:manual|real)_time$", "", name)


def slugify(text: str) -> str:
    """'NVIDIA H100 80GB HBM3' -> 'nvidia-h100-80gb-hbm3'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


@dataclass
class ResultFile:
    path: str
    context: Dict[str, object]
    rows: pd.DataFrame
    skipped: List[Tuple[str, str]] = field(default_factory=list)  # (name, error message)

    @property
    def gpu_name(self) -> str:
        return str(self.context.get("gpu_name", "unknown"))

    @property
    def has_gpu(self) -> bool:
        return self.gpu_name not in ("none", "unknown", "")

    @property
    def gpu_slug(self) -> str:
        # a run without a GPU has gpu_name "none"; bench.sh names its file cpu-only.json
        return slugify(self.gpu_name) if self.has_gpu else "cpu-only"

    @property
    def gpu_title(self) -> str:
        return self.gpu_name if self.has_gpu else "no GPU (CPU rows only)"

    @property
    def peak_gbs(self) -> Optional[float]:
        return _to_float(self.context.get("gpu_peak_bandwidth_gbs"))

    @property
    def commit(self) -> str:
        return str(self.context.get("git_commit", "?"))

    @property
    def label(self) -> str:
        """Short description for table headers: 'NVIDIA H100 80GB HBM3 @ 12dc8800ec61'."""
        return f"{self.gpu_title} @ {self.commit}"


def _to_float(value) -> Optional[float]:
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


# ---- reading --------------------------------------------------------------------------------


def _read_json(path: str):
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ResultsError(path, f"cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ResultsError(path, "not a text file (not UTF-8), so not JSON") from None
    if not text.strip():
        raise ResultsError(path, "the file is empty, not a Google Benchmark JSON file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ResultsError(
            path, f"not valid JSON ({e.msg} at line {e.lineno} column {e.colno}; truncated?)"
        ) from None


def _check_document(path: str, doc) -> Tuple[dict, list]:
    if not isinstance(doc, dict):
        raise ResultsError(
            path,
            f"not a Google Benchmark JSON file: the top level is a {type(doc).__name__}, "
            "not an object with 'context' and 'benchmarks'",
        )
    benchmarks = doc.get("benchmarks")
    if not isinstance(benchmarks, list):
        raise ResultsError(path, "not a Google Benchmark JSON file: no 'benchmarks' list")
    context = doc.get("context")
    if not isinstance(context, dict):
        raise ResultsError(path, "no 'context' object: not written by gpu_bench (or cut short)")
    if "gpu_name" not in context:
        raise ResultsError(path, "the context has no gpu_name: not written by gpu_bench")
    if not benchmarks:
        raise ResultsError(path, "the 'benchmarks' list is empty: nothing was run")
    return context, benchmarks


def _is_skipped(entry: dict) -> bool:
    return bool(entry.get("error_occurred")) or entry.get("skipped") not in (None, False, 0)


def _skip_message(entry: dict) -> str:
    msg = entry.get("error_message") or entry.get("skip_message") or "skipped (no message)"
    return " ".join(str(msg).split())  # one line


def _time_us(path: str, entry: dict, key: str = "real_time") -> float:
    unit = entry.get("time_unit", "ns")  # Google Benchmark's default unit is ns
    if unit not in _TIME_UNITS:
        raise ResultsError(path, f"row '{entry.get('name')}': unknown time_unit '{unit}'")
    value = _to_float(entry.get(key))
    if value is None:
        raise ResultsError(path, f"row '{entry.get('name')}': {key} is not a number")
    return value * _TIME_UNITS[unit] / 1e-6


def _median_time_us(path: str, entry: dict) -> float:
    """The median iteration time of a row: ms_median when present, else real_time (a mean)."""
    ms = _to_float(entry.get("ms_median"))
    return ms * 1e3 if ms is not None and ms > 0 else _time_us(path, entry)


def _group_entries(path: str, benchmarks: list) -> Tuple[Dict[str, dict], int]:
    """Groups the rows of our scheme by benchmark: iterations, aggregates, errors."""
    groups: Dict[str, dict] = {}
    foreign = 0
    for entry in benchmarks:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            foreign += 1
            continue
        run_name = entry.get("run_name") or entry["name"]
        if entry.get("run_type") == "aggregate" and "run_name" not in entry:
            run_name = re.sub(r"_(mean|median|stddev|cv|min|max)$", "", run_name)
        name = canonical_name(run_name)
        parsed = parse_name(name)
        if parsed is None:
            foreign += 1
            continue
        g = groups.setdefault(
            name, {"parsed": parsed, "iterations": [], "aggregates": {}, "errors": []}
        )
        if _is_skipped(entry):
            g["errors"].append(_skip_message(entry))
        elif entry.get("run_type") == "aggregate":
            g["aggregates"][str(entry.get("aggregate_name", ""))] = entry
        else:
            g["iterations"].append(entry)
    return groups, foreign


def _fold(path: str, name: str, g: dict) -> dict:
    """One table row from a benchmark's repetitions and aggregates."""
    p: ParsedName = g["parsed"]
    iters, aggs = g["iterations"], g["aggregates"]
    main = aggs.get("median") or aggs.get("mean") or (iters[len(iters) // 2] if iters else None)
    if main is None:  # only stddev/cv aggregates: nothing to plot
        raise ResultsError(path, f"row '{name}': has no median/mean aggregate and no repetitions")
    rep_times = sorted(_median_time_us(path, e) for e in iters)
    if aggs.get("median") is not None or aggs.get("mean") is not None:
        time = _median_time_us(path, main)
    else:  # per-repetition rows only: their median
        time = rep_times[len(rep_times) // 2] if len(rep_times) % 2 else (
            (rep_times[len(rep_times) // 2 - 1] + rep_times[len(rep_times) // 2]) / 2
        )
    repetitions = int(main.get("repetitions") or max(len(iters), 1))
    if len(rep_times) >= 2:
        lo, hi, noise = rep_times[0], rep_times[-1], "repetitions min..max"
    elif aggs.get("mean") is not None and aggs.get("stddev") is not None:
        mean = _median_time_us(path, aggs["mean"])
        sd = _to_float(aggs["stddev"].get("ms_median"))
        sd = sd * 1e3 if sd is not None else _time_us(path, aggs["stddev"])
        lo, hi, noise = mean - sd, mean + sd, "mean±stddev"
    else:
        p10, p90 = _to_float(main.get("ms_p10")), _to_float(main.get("ms_p90"))
        lo = p10 * 1e3 if p10 is not None else time
        hi = p90 * 1e3 if p90 is not None else time
        noise = "p10..p90"
    gbs = _to_float(main.get("GB/s"))
    n = _to_float(main.get("n"))
    if n is None or n <= 0:
        n = float(2 ** p.log2n - (0 if p.size == "pot" else 3))
    copy_frac = _to_float(main.get("copy_frac"))
    return {
        "name": name,
        "algorithm": p.algorithm,
        "variant": p.variant,
        "facet": p.facet,
        "size": p.size,
        "log2n": p.log2n,
        "block": p.block,
        "n": n,
        "time_us": time,
        "time_lo_us": min(lo, time),
        "time_hi_us": max(hi, time),
        "gbs": gbs if gbs is not None else float("nan"),
        "copy_frac": copy_frac if copy_frac is not None else float("nan"),
        "repetitions": repetitions,
        "noise": noise,
    }


def is_cpu_variant(variant: str) -> bool:
    """CPU variants (cpu, cpu_parallel, cpu_std_sort, ...) have no copy fraction."""
    return variant == "cpu" or variant.startswith("cpu_")


def _add_copy_columns(rows: pd.DataFrame) -> pd.DataFrame:
    copies = rows[(rows["variant"] == COPY_VARIANT) & (rows["facet"] == "")]
    copy_gbs = {
        (r.algorithm, r.size, r.log2n): r.gbs for r in copies.itertuples(index=False)
    }
    rows["copy_gbs"] = [
        copy_gbs.get((r.algorithm, r.size, r.log2n), float("nan"))
        for r in rows.itertuples(index=False)
    ]
    of_copy = rows["gbs"] / rows["copy_gbs"]
    of_copy = of_copy.where(of_copy.notna(), rows["copy_frac"])
    rows["of_copy"] = of_copy.where(~rows["variant"].map(is_cpu_variant), float("nan"))
    return rows


def load(path: str) -> ResultFile:
    """Reads one result file; raises ResultsError with a one-line reason when it is unusable."""
    doc = _read_json(path)
    context, benchmarks = _check_document(path, doc)
    groups, foreign = _group_entries(path, benchmarks)
    if not groups:
        raise ResultsError(
            path,
            f"none of its {len(benchmarks)} benchmark rows is named in our scheme "
            f"({NAME_SCHEME}): not a gpu_bench result file",
        )
    records, skipped = [], []
    for name, g in groups.items():
        if g["iterations"] or g["aggregates"]:
            records.append(_fold(path, name, g))
        else:
            skipped.append((name, g["errors"][0]))
    own = [c for c in COLUMNS if c not in ("copy_gbs", "of_copy")]
    rows = pd.DataFrame.from_records(records, columns=own)
    rows = _add_copy_columns(rows)[COLUMNS]
    return ResultFile(path=path, context=context, rows=rows, skipped=skipped)


def load_all(paths: List[str]) -> Tuple[List[ResultFile], List[ResultsError]]:
    """Loads every file; returns the good ones and the errors (one per bad file)."""
    good, bad = [], []
    for path in paths:
        try:
            good.append(load(path))
        except ResultsError as e:
            bad.append(e)
    return good, bad


def open_inputs(prog: str, paths: List[str], filter_text: Optional[str]):
    """The common start of every script: compile --filter and load the files. Prints one line per
    problem to stderr, prefixed with `prog`, and returns None when there was any; otherwise
    returns (files, pattern or None)."""
    pattern = None
    if filter_text:
        try:
            pattern = re.compile(filter_text)
        except re.error as e:
            print(f"{prog}: --filter '{filter_text}' is not a valid regex: {e}", file=sys.stderr)
            return None
    files, bad = load_all(paths)
    for error in bad:
        print(f"{prog}: {error}", file=sys.stderr)
    return None if bad else (files, pattern)


# ---- helpers over the rows -----------------------------------------------------------------


def filter_rows(rows: pd.DataFrame, pattern) -> pd.DataFrame:
    """The rows whose name matches `pattern`, plus the copy baseline of every algorithm that has
    a matching row (a filter never loses the reference the ratios are held against)."""
    chosen = rows[rows["name"].map(lambda n: bool(pattern.search(n)))]
    chosen = chosen[chosen["variant"] != COPY_VARIANT]
    copies = rows[(rows["variant"] == COPY_VARIANT)
                  & rows["algorithm"].isin(set(chosen["algorithm"]))]
    return pd.concat([chosen, copies]).sort_index()


def best_blocks(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (algorithm, variant, facet, size, log2n): the row of the fastest block size.

    Rows without a block axis pass through unchanged, so the result has one row per variant
    and size, ready to plot as "every variant at its best block"."""
    if rows.empty:
        return rows
    keys = ["algorithm", "variant", "facet", "size", "log2n"]
    ordered = rows.reset_index(drop=True)
    # keep the order in which the benchmarks first appear (the file's order)
    ordered["_first"] = ordered.groupby(keys, sort=False)["name"].transform(
        lambda s: s.index.min())
    best = ordered.sort_values(["time_us", "block"], kind="stable").drop_duplicates(keys)
    return best.sort_values("_first", kind="stable").drop(columns="_first").reset_index(drop=True)


def cpu_reference(variants) -> Optional[str]:
    """The CPU reference variant among `variants` (cpu, or cpu_std_sort for sort)."""
    for name in CPU_REFERENCES:
        if name in set(variants):
            return name
    return None
