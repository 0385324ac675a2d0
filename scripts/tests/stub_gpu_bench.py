"""A stand-in for gpu_bench in the tests of bench.sh: Google Benchmark's command line over the
rows of a real fixture ($STUB_SOURCE, with metadata).

STUB_NO_GPU=1  the GPU rows are reported as skipped with an error, as gpu_bench reports them
               on a machine without a GPU (gpu_name "none")
STUB_OLD=1     the binary before issue 12: exit 0 when the filter is bad or selects nothing
STUB_CRASH=S   exit 139 when running suite S
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


def main(argv) -> int:
    with open(os.environ["STUB_SOURCE"], encoding="utf-8") as f:
        doc = json.load(f)
    flt, out, listing = "", None, False
    for a in argv:
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
    for b in rows:
        print(f"{b['name']:<60} {b.get('real_time', 0):>10.1f} us")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"context": context, "benchmarks": rows}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
