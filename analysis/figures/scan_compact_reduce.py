#!/usr/bin/env python3
"""Figures of the Scan, Stream compaction and Reduction sections of analysis/README.md.

Run from the repository root:  .venv/bin/python analysis/figures/scan_compact_reduce.py [section ...]
Sections: scan compact reduce extras thrust_runs block_tables final_checks (default: all;
thrust_runs needs the earlier full runs in /tmp/old-h100.json and /tmp/old-h200.json, see its
comment).
Sources:
  full runs (commit 9ca6ced22311): results/nvidia-h200.json, results/nvidia-h100-80gb-hbm3.json
  5-repetition headline runs (commit a4783e314b19): results/partial/nvidia-{h200,h100}-headline.json
Bands: a full-run row's [p10_s, p90_s]; a 5-repetition row's [min, max] of its real_time.
"""
import json
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, "scripts")
import results  # noqa: E402  (the project's reader of result files)

FULL = {"H200": "results/nvidia-h200.json", "H100": "results/nvidia-h100-80gb-hbm3.json"}
HEAD = {"H200": "results/partial/nvidia-h200-headline.json",
        "H100": "results/partial/nvidia-h100-headline.json"}
GPUS = ("H100", "H200")
BLOCKS = (64, 128, 256, 512, 1024)
KEEPS = ("keep:0.00", "keep:0.50", "keep:0.75", "keep:1.00")  # compact's kept fractions

def keyed_rows(path):
    """(key, raw row) of every repetition, key = (algo, var, facet, size, k, block), from
    scripts/results.py (the rows' gps_rows metadata); failed rows are left out."""
    _, rows = results.iterations(path)
    return [((i.algorithm, i.variant, i.facet, i.size, i.log2n, i.block), r) for i, r in rows]


def load_full(path):
    """key -> row: (algo, var, axes, size, k, block); one iteration row each."""
    rows = {}
    for key, r in keyed_rows(path):
        r["t"] = r["real_time"]  # us
        r["lo"] = r["p10_s"] * 1e6
        r["hi"] = r["p90_s"] * 1e6
        rows[key] = r
    return rows


def load_head(path):
    """key -> dict(med, lo, hi, frac): 5 repetitions of real_time (us)."""
    reps = defaultdict(list)
    fr = defaultdict(list)
    for key, r in keyed_rows(path):
        reps[key].append(r["real_time"])
        fr[key].append(r["copy_frac"])
    return {k: {"t": statistics.median(v), "lo": min(v), "hi": max(v), "n": len(v),
                "frac": statistics.median(fr[k]), "frac_lo": min(fr[k]), "frac_hi": max(fr[k])}
            for k, v in reps.items()}


F = {g: load_full(p) for g, p in FULL.items()}
H = {g: load_head(p) for g, p in HEAD.items()}


def variants(rows, algo):
    seen = []
    for k in rows:
        if k[0] == algo and k[1] not in seen:
            seen.append(k[1])
    return seen


def best(rows, algo, var, axes, size, k):
    """The row of the best (lowest median) block, or the blockless row."""
    cands = [r for key, r in rows.items() if key[:5] == (algo, var, axes, size, k)]
    if not cands:
        return None
    return min(cands, key=lambda r: r["t"])


def copyrow(rows, algo, size, k):
    return rows.get((algo, "copy", "", size, k, 0))


def apart(a, b):
    """'apart' when the bands [lo, hi] do not overlap."""
    return a["hi"] < b["lo"] or b["hi"] < a["lo"]


def verdict(a, b):
    if not apart(a, b):
        return "same"
    return "faster" if a["t"] < b["t"] else "slower"


def mark(a, b):
    """One character: + faster, - slower, = the same within the bands."""
    return {"same": "=", "faster": "+", "slower": "-"}[verdict(a, b)]


def xcub(var, cub):
    """x CUB = CUB time / variant time; for 5-rep rows also [low-high]."""
    mid = cub["t"] / var["t"]
    return mid, cub["lo"] / var["hi"], cub["hi"] / var["lo"]


def fmt_band(r):
    return f"{r['t']:.1f} [{r['lo']:.1f}-{r['hi']:.1f}]"


def keep_grid(sizes, cell):
    """compact: a line per GPU and kept fraction, cell(g, keep, k) for each size k."""
    for g in GPUS:
        for keep in KEEPS:
            print(f"  {g} {keep}: " + " ".join(cell(g, keep, k) for k in sizes))


def head_best(g, algo, var, axes, k):
    cands = [(key, r) for key, r in H[g].items() if key[:5] == (algo, var, axes, "pot", k)]
    if not cands:
        return None, None
    key, r = min(cands, key=lambda kr: kr[1]["t"])
    return key[5], r


# ---------------------------------------------------------------------------------------------
def sec_common(algo, axes_of, sizes=(20, 24, 28, 30), anchor="cub"):
    """Per variant: best block, time, band, x copy, x CUB with band verdict, each GPU."""
    for g in GPUS:
        rows = F[g]
        print(f"\n== {algo} {g}: best block, t [p10-p90] us, x copy, x cub (verdict vs cub band)")
        for var in variants(rows, algo):
            if var == "copy":
                continue
            out = []
            for k in sizes:
                r = best(rows, algo, var, axes_of(var), "pot", k)
                c = best(rows, algo, anchor, axes_of(anchor), "pot", k)
                if r is None:
                    out.append(f"2^{k}: -")
                    continue
                x = c["t"] / r["t"] if c else float("nan")
                v = verdict(r, c) if c else "-"
                out.append(f"2^{k}: b{r.get('block', 0):.0f} {r['t']:.2f} [{r['lo']:.2f}-{r['hi']:.2f}]"
                           f" {r.get('copy_frac', 0):.3f}xc {x:.3f}xcub {v}")
            print(f"  {var:32s} " + " | ".join(out))


def ratio_gpus(algo, axes_of, ks=(20, 24, 28, 30)):
    print(f"\n== {algo}: H100 time / H200 time, best block each (copy likewise)")
    for var in variants(F["H200"], algo):
        out = []
        for k in ks:
            a = best(F["H100"], algo, var, axes_of(var), "pot", k)
            b = best(F["H200"], algo, var, axes_of(var), "pot", k)
            if a and b:
                out.append(f"2^{k}: {a['t'] / b['t']:.3f}")
        print(f"  {var:32s} " + "  ".join(out))


def blocks(algo, axes_of, ks=(20, 24, 28, 30)):
    print(f"\n== {algo}: block sweep (us), best marked *, band-overlap with best marked ~")
    for g in GPUS:
        rows = F[g]
        for var in variants(rows, algo):
            for k in ks:
                rs = {key[5]: r for key, r in rows.items()
                      if key[:5] == (algo, var, axes_of(var), "pot", k) and key[5]}
                if len(rs) < 2:
                    continue
                bb = min(rs, key=lambda b: rs[b]["t"])
                wb = max(rs, key=lambda b: rs[b]["t"])
                cells = []
                for b in sorted(rs):
                    mark = "*" if b == bb else ("~" if not apart(rs[b], rs[bb]) else "")
                    cells.append(f"{b}:{rs[b]['t']:.1f}{mark}")
                print(f"  {g} {var:30s} 2^{k}: " + " ".join(cells)
                      + f"  worst/best {rs[wb]['t'] / rs[bb]['t']:.3f}")


def npot(algo, axes_of, ks=(20, 24, 28)):
    print(f"\n== {algo}: npot / pot time, best block each (verdict by bands)")
    for g in GPUS:
        rows = F[g]
        for var in variants(rows, algo):
            out = []
            for k in ks:
                p = best(rows, algo, var, axes_of(var), "pot", k)
                q = best(rows, algo, var, axes_of(var), "npot", k)
                if p and q:
                    out.append(f"2^{k}: {q['t'] / p['t']:.3f} {verdict(q, p)}")
            if out:
                print(f"  {g} {var:30s} " + "  ".join(out))


def headline(algo, vars_, axes_of, ks=(20, 24, 28, 30)):
    print(f"\n== {algo}: 5-repetition headline runs (a4783e314b19), best block by median")
    for g in GPUS:
        for k in ks:
            cb, cub = head_best(g, algo, "cub", axes_of("cub"), k)
            _, cp = head_best(g, algo, "copy", "", k)
            print(f"  {g} 2^{k}: copy {fmt_band(cp)}  cub {fmt_band(cub)} ({cub['frac']:.3f}xc)")
            for var in vars_:
                b, r = head_best(g, algo, var, axes_of(var), k)
                if r is None:
                    continue
                m, lo, hi = xcub(r, cub)
                v = verdict(r, cub)
                print(f"      {var:24s} b{b} {fmt_band(r)} x copy {r['frac']:.3f}"
                      f" [{r['frac_lo']:.3f}-{r['frac_hi']:.3f}] x CUB {m:.3f} [{lo:.3f}-{hi:.3f}]"
                      f" {v}")


def best_inhouse_vs_cub(algo, axes_of, exclude, ks=range(10, 31)):
    print(f"\n== {algo}: fastest in-house GPU variant per pot size against CUB (band verdict)")
    for g in GPUS:
        rows = F[g]
        for k in ks:
            c = best(rows, algo, "cub", axes_of("cub"), "pot", k)
            cands = []
            for var in variants(rows, algo):
                if var in exclude:
                    continue
                r = best(rows, algo, var, axes_of(var), "pot", k)
                if r:
                    cands.append((r["t"], var, r))
            cands.sort(key=lambda x: x[0])
            t, var, r = cands[0]
            second = cands[1]
            print(f"  {g} 2^{k}: {var} b{r.get('block', 0):.0f} {r['t']:.2f} [{r['lo']:.2f}-{r['hi']:.2f}]"
                  f" cub {c['t']:.2f} [{c['lo']:.2f}-{c['hi']:.2f}] x cub {c['t'] / t:.3f}"
                  f" {verdict(r, c)}; next {second[1]} {second[0]:.2f}"
                  f" ({verdict(second[2], r)} vs best)")


# ---------------------------------------------------------------------------------------------
def scan():
    ax = lambda v: ""
    sec_common("scan", ax)
    ratio_gpus("scan", ax)
    blocks("scan", ax, ks=(20, 24, 28))
    npot("scan", ax)
    headline("scan", ("decoupled_lookback", "prefetch_lookback"), ax)
    best_inhouse_vs_cub("scan", ax, {"cpu", "cpu_parallel", "thrust", "cub", "copy"})
    print("\n== scan: prefetch_lookback vs decoupled_lookback, best blocks, per pot size")
    for g in GPUS:
        for k in range(16, 31):
            a = best(F[g], "scan", "prefetch_lookback", "", "pot", k)
            b = best(F[g], "scan", "decoupled_lookback", "", "pot", k)
            print(f"  {g} 2^{k}: prefetch b{a['block']:.0f} {a['t']:.2f}, decoupled"
                  f" b{b['block']:.0f} {b['t']:.2f}: prefetch {verdict(a, b)}")
    print("\n== scan: thrust against cub, cpu rows")
    for g in GPUS:
        for k in (20, 24, 28, 30):
            a = best(F[g], "scan", "thrust", "", "pot", k)
            c = best(F[g], "scan", "cub", "", "pot", k)
            print(f"  {g} 2^{k}: thrust {a['t']:.2f} cub {c['t']:.2f} x cub {c['t'] / a['t']:.3f}"
                  f" {verdict(a, c)}")
        for var in ("cpu", "cpu_parallel"):
            ks = sorted(k[4] for k in F[g] if k[:2] == ("scan", var) and k[3] == "pot")
            r = best(F[g], "scan", var, "", "pot", ks[-1])
            print(f"  {g} {var}: up to 2^{ks[-1]}: {r['t']:.0f} us, {r['GB/s']:.1f} GB/s,"
                  f" {r.get('copy_frac', 0):.4f} x copy")


def compact():
    ax = lambda v: "" if v == "copy" else "keep:0.50"
    sec_common("compact", ax)
    ratio_gpus("compact", ax)
    blocks("compact", ax, ks=(20, 24, 28))
    npot("compact", ax, ks=(20, 24, 28))
    headline("compact", ("single_pass", "prefetch_lookback"), ax)
    best_inhouse_vs_cub("compact", ax, {"cpu_no_scan", "cpu_with_scan", "thrust_copy_if",
                                         "thrust_remove_copy", "cub", "copy"})
    print("\n== compact: every kept fraction at 2^28 (and 2^24, 2^30): best block, x copy, x CUB")
    for k in (24, 28, 30):
        for keep in KEEPS:
            line = []
            for g in GPUS:
                c = best(F[g], "compact", "cub", keep, "pot", k)
                for var in ("single_pass", "prefetch_lookback", "cub"):
                    r = best(F[g], "compact", var, keep, "pot", k)
                    v = "" if var == "cub" else " " + verdict(r, c)
                    line.append(f"{g} {var} b{r.get('block', 0):.0f} {r['t']:.1f} {r.get('copy_frac', 0):.3f}xc"
                                f" {c['t'] / r['t']:.2f}xcub{v}")
            print(f"  2^{k} {keep}: " + " | ".join(line))
    print("\n== compact: H100/H200 time per kept fraction, 2^28")
    for keep in KEEPS:
        out = []
        for var in ("single_pass", "prefetch_lookback", "cub", "thrust_copy_if"):
            a = best(F["H100"], "compact", var, keep, "pot", 28)
            b = best(F["H200"], "compact", var, keep, "pot", 28)
            out.append(f"{var} {a['t'] / b['t']:.3f}")
        print(f"  {keep}: " + "  ".join(out))
    print("\n== compact: fastest of single_pass / prefetch_lookback per size and kept fraction")
    def fastest(g, keep, k):
        v = verdict(best(F[g], "compact", "prefetch_lookback", keep, "pot", k),
                    best(F[g], "compact", "single_pass", keep, "pot", k))
        return f"{k}:{'P' if v == 'faster' else 'S' if v == 'slower' else '='}"
    keep_grid(range(16, 31), fastest)
    print("\n== compact: thrust rows against cub (blocked counter), keep 0.50")
    for g in GPUS:
        for var in ("thrust_copy_if", "thrust_remove_copy"):
            out = []
            for k in (20, 24, 28, 30):
                r = best(F[g], "compact", var, "keep:0.50", "pot", k)
                c = best(F[g], "compact", "cub", "keep:0.50", "pot", k)
                out.append(f"2^{k}: {c['t'] / r['t']:.3f} {verdict(r, c)} blocked={r['blocked']:.0f}")
            print(f"  {g} {var}: " + "  ".join(out))
    print("\n== compact: scan_based at 2^28 keep 0.50 against single_pass")
    for g in GPUS:
        sp = best(F[g], "compact", "single_pass", "keep:0.50", "pot", 28)
        for var in ("scan_based_work_efficient", "scan_based_shared_mem",
                    "scan_based_decoupled_lookback"):
            r = best(F[g], "compact", var, "keep:0.50", "pot", 28)
            print(f"  {g} {var} b{r.get('block', 0):.0f} {r.get('copy_frac', 0):.3f} x copy;"
                  f" single_pass is {r['t'] / sp['t']:.2f}x faster")
    print("\n== compact: cpu rows")
    for g in GPUS:
        for var in ("cpu_no_scan", "cpu_with_scan"):
            ks = sorted(k[4] for k in F[g] if k[:3] == ("compact", var, "keep:0.50")
                        and k[3] == "pot")
            r = best(F[g], "compact", var, "keep:0.50", "pot", ks[-1])
            print(f"  {g} {var}: up to 2^{ks[-1]}: {r['t']:.0f} us, {r['GB/s']:.2f} GB/s")


def reduce_():
    ax = lambda v: ""
    sec_common("reduce", ax)
    ratio_gpus("reduce", ax)
    blocks("reduce", ax, ks=(20, 24, 28, 30))
    npot("reduce", ax, ks=(20, 24, 28))
    headline("reduce", ("vectorized_grid_stride", "thrust"), ax)
    print("\n== reduce: peak fraction of vectorized_grid_stride and cub at 2^28, 2^30")
    for g in GPUS:
        peak = float(json.load(open(FULL[g]))["context"]["gpu_peak_bandwidth_gbs"])
        for k in (28, 30):
            for var in ("vectorized_grid_stride", "cub"):
                r = best(F[g], "reduce", var, "", "pot", k)
                print(f"  {g} 2^{k} {var}: {r['GB/s']:.0f} GB/s = {r['GB/s'] / peak:.3f} of"
                      f" {peak:.0f}; copy_GB/s {r['copy_GB/s']:.0f} = copy moves"
                      f" {r['copy_GB/s'] / 2:.0f} GB/s of reads")
    print("\n== reduce: classic sequence speed-ups at 2^28 (best blocks), verdict by bands")
    seq = ("interleaved", "convergent", "first_add_on_load", "warp_shuffle",
           "vectorized_grid_stride")
    for g in GPUS:
        for a, b in zip(seq, seq[1:]):
            ra = best(F[g], "reduce", a, "", "pot", 28)
            rb = best(F[g], "reduce", b, "", "pot", 28)
            print(f"  {g} {b} over {a}: {ra['t'] / rb['t']:.3f} {verdict(rb, ra)}")
        ra = best(F[g], "reduce", "atomic_accumulate", "", "pot", 20)
        rb = best(F[g], "reduce", "warp_shuffle", "", "pot", 20)
        print(f"  {g} 2^20 atomic_accumulate {fmt_band(ra)} vs warp_shuffle {fmt_band(rb)}")
        ra = best(F[g], "reduce", "atomic_accumulate", "", "pot", 28)
        rb = best(F[g], "reduce", "warp_shuffle", "", "pot", 28)
        print(f"  {g} 2^28 atomic_accumulate b{ra['block']:.0f} {fmt_band(ra)} vs warp_shuffle"
              f" {fmt_band(rb)}: {ra['t'] / rb['t']:.3f} {verdict(ra, rb)}")
        for var in ("interleaved", "warp_shuffle", "atomic_accumulate"):
            r = F[g][("reduce", var, "", "pot", 28, 64)]
            print(f"  {g} 2^28 {var} block 64: {r['t']:.0f} us")
    print("\n== reduce: cpu rows")
    for g in GPUS:
        for var in ("cpu", "cpu_parallel"):
            ks = sorted(k[4] for k in F[g] if k[:2] == ("reduce", var) and k[3] == "pot")
            r = best(F[g], "reduce", var, "", "pot", ks[-1])
            print(f"  {g} {var}: up to 2^{ks[-1]}: {r['t']:.0f} us, {r['GB/s']:.1f} GB/s")


# ---------------------------------------------------------------------------------------------
def extras():
    print("\n== scan: chained, time per tile at 2^28 (tile = block x 64 elements below 1024)")
    for g in GPUS:
        for b in BLOCKS:
            r = F[g].get(("scan", "chained", "", "pot", 28, b))
            items = 32 if b >= 1024 else 64
            tiles = 2**28 // (b * items)
            print(f"  {g} b{b}: {r['t']:.0f} us, {tiles} tiles, {r['t'] / tiles * 1e3:.0f} ns a tile")
    print("\n== scan: block 64 at 2^28 on both GPUs")
    for var in ("naive", "work_efficient", "kogge_stone", "warp_shuffle"):
        a = F["H100"][("scan", var, "", "pot", 28, 64)]
        b = F["H200"][("scan", var, "", "pot", 28, 64)]
        c = F["H200"][("scan", var, "", "pot", 28, 128)]
        print(f"  {var}: H100 {a['t']:.0f} H200 {b['t']:.0f} us (H100/H200 {a['t'] / b['t']:.4f});"
              f" H200 b64/b128 {b['t'] / c['t']:.3f}")
    print("\n== scan: npot / pot per block at 2^20 and 2^24 (chained, decoupled, prefetch)")
    for g in GPUS:
        for var in ("chained", "decoupled_lookback", "prefetch_lookback"):
            for k in (20, 24):
                cells = []
                for b in BLOCKS:
                    p_ = F[g][("scan", var, "", "pot", k, b)]
                    q = F[g][("scan", var, "", "npot", k, b)]
                    cells.append(f"{b}:{q['t'] - p_['t']:+.1f}us({mark(q, p_)})")
                print(f"  {g} {var:20s} 2^{k}: " + " ".join(cells))
    print("\n== copy's fraction of the theoretical peak at 2^28 (each suite's copy)")
    for g in GPUS:
        peak = float(json.load(open(FULL[g]))["context"]["gpu_peak_bandwidth_gbs"])
        for algo in ("scan", "compact", "reduce"):
            c = F[g][(algo, "copy", "", "pot", 28, 0)]
            print(f"  {g} {algo}: copy {c['GB/s']:.0f} GB/s = {c['GB/s'] / peak:.3f} of {peak}")
    print("\n== compact: block sweeps at 2^28 per kept fraction (single_pass, prefetch_lookback)")
    for g in GPUS:
        for var in ("single_pass", "prefetch_lookback"):
            for keep in KEEPS:
                rs = {b: F[g][("compact", var, keep, "pot", 28, b)] for b in BLOCKS
                      if ("compact", var, keep, "pot", 28, b) in F[g]}
                bb = min(rs, key=lambda b: rs[b]["t"])
                cells = [f"{b}:{rs[b]['t']:.1f}" + ("*" if b == bb else "~" if not apart(rs[b], rs[bb])
                                                     else "") + f"({rs[b]['t'] / rs[bb]['t']:.3f})"
                         for b in sorted(rs)]
                print(f"  {g} {var:18s} {keep}: " + " ".join(cells))
    print("\n== compact: best of single_pass / prefetch_lookback against CUB, 2^10..2^30, every keep")
    def best_vs_cub(g, keep, k):
        c = best(F[g], "compact", "cub", keep, "pot", k)
        r = min((best(F[g], "compact", v, keep, "pot", k)
                 for v in ("single_pass", "prefetch_lookback")), key=lambda x: x["t"])
        return f"{k}:{c['t'] / r['t']:.2f}{mark(r, c)}"
    keep_grid(range(10, 31), best_vs_cub)
    print("\n== compact: prefetch_lookback against CUB at small sizes, every keep")
    def prefetch_vs_cub(g, keep, k):
        c = best(F[g], "compact", "cub", keep, "pot", k)
        r = best(F[g], "compact", "prefetch_lookback", keep, "pot", k)
        return f"{k}:{c['t'] / r['t']:.2f}{mark(r, c)}"
    keep_grid((20, 21, 22, 23, 24), prefetch_vs_cub)
    print("\n== compact: npot/pot per kept fraction at 2^24, 2^28 (best blocks)")
    for g in GPUS:
        for var in ("single_pass", "prefetch_lookback", "cub", "scan_based_work_efficient"):
            cells = []
            for keep in KEEPS:
                for k in (24, 28):
                    p_ = best(F[g], "compact", var, keep, "pot", k)
                    q = best(F[g], "compact", var, keep, "npot", k)
                    if p_ and q:
                        cells.append(f"{keep[5:]}/{k}:{q['t'] / p_['t']:.3f}{mark(q, p_)}")
            print(f"  {g} {var:26s} " + " ".join(cells))
    print("\n== reduce: blocks a multi-pass reduction launches at 2^28 and time per block at 64")
    for var, per in (("interleaved", 1), ("convergent", 1), ("first_add_on_load", 2),
                     ("warp_shuffle", 2)):
        tile = 64 * per
        n, blocks_ = 2**28, 0
        while n > 1:
            n = (n + tile - 1) // tile
            blocks_ += n
        for g in GPUS:
            r = F[g][("reduce", var, "", "pot", 28, 64)]
            print(f"  {g} {var}: {blocks_} blocks, {r['t']:.0f} us, {r['t'] / blocks_ * 1e3:.3f} ns a block")
    print("\n== scan: work_efficient_compact over work_efficient, coarsened over warp_shuffle (2^28)")
    for g in GPUS:
        for a, b in (("work_efficient", "work_efficient_compact"), ("warp_shuffle", "coarsened"),
                     ("naive", "work_efficient")):
            ra = best(F[g], "scan", a, "", "pot", 28)
            rb = best(F[g], "scan", b, "", "pot", 28)
            print(f"  {g} {b} over {a}: {ra['t'] / rb['t']:.2f}x ({verdict(rb, ra)})")
    print("\n== levels of the multi-level scan driver at 2^28 (tile = 2 x block for shared_mem)")
    for var, tile in (("shared_mem b256", 512), ("kogge_stone b256", 256),
                      ("warp_shuffle b512", 512), ("coarsened b256", 2048)):
        n, levels = 2**28, 1
        while n > tile:
            n = (n + tile - 1) // tile
            levels += 1
        print(f"  {var}: tile {tile}, {levels} levels: {2 * levels - 1} launches (up and down)")
    print("\n== reduce: x copy = copy time / (2 x reduction time), check at 2^28")
    for g in GPUS:
        c = F[g][("reduce", "copy", "", "pot", 28, 0)]
        for var in ("vectorized_grid_stride", "cub", "warp_shuffle"):
            r = best(F[g], "reduce", var, "", "pot", 28)
            print(f"  {g} {var}: copy {c['t']:.1f} us, variant {r['t']:.1f} us,"
                  f" t_copy/(2 t) = {c['t'] / (2 * r['t']):.3f}, copy_frac {r['copy_frac']:.3f}")



# ---------------------------------------------------------------------------------------------
# Thrust between two full runs of the same compaction and reduction code: the runs of
# 59630645779d (git show 9ca6ced:results/<file> > /tmp/old-<gpu>.json) against those of
# 9ca6ced22311, by scripts/compare.py (one repetition a row; its verdict: significant and beyond
# 2.5%), GPU rows from 2^24 on. (The study's earlier figures, a4783e314b19 against 59630645779d,
# came from the same function with git show 5963064's files and 59630645779d's runs as FULL.)
def thrust_runs():
    import io
    import subprocess
    import pandas as pd
    for g, new in (("h100", FULL["H100"]), ("h200", FULL["H200"])):
        for algo in ("compact", "reduce"):
            out = subprocess.run([".venv/bin/python", "scripts/compare.py", "--csv", "--filter",
                                  f"^{algo}/", f"/tmp/old-{g}.json", new],
                                 capture_output=True, text=True, check=True).stdout
            d = pd.read_csv(io.StringIO(out))
            d = d[(d.target == "gpu") & (d.log2n >= 24)]
            ch = d[d.verdict != "same"]
            t = d[d.variant.str.startswith("thrust")]
            o = d[~d.variant.str.startswith("thrust") & (d.variant != "copy")]
            print(f"  {g} {algo}: {len(d)} GPU rows, {len(ch)} not same "
                  f"{ch.variant.value_counts().to_dict()}; thrust B/A {t.ratio.min():.4f}-"
                  f"{t.ratio.max():.4f}, others {o.ratio.min():.4f}-{o.ratio.max():.4f}")
    for g in GPUS:
        for algo, var in (("compact", "thrust_copy_if"), ("reduce", "thrust")):
            r = [x for k, x in F[g].items() if k[:2] == (algo, var)][0]
            print(f"  {g} {algo}/{var}: blocked = {r['blocked']:.0f}")


# ---------------------------------------------------------------------------------------------
def block_table(algo, axes, ks=(20, 24, 28), spread_k=28):
    """Markdown rows: best block per size on each GPU (other blocks within the best's p10-p90
    band in brackets), then worst/best time at the last size."""
    print(f"\n== {algo} {axes}: best-block table")
    for var in variants(F["H200"], algo):
        cells = []
        for g in GPUS:
            for k in ks:
                rs = {key[5]: r for key, r in F[g].items()
                      if key[:5] == (algo, var, axes, "pot", k) and key[5]}
                if len(rs) < 2:
                    cells.append("–")
                    continue
                bb = min(rs, key=lambda b: rs[b]["t"])
                ties = [str(b) for b in sorted(rs) if b != bb and not apart(rs[b], rs[bb])]
                cells.append(str(bb) + (f" ({', '.join(ties)})" if ties else ""))
        spread = []
        for g in GPUS:
            rs = {key[5]: r for key, r in F[g].items()
                  if key[:5] == (algo, var, axes, "pot", spread_k) and key[5]}
            if len(rs) >= 2:
                spread.append(f"{max(r['t'] for r in rs.values()) / min(r['t'] for r in rs.values()):.2f}")
        if spread:
            print(f"| {var} | " + " | ".join(cells) + " | " + " / ".join(spread) + " |")


def block_tables():
    block_table("scan", "")
    block_table("compact", "keep:0.50")
    block_table("reduce", "")


# ---------------------------------------------------------------------------------------------
def final_checks():
    print("\n== scan: H100/H200 at 2^28 against 2^30, largest difference (GPU variants)")
    diffs = []
    for var in variants(F["H200"], "scan"):
        if var.startswith("cpu"):
            continue
        r = [best(F["H100"], "scan", var, "", "pot", k)["t"] / best(F["H200"], "scan", var, "", "pot", k)["t"]
             for k in (28, 30)]
        diffs.append((abs(r[0] - r[1]), var))
    print("  ", max(diffs))
    print("\n== compact: points 2^10..2^30 x keep where the better of single_pass/prefetch ties CUB")
    for g in GPUS:
        ties, behind = [], []
        for keep in KEEPS:
            for k in range(10, 31):
                c = best(F[g], "compact", "cub", keep, "pot", k)
                r = min((best(F[g], "compact", v, keep, "pot", k)
                         for v in ("single_pass", "prefetch_lookback")), key=lambda x: x["t"])
                v = verdict(r, c)
                if v == "same":
                    ties.append(f"{keep[5:]}@{k}")
                elif v == "slower":
                    behind.append(f"{keep[5:]}@{k}")
        print(f"  {g}: {len(ties)} ties {ties}; behind {behind}")
    print("\n== compact: the kept-fraction table at 2^28 (x copy, x CUB in brackets; best block)")
    print("| kept | H200 single_pass | H200 prefetch_lookback | H200 cub | H100 single_pass |"
          " H100 prefetch_lookback | H100 cub |")
    print("|---|---|---|---|---|---|---|")
    for keep in KEEPS:
        cells = []
        for g in ("H200", "H100"):
            c = best(F[g], "compact", "cub", keep, "pot", 28)
            for var in ("single_pass", "prefetch_lookback"):
                r = best(F[g], "compact", var, keep, "pot", 28)
                assert verdict(r, c) == "faster"
                cells.append(f"{r['copy_frac']:.3f} ({c['t'] / r['t']:.2f})")
            cells.append(f"{c['copy_frac']:.3f}")
        print(f"| {keep[5:]} | " + " | ".join(cells) + " |")
    print("\n== compact: scan_based and cub H100/H200 at 2^20; compact copy H100/H200 at 2^28")
    for var in variants(F["H200"], "compact"):
        if var.startswith("cpu"):
            continue
        a = best(F["H100"], "compact", var, "" if var == "copy" else "keep:0.50", "pot", 20)
        b = best(F["H200"], "compact", var, "" if var == "copy" else "keep:0.50", "pot", 20)
        print(f"  2^20 {var}: {a['t'] / b['t']:.3f}")
    print("\n== compact: single_pass and prefetch_lookback block sweeps 2^28, range of others/best")
    for var in ("single_pass", "prefetch_lookback"):
        for g in GPUS:
            per_b = defaultdict(list)
            for keep in KEEPS:
                rs = {b: F[g][("compact", var, keep, "pot", 28, b)] for b in BLOCKS}
                bb = min(rs, key=lambda b: rs[b]["t"])
                for b in BLOCKS:
                    if b != bb:
                        per_b[b].append(rs[b]["t"] / rs[bb]["t"])
                per_b["best"].append(bb)
            print(f"  {var} {g}: best {per_b.pop('best')}; " +
                  " ".join(f"{b}:{min(v):.3f}-{max(v):.3f}" for b, v in per_b.items()))
    print("\n== reduce: npot/pot extremes of the in-house GPU kernels (best blocks)")
    for k in (20, 24, 28):
        vals = []
        for g in GPUS:
            for var in ("interleaved", "convergent", "first_add_on_load", "warp_shuffle",
                        "atomic_accumulate", "vectorized_grid_stride"):
                p_ = best(F[g], "reduce", var, "", "pot", k)
                q = best(F[g], "reduce", var, "", "npot", k)
                vals.append(q["t"] / p_["t"])
        print(f"  2^{k}: {min(vals):.3f}-{max(vals):.3f}")


if __name__ == "__main__":
    want = sys.argv[1:] or ["scan", "compact", "reduce", "extras", "thrust_runs",
                            "block_tables", "final_checks"]
    for s in want:
        {"scan": scan, "compact": compact, "reduce": reduce_, "extras": extras,
         "thrust_runs": thrust_runs, "block_tables": block_tables,
         "final_checks": final_checks}[s]()
