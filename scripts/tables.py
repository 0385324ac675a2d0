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
(time of the anchor / time of the variant at that size). With --bands both ratios also carry
[low-high] from the two rows' time bands (the repetitions' min..max in a file run with
--benchmark_repetitions, else each row's p10..p90 of its samples): low is the ratio with the
variant at its slowest and the copy or the anchor at its fastest, high the other way round; two
rows whose bands do not overlap have a verdict, `[1.068-1.095]` around 1.1 has none.

    scripts/tables.py results/partial/x-headline.json --sizes 24 28 30 --bands

Exit status: 0 tables written; 2 bad input or usage (a bad file, a bad regex, nothing matches).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import shlex
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


def _ratio(num: pd.Series, den: pd.Series, value: float, bands: bool, digits: int) -> str:
    """value (num's time over den's, in some unit), and with bands its [low-high]: num at its
    fastest and den at its slowest, then the other way round."""
    if not bands:
        return f"{value:.{digits}f}"
    scale = value * den["time_us"] / num["time_us"]
    low = scale * num["time_lo_us"] / den["time_hi_us"]
    high = scale * num["time_hi_us"] / den["time_lo_us"]
    return f"{value:.3f} [{low:.3f}-{high:.3f}]"


def table(rows: pd.DataFrame, info: results.AlgorithmInfo, facet: str, sizes: List[int],
          size: str, gpu: str, bands: bool = False) -> Optional[str]:
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
    kinds = sorted(set(best["band"]))
    note = f"; [low-high] from the rows' {' or '.join(kinds)}" if bands else ""
    lines = [f"**{title}** ({gpu}; {size}; figure, then x copy and x {anchor} from the same run; "
             f"best block size per row{note})", ""]
    head = ["variant"]
    for k in sizes:
        head += [f"2^{k}", "x copy", f"x {anchor}"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    reference = best[best["variant"] == info.anchor].set_index("log2n")
    copies = best[best["role"] == "roofline"].set_index("log2n")
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
            if pd.isna(r["copy_frac"]):
                cells.append("–")
            elif bands and k in copies.index:  # copy_frac is the copy's time over ours, scaled
                cells.append(_ratio(copies.loc[k], r, r["copy_frac"], True, 3))
            else:
                cells.append(f"{r['copy_frac']:.3f}")
            if k in reference.index:
                a = reference.loc[k]
                own_anchor = variant == info.anchor  # its band against itself says nothing
                cells.append(_ratio(a, r, a["time_us"] / r["time_us"], bands and not own_anchor,
                                    3 if bands else 2))
            else:
                cells.append("–")
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


DEFAULT_SIZES = [20, 24, 28]


def options(args) -> str:
    """The options that made a table, in one canonical order (defaults left out), so that the
    comment above a pasted table says how to make it again (scripts/doc_tables.py does)."""
    words = []
    if args.sizes != DEFAULT_SIZES:
        words += ["--sizes"] + [str(k) for k in args.sizes]
    if args.size != "pot":
        words += ["--size", args.size]
    if args.filter:
        words += ["--filter", args.filter]
    for facet in args.facet:
        words += ["--facet", facet]
    words += ["--all-facets"] if args.all_facets else []
    words += ["--bands"] if args.bands else []
    return shlex.join(words)


def _main(argv=None) -> int:
    parser = results.ArgumentParser(prog="tables.py", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a gpu_bench JSON result file")
    parser.add_argument("--sizes", type=int, nargs="+", default=DEFAULT_SIZES, metavar="K",
                        help="exponents k of the columns (default: 20 24 28)")
    parser.add_argument("--size", choices=["pot", "npot"], default="pot")
    parser.add_argument("--filter", help="regex on benchmark names (the copy rows always stay)")
    parser.add_argument("--facet", action="append", default=[],
                        help="this value of the extra axes, e.g. keep:1.00 (repeatable)")
    parser.add_argument("--all-facets", action="store_true",
                        help="a table for every value of the extra axes")
    parser.add_argument("--bands", action="store_true",
                        help="the ratios with [low-high] from the rows' time bands")
    args = parser.parse_args(argv)

    (f,), pattern = results.inputs([args.file], args.filter)
    rows = results.filter_rows(f.rows, pattern) if pattern is not None else f.rows
    wanted = wanted_tables(f, rows, args.facet, args.all_facets)
    out = [t for a, x in wanted
           if (t := table(rows, f.info(a), x, args.sizes, args.size, f.gpu_title, args.bands))
           is not None]
    if not out:
        raise ScriptError("no rows match" + (f" --filter '{args.filter}'" if args.filter else "")
                          + (f" --facet {', '.join(args.facet)}" if args.facet else ""))
    command = " ".join(x for x in ("scripts/tables.py", args.file, options(args)) if x)
    print(f"<!-- {command}: {f.gpu_title}, commit {f.commit}, {f.date} -->\n")
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
