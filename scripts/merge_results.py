#!/usr/bin/env python3
"""Merges gpu_bench JSON files of one run (e.g. one per suite, as bench.sh writes them) into one.

    scripts/merge_results.py -o results/nvidia-h200.json scan.json compact.json ...

Every input must be a gpu_bench result file (results.py checks it) of the same GPU and commit
(--allow-mixed merges others); at least one benchmark must have been measured (a run whose
every row was skipped with an error, e.g. GPU rows on a machine without a GPU, is refused).
The context is the first file's, with the gps_* metadata of all inputs merged: gps_rows and
gps_variants as unions (gps_rows kept to the rows the merged file holds: gpu_bench describes every
row it registers, about 2 MB, also in a filtered run), gps_suites in the order met. Benchmarks
are concatenated in the order given; one that appears twice is an error. The output is written
only when all of this holds (through a temporary file, so a failed merge leaves no partial file).

Exit status: 0 written; 2 bad input or usage (a bad or foreign file, different GPUs or commits,
nothing measured, a duplicate benchmark, an output that cannot be written).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import json
import os
import sys
import tempfile
from typing import List, Set, Tuple

import results
from results import ScriptError


def merge_metadata(contexts: List[dict], paths: List[str], held: Set[str]) -> dict:
    """The gps_* keys of the merged context (strings of JSON, as gpu_bench writes them); gps_rows
    only for the rows held (their run_names)."""
    suites: List[str] = []
    variants: dict = {}
    rows: dict = {}
    version = None
    for path, context in zip(paths, contexts):
        if results.read_metadata(path, context) is None:
            continue
        version = version or context.get("gps_metadata_version", "1")
        for s in results.context_json(path, context, "gps_suites", list):
            if s not in suites:
                suites.append(s)
        for algorithm, table in results.context_json(path, context, "gps_variants", dict).items():
            mine = variants.setdefault(algorithm, dict(table, variants=[]))
            known = {v.get("name") for v in mine["variants"]}
            mine["variants"] += [v for v in table.get("variants", []) if v.get("name") not in known]
        rows.update({k: v for k, v in results.context_json(path, context, "gps_rows", dict).items()
                     if k in held})
    if version is None:
        return {}
    return {"gps_metadata_version": str(version), "gps_suites": json.dumps(suites),
            "gps_variants": json.dumps(variants), "gps_rows": json.dumps(rows)}


def merge(parts: List[Tuple[str, dict]], allow_mixed: bool = False) -> dict:
    """The merged document of (path, document) pairs already checked by results.load."""
    first_path, first = parts[0]
    context = dict(first["context"])
    for path, doc in parts[1:]:
        for key, what in (("gpu_name", "GPU"), ("git_commit", "commit")):
            mine, theirs = doc["context"].get(key), context.get(key)
            if mine != theirs and not allow_mixed:
                raise ScriptError(f"{path}: {what} {mine!r} differs from {theirs!r} of "
                                  f"{first_path} (--allow-mixed merges them anyway)")
    merged = {"context": context, "benchmarks": []}
    seen = set()
    for path, doc in parts:
        for row in doc["benchmarks"]:
            key = (row.get("name"), row.get("run_type"), row.get("repetition_index"),
                   row.get("aggregate_name"))
            if key in seen:
                raise ScriptError(f"{path}: {row.get('name')} appears twice")
            seen.add(key)
            merged["benchmarks"].append(row)
    held = {row.get("run_name") for row in merged["benchmarks"]}
    context.update(merge_metadata([d["context"] for _, d in parts], [p for p, _ in parts], held))
    return merged


def write_atomically(path: str, doc: dict) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ScriptError(f"-o {path}: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".merge-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _main(argv=None) -> int:
    parser = results.ArgumentParser(prog="merge_results.py", description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True, metavar="OUT.json")
    parser.add_argument("inputs", nargs="+", metavar="PART.json")
    parser.add_argument("--allow-mixed", action="store_true",
                        help="merge files of different GPUs or commits")
    args = parser.parse_args(argv)
    loaded = [results.load(p) for p in args.inputs]  # one-line errors for bad inputs
    measured = sum(len(f.rows) for f in loaded)
    if measured == 0:
        skipped = [s for f in loaded for s in f.skipped]
        raise ScriptError(f"nothing was measured: all {len(skipped)} benchmarks were skipped "
                          f"with an error (first: {skipped[0][0]}: {skipped[0][1]})")
    merged = merge([(p, results.read_json(p)) for p in args.inputs], args.allow_mixed)
    write_atomically(args.output, merged)
    skipped = sum(len(f.skipped) for f in loaded)
    print(f"merge_results.py: wrote {args.output} ({measured} benchmarks measured"
          + (f", {skipped} skipped with an error" if skipped else "") + ")", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    return results.run_main("merge_results.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
