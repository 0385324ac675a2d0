#!/usr/bin/env python3
"""Exports the headline rows of a gpu_bench result file for github-action-benchmark
(`tool: customBiggerIsBetter`).

    scripts/export_gab.py results/nvidia-h200.json -o gab.json       # headline rows
    scripts/export_gab.py results/nvidia-h200.json --sizes 20 24 28 --filter '^scan/'
    scripts/export_gab.py results/nvidia-h200.json --all             # every row (thousands)

Headline rows, per algorithm at its headline extra-axis value (results.headline_facet), POT
sizes 2^24 and 2^28 (--sizes): the roofline (copy), the vendor anchor (CUB) and the fastest
study variant at its best block, which is tracked under the name
`<algorithm>/best_study[/<axes>]/pot/log2n:<k>` (its variant and block are in `extra`), so that
the chart goes on when another variant becomes the fastest. Roles come from the metadata.

Each entry: {"name", "unit", "value", "range", "extra"}: GB/s (or Gkeys/s where the algorithm
counts keys), `range` the value over the row's noise band, `extra` the GPU, commit, variant,
median time and fraction of copy. Use one action `name:` per GPU: the names do not carry it.

Exit status: 0 written; 2 bad input or usage (a bad file, nothing selected, an output that
cannot be written).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import json
import os
import sys
from typing import List, Optional

import pandas as pd

import results
from results import ScriptError

DEFAULT_SIZES = [24, 28]
BEST_STUDY = "best_study"


def _value(r, unit: str):
    """(unit label, value, low, high) of a row: GB/s, or Gkeys/s for the variants of algorithms
    that count keys (their GB/s depends on the passes a variant makes)."""
    if unit == "keys" and r.role != "roofline":
        label, value = "Gkeys/s", r.n / r.time_us / 1e3
    else:
        label, value = "GB/s", r.gbs
    # the value is inversely proportional to the time: the band's slow end is the low value
    low = value * r.time_us / r.time_hi_us if r.time_hi_us > 0 else value
    high = value * r.time_us / r.time_lo_us if r.time_lo_us > 0 else value
    return label, value, low, high


def entry(f: results.ResultFile, r, name: Optional[str] = None) -> Optional[dict]:
    label, value, low, high = _value(r, f.info(r.algorithm).unit)
    if value != value:  # no GB/s counter: nothing to track
        return None
    extra = [f.label, f"{r.variant}" + (f" block {int(r.block)}" if r.block else ""),
             f"median {r.time_us:.4g} us", f"band {r.band}"]
    if r.of_copy == r.of_copy:
        extra.append(f"{r.of_copy * 100:.1f}% of copy")
    return {"name": name or r.name, "unit": label, "value": float(f"{value:.6g}"),
            "range": f"{low:.4g}..{high:.4g}", "extra": "; ".join(extra)}


def headline(f: results.ResultFile, rows: pd.DataFrame, sizes: List[int]) -> List[dict]:
    out = []
    for algorithm in f.suites:
        info = f.info(algorithm)
        facet = results.headline_facet(rows, algorithm)
        own = rows[(rows["algorithm"] == algorithm) & (rows["size"] == "pot")]
        for k in sizes:
            at = own[own["log2n"] == k]
            copy = at[at["role"] == "roofline"]
            mine = results.best_blocks(at[(at["facet"] == facet) & (at["role"] != "roofline")])
            anchor = mine[mine["variant"] == info.anchor]
            study = mine[mine["role"] == "study"].sort_values("time_us")
            picked = [(r, None) for r in copy.head(1).itertuples(index=False)]
            if not study.empty:
                r = next(study.itertuples(index=False))
                parts = [algorithm, BEST_STUDY] + ([facet] if facet else []) + ["pot", f"log2n:{k}"]
                picked.append((r, "/".join(parts)))
            picked += [(r, None) for r in anchor.head(1).itertuples(index=False)]
            out += [e for r, name in picked if (e := entry(f, r, name)) is not None]
    return out


def _main(argv=None) -> int:
    parser = results.ArgumentParser(
        prog="export_gab.py",
        description="Write the headline rows of a gpu_bench result file as github-action-"
        "benchmark customBiggerIsBetter JSON.")
    parser.add_argument("file", metavar="FILE.json", help="a gpu_bench JSON result file")
    parser.add_argument("-o", "--output", metavar="OUT.json",
                        help="where to write (default: standard output)")
    parser.add_argument("--filter", metavar="REGEX", help="only benchmarks whose name matches")
    parser.add_argument("--sizes", type=int, nargs="+", default=DEFAULT_SIZES, metavar="K",
                        help="exponents of the headline sizes (default: 24 28)")
    parser.add_argument("--all", action="store_true", help="every row, not the headline ones")
    args = parser.parse_args(argv)
    if args.output:
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise ScriptError(f"-o {args.output}: the folder {folder} does not exist")
    (f,), pattern = results.inputs([args.file], args.filter)
    rows = results.matching(f.rows, pattern)
    if args.all:
        data = [e for r in rows.itertuples(index=False) if (e := entry(f, r)) is not None]
    else:
        data = headline(f, rows, args.sizes)
    if not data:
        raise ScriptError(f"{args.file}: no benchmark to export"
                          + (f" matches --filter '{args.filter}'" if pattern else "")
                          + ("" if args.all else f" at sizes 2^{', 2^'.join(map(str, args.sizes))}"))
    text = json.dumps(data, indent=2) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"export_gab.py: wrote {len(data)} entries to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def main(argv=None) -> int:
    return results.run_main("export_gab.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
