"""Figures of the "## Radix sort" section (analysis/README.md rewrite).

Run from the repository root: .venv/bin/python analysis/figures/sort.py [part ...]
Sources:
  full runs (commit 9ca6ced22311, 1 repetition a row, band = [p10_s, p90_s]):
    results/nvidia-h100-80gb-hbm3.json, results/nvidia-h200.json
  5-repetition sort rows (commit f34aa8408b42, the kernels of the full runs of 59630645779d, band =
  [min, max]):
    results/partial/nvidia-h100-sort-head.json, results/partial/nvidia-h200-sort-head.json
  5-repetition sort rows of b466a0379e23 (block 256's tiles of 256 x 44 keys, the full runs'
  kernels; part `tiles44`):
    results/partial/nvidia-h100-sort-b256-44.json, results/partial/nvidia-h200-sort-b256-44.json
  and its keys at every pot size 2^16..2^28 (part `tiles44_sizes`, commit a8d85960a0bf, the same
  kernels): results/partial/nvidia-{h100,h200}-sort-b256-44-sizes.json
"""
import sys

import frames
from frames import results  # scripts/results.py (frames puts scripts/ on the path)

ROOT = ""  # run from the repository root
FULL = {"H100": ROOT + "results/nvidia-h100-80gb-hbm3.json", "H200": ROOT + "results/nvidia-h200.json"}
HEAD = {"H100": ROOT + "results/partial/nvidia-h100-sort-head.json",
        "H200": ROOT + "results/partial/nvidia-h200-sort-head.json"}
TILES44 = {"H100": ROOT + "results/partial/nvidia-h100-sort-b256-44.json",
           "H200": ROOT + "results/partial/nvidia-h200-sort-b256-44.json"}


def load(path):
    """The sort rows' repetitions as a DataFrame (frames.repetitions), and the file's context."""
    df, context = frames.repetitions(path, "sort", lambda i, ax, b: dict(
        name=b["run_name"], kind=ax.get("kind", ""), dist=ax.get("distribution", ""),
        key=ax.get("key", "") or "uint32", p10=b.get("p10_s", float("nan")) * 1e6,
        p90=b.get("p90_s", float("nan")) * 1e6, frac=b.get("copy_frac")))
    df.loc[df.variant == "copy", ["kind", "dist", "key"]] = ""
    return df, context


FULLDF = {g: load(p) for g, p in FULL.items()}
HEADDF = {g: load(p) for g, p in HEAD.items()}
TILES44DF = {g: load(p) for g, p in TILES44.items()}


def full_row(g, variant, kind="keys", dist="uniform", key="uint32", k=28, size="pot", block=None,
             src=None):
    """One full-run row (src: other files loaded as FULLDF is), at `block` or the best block."""
    df = (src or FULLDF)[g][0]
    q = df[(df.variant == variant) & (df.k == k) & (df["size"] == size)]
    if variant != "copy":
        q = q[(q.kind == kind) & (q.dist == dist) & (q.key == key)]
    if block is not None:
        q = q[q.block == block]
    else:  # best block by median
        q = q.sort_values("t").head(1)
    assert len(q) == 1, (g, variant, kind, dist, key, k, size, block, len(q))
    return q.iloc[0]


def band_ratio(cub, var):
    """CUB time / variant time: median, and whether the [p10, p90] bands overlap."""
    r = cub.t / var.t
    lo, hi = cub.p10 / var.p90, cub.p90 / var.p10
    apart = cub.p10 > var.p90 or var.p10 > cub.p90
    return r, lo, hi, apart


def head_reps(g, variant, kind="keys", dist="uniform", key="uint32", k=28, block=None,
              src=None):
    df = (src or HEADDF)[g][0]
    q = df[(df.variant == variant) & (df.k == k)]
    if variant != "copy":
        q = q[(q.kind == kind) & (q.dist == dist) & (q.key == key)]
    if block is not None:
        q = q[q.block == block]
    assert len(q) == 5, (g, variant, kind, dist, key, k, block, len(q))
    return q.t


def head_ratio(g, variant, kind="keys", dist="uniform", key="uint32", k=28, block=None,
               src=None):
    c = head_reps(g, "cub", kind, dist, key, k, src=src)
    v = head_reps(g, variant, kind, dist, key, k, block, src)
    return c.median() / v.median(), c.min() / v.max(), c.max() / v.min(), v, c


# the keys facets beside uniform uint32 in the 5-repetition files, at the sizes they hold
SKEWED_AND_TYPED = [(facet, k) for facet in (("low_entropy", "uint32"), ("all_equal", "uint32"),
                                             ("uniform", "int32"), ("uniform", "float32"))
                    for k in (24, 28)]


def uniform_rows(df, kind, k, block):
    """A repetition file's onesweep rows at `block` and CUB's rows, uniform uint32, of kind at 2^k."""
    uniform = (df.kind == kind) & (df.dist == "uniform") & (df.key == "uint32") & (df.k == k)
    return (df[uniform & (df.variant == "onesweep") & (df.block == block)],
            df[uniform & (df.variant == "cub")])


def f(x, d=3):
    return f"{x:.{d}f}"


PARTS = {}


def part(fn):
    PARTS[fn.__name__] = fn
    return fn


@part
def context():
    for g in ("H100", "H200"):
        for src in (FULLDF, HEADDF, TILES44DF):
            c = src[g][1]
            print(g, c["gpu_name"], c["git_commit"][:12], c["cccl_version"], c["cuda_runtime_version"])



FACETS = [("keys", "uniform", "uint32"), ("keys", "low_entropy", "uint32"),
          ("keys", "all_equal", "uint32"), ("keys", "uniform", "int32"),
          ("keys", "uniform", "float32"), ("pairs", "uniform", "uint32"),
          ("pairs", "low_entropy", "uint32"), ("pairs", "all_equal", "uint32"),
          ("pairs", "uniform", "int32"), ("pairs", "uniform", "float32")]
GPU_VARIANTS = ["split_1bit", "block_local_4bit", "onesweep", "thrust", "cub"]


@part
def against_cub():
    """Full runs: every GPU variant and facet at 2^20..2^30 pot, best block: time [p10-p90],
    x copy, x CUB with its band ratio and whether the bands are apart."""
    for g in ("H100", "H200"):
        for kind, dist, key in FACETS:
            for k in (16, 20, 24, 28, 30):
                try:
                    cub = full_row(g, "cub", kind, dist, key, k)
                except AssertionError:
                    continue
                for v in GPU_VARIANTS:
                    try:
                        r = full_row(g, v, kind, dist, key, k)
                    except AssertionError:
                        continue
                    x, lo, hi, apart = band_ratio(cub, r)
                    print(f"{g} {kind}/{dist}/{key} 2^{k} {v:16s} b{r.block:<4d} {r.t:10.1f} "
                          f"[{r.p10:.1f}-{r.p90:.1f}] xcopy {r.frac:.3f} xCUB {x:.3f} "
                          f"[{lo:.3f}-{hi:.3f}] {'apart' if apart else 'OVERLAP'}")


@part
def onesweep_table():
    """Full runs: onesweep (best block) x CUB and x copy, CUB's x copy, every facet, 2^16..2^30.
    A '~' marks a ratio whose [p10, p90] bands overlap."""
    for kind, dist, key in FACETS:
        cells = []
        for g in ("H100", "H200"):
            for k in (16, 20, 24, 28, 30):
                cub = full_row(g, "cub", kind, dist, key, k)
                o = full_row(g, "onesweep", kind, dist, key, k)
                x, lo, hi, apart = band_ratio(cub, o)
                cells.append(f"{g} 2^{k}: {x:.2f}{'' if apart else '~'} b{o.block} "
                             f"(copy {o.frac:.3f} / CUB {cub.frac:.3f})")
        print(f"{kind}/{dist}/{key}")
        for c in cells:
            print("   ", c)


@part
def sizes():
    """Full runs: the pot sizes each onesweep facet has, the lowest onesweep x CUB from 2^16 up
    (and below 2^16), best block."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for kind, dist, key in FACETS:
            q = df[(df.kind == kind) & (df.dist == dist) & (df.key == key) & (df["size"] == "pot")]
            ks = sorted(set(q[q.variant == "onesweep"].k))
            xs = {}
            for k in ks:
                cub = full_row(g, "cub", kind, dist, key, k)
                o = full_row(g, "onesweep", kind, dist, key, k)
                xs[k] = (band_ratio(cub, o), o.block)
            hi = {k: v for k, v in xs.items() if k >= 16}
            kmin = min(hi, key=lambda k: hi[k][0][0])
            lo = {k: round(v[0][0], 2) for k, v in xs.items() if k < 16}
            print(f"{g} {kind}/{dist}/{key} sizes {ks[0]}..{ks[-1]} ({len(ks)}); min from 2^16: "
                  f"2^{kmin} {hi[kmin][0][0]:.3f} [{hi[kmin][0][1]:.3f}-{hi[kmin][0][2]:.3f}] "
                  f"{'apart' if hi[kmin][0][3] else 'overlap'} b{hi[kmin][1]}; below: {lo}")


def against_cub_full(g, variant, sizes):
    """Full runs, uniform uint32 keys then pairs: (kind, k, CUB's row, the variant's row at its
    best block, the copy row, band_ratio(CUB, variant)) for each size k."""
    for kind in ("keys", "pairs"):
        for k in sizes:
            cub = full_row(g, "cub", kind, k=k)
            v = full_row(g, variant, kind, k=k)
            yield kind, k, cub, v, full_row(g, "copy", k=k), band_ratio(cub, v)


@part
def small():
    """Full runs: onesweep and CUB times at 2^10..2^16 (uniform keys and pairs, best block)."""
    for g in ("H100", "H200"):
        for kind, k, cub, o, c, (x, lo, hi, apart) in against_cub_full(g, "onesweep",
                                                                         (10, 12, 13, 16)):
            print(f"{g} {kind} 2^{k}: onesweep {o.t:.1f} [{o.p10:.1f}-{o.p90:.1f}] b{o.block} "
                  f"CUB {cub.t:.1f} [{cub.p10:.1f}-{cub.p90:.1f}] x {x:.2f} {apart}; copy {c.t:.1f}")


@part
def thrust():
    """Full runs: Thrust against CUB, uniform uint32: x CUB, band, and Thrust - CUB time against
    the copy row's time (one copy of n int32 for keys, two for pairs)."""
    for g in ("H100", "H200"):
        for kind, k, cub, t, c, (x, lo, hi, apart) in against_cub_full(g, "thrust",
                                                                         (20, 24, 28, 30)):
            copies = c.t * (1 if kind == "keys" else 2)
            print(f"{g} {kind} 2^{k}: thrust {t.t:.1f} CUB {cub.t:.1f} x {x:.3f} [{lo:.3f}-{hi:.3f}] "
                  f"{apart}; extra {t.t - cub.t:.1f} us, copies {copies:.1f} us; "
                  f"thrust/onesweep {t.t / full_row(g, 'onesweep', kind, k=k).t:.3f}")
        for kind, dist, key in FACETS:
            xs = []
            for k in (24, 28, 30):
                cub = full_row(g, "cub", kind, dist, key, k)
                t = full_row(g, "thrust", kind, dist, key, k)
                xs.append(band_ratio(cub, t))
            print(f"  {g} {kind}/{dist}/{key} thrust xCUB 2^24/28/30: "
                  + ", ".join(f"{x[0]:.3f}{'' if x[3] else '~'}" for x in xs))


@part
def gpus():
    """Full runs: H100 time / H200 time, best block on each GPU, with the band ratio
    [H100 p10 / H200 p90, H100 p90 / H200 p10]; and keys/s of CUB and onesweep on each GPU."""
    for kind, dist in (("keys", "uniform"), ("keys", "low_entropy"), ("keys", "all_equal"),
                       ("pairs", "uniform"), ("pairs", "low_entropy"), ("pairs", "all_equal")):
        for k in (24, 28, 30):
            cells = []
            for v in ["copy"] + GPU_VARIANTS:
                a = full_row("H100", v, kind, dist, k=k)
                b = full_row("H200", v, kind, dist, k=k)
                cells.append(f"{v} {a.t / b.t:.2f} [{a.p10 / b.p90:.2f}-{a.p90 / b.p10:.2f}]")
            print(f"{kind}/{dist} 2^{k}: " + "; ".join(cells))
    for kind in ("keys", "pairs"):
        for k in (24, 28, 30):
            for v in ("cub", "onesweep", "thrust"):
                a = full_row("H100", v, kind, k=k)
                b = full_row("H200", v, kind, k=k)
                print(f"  {kind} 2^{k} {v}: H100 {a.n / a.t / 1e3:.2f} G keys/s, "
                      f"H200 {b.n / b.t / 1e3:.2f} G keys/s; H200/H100 keys/s {a.t / b.t:.3f}")
    for key in ("int32", "float32"):
        for kind in ("keys", "pairs"):
            cells = []
            for v in ("copy", "onesweep", "cub", "thrust"):
                a = full_row("H100", v, kind, "uniform", key, 30)
                b = full_row("H200", v, kind, "uniform", key, 30)
                cells.append(f"{v} {a.t / b.t:.2f}")
            print(f"{kind}/{key} 2^30: " + "; ".join(cells))


@part
def blocks():
    """Full runs: block sweeps. Per variant and facet, the blocks run at each pot size; best and
    worst block at 2^20, 2^24, 2^28, 2^30 with worst/best time and whether their bands overlap."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for v in ("split_1bit", "block_local_4bit", "onesweep"):
            for kind, dist, key in FACETS:
                q = df[(df.variant == v) & (df.kind == kind) & (df.dist == dist) & (df.key == key)
                       & (df["size"] == "pot")]
                if q.empty:
                    continue
                per_k = q.groupby("k").block.apply(lambda s: tuple(sorted(s)))
                swept = [k for k, b in per_k.items() if len(b) > 1]
                out = []
                for k in (16, 20, 24, 28, 30):
                    r = q[q.k == k].sort_values("t")
                    if len(r) < 2:
                        continue
                    b, w = r.iloc[0], r.iloc[-1]
                    apart = w.p10 > b.p90
                    out.append(f"2^{k} best b{b.block} {b.t:.1f} worst b{w.block} x{w.t / b.t:.3f}"
                               f"{'' if apart else '~'} (2nd b{r.iloc[1].block} x{r.iloc[1].t / b.t:.3f}"
                               f"{'' if r.iloc[1].p10 > b.p90 else '~'})")
                print(f"{g} {v} {kind}/{dist}/{key}: swept at 2^{swept[0] if swept else '-'}.."
                      f"2^{swept[-1] if swept else '-'} ({len(swept)} sizes) blocks "
                      f"{per_k.iloc[0]}..; " + "; ".join(out))


@part
def onesweep_blocks():
    """Full runs: onesweep keys, block 384 time / block 256 time at every pot size (~: bands
    overlap), per facet; and split_1bit / block_local_4bit best and worst block at 2^26."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for kind, dist, key in FACETS[:5]:
            q = df[(df.variant == "onesweep") & (df.kind == kind) & (df.dist == dist)
                   & (df.key == key) & (df["size"] == "pot")]
            cells = []
            for k in sorted(set(q.k)):
                a = q[(q.k == k) & (q.block == 256)].iloc[0]
                b = q[(q.k == k) & (q.block == 384)].iloc[0]
                apart = a.p10 > b.p90 or b.p10 > a.p90
                cells.append(f"{k}:{b.t / a.t:.3f}{'' if apart else '~'}")
            print(f"{g} onesweep {kind}/{dist}/{key} t384/t256: " + " ".join(cells))
        for v in ("split_1bit", "block_local_4bit"):
            for k in (24, 26):
                r = df[(df.variant == v) & (df.kind == "keys") & (df.dist == "uniform")
                       & (df.key == "uint32") & (df["size"] == "pot") & (df.k == k)].sort_values("t")
                print(f"{g} {v} keys/uniform 2^{k}: " + ", ".join(
                    f"b{x.block} {x.t:.1f} [{x.p10:.1f}-{x.p90:.1f}] x{x.t / r.iloc[0].t:.3f}"
                    for x in r.itertuples()))


@part
def npot():
    """Full runs: NPOT (n = 2^k - 3) time / POT time at the same k and block (~: bands overlap);
    for onesweep keys also NPOT (block 384) against POT's best block."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        nq = df[df["size"] == "npot"]
        combos = sorted(set(zip(nq.variant, nq.kind, nq.dist, nq.key, nq.block)))
        print(g, "npot rows:", len(nq), "sizes", sorted(set(nq.k))[0], "..", sorted(set(nq.k))[-1])
        for v, kind, dist, key, block in combos:
            cells = []
            for k in (20, 24, 28, 30):
                a = nq[(nq.variant == v) & (nq.kind == kind) & (nq.dist == dist) & (nq.key == key)
                       & (nq.block == block) & (nq.k == k)]
                p = df[(df["size"] == "pot") & (df.variant == v) & (df.kind == kind)
                       & (df.dist == dist) & (df.key == key) & (df.block == block) & (df.k == k)]
                if len(a) != 1 or len(p) != 1:
                    continue
                a, p = a.iloc[0], p.iloc[0]
                apart = a.p10 > p.p90 or p.p10 > a.p90
                cell = f"2^{k} {a.t / p.t:.3f}{'' if apart else '~'}"
                if v == "onesweep" and kind == "keys":
                    best = full_row(g, v, kind, dist, key, k)
                    cell += f" (vs pot b{best.block} {a.t / best.t:.3f})"
                cells.append(cell)
            print(f"  {v} {kind}/{dist}/{key} b{block}: " + "; ".join(cells))


@part
def head():
    """5-repetition sort rows of f34aa8408b42 (59630645779d's kernels): CUB / variant as median
    [CUB's fastest / variant's slowest - CUB's slowest / variant's fastest], times median
    [min-max] us, and copy_frac medians."""
    for g in ("H100", "H200"):
        df = HEADDF[g][0]
        for kind, block in (("keys", 256), ("keys", 384), ("pairs", 384)):
            for k in (20, 24, 28, 30):
                m, lo, hi, v, c = head_ratio(g, "onesweep", kind, k=k, block=block)
                q, cq = uniform_rows(df, kind, k, block)
                mt, lot, hit, _, _ = head_ratio(g, "thrust", kind, k=k)
                print(f"{g} onesweep {kind} b{block} 2^{k}: x CUB {m:.3f} [{lo:.3f}-{hi:.3f}]; "
                      f"{v.median():.1f} [{v.min():.1f}-{v.max():.1f}] us, CUB {c.median():.1f} "
                      f"[{c.min():.1f}-{c.max():.1f}]; x copy {q.frac.median():.3f} "
                      f"[{q.frac.min():.3f}-{q.frac.max():.3f}], CUB {cq.frac.median():.3f}; "
                      f"reps {sorted(round(x, 1) for x in v)}; thrust x CUB {mt:.3f} [{lot:.3f}-{hit:.3f}]")
        for (dist, key), k in SKEWED_AND_TYPED:
            cells = []
            for block in (256, 384):
                m, lo, hi, v, c = head_ratio(g, "onesweep", "keys", dist, key, k, block)
                cells.append(f"b{block} {m:.3f} [{lo:.3f}-{hi:.3f}]")
            print(f"{g} keys/{dist}/{key} 2^{k}: " + "; ".join(cells))


@part
def tiles44():
    """The 5-repetition sort rows of b466a0379e23 (block 256: tiles of 256 x 44 keys, 2 blocks an
    SM): issue 11's table (CUB / onesweep, median [CUB's fastest / our slowest - CUB's slowest /
    our fastest]), times, x copy (36 bytes a key, 68 a pair), thrust, and the other facets."""
    print("| CUB / onesweep | H100 keys (b256) | H100 pairs (b384) | H200 keys (b256) | "
          "H200 pairs (b384) |")
    print("|---|---|---|---|---|")
    for k in (16, 20, 24, 28, 30):
        cells = []
        for g in ("H100", "H200"):
            for kind, block in (("keys", 256), ("pairs", 384)):
                m, lo, hi, _, _ = head_ratio(g, "onesweep", kind, k=k, block=block, src=TILES44DF)
                cells.append(f"{m:.3f} [{lo:.3f}-{hi:.3f}]")
        print(f"| 2^{k} | " + " | ".join(cells) + " |")
    for g in ("H100", "H200"):
        df = TILES44DF[g][0]
        for kind, block in (("keys", 256), ("pairs", 384)):
            for k in (24, 28, 30):
                _, _, _, v, c = head_ratio(g, "onesweep", kind, k=k, block=block, src=TILES44DF)
                q, cq = uniform_rows(df, kind, k, block)
                mt, lot, hit, _, _ = head_ratio(g, "thrust", kind, k=k, src=TILES44DF)
                print(f"{g} onesweep {kind} b{block} 2^{k}: {v.median():.1f} [{v.min():.1f}-"
                      f"{v.max():.1f}] us, {2 ** k / v.median() / 1e3:.1f} G/s, CUB "
                      f"{c.median():.1f} [{c.min():.1f}-{c.max():.1f}]; x copy "
                      f"{q.frac.median():.3f} [{q.frac.min():.3f}-{q.frac.max():.3f}], CUB "
                      f"{cq.frac.median():.3f}; thrust x CUB {mt:.3f} [{lot:.3f}-{hit:.3f}]")
        for (dist, key), k in SKEWED_AND_TYPED:
            m, lo, hi, _, _ = head_ratio(g, "onesweep", "keys", dist, key, k, 256, TILES44DF)
            print(f"{g} keys/{dist}/{key} 2^{k}: b256 {m:.3f} [{lo:.3f}-{hi:.3f}]")
        for kind, blocks in (("keys", (256, 384)), ("pairs", (384,))):
            ratios = [head_ratio(g, "onesweep", kind, k=16, block=b, src=TILES44DF)[0] for b in blocks]
            print(f"{g} {kind} 2^16: x CUB best block {max(ratios):.3f}")


@part
def tiles44_sizes():
    """CUB / onesweep's best block for keys at every pot size 2^16..2^28 (5 repetitions): the
    lowest median per distribution and GPU, with its range and size."""
    for g in ("H100", "H200"):
        df = load(ROOT + f"results/partial/nvidia-{g.lower()}-sort-b256-44-sizes.json")[0]
        for dist in ("uniform", "low_entropy", "all_equal"):
            worst = None
            for k in range(16, 29):
                c = df[(df.variant == "cub") & (df.dist == dist) & (df.k == k)].t
                best = None
                for block in (256, 384):
                    v = df[(df.variant == "onesweep") & (df.dist == dist) & (df.k == k)
                           & (df.block == block)].t
                    r = (c.median() / v.median(), c.min() / v.max(), c.max() / v.min(), block)
                    best = r if best is None or r[0] > best[0] else best
                worst = (best, k) if worst is None or best[0] < worst[0][0] else worst
            (m, lo, hi, block), k = worst
            print(f"{g} keys/{dist}: lowest x CUB over 2^16..2^28 {m:.3f} [{lo:.3f}-{hi:.3f}] "
                  f"at 2^{k} (b{block})")


@part
def two_speeds():
    """results/partial/nvidia-h100-sort-two-speeds.txt (an earlier kernel, e4267757a7dd and
    3f262aea139d): repetition times by block; per-pass ncu times and DRAM reads of the passes that
    write the temporary (0 and 2), fast sorts (pass 0 under 1250 us) against slow ones."""
    import re
    txt = open(ROOT + "results/partial/nvidia-h100-sort-two-speeds.txt").read()
    part1 = txt.split("# 2.")[0]
    for b in (256, 384):
        ts = [int(x) for x in re.findall(rf"block:{b} (\d+) us", part1)]
        fast = [t for t in ts if t < 5250]
        slow = [t for t in ts if t >= 5250]
        print(f"block {b}: {len(ts)} reps; under 5250: {min(fast) if fast else '-'}-"
              f"{max(fast) if fast else '-'} ({len(fast)}), over: {min(slow) if slow else '-'}-"
              f"{max(slow) if slow else '-'} ({len(slow)})")
    part2 = txt.split("# 2.")[1].split("# 3.")[0]
    fast_t, fast_r, slow_t, slow_r, out_t = [], [], [], [], []
    for m in re.finditer(r"sort \d+: time ([\d /]+); DRAM read ([\d. /]+); DRAM write", part2):
        t = [int(x) for x in m.group(1).split(" / ")]
        r = [float(x) for x in m.group(2).split(" / ")]
        tgt = (fast_t, fast_r) if t[0] < 1250 else (slow_t, slow_r)
        for p in (0, 2):
            tgt[0].append(t[p])
            tgt[1].append(r[p])
        out_t += [t[1], t[3]]
    print(f"passes 0 and 2, fast sorts: {min(fast_t)}-{max(fast_t)} us, DRAM read "
          f"{min(fast_r)}-{max(fast_r)} MB; slow sorts: {min(slow_t)}-{max(slow_t)} us, "
          f"{min(slow_r)}-{max(slow_r)} MB; extra read {min(slow_r) - max(fast_r):.1f}-"
          f"{max(slow_r) - min(fast_r):.1f} MB; passes 1 and 3 (all sorts) {min(out_t)}-{max(out_t)} us")
    print(f"slow against fast: bytes read +{min(slow_r) / max(fast_r) - 1:.1%}..+"
          f"{max(slow_r) / min(fast_r) - 1:.1%}, time +{min(slow_t) / max(fast_t) - 1:.1%}..+"
          f"{max(slow_t) / min(fast_t) - 1:.1%}")
    part3 = txt.split("# 3.")[1]
    for b in (256, 384):
        ts = [int(x) for x in re.findall(rf"block:{b} (\d+) us", part3)]
        print(f"H200 block {b}: {min(ts)}-{max(ts)} us ({len(ts)} reps)")


@part
def per_key():
    """5-rep sort rows: block-256 keys' time per key at 2^28 against 2^30 (medians), and CUB's;
    the time the H100's 2^28 cell needs for 1.1x in every repetition (CUB's fastest / 1.1)."""
    for g in ("H100", "H200"):
        for v, b in (("onesweep", 256), ("cub", None)):
            t28 = head_reps(g, v, k=28, block=b).median()
            t30 = head_reps(g, v, k=30, block=b).median()
            print(f"{g} {v}: per key 2^28 / 2^30 = {t28 * 4 / t30:.5f}")
    c = head_reps("H100", "cub", k=28)
    v = head_reps("H100", "onesweep", k=28, block=256)
    need = c.min() / 1.1
    print(f"H100 2^28: need <= {need:.1f} us; reps {sorted(v)}; above by "
          + ", ".join(f"{x / need - 1:.2%}" for x in sorted(v)))
    fast = sorted(v)[:3]
    slow = sorted(v)[3:]
    print(f"  fast group {fast[0]:.1f}-{fast[-1]:.1f}, slow group {slow[0]:.1f}-{slow[-1]:.1f}; "
          f"x CUB by CUB's median: {c.median() / fast[-1]:.3f}-{c.median() / fast[0]:.3f} and "
          f"{c.median() / slow[-1]:.3f}-{c.median() / slow[0]:.3f}")


@part
def cpu():
    """Full runs: the CPU rows (host time): largest size, and time / CUB's at 2^20 and 2^24."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for v in ("cpu_std_sort", "cpu_radix"):
            q = df[(df.variant == v) & (df["size"] == "pot")]
            print(g, v, "facets", sorted(set(zip(q.kind, q.dist, q.key))), "max k", q.k.max())
            for kind in ("keys", "pairs"):
                cells = []
                for k in (20, 24, 28):
                    try:
                        r = full_row(g, v, kind, k=k)
                    except AssertionError:
                        continue
                    cub = full_row(g, "cub", kind, k=k)
                    cells.append(f"2^{k} {r.t:.0f} us = {r.t / cub.t:.0f}x CUB's time")
                print("   ", kind, "; ".join(cells))
        print(g, "num_cpus", FULLDF[g][1]["num_cpus"])


@part
def npot_h100_pairs():
    """H100 uniform pairs at 2^28: full-run POT and NPOT times against the 5-rep POT rows."""
    df = FULLDF["H100"][0]
    for v, b in (("cub", 0), ("onesweep", 384), ("thrust", 0)):
        for size in ("pot", "npot"):
            r = df[(df.variant == v) & (df.kind == "pairs") & (df.dist == "uniform")
                   & (df.key == "uint32") & (df["size"] == size) & (df.k == 28) & (df.block == b)].iloc[0]
            print(f"{v} {size}: {r.t:.1f} [{r.p10:.1f}-{r.p90:.1f}]")
        h = head_reps("H100", v, "pairs", k=28, block=b if b else None)
        print(f"{v} 5-rep pot: {h.median():.1f} [{h.min():.1f}-{h.max():.1f}]")


@part
def passes_ncu():
    """results/partial/nvidia-h100-sort-passes-ncu.txt (H100, a4783e314b19's kernels, 2^26):
    per group, the ranges of pass time, instructions, DRAM %, L1/TEX %."""
    import re
    txt = open(ROOT + "results/partial/nvidia-h100-sort-passes-ncu.txt").read()
    for grp in txt.split("== ")[1:]:
        title, *lines = grp.strip().split("\n")
        vals = []
        for ln in lines:
            m = re.search(r"([\d.]+) us\s+([\d,]+) inst DRAM ([\d.]+) L1 ([\d.]+) L2 ([\d.]+)", ln)
            if m:
                vals.append((float(m.group(1)), int(m.group(2).replace(",", "")),
                             float(m.group(3)), float(m.group(4)), float(m.group(5))))
        cols = list(zip(*vals))
        print(f"{title}: us {min(cols[0])}-{max(cols[0])}, inst {min(cols[1]) / 1e6:.1f}-"
              f"{max(cols[1]) / 1e6:.1f} M, DRAM {min(cols[2])}-{max(cols[2])}%, L1/TEX "
              f"{min(cols[3])}-{max(cols[3])}%, L2 {min(cols[4])}-{max(cols[4])}%")


@part
def eleven_bit():
    """results/partial/nvidia-h100-sort-11bit.json (commit 9c13e58fd5ed, branch wip/sort-11bit):
    onesweep_wide (11-bit digits, 3 passes) against onesweep (block 384) at 2^28, medians of 5."""
    f = results.load(ROOT + "results/partial/nvidia-h100-sort-11bit.json")
    print(f.context["git_commit"][:12], f.context["gpu_name"])
    rows = f.rows[(f.rows["facet"].isin(["keys/uniform", "pairs/uniform"]))
                  & (f.rows["size"] == "pot") & (f.rows["log2n"] == 28)]
    for kind in ("keys", "pairs"):
        mine = rows[rows["facet"] == f"{kind}/uniform"]
        w = list(mine.loc[mine["variant"] == "onesweep_wide", "time_us"])
        o = list(mine.loc[mine["variant"] == "onesweep", "time_us"])
        print(kind, "wide", w, "onesweep", o, f"ratio {w[0] / o[0]:.2f}")


@part
def textbook():
    """Full runs: split_1bit and block_local_4bit, x copy and x CUB, every facet at 2^24..2^30
    (ranges over the facets' three sizes); block_local_4bit / split_1bit speed-up."""
    for g in ("H100", "H200"):
        for v in ("split_1bit", "block_local_4bit"):
            for kind in ("keys", "pairs"):
                fr, xc, ap = [], [], True
                for kind2, dist, key in FACETS:
                    if kind2 != kind:
                        continue
                    for k in (24, 28, 30):
                        r = full_row(g, v, kind, dist, key, k)
                        cub = full_row(g, "cub", kind, dist, key, k)
                        x, lo, hi, apart = band_ratio(cub, r)
                        fr.append(r.frac)
                        xc.append(x)
                        ap &= apart
                print(f"{g} {v} {kind}: x copy {min(fr):.3f}-{max(fr):.3f}, x CUB {min(xc):.3f}-"
                      f"{max(xc):.3f}, all bands apart {ap}")
        for kind in ("keys", "pairs"):
            for k in (24, 28, 30):
                s = full_row(g, "split_1bit", kind, k=k)
                b = full_row(g, "block_local_4bit", kind, k=k)
                o = full_row(g, "onesweep", kind, k=k)
                print(f"  {g} {kind} 2^{k}: split/block_local time {s.t / b.t:.2f}, "
                      f"block_local/onesweep {b.t / o.t:.2f}")


@part
def typed():
    """Full runs: int32 and float32 keys against uint32 at 2^28, CUB and onesweep (best block)."""
    for g in ("H100", "H200"):
        for v in ("cub", "onesweep"):
            u = full_row(g, v, "keys", "uniform", "uint32", 28)
            for key in ("int32", "float32"):
                r = full_row(g, v, "keys", "uniform", key, 28)
                apart = r.p10 > u.p90 or u.p10 > r.p90
                print(f"{g} {v} keys {key}/uint32 2^28: {r.t:.1f} / {u.t:.1f} = {r.t / u.t:.3f} "
                      f"{'apart' if apart else 'overlap'}")



def facet_label(kind, dist, key):
    return f"{kind} {dist}" + ("" if key == "uint32" else f" {key}")


@part
def md_tables():
    """Markdown tables of the section: onesweep x CUB (full runs, best block; '~' where the
    [p10, p90] bands overlap), and x copy of onesweep and CUB at 2^28."""
    ks = (20, 24, 28, 30)
    head = "| CUB / onesweep | H100: " + " | ".join(f"2^{k}" for k in ks) + " | H200: " + \
        " | ".join(f"2^{k}" for k in ks) + " |"
    print(head)
    print("|" + "---|" * (1 + 2 * len(ks)))
    for kind, dist, key in FACETS:
        cells = []
        for g in ("H100", "H200"):
            for k in ks:
                cub = full_row(g, "cub", kind, dist, key, k)
                o = full_row(g, "onesweep", kind, dist, key, k)
                x, lo, hi, apart = band_ratio(cub, o)
                cells.append(f"{x:.2f}{'' if apart else '~'}")
        print(f"| {facet_label(kind, dist, key)} | " + " | ".join(cells) + " |")
    print()
    print("| x copy at 2^28 | H100 onesweep | H100 CUB | H200 onesweep | H200 CUB |")
    print("|---|---|---|---|---|")
    for kind, dist, key in FACETS:
        cells = []
        for g in ("H100", "H200"):
            o = full_row(g, "onesweep", kind, dist, key, 28)
            cub = full_row(g, "cub", kind, dist, key, 28)
            cells += [f"{o.frac:.3f} (b{o.block})", f"{cub.frac:.3f}"]
        print(f"| {facet_label(kind, dist, key)} | " + " | ".join(cells) + " |")


@part
def md_gpus():
    """Markdown: H100 time / H200 time (full runs, best block on each), at 2^28 and 2^30."""
    print("| H100 / H200 time | copy | split_1bit | block_local_4bit | onesweep | thrust | cub |")
    print("|---|---|---|---|---|---|---|")
    for kind, dist in (("keys", "uniform"), ("keys", "low_entropy"), ("keys", "all_equal"),
                       ("pairs", "uniform"), ("pairs", "low_entropy"), ("pairs", "all_equal")):
        cells = []
        for v in ["copy"] + GPU_VARIANTS:
            r = [full_row("H100", v, kind, dist, k=k).t / full_row("H200", v, kind, dist, k=k).t
                 for k in (28, 30)]
            cells.append(f"{r[0]:.2f}, {r[1]:.2f}")
        print(f"| {kind} {dist} | " + " | ".join(cells) + " |")


@part
def md_head():
    """Markdown: the 5-repetition sort rows of f34aa8408b42, CUB / onesweep median [low-high]."""
    print("| CUB / onesweep | H100 keys (b256) | H100 pairs (b384) | H200 keys (b256) | H200 pairs (b384) |")
    print("|---|---|---|---|---|")
    for k in (20, 24, 28, 30):
        cells = []
        for g in ("H100", "H200"):
            for kind, b in (("keys", 256), ("pairs", 384)):
                m, lo, hi, v, c = head_ratio(g, "onesweep", kind, k=k, block=b)
                cells.append(f"{m:.3f} [{lo:.3f}-{hi:.3f}]")
        print(f"| 2^{k} | " + " | ".join(cells) + " |")
    print()
    print("| CUB / onesweep | H100 b256 | H100 b384 | H200 b256 | H200 b384 |")
    print("|---|---|---|---|---|")
    for dist, key in (("low_entropy", "uint32"), ("all_equal", "uint32"), ("uniform", "int32"),
                      ("uniform", "float32")):
        for k in (24, 28):
            cells = []
            for g in ("H100", "H200"):
                for b in (256, 384):
                    m, lo, hi, v, c = head_ratio(g, "onesweep", "keys", dist, key, k, b)
                    cells.append(f"{m:.3f} [{lo:.3f}-{hi:.3f}]")
            print(f"| keys {dist}{'' if key == 'uint32' else ' ' + key} 2^{k} | " + " | ".join(cells) + " |")


@part
def goal_full():
    """Full runs: the 12 cells of the 1.1x bar (uniform uint32, best block), band ratios."""
    for g in ("H100", "H200"):
        for kind in ("keys", "pairs"):
            for k in (24, 28, 30):
                cub = full_row(g, "cub", kind, k=k)
                o = full_row(g, "onesweep", kind, k=k)
                x, lo, hi, apart = band_ratio(cub, o)
                print(f"{g} {kind} 2^{k} b{o.block}: {x:.3f} [{lo:.3f}-{hi:.3f}] "
                      f"{'meets' if lo >= 1.1 else 'SHORT'}; {o.t:.1f} [{o.p10:.1f}-{o.p90:.1f}] "
                      f"CUB {cub.t:.1f} [{cub.p10:.1f}-{cub.p90:.1f}]")


@part
def overlaps():
    """Full runs: every onesweep x CUB cell from 2^13 up (pot, best block) whose bands overlap or
    that is below 1; and the lowest/highest ratio below 2^13. Also (7/8)^8 for low_entropy."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for kind, dist, key in FACETS:
            q = df[(df.variant == "onesweep") & (df.kind == kind) & (df.dist == dist)
                   & (df.key == key) & (df["size"] == "pot")]
            bad, low = [], []
            for k in sorted(set(q.k)):
                x, lo, hi, apart = band_ratio(full_row(g, "cub", kind, dist, key, k),
                                              full_row(g, "onesweep", kind, dist, key, k))
                if k >= 13 and (not apart or x < 1):
                    bad.append(f"2^{k} {x:.3f}{'' if apart else '~'}")
                if k < 13:
                    low.append(x)
            print(f"{g} {kind}/{dist}/{key}: from 2^13 not clearly ahead: {bad or 'none'}; "
                  f"below 2^13: {min(low) if low else '-'}..{max(low) if low else '-'}")
    print("P(digit 0) for low_entropy:", (7 / 8) ** 8)


@part
def npot_summary():
    """Full runs: NPOT / POT time at the same block, GPU sort variants: range at 2^24, 2^28 and 2^30
    (without the H100's pairs at 2^28), that cell, and the range at 2^20."""
    rng24, cell, rng20 = [], [], []
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        nq = df[(df["size"] == "npot") & (df.variant != "copy")]
        for r in nq.itertuples():
            p = df[(df["size"] == "pot") & (df.variant == r.variant) & (df.kind == r.kind)
                   & (df.dist == r.dist) & (df.key == r.key) & (df.block == r.block) & (df.k == r.k)]
            if len(p) != 1 or r.variant.startswith("cpu"):
                continue
            p = p.iloc[0]
            x = r.t / p.t
            if r.k in (24, 28, 30):
                (cell if (g == "H100" and r.kind == "pairs" and r.k == 28) else rng24).append(
                    (x, g, r.variant, r.kind, r.k))
            if r.k == 20:
                rng20.append((x, g, r.variant, r.kind))
    print("2^24, 2^28, 2^30 range", min(rng24), max(rng24))
    print("H100 pairs 2^28", sorted(cell))
    for v in ("split_1bit", "block_local_4bit", "onesweep", "thrust", "cub"):
        xs = [x for x in rng20 if x[2] == v]
        print("2^20", v, f"{min(xs)[0]:.3f}..{max(xs)[0]:.3f}")


@part
def checks():
    """Full runs: split_1bit / block_local_4bit best block per size (uniform keys); onesweep x CUB
    for all_equal pairs at every pot size from 2^20; lowest low_entropy ratio from 2^16 up."""
    for g in ("H100", "H200"):
        df = FULLDF[g][0]
        for v in ("split_1bit", "block_local_4bit"):
            q = df[(df.variant == v) & (df.kind == "keys") & (df.dist == "uniform")
                   & (df.key == "uint32") & (df["size"] == "pot")]
            best = {}
            for k in sorted(set(q.k)):
                r = q[q.k == k].sort_values("t")
                if len(r) > 1:
                    s = r.iloc[1]
                    best[k] = f"b{r.iloc[0].block}" + ("" if s.p10 > r.iloc[0].p90 else f"(~b{s.block})")
            print(g, v, best)
        cells = []
        for k in range(20, 31):
            x, lo, hi, apart = band_ratio(full_row(g, "cub", "pairs", "all_equal", k=k),
                                          full_row(g, "onesweep", "pairs", "all_equal", k=k))
            cells.append(f"{k}:{x:.3f}{'' if apart else '~'}")
        print(g, "all_equal pairs", " ".join(cells))
        lows = []
        for kind in ("keys", "pairs"):
            for k in range(16, 31):
                x, *_ = band_ratio(full_row(g, "cub", kind, "low_entropy", k=k),
                                   full_row(g, "onesweep", kind, "low_entropy", k=k))
                lows.append((round(x, 3), kind, k))
        print(g, "low_entropy min", min(lows))


@part
def split21():
    """Full runs: split_1bit uniform keys at 2^21, block 256 time / block 512 time."""
    for g in ("H100", "H200"):
        a = full_row(g, "split_1bit", k=21, block=256)
        b = full_row(g, "split_1bit", k=21, block=512)
        print(g, f"256/512 {a.t / b.t:.3f}", "apart" if a.p10 > b.p90 else "overlap")


@part
def old_runs():
    """The full runs of 59630645779d (block 256's 6144-key tile; git show 9ca6ced:results/<file> >
    /tmp/old-<gpu>.json, h100 and h200) against these: onesweep's time at the best block, new /
    old, uniform keys and pairs at every pot size."""
    import os
    paths = {"H100": "/tmp/old-h100.json", "H200": "/tmp/old-h200.json"}
    if not all(os.path.exists(p) for p in paths.values()):
        print("  needs /tmp/old-h100.json and /tmp/old-h200.json (see the docstring)")
        return
    old = {g: load(p) for g, p in paths.items()}
    for g in ("H100", "H200"):
        for kind in ("keys", "pairs"):
            cells = []
            for k in range(10, 31):
                a = full_row(g, "onesweep", kind, k=k, src=old)
                b = full_row(g, "onesweep", kind, k=k)
                cells.append(f"{k}: {b.t / a.t:.3f} b{a.block}->b{b.block}")
            print(f"  {g} {kind} uniform, new / old: " + "; ".join(cells))


if __name__ == "__main__":
    want = sys.argv[1:] or list(PARTS)
    for w in want:
        print(f"== {w}")
        PARTS[w]()
