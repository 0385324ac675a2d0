# Figures of the UTF-8 section (analysis/README.md), re-derivable:
#   .venv/bin/python analysis/figures/utf8.py   (run from the repository root)
import sys

import frames

FULL = {"H100": "results/nvidia-h100-80gb-hbm3.json", "H200": "results/nvidia-h200.json"}
HEAD = {"H100": "results/partial/nvidia-h100-headline.json",
        "H200": "results/partial/nvidia-h200-headline.json"}


def load(path):
    """The UTF-8 rows' repetitions as a DataFrame (frames.repetitions)."""
    df, context = frames.repetitions(path, "utf8", lambda i, ax, r: dict(
        name=r["name"], op=ax.get("operation", ""), mix=ax.get("mix", ""),
        p10=r.get("p10_s", 0) * 1e6, p90=r.get("p90_s", 0) * 1e6, cf=r.get("copy_frac"),
        cgbs=r.get("copy_GB/s"), samples=r.get("samples")))
    df["commit"] = context["git_commit"][:12]
    return df


F = {g: load(p) for g, p in FULL.items()}
H = {g: load(p) for g, p in HEAD.items()}


def row(g, variant, op, mix, k, block=None, size="pot"):
    df = F[g]
    q = df[(df.variant == variant) & (df.op == op) & (df.mix == mix) & (df.k == k) & (df["size"] == size)]
    if block is not None:
        q = q[q.block == block]
    return q


def best(g, variant, op, mix, k, size="pot"):
    q = row(g, variant, op, mix, k, size=size)
    return q.loc[q.t.idxmin()]


def band(r):
    return f"{r.t:.1f} [{r.p10:.1f}-{r.p90:.1f}]"


def overlap(a, b):
    return not (a.p90 < b.p10 or b.p90 < a.p10)


SECTION = sys.argv[1] if len(sys.argv) > 1 else "all"


def cfband(r):
    # x copy over the row's [p10, p90] band: copy_frac scales as 1/time
    return r.cf, r.cf * r.t / r.p90, r.cf * r.t / r.p10


if SECTION in ("all", "copy"):
    # x copy of every GPU row, both GPUs, best block (only decode/mixed sweeps blocks)
    print("== x copy by op/mix/size (full runs), best block; [p10-p90] time")
    for v in ("single_pass", "scan_based"):
        for op in ("decode", "validate", "encode"):
            for mix in ("mixed", "ascii", "latin", "cjk", "emoji", "mixed_errors"):
                for k in (20, 24, 28, 30):
                    if op == "encode" and k == 30:
                        k = 29
                    out = []
                    for g in F:
                        r = best(g, v, op, mix, k)
                        out.append(f"{g} {band(r)} b{r.block} x{r.cf:.3f} {r.gbs:.0f}GB/s")
                    print(v, op, mix, k, " | ".join(out))

if SECTION in ("all", "goal"):
    print("== goal 1: decode mixed 2^28, x copy; headline 5 reps [min-max of copy_frac], and full runs")
    for g in H:
        h = H[g]
        for b in (256, 384):
            q = h[(h.variant == "single_pass") & (h.op == "decode") & (h.k == 28) & (h.block == b)]
            print(g, "headline b", b, f"t {q.t.median():.1f} [{q.t.min():.1f}-{q.t.max():.1f}]",
                  f"x{q.cf.median():.3f} [{q.cf.min():.3f}-{q.cf.max():.3f}]",
                  "reps>=0.800:", int((q.cf >= 0.8).sum()), "of", len(q))
            # time needed for 0.8x at the median: t * cf / 0.8
            print("   time for 0.8x:", f"{q.t.median() * q.cf.median() / 0.8:.1f} us",
                  f"factor {q.cf.median() and 0.8 / q.cf.median():.3f}")
        for k in (28, 30):
            for b in (256, 384):
                r = row(g, "single_pass", "decode", "mixed", k, b).iloc[0]
                c, lo, hi = cfband(r)
                print(g, "full k", k, "b", b, band(r), f"x{c:.3f} [{lo:.3f}-{hi:.3f}]")
    print("== goals 2, 3: GPU single_pass (best block) against the CPU rows, mixed text, same file")
    for g in F:
        df = F[g]
        for op in ("decode", "validate", "encode"):
            for k in (24, 28):
                sp = best(g, "single_pass", op, "mixed", k)
                cpu = {v: row(g, v, op, "mixed", k).iloc[0] for v in ("cpu", "cpu_parallel", "iconv")}
                bestcpu = min(("cpu_parallel", "iconv"), key=lambda v: cpu[v].t)
                s = " ".join(f"{v} {cpu[v].t/1000:.2f}ms [{cpu[v].p10/1000:.2f}-{cpu[v].p90/1000:.2f}] n={cpu[v].samples:.0f}" for v in cpu)
                print(g, op, k, f"sp {band(sp)} b{sp.block}", s)
                for v in ("cpu", bestcpu):
                    x = cpu[v].t / sp.t
                    lo = cpu[v].p10 / sp.p90
                    hi = cpu[v].p90 / sp.p10
                    print(f"   x {v}: {x:.0f} [{lo:.0f}-{hi:.0f}]")

if SECTION in ("all", "ratio"):
    print("== H100 time / H200 time, full runs; band [H100 p10/H200 p90 - H100 p90/H200 p10]")

    def ratio(a, b):
        return f"{a.t / b.t:.3f} [{a.p10 / b.p90:.3f}-{a.p90 / b.p10:.3f}]"

    for k in (20, 24, 28, 30):
        a, b = F["H100"], F["H200"]
        ca = a[(a.variant == "copy") & (a.k == k) & (a["size"] == "pot")].iloc[0]
        cb = b[(b.variant == "copy") & (b.k == k) & (b["size"] == "pot")].iloc[0]
        print("copy", k, ratio(ca, cb), f"{ca.t:.1f} {cb.t:.1f}")
    for v in ("single_pass", "scan_based"):
        for op in ("decode", "validate", "encode"):
            for mix in ("mixed", "ascii", "latin", "cjk", "emoji", "mixed_errors"):
                out = []
                for k in (20, 24, 28, 30):
                    if op == "encode" and k == 30:
                        k = 29
                    a, b = best("H100", v, op, mix, k), best("H200", v, op, mix, k)
                    out.append(f"{k}: {ratio(a, b)}")
                print(v, op, mix, " | ".join(out))
    for b_ in (256, 384):
        for k in (28, 30):
            a = row("H100", "single_pass", "decode", "mixed", k, b_).iloc[0]
            b = row("H200", "single_pass", "decode", "mixed", k, b_).iloc[0]
            print("decode mixed same block", b_, k, ratio(a, b))
    # headline 5-rep ratio: median over median, [fastest/slowest .. slowest/fastest]
    for b_, k in ((256, 28), (384, 28), (256, 30), (384, 30)):
        qa = H["H100"]; qb = H["H200"]
        qa = qa[(qa.variant == "single_pass") & (qa.op == "decode") & (qa.k == k) & (qa.block == b_)]
        qb = qb[(qb.variant == "single_pass") & (qb.op == "decode") & (qb.k == k) & (qb.block == b_)]
        print("headline decode", b_, k, f"{qa.t.median() / qb.t.median():.3f} [{qa.t.min() / qb.t.max():.3f}-{qa.t.max() / qb.t.min():.3f}]")
    for op, k in (("validate", 28), ("encode", 28), ("", 28), ("", 30)):
        qa = H["H100"]; qb = H["H200"]
        v = "single_pass" if op else "copy"
        qa = qa[(qa.variant == v) & (qa.op == op) & (qa.k == k) & (qa.block == (256 if op else 0))]
        qb = qb[(qb.variant == v) & (qb.op == op) & (qb.k == k) & (qb.block == (256 if op else 0))]
        print("headline", v, op, k, f"{qa.t.median() / qb.t.median():.3f} [{qa.t.min() / qb.t.max():.3f}-{qa.t.max() / qb.t.min():.3f}]")

if SECTION in ("all", "block"):
    print("== block sweeps, decode mixed pot (full runs): each block's time [p10-p90]; best; overlaps")
    for v in ("single_pass", "scan_based"):
        for g in F:
            for k in (16, 20, 24, 28, 30):
                q = row(g, v, "decode", "mixed", k).sort_values("t")
                b0 = q.iloc[0]
                s = ", ".join(f"b{r.block} {band(r)}{'*' if overlap(r, b0) and r.block != b0.block else ''}" for _, r in q.iterrows())
                print(v, g, k, f"worst/best {q.t.max() / b0.t:.3f}", s)
    print("== headline decode blocks (5 reps, [min-max])")
    for g in H:
        h = H[g]
        for k in (20, 24, 28, 30):
            q = h[(h.variant == "single_pass") & (h.op == "decode") & (h.k == k)]
            agg = q.groupby("block").t.agg(["median", "min", "max"]).sort_values("median")
            print(g, k, "; ".join(f"b{b} {r['median']:.2f} [{r['min']:.2f}-{r['max']:.2f}]" for b, r in agg.iterrows()))
    # best block per size for single_pass, every k
    for v in ("single_pass", "scan_based"):
        for g in F:
            print(v, g, "best block by k:", " ".join(f"{k}:{best(g, v, 'decode', 'mixed', k).block}" for k in range(10, 31)))

if SECTION in ("all", "npot"):
    print("== npot / pot, decode mixed (full runs), same block; * = bands overlap")
    for v in ("single_pass", "scan_based", "copy"):
        for g in F:
            for k in (16, 20, 24, 28, 30):
                if v == "copy":
                    df = F[g]
                    p = df[(df.variant == "copy") & (df.k == k) & (df["size"] == "pot")].iloc[0]
                    n = df[(df.variant == "copy") & (df.k == k) & (df["size"] == "npot")].iloc[0]
                    print(v, g, k, f"{n.t / p.t:.3f}{'*' if overlap(n, p) else ''} npot {band(n)} pot {band(p)}")
                    continue
                out = []
                for b in sorted(row(g, v, "decode", "mixed", k).block):
                    p = row(g, v, "decode", "mixed", k, b).iloc[0]
                    n = row(g, v, "decode", "mixed", k, b, size="npot").iloc[0]
                    out.append(f"b{b} {n.t / p.t:.3f}{'*' if overlap(n, p) else ''}")
                pb = best(g, v, "decode", "mixed", k)
                nb = best(g, v, "decode", "mixed", k, size="npot")
                print(v, g, k, " ".join(out), f"| best pot {band(pb)} b{pb.block} npot {band(nb)} b{nb.block} x{nb.cf:.3f} vs x{pb.cf:.3f}")

if SECTION in ("all", "scan"):
    print("== single_pass over scan_based (time ratio scan_based/single_pass, best blocks; band p10/p90)")
    for g in F:
        for op in ("decode", "validate", "encode"):
            out = []
            for k in (20, 24, 28, 30):
                if op == "encode" and k == 30:
                    k = 29
                s, p = best(g, "scan_based", op, "mixed", k), best(g, "single_pass", op, "mixed", k)
                out.append(f"{k}: {s.t / p.t:.2f} [{s.p10 / p.p90:.2f}-{s.p90 / p.p10:.2f}]")
            print(g, op, " | ".join(out))
    print("== scan_based decode mixed: the header's traffic 22n + 4c at 2^28")
    for g in F:
        r = row(g, "scan_based", "decode", "mixed", 28, 256).iloc[0]
        n = r.n; t = r.t * 1e-6
        c = r.eps * t  # code points
        real = (22 * n + 4 * c) / t / 1e9
        print(g, f"n {n:.0f} c {c:.0f} c/n {c / n:.3f} model {(n + 4 * c) / t / 1e9:.0f} GB/s, header's 22n+4c {real:.0f} GB/s = x{real / r.cgbs:.2f} copy")
    print("== errors: decode mixed_errors / mixed at block 256, 2^28")
    for g in F:
        a = row(g, "single_pass", "decode", "mixed_errors", 28, 256).iloc[0]
        b = row(g, "single_pass", "decode", "mixed", 28, 256).iloc[0]
        print(g, f"{a.t / b.t:.3f} {band(a)} vs {band(b)} overlap={overlap(a, b)}")
    print("== tile arithmetic: tile = block x 64 bytes; tiles at 2^20, 2^28")
    for b in (64, 128, 256, 384, 512, 1024):
        print(b, "tile KiB", b * 64 / 1024, "tiles 2^20:", -(-2**20 // (b * 64)), "2^28:", -(-2**28 // (b * 64)))

if SECTION in ("all", "table"):
    print("== markdown: every single_pass operation and mix at 2^28 (full runs, best block)")
    print("| single_pass, 2^28 | H100 us [p10-p90] | x copy | H200 us [p10-p90] | x copy | H100/H200 time |")
    print("|---|---|---|---|---|---|")
    for op in ("decode", "validate", "encode"):
        for mix in ("mixed", "ascii", "latin", "cjk", "emoji", "mixed_errors"):
            a, b = best("H100", "single_pass", op, mix, 28), best("H200", "single_pass", op, mix, 28)
            cf = lambda r: "–" if r.cf < 0.001 else f"{r.cf:.3f}"
            bl = f" (b{a.block}, b{b.block})" if op == "decode" and mix == "mixed" else ""
            print(f"| {op}/{mix}{bl} | {band(a)} | {cf(a)} | {band(b)} | {cf(b)} | {a.t / b.t:.2f} |")
    r = row("H100", "single_pass", "validate", "mixed_errors", 28, 256).iloc[0]
    print("validate mixed_errors credited bytes:", round(r.gbs * 1e9 * r.t * 1e-6))
    print("validate early stop, 2^28: mixed_errors vs mixed")
    for g in F:
        for v in ("single_pass", "scan_based"):
            a, b = best(g, v, "validate", "mixed_errors", 28), best(g, v, "validate", "mixed", 28)
            print(g, v, band(a), band(b))

if SECTION in ("all", "small"):
    print("== decode mixed, small sizes: single_pass (best block) against the fastest CPU row")
    for g in F:
        for k in range(10, 29):
            sp = best(g, "single_pass", "decode", "mixed", k)
            cpus = [row(g, v, "decode", "mixed", k).iloc[0] for v in ("cpu", "cpu_parallel", "iconv")]
            c = min(cpus, key=lambda r: r.t)
            verdict = "GPU faster" if sp.p90 < c.p10 else ("CPU faster" if c.p90 < sp.p10 else "same")
            print(g, k, f"sp {band(sp)} b{sp.block}; {c.variant} {band(c)}", verdict)
    print("== 2^20 floor, single_pass mixed, every op")
    for g in F:
        print(g, [f"{op} {band(best(g, 'single_pass', op, 'mixed', 20))}" for op in ("decode", "validate", "encode")])
    print("== waves at 2^24: tiles and block slots (132 SMs; 3 blocks an SM at 384, 4 at 256)")
    for b, per in ((256, 4), (384, 3)):
        tiles = -(-2**24 // (b * 64))
        print(b, tiles, 132 * per, f"{tiles / (132 * per):.2f} waves")

if SECTION in ("all", "xcopy"):
    print("== markdown: x copy of mixed text by size (full runs, best block; encode's last column 2^29)")
    print("| mixed text, x copy | H100 2^20 | 2^24 | 2^28 | 2^30 | H200 2^20 | 2^24 | 2^28 | 2^30 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for v in ("single_pass", "scan_based"):
        for op in ("decode", "validate", "encode"):
            cells = []
            for g in F:
                for k in (20, 24, 28, 30):
                    kk = 29 if op == "encode" and k == 30 else k
                    r = best(g, v, op, "mixed", kk)
                    blk = f" (b{r.block})" if op == "decode" and v == "single_pass" else ""
                    cells.append(f"{r.cf:.3f}{blk}")
            print(f"| {v} {op} | " + " | ".join(cells) + " |")

if SECTION in ("all", "checks"):
    print("== single_pass vs scan_based at every size, op and mix (best blocks): any not bands-apart?")
    bad = []
    for g in F:
        for op in ("decode", "validate", "encode"):
            for mix in ("mixed", "ascii", "latin", "cjk", "emoji", "mixed_errors"):
                for k in range(10, 31):
                    if row(g, "single_pass", op, mix, k).empty:
                        continue
                    s, p = best(g, "scan_based", op, mix, k), best(g, "single_pass", op, mix, k)
                    if not p.p90 < s.p10:
                        bad.append((g, op, mix, k, band(p), band(s)))
    print(len(bad), bad[:10])
    print("== 2^28 decode mixed, 128 and 1024 behind the best")
    for g in F:
        b0 = best(g, "single_pass", "decode", "mixed", 28)
        for b in (128, 1024):
            r = row(g, "single_pass", "decode", "mixed", 28, b).iloc[0]
            print(g, b, f"{r.t / b0.t:.3f}")
    print("== npot/pot ranges, single_pass decode mixed")
    for ks in ((16,), (20, 24, 28, 30)):
        vals = []
        for g in F:
            for k in ks:
                for b in sorted(row(g, "single_pass", "decode", "mixed", k).block):
                    p = row(g, "single_pass", "decode", "mixed", k, b).iloc[0]
                    n = row(g, "single_pass", "decode", "mixed", k, b, size="npot").iloc[0]
                    vals.append(n.t / p.t)
        print(ks, f"{min(vals):.3f}-{max(vals):.3f}")
    vals = []
    for g in F:
        for k in (24, 28, 30):
            for b in (64, 128, 256):
                p = row(g, "scan_based", "decode", "mixed", k, b).iloc[0]
                n = row(g, "scan_based", "decode", "mixed", k, b, size="npot").iloc[0]
                vals.append(n.t / p.t)
    print("scan_based 2^24..2^30 b64-256", f"{min(vals):.3f}-{max(vals):.3f}")
