"""Loading of gpu_bench result files, shared by every Python script (not a command).

A result file is the Google Benchmark JSON written by `gpu_bench --benchmark_out_format=json`.
`load(path)` turns it into a `ResultFile`: the context, the algorithms' variant tables, one table
row per benchmark that ran (repetitions folded into one row, their samples kept), and the list
of benchmarks that were skipped with an error.

What a row is comes from the metadata gpu_bench records in the context (each value a JSON
document in a string):
  gps_metadata_version  "1"
  gps_suites            ["scan", "compact", ...]: the algorithms in run order
  gps_variants          {"scan": {"unit", "traffic", "axes", "variants": [{"name", "target",
                        "role", "blocks", "default_block", "description"}, ...]}, ...}: each
                        algorithm's variants in study order; role is one of ROLES
  gps_rows              {run_name: {"algorithm", "variant", "axes": {axis: value}, "size",
                        "log2n", "n", "block"}}: every row, keyed by its run_name
Files written before the metadata existed (results/nvidia-h200.json) are read from the names,

    <algorithm>/<variant>[/<extra axis>...]/<pot|npot>/log2n:<k>[/block:<b>]/manual_time

and their roles derived from the variant names by `_derived_variant` (the only place that knows
variant names).

Time of a row: the median iteration time (the `ms_median` counter), and with repetitions the
median over the repetitions. Its band: the min..max of the repetitions' medians with two or more
repetitions, else the `ms_p10`..`ms_p90` spread of the iteration times. For the statistics of
compare.py a row also keeps each repetition's median (`rep_us`), the relative noise of the
iteration samples (`noise_rel`: the `noise` counter, else estimated from p10..p90) and how many
samples it had (`samples`: the `samples` counter, else the iteration count).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import pandas as pd

ROLES = ("roofline", "reference", "baseline", "study", "vendor")
METADATA_KEYS = ("gps_metadata_version", "gps_suites", "gps_variants", "gps_rows")

NAME_RE = re.compile(
    r"^(?P<algorithm>[A-Za-z0-9_]+)/(?P<variant>[A-Za-z0-9_]+)"
    r"(?P<axes>(?:/[^/]+)*?)"
    r"/(?P<size>pot|npot)/log2n:(?P<log2n>\d+)"
    r"(?:/block:(?P<block>\d+))?"
    r"(?:/(?:manual|real)_time)?$"
)
NAME_SCHEME = "<algorithm>/<variant>[/axes]/<pot|npot>/log2n:<k>[/block:<b>]"

# seconds per unit of Google Benchmark's time_unit
_TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_P10_P90_SIGMAS = 2 * 1.2815515655446004  # p90 - p10 of a normal distribution, in sigmas

COLUMNS = [
    "name",  # canonical name without the /manual_time suffix
    "algorithm",
    "variant",
    "role",  # one of ROLES
    "target",  # "gpu" or "cpu"
    "facet",  # the extra axes as in the name, joined by '/' ("keep:0.50", "pairs/uniform"; "")
    "size",  # "pot" or "npot"
    "log2n",
    "block",  # 0 when the row has no block axis
    "n",
    "time_us",  # median iteration time (median over repetitions when there are several)
    "time_lo_us",  # band of time_us
    "time_hi_us",
    "gbs",  # effective GB/s (minimum bytes moved / median time)
    "copy_frac",  # the in-process copy_frac counter (NaN when absent)
    "copy_gbs",  # GB/s of this file's roofline (copy) row at the same size (NaN when absent)
    "of_copy",  # gbs / copy_gbs, else the copy_frac counter; NaN for CPU variants
    "repetitions",
    "band",  # what the band is: "repetitions min..max", "mean±stddev" or "p10..p90"
    "rep_us",  # tuple: each repetition's median time (one entry without repetitions)
    "noise_rel",  # relative noise of the iteration samples (NaN when unknown)
    "samples",  # iteration samples behind one repetition's median (NaN when unknown)
    "host_timed",  # GPU rows timed directly, launch gaps included (the counter blocked = 0)
]


class ScriptError(Exception):
    """A bad input or usage; str() is the one line to print, `status` the exit status."""

    def __init__(self, message: str, status: int = 2):
        self.status = status
        super().__init__(message)


class ResultsError(ScriptError):
    """A result file that cannot be used; str() is a one-line message naming the file."""

    def __init__(self, path: str, what: str):
        self.path = path
        self.what = what
        super().__init__(f"{path}: {what}")


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit status 2."""

    def error(self, message):
        raise ScriptError(f"{message} (see --help)")


def run_main(prog: str, body, argv=None) -> int:
    """Runs body(argv); a ScriptError or an OSError becomes one line on stderr and its status."""
    try:
        return body(argv)
    except ScriptError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return e.status
    except OSError as e:
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        return 2


# ---- names (files without metadata) ---------------------------------------------------------


@dataclass
class RowInfo:
    """What one benchmark row measures."""

    algorithm: str
    variant: str
    axes: Tuple[Tuple[str, str], ...]  # (axis, value) in name order; axis "" when unnamed
    facet: str  # the axes as the name writes them, joined by '/'
    size: str
    log2n: int
    block: int
    n: Optional[float] = None

    @property
    def key(self) -> Tuple:
        """Identity of a benchmark across runs: what compare.py matches on."""
        return (self.algorithm, self.variant, self.facet, self.size, self.log2n, self.block)


def parse_name(name: str) -> Optional[RowInfo]:
    """Reads the parts of a benchmark name, or None when it is not in our scheme."""
    m = NAME_RE.match(name)
    if not m:
        return None
    segments = [a for a in m.group("axes").split("/") if a]
    axes = tuple((s.split(":", 1)[0], s.split(":", 1)[1]) if ":" in s else ("", s)
                 for s in segments)
    return RowInfo(algorithm=m.group("algorithm"), variant=m.group("variant"), axes=axes,
                   facet="/".join(segments), size=m.group("size"), log2n=int(m.group("log2n")),
                   block=int(m.group("block") or 0))


def canonical_name(name: str) -> str:
    """The benchmark name without the timing suffix Google Benchmark adds (/manual_time)."""
    return re.sub(r"/(?:manual|real)_time$", "", name)


def slugify(text: str) -> str:
    """'NVIDIA H100 80GB HBM3' -> 'nvidia-h100-80gb-hbm3'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


# ---- variant tables -------------------------------------------------------------------------


@dataclass
class VariantInfo:
    name: str
    target: str = "gpu"  # "gpu" or "cpu"
    role: str = "study"  # one of ROLES
    blocks: List[int] = field(default_factory=list)
    default_block: int = 0
    description: str = ""


@dataclass
class AlgorithmInfo:
    """One algorithm's variant table: variants in study order (the legend and table order)."""

    name: str
    unit: str = "elements"  # what a row counts: "elements", "keys" or "bytes"
    traffic: str = ""
    axes: List[str] = field(default_factory=list)
    variants: List[VariantInfo] = field(default_factory=list)

    def variant(self, name: str) -> Optional[VariantInfo]:
        return next((v for v in self.variants if v.name == name), None)

    def with_role(self, *roles: str) -> List[str]:
        return [v.name for v in self.variants if v.role in roles]

    @property
    def roofline(self) -> Optional[str]:
        return next(iter(self.with_role("roofline")), None)

    @property
    def anchor(self) -> Optional[str]:
        """The vendor variant the others are held against: the last vendor row of the table
        (CUB, after Thrust, in every table)."""
        vendors = self.with_role("vendor")
        return vendors[-1] if vendors else None

    @property
    def reference(self) -> Optional[str]:
        """The CPU reference variant (the first with role reference)."""
        return next(iter(self.with_role("reference")), None)

    def order(self, variants) -> List[str]:
        """`variants` in table order; unknown ones after, alphabetically."""
        present = set(variants)
        known = [v.name for v in self.variants if v.name in present]
        return known + sorted(present - set(known))


def _derived_variant(algorithm: str, variant: str, seen: List[VariantInfo]) -> VariantInfo:
    """Target and role of a variant of a file without metadata, from its name: 'copy' is the
    roofline, 'cub' and 'thrust*' the vendor anchors, 'cpu*' CPU rows (the first one of an
    algorithm its reference), anything else a study step. The one place that knows names."""
    if variant == "copy":
        return VariantInfo(variant, "gpu", "roofline")
    if variant == "cub" or variant.startswith("thrust"):
        return VariantInfo(variant, "gpu", "vendor")
    if variant == "cpu" or variant.startswith("cpu_"):
        first = not any(v.target == "cpu" for v in seen)
        return VariantInfo(variant, "cpu", "reference" if first else "baseline")
    return VariantInfo(variant, "gpu", "study")


# the suite order of gpu_bench before gps_suites recorded it (bench/harness.cpp then)
_LEGACY_SUITES = ("scan", "compact", "reduce", "sort")


def _derived_unit(algorithm: str) -> str:
    return "keys" if algorithm == "sort" else "elements"


# ---- metadata -------------------------------------------------------------------------------


def context_json(path: str, context: dict, key: str, kind: type):
    value = context.get(key)
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as e:
            raise ResultsError(path, f"context {key} is not valid JSON ({e.msg})") from None
    if not isinstance(value, kind):
        raise ResultsError(path, f"context {key} is not a JSON {kind.__name__}")
    return value


@dataclass
class Metadata:
    suites: List[str]
    algorithms: Dict[str, AlgorithmInfo]
    rows: Dict[str, dict]  # run_name -> row description


def read_metadata(path: str, context: dict) -> Optional[Metadata]:
    """The gps_* metadata of a context, or None for a file written before it existed."""
    if "gps_rows" not in context and "gps_variants" not in context:
        return None
    suites = [str(s) for s in context_json(path, context, "gps_suites", list)]
    variants = context_json(path, context, "gps_variants", dict)
    rows = context_json(path, context, "gps_rows", dict)
    algorithms = {}
    try:
        for name, table in variants.items():
            algorithms[name] = AlgorithmInfo(
                name=name, unit=str(table.get("unit", "elements")),
                traffic=str(table.get("traffic", "")),
                axes=[str(a) for a in table.get("axes", [])],
                variants=[VariantInfo(name=str(v["name"]), target=str(v.get("target", "gpu")),
                                      role=str(v.get("role", "study")),
                                      blocks=[int(b) for b in v.get("blocks", [])],
                                      default_block=int(v.get("default_block", 0) or 0),
                                      description=str(v.get("description", "")))
                          for v in table.get("variants", [])])
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise ResultsError(path, f"context gps_variants is malformed ({type(e).__name__}: {e})"
                           ) from None
    for info in algorithms.values():
        for v in info.variants:
            if v.role not in ROLES:
                raise ResultsError(path, f"gps_variants: {info.name}/{v.name} has role "
                                   f"'{v.role}', not one of {', '.join(ROLES)}")
    return Metadata(suites=suites, algorithms=algorithms, rows=rows)


def _row_from_metadata(path: str, run_name: str, meta: dict) -> RowInfo:
    try:
        axes = tuple((str(k), str(v)) for k, v in (meta.get("axes") or {}).items())
        facet = meta.get("facet")
        if not isinstance(facet, str):
            # older metadata: the name writes an axis as "axis:value" (keep:0.50) or as its value
            # alone (pairs)
            padded = f"/{run_name}/"
            facet = "/".join(f"{k}:{v}" if f"/{k}:{v}/" in padded else v for k, v in axes)
        return RowInfo(algorithm=str(meta["algorithm"]), variant=str(meta["variant"]),
                       axes=axes, facet=facet, size=str(meta["size"]),
                       log2n=int(meta["log2n"]), block=int(meta.get("block") or 0),
                       n=_to_float(meta.get("n")))
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise ResultsError(path, f"gps_rows['{run_name}'] is malformed "
                           f"({type(e).__name__}: {e})") from None


# ---- the loaded file ------------------------------------------------------------------------


@dataclass
class ResultFile:
    path: str
    context: Dict[str, object]
    rows: pd.DataFrame
    skipped: List[Tuple[str, str]] = field(default_factory=list)  # (name, error message)
    skipped_info: Dict[str, RowInfo] = field(default_factory=dict)  # name -> what it measures
    algorithms: Dict[str, AlgorithmInfo] = field(default_factory=dict)  # in suite order
    has_metadata: bool = False

    @property
    def suites(self) -> List[str]:
        return list(self.algorithms)

    @property
    def gpu_name(self) -> str:
        return str(self.context.get("gpu_name", "unknown"))

    @property
    def has_gpu(self) -> bool:
        return self.gpu_name not in ("none", "unknown", "")

    @property
    def gpu_slug(self) -> str:
        # a run without a GPU has gpu_name "none"
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
    def date(self) -> str:
        """'2026-11-21 07:27' from the context's ISO date ('?' when absent)."""
        text = str(self.context.get("date", "?"))
        return text[:16].replace("T", " ")

    @property
    def label(self) -> str:
        """For headers: 'NVIDIA H200 @ 4ff90fa7816c, 2026-11-21 07:27'."""
        return f"{self.gpu_title} @ {self.commit}, {self.date}"

    def info(self, algorithm: str) -> AlgorithmInfo:
        return self.algorithms.get(algorithm) or AlgorithmInfo(algorithm)


def _to_float(value) -> Optional[float]:
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


# ---- reading --------------------------------------------------------------------------------


def read_json(path: str):
    """The parsed JSON of a file; ResultsError with one line when it cannot be read."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except IsADirectoryError:
        raise ResultsError(path, "is a directory, not a result file") from None
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


def check_document(path: str, doc) -> Tuple[dict, list]:
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
    for entry in benchmarks:
        # gpu_bench records the spread in seconds (median_s, p10_s, p90_s) so that the console's
        # SI prefixes read right; older files have it in milliseconds (ms_median, ...)
        if isinstance(entry, dict):
            for new, old in (("median_s", "ms_median"), ("p10_s", "ms_p10"), ("p90_s", "ms_p90")):
                value = _to_float(entry.get(new))
                if value is not None and old not in entry:
                    entry[old] = value * 1e3
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


def _run_name(entry: dict) -> str:
    run_name = entry.get("run_name") or entry["name"]
    if entry.get("run_type") == "aggregate" and "run_name" not in entry:
        run_name = re.sub(r"_(mean|median|stddev|cv|min|max)$", "", run_name)
    return run_name


def _group_entries(path: str, benchmarks: list, meta: Optional[Metadata]) -> Dict[str, dict]:
    """Groups the rows by benchmark: iterations, aggregates, errors."""
    groups: Dict[str, dict] = {}
    for entry in benchmarks:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        run_name = _run_name(entry)
        name = canonical_name(run_name)
        if name not in groups:
            described = meta.rows.get(run_name) if meta is not None else None
            info = (_row_from_metadata(path, run_name, described) if described is not None
                    else parse_name(name))
            if info is None:
                continue  # not one of ours
            groups[name] = {"info": info, "iterations": [], "aggregates": {}, "errors": []}
        g = groups[name]
        if _is_skipped(entry):
            g["errors"].append(_skip_message(entry))
        elif entry.get("run_type") == "aggregate":
            g["aggregates"][str(entry.get("aggregate_name", ""))] = entry
        else:
            g["iterations"].append(entry)
    return groups


def _median(values: List[float]) -> float:
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def _noise_and_samples(main: dict, iters: List[dict], time_us: float):
    """(relative noise of the iteration samples, samples per repetition), NaN when unknown."""
    noise = _to_float(main.get("noise"))
    if noise is None:
        p10, p90 = _to_float(main.get("ms_p10")), _to_float(main.get("ms_p90"))
        if p10 is not None and p90 is not None and time_us > 0:
            noise = (p90 - p10) * 1e3 / _P10_P90_SIGMAS / time_us
    samples = _to_float(main.get("samples"))
    if samples is None:
        counts = [_to_float(e.get("iterations")) for e in iters]
        counts = [c for c in counts if c is not None]
        if counts:
            samples = _median(counts)
    nan = float("nan")
    return (noise if noise is not None else nan), (samples if samples is not None else nan)


def _fold(path: str, name: str, g: dict) -> dict:
    """One table row from a benchmark's repetitions and aggregates."""
    info: RowInfo = g["info"]
    iters, aggs = g["iterations"], g["aggregates"]
    main = aggs.get("median") or aggs.get("mean") or (iters[len(iters) // 2] if iters else None)
    if main is None:  # only stddev/cv aggregates: nothing to use
        raise ResultsError(path, f"row '{name}': has no median/mean aggregate and no repetitions")
    rep_times = [_median_time_us(path, e) for e in iters]
    if aggs.get("median") is not None or aggs.get("mean") is not None:
        time = _median_time_us(path, main)
    else:  # per-repetition rows only: their median
        time = _median(rep_times)
    repetitions = int(main.get("repetitions") or max(len(iters), 1))
    if len(rep_times) >= 2:
        lo, hi, band = min(rep_times), max(rep_times), "repetitions min..max"
    elif aggs.get("mean") is not None and aggs.get("stddev") is not None:
        mean = _median_time_us(path, aggs["mean"])
        sd = _to_float(aggs["stddev"].get("ms_median"))
        sd = sd * 1e3 if sd is not None else _time_us(path, aggs["stddev"])
        lo, hi, band = mean - sd, mean + sd, "mean±stddev"
    else:
        p10, p90 = _to_float(main.get("ms_p10")), _to_float(main.get("ms_p90"))
        lo = p10 * 1e3 if p10 is not None else time
        hi = p90 * 1e3 if p90 is not None else time
        band = "p10..p90"
    gbs = _to_float(main.get("GB/s"))
    n = info.n or _to_float(main.get("n"))
    if n is None or n <= 0:
        n = float(2 ** info.log2n - (0 if info.size == "pot" else 3))
    copy_frac = _to_float(main.get("copy_frac"))
    noise_rel, samples = _noise_and_samples(main, iters or [main], time)
    return {
        "name": name,
        "algorithm": info.algorithm,
        "variant": info.variant,
        "facet": info.facet,
        "size": info.size,
        "log2n": info.log2n,
        "block": info.block,
        "n": n,
        "time_us": time,
        "time_lo_us": min(lo, time),
        "time_hi_us": max(hi, time),
        "gbs": gbs if gbs is not None else float("nan"),
        "copy_frac": copy_frac if copy_frac is not None else float("nan"),
        "repetitions": repetitions,
        "band": band,
        "rep_us": tuple(rep_times) if rep_times else (time,),
        "noise_rel": noise_rel,
        "samples": samples,
        "host_timed": _to_float(main.get("blocked")) == 0.0,
    }


def _variant_tables(meta: Optional[Metadata], records: List[dict],
                    skipped_infos: List[RowInfo]) -> Dict[str, AlgorithmInfo]:
    """The algorithms' tables in suite order: from the metadata, completed (and, for files
    without metadata, made) from the rows in file order."""
    tables: Dict[str, AlgorithmInfo] = {}
    if meta is not None:
        for name in meta.suites:
            tables[name] = meta.algorithms.get(name) or AlgorithmInfo(name)
        for name, info in meta.algorithms.items():
            tables.setdefault(name, info)
    else:
        present = {r["algorithm"] for r in records} | {i.algorithm for i in skipped_infos}
        for name in _LEGACY_SUITES:
            if name in present:
                tables[name] = AlgorithmInfo(name, unit=_derived_unit(name))
    seen = [(r["algorithm"], r["variant"], r["block"]) for r in records]
    seen += [(i.algorithm, i.variant, i.block) for i in skipped_infos]
    for algorithm, variant, block in seen:
        info = tables.get(algorithm)
        if info is None:
            info = tables[algorithm] = AlgorithmInfo(algorithm, unit=_derived_unit(algorithm))
        v = info.variant(variant)
        if v is None:
            v = _derived_variant(algorithm, variant, info.variants)
            info.variants.append(v)
        if meta is None and block and block not in v.blocks:
            v.blocks = sorted(v.blocks + [block])
    return tables


def _add_role_columns(rows: pd.DataFrame, tables: Dict[str, AlgorithmInfo]) -> pd.DataFrame:
    def lookup(r, what):
        return getattr(tables[r.algorithm].variant(r.variant), what)

    rows["role"] = [lookup(r, "role") for r in rows.itertuples(index=False)]
    rows["target"] = [lookup(r, "target") for r in rows.itertuples(index=False)]
    return rows


def _add_copy_columns(rows: pd.DataFrame) -> pd.DataFrame:
    copies = rows[rows["role"] == "roofline"]
    copy_gbs = {}
    for r in copies.itertuples(index=False):
        copy_gbs.setdefault((r.algorithm, r.size, r.log2n), r.gbs)
    rows["copy_gbs"] = [
        copy_gbs.get((r.algorithm, r.size, r.log2n), float("nan"))
        for r in rows.itertuples(index=False)
    ]
    of_copy = rows["gbs"] / rows["copy_gbs"]
    of_copy = of_copy.where(of_copy.notna(), rows["copy_frac"])
    rows["of_copy"] = of_copy.where(rows["target"] != "cpu", float("nan"))
    return rows


def load(path: str) -> ResultFile:
    """Reads one result file; raises ResultsError with a one-line reason when it is unusable."""
    doc = read_json(path)
    context, benchmarks = check_document(path, doc)
    meta = read_metadata(path, context)
    groups = _group_entries(path, benchmarks, meta)
    if not groups:
        raise ResultsError(
            path,
            f"none of its {len(benchmarks)} benchmark rows is "
            + ("described in its gps_rows metadata" if meta is not None else
               f"named in our scheme ({NAME_SCHEME})") + ": not a gpu_bench result file",
        )
    records, skipped, skipped_infos = [], [], []
    for name, g in groups.items():
        if g["iterations"] or g["aggregates"]:
            records.append(_fold(path, name, g))
        else:
            skipped.append((name, g["errors"][0]))
            skipped_infos.append(g["info"])
    tables = _variant_tables(meta, records, skipped_infos)
    own = [c for c in COLUMNS if c not in ("role", "target", "copy_gbs", "of_copy")]
    rows = pd.DataFrame.from_records(records, columns=own)
    rows = _add_copy_columns(_add_role_columns(rows, tables))[COLUMNS]
    return ResultFile(path=path, context=context, rows=rows, skipped=skipped,
                      skipped_info={n: i for (n, _), i in zip(skipped, skipped_infos)},
                      algorithms=tables, has_metadata=meta is not None)


def iterations(path: str) -> Tuple[dict, List[Tuple[RowInfo, dict]]]:
    """The file's context and each repetition's raw row (run_type iteration, errors included)
    with what it measures (from the gps_rows metadata, else the name): for an analysis that needs
    fields or repetitions load() folds away."""
    doc = read_json(path)
    context, benchmarks = check_document(path, doc)
    groups = _group_entries(path, benchmarks, read_metadata(path, context))
    return context, [(g["info"], e) for g in groups.values() for e in g["iterations"]]


def load_all(paths: List[str]) -> Tuple[List[ResultFile], List[ResultsError]]:
    """Loads every file; returns the good ones and the errors (one per bad file)."""
    good, bad = [], []
    for path in paths:
        try:
            good.append(load(path))
        except ResultsError as e:
            bad.append(e)
    return good, bad


def compile_filter(filter_text: Optional[str]):
    if not filter_text:
        return None
    try:
        return re.compile(filter_text)
    except re.error as e:
        raise ScriptError(f"--filter '{filter_text}' is not a valid regex: {e}") from None


def inputs(paths: List[str], filter_text: Optional[str]):
    """The common start of every script: (files, compiled --filter or None). Raises ScriptError
    (run_main prints it as one line) for a bad regex or any bad file, naming every bad file."""
    pattern = compile_filter(filter_text)
    files, bad = load_all(paths)
    if bad:
        raise bad[0] if len(bad) == 1 else ScriptError(
            "; ".join(str(e) for e in bad))
    return files, pattern


# ---- helpers over the rows -----------------------------------------------------------------


def matching(rows: pd.DataFrame, pattern) -> pd.DataFrame:
    """The rows whose name matches `pattern` (all rows when it is None)."""
    if pattern is None:
        return rows
    return rows[rows["name"].map(lambda n: bool(pattern.search(n)))]


def filter_rows(rows: pd.DataFrame, pattern) -> pd.DataFrame:
    """The rows whose name matches `pattern`, plus the roofline (copy) rows of every algorithm
    that has a matching row (a filter never loses the reference the ratios are held against)."""
    chosen = matching(rows, pattern)
    chosen = chosen[chosen["role"] != "roofline"]
    copies = rows[(rows["role"] == "roofline") & rows["algorithm"].isin(set(chosen["algorithm"]))]
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


def headline_facet(rows: pd.DataFrame, algorithm: str) -> str:
    """The extra-axis value an algorithm is summed up at: the one with the most rows (where the
    block sizes are swept: keep:0.50 for compaction, keys/uniform for sort); "" without axes."""
    own = rows[(rows["algorithm"] == algorithm) & (rows["role"] != "roofline")]
    if own.empty:
        return ""
    counts = own.groupby("facet", sort=False).size()
    return str(counts.idxmax())
