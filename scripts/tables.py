#!/usr/bin/env python3
"""Markdown tables of one result file: each variant at chosen sizes, with ratios to the copy
baseline and to the vendor anchor (CUB) of the same run. The README's "Measured results" tables
are this output.

    scripts/tables.py results/nvidia-h200.json                  # one table per algorithm
    scripts/tables.py results/x.json --sizes 16 24 30 --size npot
    scripts/tables.py results/x.json --filter '^sort/' --facet keys/uniform --facet pairs/uniform

Per algorithm (in suite order), the table of its headline extra-axis value (the one with the most
rows, where the block sizes are swept: keep:0.50 for compaction, keys/uniform for sort), or of
each --facet given, or of every value with --all-facets. Rows in the order of the variant table.
Each cell is the variant's figure at 2^k (best block size per row, noted as bNNN; GB/s, or G
keys/s for algorithms whose unit is keys) with `x copy` (copy_frac: GB/s over the
device-to-device copy of the same size in the same process; GPU rows only) and `x <anchor>`
(time of the anchor / time of the variant at that size).

Exit status: 0 tables written; 2 bad input or usage (a bad file, a bad regex, nothing matches).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import sys
from typing import List, Optional

import pandas as pd

import results
from results import ScriptError


def _figure(row: pd.Series, unit: str) -> str:
    if unit == "keys":
        value = f"{row['n'] / row['time_us'] / 1e3:.2f} Gkeys/s"
    else:
        value = f"{row['gbs']:.0f}"
    if row["block"] > 0:
        value += f" (b{int(row['block'])})"
    return value


def table(rows: pd.DataFrame, info: results.AlgorithmInfo, facet: str, sizes: List[int],
          size: str, gpu: str) -> Optional[str]:
    """One Markdown table, or None when the file has no such rows."""
    algorithm = info.name
    own = rows[(rows["algorithm"] == algorithm) & (rows["size"] == size)]
    # the roofline has no extra axes; the variants' own rows are those of the facet
    own = own[(own["facet"] == facet) | (own["role"] == "roofline")]
    if own[own["role"] != "roofline"].empty:
        return None
    best = results.best_blocks(own)
    anchor = info.anchor or "–"
    title = f"{algorithm} {facet}".strip()
    lines = [f"**{title}** ({gpu}; {size}; figure, then x copy and x {anchor} from the same run; "
             "best block size per row)", ""]
    head = ["variant"]
    for k in sizes:
        head += [f"2^{k}", "x copy", f"x {anchor}"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    reference = best[best["variant"] == info.anchor].set_index("log2n")["time_us"]
    for variant in info.order(best["variant"]):
        mine = best[best["variant"] == variant]
        roofline = mine["role"].iloc[0] == "roofline"
        if roofline and info.unit == "keys":
            continue  # the figure is keys/s: a copy row would mix units
        cells = [variant]
        for k in sizes:
            r = mine[mine["log2n"] == k]
            if r.empty:
                cells += ["–", "–", "–"]
                continue
            r = r.iloc[0]
            cells.append(_figure(r, info.unit))
            if roofline:  # the reference itself; its bytes differ from the anchor's
                cells += ["1.000", "–"]
                continue
            cells.append(f"{r['copy_frac']:.3f}" if pd.notna(r["copy_frac"]) else "–")
            cells.append(f"{reference[k] / r['time_us']:.2f}" if k in reference.index else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def wanted_tables(f: results.ResultFile, rows: pd.DataFrame, facets: List[str],
                  all_facets: bool):
    """(algorithm, facet) of every table to write, in suite order."""
    present = rows[rows["role"] != "roofline"]
    out = []
    for algorithm in [a for a in f.suites if a in set(present["algorithm"])]:
        own = list(dict.fromkeys(present.loc[present["algorithm"] == algorithm, "facet"]))
        if facets:
            chosen = [x for x in own if x in facets]
        elif all_facets:
            chosen = own
        else:
            chosen = [results.headline_facet(rows, algorithm)]
        out += [(algorithm, x) for x in chosen]
    return out


def _main(argv=None) -> int:
    parser = results.ArgumentParser(prog="tables.py", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a gpu_bench JSON result file")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 24, 28], metavar="K",
                        help="exponents k of the columns (default: 20 24 28)")
    parser.add_argument("--size", choices=["pot", "npot"], default="pot")
    parser.add_argument("--filter", help="regex on benchmark names (the copy rows always stay)")
    parser.add_argument("--facet", action="append", default=[],
                        help="this value of the extra axes, e.g. keep:1.00 (repeatable)")
    parser.add_argument("--all-facets", action="store_true",
                        help="a table for every value of the extra axes")
    args = parser.parse_args(argv)

    (f,), pattern = results.inputs([args.file], args.filter)
    rows = results.filter_rows(f.rows, pattern) if pattern is not None else f.rows
    out = [t for a, x in wanted_tables(f, rows, args.facet, args.all_facets)
           if (t := table(rows, f.info(a), x, args.sizes, args.size, f.gpu_title)) is not None]
    if not out:
        raise ScriptError("no rows match" + (f" --filter '{args.filter}'" if args.filter else "")
                          + (f" --facet {', '.join(args.facet)}" if args.facet else ""))
    print(f"<!-- scripts/tables.py {args.file}: {f.gpu_title}, commit {f.commit}, {f.date} -->\n")
    print("\n\n".join(out))
    measured = sorted(set(rows.loc[rows["size"] == args.size, "log2n"]))
    if measured and not set(args.sizes) & set(measured):
        print(f"tables.py: no {args.size} row at {', '.join(f'2^{k}' for k in args.sizes)} in "
              f"{args.file} (it has {', '.join(f'2^{k}' for k in measured)}): --sizes picks the "
              "columns", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    return results.run_main("tables.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
