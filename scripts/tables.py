#!/usr/bin/env python3
"""Markdown tables of one result file: each variant at chosen sizes, with ratios to the copy
baseline and to CUB of the same run. The README's "Measured results" tables are this output.

    scripts/tables.py results/nvidia-h200.json                  # the README's tables
    scripts/tables.py results/x.json --sizes 16 24 30 --size npot
    scripts/tables.py results/x.json --filter '^compact/' --facet keep:1.00

Each cell is the variant's figure at 2^k (best block size per row, noted as bNNN; GB/s, or G
keys/s for sort) with `x copy` (copy_frac: GB/s over the device-to-device copy of the same size
in the same process; GPU rows only) and `x cub` (time of CUB / time of the variant at that size).
"""

import argparse
import sys
from typing import List, Optional

import pandas as pd

import results

# (algorithm, facet) of the README's tables, in order
DEFAULT_TABLES = [("scan", ""), ("compact", "keep:0.50"), ("reduce", ""),
                  ("sort", "keys/uniform"), ("sort", "pairs/uniform")]


def _figure(row: pd.Series, algorithm: str) -> str:
    if algorithm == "sort":
        value = f"{row['n'] / row['time_us'] / 1e3:.2f} Gkeys/s"
    else:
        value = f"{row['gbs']:.0f}"
    if row["block"] > 0:
        value += f" (b{int(row['block'])})"
    return value


def table(rows: pd.DataFrame, algorithm: str, facet: str, sizes: List[int], size: str,
          gpu: str) -> Optional[str]:
    """One Markdown table, or None when the file has no such rows."""
    own = rows[(rows["algorithm"] == algorithm) & (rows["size"] == size)]
    # the copy baseline has no facet; the variants' own rows are those of the facet
    own = own[(own["facet"] == facet) | (own["variant"] == results.COPY_VARIANT)]
    if own[own["variant"] != results.COPY_VARIANT].empty:
        return None
    best = results.best_blocks(own)
    title = f"{algorithm} {facet}".strip()
    lines = [f"**{title}** ({gpu}; {size}; figure, then x copy and x CUB from the same run; "
             "best block size per row)", ""]
    head = ["variant"]
    for k in sizes:
        head += [f"2^{k}", "x copy", "x cub"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    cub = best[best["variant"] == "cub"].set_index("log2n")["time_us"]
    for variant in dict.fromkeys(best["variant"]):  # file order
        if variant == results.COPY_VARIANT and algorithm == "sort":
            continue  # sort's figure is keys/s: a copy row would mix units
        cells = [variant]
        for k in sizes:
            r = best[(best["variant"] == variant) & (best["log2n"] == k)]
            if r.empty:
                cells += ["–", "–", "–"]
                continue
            r = r.iloc[0]
            cells.append(_figure(r, algorithm))
            if variant == results.COPY_VARIANT:  # the reference itself; its bytes differ from cub's
                cells += ["1.000", "–"]
                continue
            cells.append(f"{r['copy_frac']:.3f}" if pd.notna(r["copy_frac"]) else "–")
            cells.append(f"{cub[k] / r['time_us']:.2f}" if k in cub.index else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a gpu_bench JSON result file")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 24, 28], metavar="K",
                        help="exponents k of the columns (default: 20 24 28)")
    parser.add_argument("--size", choices=["pot", "npot"], default="pot")
    parser.add_argument("--filter", help="regex on benchmark names (the copy rows always stay)")
    parser.add_argument("--facet", help="only this value of the extra axes, e.g. keep:1.00")
    args = parser.parse_args(argv)

    opened = results.open_inputs("tables.py", [args.file], args.filter)
    if opened is None:
        return 1
    (f,), pattern = opened
    rows = f.rows
    if pattern is not None:
        rows = results.filter_rows(rows, pattern)
    wanted = DEFAULT_TABLES
    if args.filter or args.facet:
        present = rows[rows["variant"] != results.COPY_VARIANT]
        wanted = list(dict.fromkeys(zip(present["algorithm"], present["facet"])))
        if args.facet:
            wanted = [(a, fa) for a, fa in wanted if fa == args.facet]
    out = [t for a, fa in wanted
           if (t := table(rows, a, fa, args.sizes, args.size, f.gpu_name)) is not None]
    if not out:
        print("tables.py: no rows match", file=sys.stderr)
        return 1
    commit = f.context.get("git_commit", "unknown")
    print(f"<!-- scripts/tables.py {args.file}: {f.gpu_name}, commit {commit} -->\n")
    print("\n\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
