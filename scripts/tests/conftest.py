"""Shared pytest fixtures: the scripts' folder on sys.path, the fixture files, helpers to make
modified copies of a result file."""

import json
import math
import os
import random
import sys
from pathlib import Path

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # headless, whatever the environment says
SCRIPTS = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(SCRIPTS))

BROKEN = {
    "broken_truncated.json": "not valid JSON",
    "broken_not_benchmark.json": "no 'benchmarks' list",
    "broken_foreign.json": "none of its",
    "broken_no_context.json": "no 'context' object",
}


@pytest.fixture
def run_file() -> Path:
    """Excerpt of a real single-repetition GPU run."""
    return FIXTURES / "gpu_run.json"


@pytest.fixture
def reps_file() -> Path:
    """Excerpt of a real run with --benchmark_repetitions."""
    return FIXTURES / "gpu_run_reps.json"


@pytest.fixture
def meta_file() -> Path:
    """gpu_run.json with the gps_* metadata keys of the context."""
    return FIXTURES / "gpu_run_meta.json"


@pytest.fixture
def sweep_file() -> Path:
    """Every POT size 2^10..2^30 of copy, CUB and one study variant per algorithm (real H200)."""
    return FIXTURES / "gpu_run_sweep.json"


@pytest.fixture
def errors_file() -> Path:
    """The single-repetition excerpt with some rows turned into error rows."""
    return FIXTURES / "with_errors.json"


def load_doc(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_doc(path: Path, doc: dict) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def scaled_copy(src: Path, dst: Path, factor: float, match=lambda name: True,
                context=None) -> Path:
    """A copy of a result file whose matching rows take `factor` times as long (times, bands
    and GB/s scaled together), with context fields replaced by `context`."""
    doc = load_doc(src)
    for row in doc["benchmarks"]:
        if row.get("error_occurred") or not match(row["name"]):
            continue
        for key in ("real_time", "cpu_time", "ms_median", "ms_p10", "ms_p90", "median_s",
                    "p10_s", "p90_s"):
            if key in row and row.get("aggregate_name") not in ("cv",):
                row[key] = row[key] * factor
        for key in ("GB/s", "elements/s", "bytes_per_second", "items_per_second", "copy_frac"):
            if key in row and row.get("aggregate_name") not in ("cv",):
                row[key] = row[key] / factor
    if context:
        doc["context"].update(context)
    return write_doc(dst, doc)


def with_repetitions(src: Path, dst: Path, reps: int = 5, seed: int = 0,
                     rep_noise: float = 0.002, run_noise: float = 0.004,
                     factor: float = 1.0) -> Path:
    """A single-repetition result file as if run with --benchmark_repetitions=reps: each row's
    real median time times exp(run offset + repetition noise), where the run offset (drawn once
    per row, normal with sd run_noise) is what differs between two processes and the
    repetition noise (sd: rep_noise, or the row's own standard error of the median when larger)
    what differs between repetitions; then every time times `factor`. Adds Google Benchmark's
    mean/median/stddev/cv aggregates. Two calls with different seeds are two runs."""
    rng = random.Random(seed)
    doc = load_doc(src)
    out = []
    for row in doc["benchmarks"]:
        if row.get("error_occurred"):
            out.append(row)
            continue
        sigma = (row["ms_p90"] - row["ms_p10"]) / 2.563 / row["ms_median"]
        se = 1.2533 * sigma / math.sqrt(max(row.get("iterations", 1), 1))
        offset = rng.gauss(0.0, run_noise)
        scales = [factor * math.exp(offset + rng.gauss(0.0, max(rep_noise, se)))
                  for _ in range(reps)]
        iterations = []
        for i, scale in enumerate(scales):
            iterations.append(_scaled_row(row, scale, run_type="iteration", repetitions=reps,
                                          repetition_index=i))
        out += iterations
        ordered = sorted(scales)
        median = ordered[reps // 2] if reps % 2 else (ordered[reps // 2 - 1]
                                                      + ordered[reps // 2]) / 2
        mean = sum(scales) / reps
        sd = math.sqrt(sum((x - mean) ** 2 for x in scales) / (reps - 1))
        for name, scale in (("mean", mean), ("median", median), ("stddev", sd),
                            ("cv", sd / mean)):
            agg = _scaled_row(row, scale, run_type="aggregate", repetitions=reps,
                              aggregate_name=name)
            agg["name"] = row["name"] + "_" + name
            agg.pop("repetition_index", None)
            out.append(agg)
    doc["benchmarks"] = out
    return write_doc(dst, doc)


def _scaled_row(row: dict, scale: float, **fields) -> dict:
    new = dict(row, **fields)
    for key in ("real_time", "cpu_time", "ms_median", "ms_p10", "ms_p90"):
        if key in new:
            new[key] = row[key] * scale
    for key in ("GB/s", "elements/s", "bytes_per_second", "items_per_second", "copy_frac"):
        if key in new:
            new[key] = row[key] / scale
    return new
