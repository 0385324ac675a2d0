#!/usr/bin/env python3
"""Exports a gpu_bench result file to github-action-benchmark's customBiggerIsBetter format.

    scripts/export_gab.py results/nvidia-h100-80gb-hbm3.json -o gab.json [--filter REGEX]

Writes a JSON list with one entry per benchmark that ran (skipped rows are left out):
    {"name": "scan/cub/pot/log2n:28", "unit": "GB/s", "value": 2761.3,
     "range": "2701.2..2790.0", "extra": "NVIDIA H100 80GB HBM3 @ 12dc8800ec61; median 777.8 us; ..."}
`range` is the GB/s over the row's noise band; `extra` names the GPU, commit, the median time and
the fraction of the copy bandwidth. The action tracks each name across commits (use one action
`name:` per GPU, since the benchmark names do not carry the GPU).
"""

import argparse
import json
import sys
from typing import List

import results


def entries(f: results.ResultFile, pattern=None) -> List[dict]:
    out = []
    for r in f.rows.itertuples(index=False):
        if pattern is not None and not pattern.search(r.name):
            continue
        if r.gbs != r.gbs:  # no GB/s counter: nothing to track
            continue
        # GB/s is inversely proportional to the time: the band's slow end is the low GB/s
        low = r.gbs * r.time_us / r.time_hi_us if r.time_hi_us > 0 else r.gbs
        high = r.gbs * r.time_us / r.time_lo_us if r.time_lo_us > 0 else r.gbs
        extra = [f"{f.label}", f"median {r.time_us:.4g} us", f"noise {r.noise}"]
        if r.of_copy == r.of_copy:
            extra.append(f"{r.of_copy * 100:.1f}% of copy")
        out.append({
            "name": r.name,
            "unit": "GB/s",
            "value": float(f"{r.gbs:.6g}"),
            "range": f"{low:.4g}..{high:.4g}",
            "extra": "; ".join(extra),
        })
    return out


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Write a gpu_bench result file as github-action-benchmark "
        "customBiggerIsBetter JSON (GB/s per benchmark).")
    parser.add_argument("file", metavar="FILE.json", help="a gpu_bench JSON result file")
    parser.add_argument("-o", "--output", metavar="OUT.json",
                        help="where to write (default: standard output)")
    parser.add_argument("--filter", metavar="REGEX", help="only benchmarks whose name matches")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    opened = results.open_inputs("export_gab.py", [args.file], args.filter)
    if opened is None:
        return 2
    (f,), pattern = opened
    data = entries(f, pattern)
    if not data:
        print(f"export_gab.py: {args.file}: no benchmark with a GB/s value"
              + (" matches the filter" if pattern else ""), file=sys.stderr)
        return 1
    text = json.dumps(data, indent=2) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"export_gab.py: wrote {len(data)} benchmarks to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
