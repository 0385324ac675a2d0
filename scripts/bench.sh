#!/usr/bin/env bash
# Builds gpu_bench and runs the benchmark suite, writing results/<gpu-name>.json.
# Each suite (scan, compact, reduce, sort) runs as its own process into <out>.parts/<suite>.json;
# the parts are then merged into the one results file.
# Usage: scripts/bench.sh [--out FILE] [--suite NAME]... [gpu_bench flags...]
#   scripts/bench.sh                                    # every suite
#   scripts/bench.sh --suite scan --suite reduce        # some suites (mind --out)
#   scripts/bench.sh --out /tmp/cub.json --benchmark_filter='^scan/cub/'   # one process
#   scripts/bench.sh --benchmark_min_time=0.2s --benchmark_repetitions=5   # more precision
#   (with Google Benchmark < 1.8, write --benchmark_min_time=0.2 without the unit)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=""
suites=()
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --suite) suites+=("$2"); shift 2 ;;
    --suite=*) suites+=("${1#--suite=}"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || suites=(scan compact reduce sort)

gps_configure_and_build --target gpu_bench

if command -v nvidia-smi >/dev/null 2>&1 && gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1) && [ -n "$gpu" ]; then
  slug=$(echo "$gpu" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
else
  echo "bench.sh: no NVIDIA GPU found (nvidia-smi): only the CPU rows will run" >&2
  slug="cpu-only"
fi
out="${out:-$ROOT/results/$slug.json}"
mkdir -p "$(dirname "$out")"
if [[ " ${args[*]:-} " == *" --benchmark_filter"* ]]; then
  # a filter of the user's own: one process, straight into the output file
  echo "bench.sh: writing $out" >&2
  exec "$BUILD_DIR/bench/gpu_bench" --benchmark_out="$out" --benchmark_out_format=json "${args[@]}"
fi
parts="$out.parts"
mkdir -p "$(dirname "$out")" "$parts"
part_files=()
for suite in "${suites[@]}"; do
  echo "bench.sh: suite $suite -> $parts/$suite.json" >&2
  start=$(date +%s)
  "$BUILD_DIR/bench/gpu_bench" --benchmark_filter="^$suite/" --benchmark_out="$parts/$suite.json" \
    --benchmark_out_format=json "${args[@]}"
  echo "bench.sh: suite $suite took $(( $(date +%s) - start )) s" >&2
  part_files+=("$parts/$suite.json")
done
python3 "$ROOT/scripts/merge_results.py" -o "$out" "${part_files[@]}"
rm -rf "$parts"
