"""Shared pytest fixtures: the scripts' folder on sys.path, the fixture files, helpers to make
modified copies of a result file."""

import json
import os
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
        for key in ("real_time", "cpu_time", "ms_median", "ms_p10", "ms_p90"):
            if key in row and row.get("aggregate_name") not in ("cv",):
                row[key] = row[key] * factor
        for key in ("GB/s", "elements/s", "bytes_per_second", "items_per_second", "copy_frac"):
            if key in row and row.get("aggregate_name") not in ("cv",):
                row[key] = row[key] / factor
    if context:
        doc["context"].update(context)
    return write_doc(dst, doc)
