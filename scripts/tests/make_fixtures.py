#!/usr/bin/env python3
"""Cuts the pytest fixtures out of real gpu_bench result files and makes the broken copies.

    python3 scripts/tests/make_fixtures.py RUN.json [RUN2.json ...] [--reps REPS_RUN.json]

RUN.json...: real single-repetition runs of one GPU (e.g. results/nvidia-h100-80gb-hbm3.json, or
partial runs whose rows are merged; the context is the first file's); REPS_RUN: a real run with
--benchmark_repetitions >= 2. The excerpts keep the whole context and, per
algorithm, a few sizes of a few variants (every block size of those), the copy baseline, the CPU
reference and CUB, and at most two values of each extra axis; every row is copied unchanged.

Written into DIR (default scripts/tests/fixtures):
  gpu_run.json          excerpt of RUN.json
  gpu_run_reps.json     excerpt of REPS_RUN.json (per-repetition rows and aggregates)
  with_errors.json      gpu_run.json with some rows replaced by error rows, as the harness writes
                        them (SkipWithError), and any error rows the real run had
  broken_truncated.json     gpu_run.json cut in the middle
  broken_not_benchmark.json a JSON file of another kind (a package manifest)
  broken_foreign.json   a Google Benchmark file of another program (names not in our scheme)
  broken_no_context.json    gpu_run.json without its context
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import results  # noqa: E402

KEEP_ALWAYS = {results.COPY_VARIANT, results.VENDOR_ANCHOR, *results.CPU_REFERENCES}
PREFERRED = ["naive", "shared_mem", "decoupled_lookback", "thrust"]  # scan's, when present


def pick(rows, log2ns, per_algorithm_variants=3, facets_per_algorithm=2):
    """The benchmark names to keep."""
    keep = set()
    for algorithm in sorted(set(rows["algorithm"])):
        own = rows[rows["algorithm"] == algorithm]
        sizes = sorted(set(own["log2n"]))
        wanted = [k for k in log2ns if k in sizes] or sizes[:: max(1, len(sizes) // 3)][:3]
        facets = sorted(set(own.loc[own["variant"] != results.COPY_VARIANT, "facet"]))
        facets = facets[:facets_per_algorithm] + [""]
        variants = list(dict.fromkeys(own["variant"]))
        others = [v for v in PREFERRED if v in variants] + [
            v for v in variants if v not in PREFERRED and v not in KEEP_ALWAYS]
        chosen = KEEP_ALWAYS | set(others[:per_algorithm_variants])
        sel = own[own["log2n"].isin(wanted) & own["facet"].isin(facets)
                  & own["variant"].isin(chosen)]
        keep |= set(sel["name"])
    return keep


def excerpt(doc, keep, max_errors=3):
    out, errors = [], 0
    for entry in doc["benchmarks"]:
        name = results.canonical_name(entry.get("run_name") or entry["name"])
        if entry.get("run_type") == "aggregate" and "run_name" not in entry:
            continue
        if name in keep:
            out.append(entry)
        elif entry.get("error_occurred") and errors < max_errors:
            out.append(entry)  # the real run's own error rows
            errors += 1
    return {"context": doc["context"], "benchmarks": out}


def with_errors(doc):
    """Replaces the CUB rows and one block row of the largest size by error rows."""
    out = json.loads(json.dumps(doc))
    total = float(out["context"].get("gpu_memory_bytes", 80 << 30)) / (1 << 30)
    parsed = [results.parse_name(results.canonical_name(b["name"])) for b in out["benchmarks"]]
    largest = max(p.log2n for p, b in zip(parsed, out["benchmarks"])
                  if p is not None and not b.get("error_occurred"))
    replaced = []
    for i, b in enumerate(out["benchmarks"]):
        p = results.parse_name(results.canonical_name(b["name"]))
        if p is None or p.log2n != largest or b.get("error_occurred"):
            continue
        if p.variant == results.VENDOR_ANCHOR or (p.block == 256 and p.variant != "copy"
                                                  and not replaced):
            message = ("wrong result at index 12345 of %d: got 7, expected 9" % (2 ** p.log2n)
                       if p.variant == results.VENDOR_ANCHOR else
                       "skipped: needs about 12.00 GiB of GPU memory, 10.50 GiB free of "
                       f"{total:.2f} GiB")
            out["benchmarks"][i] = {
                "name": b["name"], "family_index": b.get("family_index", 0),
                "per_family_instance_index": b.get("per_family_instance_index", 0),
                "run_name": b.get("run_name", b["name"]), "run_type": "iteration",
                "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 0,
                "real_time": 0.0, "cpu_time": 0.0, "time_unit": b.get("time_unit", "us"),
                "error_occurred": True, "error_message": message,
            }
            replaced.append(b["name"])
    return out


def dumps(doc) -> str:
    """The context pretty-printed, one line per benchmark row: small and readable in a diff."""
    if not isinstance(doc, dict) or "benchmarks" not in doc:
        return json.dumps(doc, indent=1)
    parts = []
    if "context" in doc:
        parts.append('"context": ' + json.dumps(doc["context"], indent=1))
    rows = ",\n  ".join(json.dumps(b) for b in doc["benchmarks"])
    parts.append('"benchmarks": [\n  ' + rows + "\n]")
    return "{\n" + ",\n".join(parts) + "\n}"


def write(path: Path, data, quiet: bool = False) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(data if isinstance(data, str) else dumps(data) + "\n")
    if not quiet:
        print(f"{path} ({os.path.getsize(path)} bytes)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", metavar="RUN.json",
                        help="real single-repetition gpu_bench JSON files of one GPU")
    parser.add_argument("--reps", help="a real gpu_bench JSON file with repetitions")
    parser.add_argument("--out", type=Path, default=HERE / "fixtures")
    parser.add_argument("--log2n", default="20,24",
                        help="sizes to keep (comma-separated exponents, default 20,24)")
    args = parser.parse_args(argv)
    log2ns = [int(k) for k in args.log2n.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)

    doc = {"context": None, "benchmarks": []}
    seen = set()
    for path in args.runs:
        results.load(path)  # a usable file, or a clear error
        with open(path, encoding="utf-8") as f:
            part = json.load(f)
        doc["context"] = doc["context"] or part["context"]
        for b in part["benchmarks"]:  # a benchmark in several files: the first file's rows
            key = (b["name"], b.get("repetition_index"))
            if key not in seen:
                seen.add(key)
                doc["benchmarks"].append(b)
    with tempfile.TemporaryDirectory() as tmp:
        merged = Path(tmp) / "merged.json"
        write(merged, doc, quiet=True)
        small = excerpt(doc, pick(results.load(str(merged)).rows, log2ns))
    write(args.out / "gpu_run.json", small)
    if args.reps:
        reps = results.load(args.reps)
        with open(args.reps, encoding="utf-8") as f:
            reps_doc = json.load(f)
        write(args.out / "gpu_run_reps.json",
              excerpt(reps_doc, pick(reps.rows, log2ns, per_algorithm_variants=1)))

    write(args.out / "with_errors.json", with_errors(small))
    text = dumps(small)
    write(args.out / "broken_truncated.json", text[: len(text) * 3 // 5])
    write(args.out / "broken_not_benchmark.json",
          {"name": "gpu-primitives-study", "version": "0.1.0", "dependencies": {}})
    foreign = {"context": {k: v for k, v in small["context"].items() if not k.startswith("gpu_")},
               "benchmarks": [dict(b, name=f"BM_Memcpy/{1 << (10 + i)}",
                                   run_name=f"BM_Memcpy/{1 << (10 + i)}")
                              for i, b in enumerate(small["benchmarks"][:3])]}
    foreign["context"]["gpu_name"] = small["context"].get("gpu_name", "none")
    write(args.out / "broken_foreign.json", foreign)
    write(args.out / "broken_no_context.json", {"benchmarks": small["benchmarks"]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
