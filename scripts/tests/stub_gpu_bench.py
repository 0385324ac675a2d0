"""A stand-in for gpu_bench in the tests of bench.sh: Google Benchmark's command line over the
rows of a real fixture ($STUB_SOURCE, with metadata).

STUB_NO_GPU=1  the GPU rows are reported as skipped with an error, as gpu_bench reports them
               on a machine without a GPU (gpu_name "none")
STUB_OLD=1     the binary before issue 12: exit 0 when the filter is bad or selects nothing
STUB_CRASH=S   exit 139 when running suite S
STUB_SCALE=F   every time multiplied by F (rates divided): a faster or slower build (ab.py's tests)
STUB_REPEAT=1  --benchmark_repetitions=N writes N rows a benchmark, times spread by +-0.4%
Like Google Benchmark, it opens (empties) the --benchmark_out file before anything else.
"""

import json
import os
import re
import sys

PASSED = ("--benchmark_out_format=", "--benchmark_repetitions=", "--benchmark_min_time=")


def fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 0 if os.environ.get("STUB_OLD") == "1" else 1


TIMES = ("real_time", "cpu_time", "ms_median", "ms_p10", "ms_p90")
RATES = ("GB/s", "bytes_per_second", "elements/s", "items_per_second")


def scaled(rows, scale, reps):
    """Each measured row `reps` times (repetition i's times x (1 + 0.004 (i - (reps-1)/2)) /
    (reps/2)), every time x scale and every rate / scale."""
    out = []
    for b in rows:
        if b.get("error_occurred"):
            out.append(b)
            continue
        for i in range(reps):
            f = scale * (1 + (0.004 * (2 * i - (reps - 1)) / max(reps - 1, 1) if reps > 1 else 0))
            e = dict(b, repetitions=reps, repetition_index=i)
            for k in TIMES:
                if isinstance(e.get(k), (int, float)):
                    e[k] = e[k] * f
            for k in RATES:
                if isinstance(e.get(k), (int, float)):
                    e[k] = e[k] / f
            out.append(e)
    return out


def main(argv) -> int:
    with open(os.environ["STUB_SOURCE"], encoding="utf-8") as f:
        doc = json.load(f)
    flt, out, listing, reps = "", None, False, 1
    for a in argv:
        if a.startswith("--benchmark_repetitions="):
            reps = int(a.split("=", 1)[1])
        if a == "--benchmark_list_tests":
            listing = True
        elif a.startswith("--benchmark_filter="):
            flt = a.split("=", 1)[1]
        elif a.startswith("--benchmark_out="):
            out = a.split("=", 1)[1]
        elif not a.startswith(PASSED):
            print(f"gpu_bench: error: unrecognized command-line flag: {a}", file=sys.stderr)
            return 2
    if out:
        open(out, "w").close()
    try:
        pattern = re.compile(flt)
    except re.error as e:
        return fail(f"Could not compile benchmark re: {e}")
    rows = [b for b in doc["benchmarks"] if pattern.search(b["name"])]
    if not rows:
        return fail(f"Failed to match any benchmarks against regex: {flt}")
    if listing:
        for name in dict.fromkeys(b["name"] for b in rows):
            print(name)
        return 0
    if os.environ.get("STUB_CRASH") and rows[0]["name"].startswith(os.environ["STUB_CRASH"] + "/"):
        print("Segmentation fault", file=sys.stderr)
        return 139
    context = dict(doc["context"])
    if os.environ.get("STUB_NO_GPU") == "1":
        context["gpu_name"] = "none"
        meta = json.loads(context["gps_rows"])
        variants = json.loads(context["gps_variants"])
        targets = {(a, v["name"]): v["target"] for a, t in variants.items()
                   for v in t["variants"]}
        for i, b in enumerate(rows):
            m = meta[b["run_name"]]
            if targets[(m["algorithm"], m["variant"])] == "gpu":
                rows[i] = {"name": b["name"], "run_name": b["run_name"], "run_type": "iteration",
                           "repetitions": 1, "iterations": 0, "real_time": 0, "cpu_time": 0,
                           "time_unit": "us", "error_occurred": True,
                           "error_message": "no usable CUDA GPU: no CUDA-capable device"}
    rows = scaled(rows, float(os.environ.get("STUB_SCALE", "1")),
                  reps if os.environ.get("STUB_REPEAT") == "1" else 1)
    for b in rows:
        print(f"{b['name']:<60} {b.get('real_time', 0):>10.1f} us")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"context": context, "benchmarks": rows}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
