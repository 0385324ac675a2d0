#!/usr/bin/env python3
"""Cuts the pytest fixtures out of real gpu_bench result files and makes the broken copies.

    python3 scripts/tests/make_fixtures.py RUN.json [RUN2.json ...] [--reps REPS_RUN.json] \
        [--sweep SWEEP_RUN.json] [--meta-run META_RUN.json] [--only NAME,NAME]

RUN.json...: real single-repetition runs of one GPU (e.g. results/nvidia-h100-80gb-hbm3.json, or
partial runs whose rows are merged; the context is the first file's); REPS_RUN: a real run with
--benchmark_repetitions >= 2; SWEEP_RUN: a real whole-suite run. The excerpts keep the whole
context and, per algorithm, a few sizes of a few variants (every block size of those), the copy
baseline, the CPU reference and the vendor anchors, and at most two values of each extra axis;
every row is copied unchanged. The gps_* metadata of a run that has it is cut to the rows kept.

Written into DIR (default scripts/tests/fixtures; --only writes some of them):
  gpu_run.json          excerpt of RUN.json
  gpu_run_meta.json     gpu_run.json with the gps_* metadata: RUN's own when it has some, else
                        made from the rows the way bench/metadata.cpp writes it (copy first as
                        the roofline, the variants in file order, roles as results.py derives
                        them, the README's descriptions)
  gpu_run_reps.json     excerpt of REPS_RUN.json (per-repetition rows and aggregates)
  real_meta_run.json    META_RUN.json (--meta-run: a small real run of a gpu_bench that records
                        the metadata) unchanged but for gps_rows, cut to the rows it ran
  gpu_run_sweep.json    every POT size of SWEEP_RUN for the roofline, the vendor anchor and the
                        last study variant at block 256, at each algorithm's headline axes
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

PREFERRED = ["naive", "shared_mem", "decoupled_lookback", "thrust"]  # scan's, when present
DESCRIPTIONS = {  # the README's words, for metadata made from names
    "copy": "cudaMemcpyAsync device to device of n int32: the physical limit (8n bytes moved)",
    "cpu": "sequential loop on the CPU: the reference every result is checked against",
    "naive": "Hillis-Steele, one element per thread, log n passes over global memory",
    "shared_mem": "Hillis-Steele within a block in shared memory, block sums scanned apart",
    "decoupled_lookback": "single pass: tiles publish aggregates and look back for prefixes",
    "scan_based_decoupled_lookback": "flags, decoupled look-back scan of the flags, scatter",
    "single_pass": "single pass: flags, tile scan, look-back and scatter in one kernel",
    "cub": "cub::DeviceScan / cub::DeviceSelect, the vendor anchor",
}
TRAFFIC = {"scan": "4n bytes read + 4n written", "compact": "4n bytes read + 4 x kept written"}


def pick(rows, log2ns, per_algorithm_variants=3, facets_per_algorithm=2):
    """The benchmark names to keep."""
    keep = set()
    for algorithm in sorted(set(rows["algorithm"])):
        own = rows[rows["algorithm"] == algorithm]
        sizes = sorted(set(own["log2n"]))
        wanted = [k for k in log2ns if k in sizes] or sizes[:: max(1, len(sizes) // 3)][:3]
        facets = sorted(set(own.loc[own["role"] != "roofline", "facet"]))
        facets = facets[:facets_per_algorithm] + [""]
        variants = list(dict.fromkeys(own["variant"]))
        always = set(own.loc[own["role"].isin(["roofline", "vendor"]), "variant"])
        first_cpu = own.loc[own["role"] == "reference", "variant"]
        always |= set(first_cpu.head(1))
        others = [v for v in PREFERRED if v in variants and v not in always] + [
            v for v in variants if v not in PREFERRED and v not in always]
        chosen = always | set(others[:per_algorithm_variants])
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
    context = dict(doc["context"])
    if "gps_rows" in context:  # the metadata of the rows kept
        names = {e.get("run_name") or e["name"] for e in out}
        rows = json.loads(context["gps_rows"])
        context["gps_rows"] = json.dumps({k: v for k, v in rows.items() if k in names})
    return {"context": context, "benchmarks": out}


def made_metadata(doc):
    """gps_* context keys for a run written before gpu_bench recorded them, made from its rows
    the way bench/metadata.cpp writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.json"
        write(path, doc, quiet=True)
        loaded = results.load(str(path))
    variants = {}
    for algorithm, info in loaded.algorithms.items():
        table = [v for v in info.variants if v.role == "roofline"] + [
            v for v in info.variants if v.role != "roofline"]
        variants[algorithm] = {
            "traffic": TRAFFIC.get(algorithm, ""), "unit": info.unit,
            "axes": [a for a, _ in _axes_of(loaded, algorithm)],
            "variants": [{"name": v.name, "target": v.target, "role": v.role,
                          "blocks": v.blocks, "default_block": 256 if v.blocks else 0,
                          "description": DESCRIPTIONS.get(v.name, "")} for v in table]}
    rows = {}
    for entry in doc["benchmarks"]:
        run_name = entry.get("run_name") or entry["name"]
        info = results.parse_name(results.canonical_name(run_name))
        if info is None or run_name in rows:
            continue
        n = 2 ** info.log2n - (0 if info.size == "pot" else 3)
        rows[run_name] = {"algorithm": info.algorithm, "variant": info.variant,
                          "axes": dict(info.axes), "size": info.size, "log2n": info.log2n,
                          "n": n, "block": info.block}
    return {"gps_metadata_version": "1", "gps_suites": json.dumps(loaded.suites),
            "gps_variants": json.dumps(variants), "gps_rows": json.dumps(rows)}


def _axes_of(loaded, algorithm):
    own = loaded.rows[(loaded.rows["algorithm"] == algorithm) & (loaded.rows["facet"] != "")]
    if own.empty:
        return []
    info = results.parse_name(own["name"].iloc[0])
    return list(info.axes)


def sweep(doc):
    """Every POT size of the roofline, the vendor anchor and the last study variant (at block
    256) of each algorithm, at its headline axes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.json"
        write(path, doc, quiet=True)
        loaded = results.load(str(path))
    rows = loaded.rows[loaded.rows["size"] == "pot"]
    keep = set()
    for algorithm in loaded.suites:
        info = loaded.info(algorithm)
        facet = results.headline_facet(rows, algorithm)
        study = info.with_role("study")
        variants = set(info.with_role("roofline")) | {info.anchor} | set(study[-1:])
        own = rows[(rows["algorithm"] == algorithm) & rows["variant"].isin(variants)
                   & ((rows["facet"] == facet) | (rows["role"] == "roofline"))
                   & rows["block"].isin([0, 256])]
        keep |= set(own["name"])
    return excerpt(doc, keep, max_errors=0)


def with_errors(doc):
    """Replaces the CUB rows and one block row of the largest size by error rows."""
    out = json.loads(json.dumps(doc))
    total = float(out["context"].get("gpu_memory_bytes", 80 << 30)) / (1 << 30)
    parsed = [results.parse_name(results.canonical_name(b["name"])) for b in out["benchmarks"]]
    largest = max(p.log2n for p, b in zip(parsed, out["benchmarks"])
                  if p is not None and not b.get("error_occurred"))
    anchor = "cub"  # the vendor anchor of every algorithm of the fixture
    replaced = []
    for i, b in enumerate(out["benchmarks"]):
        p = results.parse_name(results.canonical_name(b["name"]))
        if p is None or p.log2n != largest or b.get("error_occurred"):
            continue
        if p.variant == anchor or (p.block == 256 and p.variant != "copy" and not replaced):
            message = ("wrong result at index 12345 of %d: got 7, expected 9" % (2 ** p.log2n)
                       if p.variant == anchor else
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
    parser.add_argument("--sweep", help="a real whole-suite gpu_bench JSON file")
    parser.add_argument("--meta-run", help="a small real run with the gps_* metadata")
    parser.add_argument("--out", type=Path, default=HERE / "fixtures")
    parser.add_argument("--log2n", default="20,24",
                        help="sizes to keep (comma-separated exponents, default 20,24)")
    parser.add_argument("--only", help="write only these fixtures (comma-separated file names)")
    args = parser.parse_args(argv)
    log2ns = [int(k) for k in args.log2n.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None

    def write_fixture(name, data):
        if only is None or name in only:
            write(args.out / name, data)

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
    write_fixture("gpu_run.json", small)
    meta = dict(small, context=dict(small["context"]))
    if "gps_rows" not in meta["context"]:
        meta["context"].update(made_metadata(small))
    write_fixture("gpu_run_meta.json", meta)
    if args.reps:
        reps = results.load(args.reps)
        with open(args.reps, encoding="utf-8") as f:
            reps_doc = json.load(f)
        write_fixture("gpu_run_reps.json",
                      excerpt(reps_doc, pick(reps.rows, log2ns, per_algorithm_variants=1)))
    if args.meta_run:
        results.load(args.meta_run)
        with open(args.meta_run, encoding="utf-8") as f:
            run = json.load(f)
        names = {results.canonical_name(b.get("run_name") or b["name"]) for b in run["benchmarks"]}
        write_fixture("real_meta_run.json", excerpt(run, names, max_errors=0))
    if args.sweep:
        with open(args.sweep, encoding="utf-8") as f:
            write_fixture("gpu_run_sweep.json", sweep(json.load(f)))

    write_fixture("with_errors.json", with_errors(small))
    text = dumps(small)
    write_fixture("broken_truncated.json", text[: len(text) * 3 // 5])
    write_fixture("broken_not_benchmark.json",
                  {"name": "gpu-primitives-study", "version": "0.1.0", "dependencies": {}})
    foreign = {"context": {k: v for k, v in small["context"].items() if not k.startswith("gpu_")},
               "benchmarks": [dict(b, name=f"BM_Memcpy/{1 << (10 + i)}",
                                   run_name=f"BM_Memcpy/{1 << (10 + i)}")
                              for i, b in enumerate(small["benchmarks"][:3])]}
    foreign["context"]["gpu_name"] = small["context"].get("gpu_name", "none")
    write_fixture("broken_foreign.json", foreign)
    write_fixture("broken_no_context.json", {"benchmarks": small["benchmarks"]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
