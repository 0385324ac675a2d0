#!/usr/bin/env python3
"""Merge Google Benchmark JSON files of one GPU (e.g. one per suite) into one results file.

The context of the first file is kept; every file must name the same GPU. Benchmarks are
concatenated in the order given; a benchmark name that appears twice is an error.

Usage: scripts/merge_results.py -o results/nvidia-h200.json part1.json part2.json ...
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise SystemExit(f"merge_results.py: {path}: cannot read JSON: {e}")
    if not isinstance(data, dict) or "context" not in data or "benchmarks" not in data:
        raise SystemExit(f"merge_results.py: {path}: not a Google Benchmark JSON file")
    return data


def merge(parts):
    merged = {"context": dict(parts[0][1]["context"]), "benchmarks": []}
    gpu = merged["context"].get("gpu_name")
    seen = set()
    for path, data in parts:
        if data["context"].get("gpu_name") != gpu:
            raise SystemExit(
                f"merge_results.py: {path}: GPU {data['context'].get('gpu_name')!r} differs "
                f"from {gpu!r}"
            )
        for row in data["benchmarks"]:
            key = (row["name"], row.get("run_type"), row.get("repetition_index"),
                   row.get("aggregate_name"))
            if key in seen:
                raise SystemExit(f"merge_results.py: {path}: {row['name']} appears twice")
            seen.add(key)
            merged["benchmarks"].append(row)
    return merged


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args(argv)
    merged = merge([(p, load(p)) for p in args.inputs])
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    print(f"merge_results.py: wrote {args.output} ({len(merged['benchmarks'])} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
