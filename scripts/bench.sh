#!/usr/bin/env bash
# Builds gpu_bench and runs the benchmark suite, writing results/<gpu-name>.json.
# Usage: scripts/bench.sh [--out FILE] [gpu_bench flags...]
#   scripts/bench.sh                                   # the whole suite
#   scripts/bench.sh --benchmark_filter='^scan/cub/'   # a part of it (mind --out)
#   scripts/bench.sh --benchmark_min_time=0.2s --benchmark_repetitions=5   # more precision
#   (with Google Benchmark < 1.8, write --benchmark_min_time=0.2 without the unit)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done

gps_configure_and_build --target gpu_bench

if command -v nvidia-smi >/dev/null 2>&1 && gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1) && [ -n "$gpu" ]; then
  slug=$(echo "$gpu" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
else
  echo "bench.sh: no NVIDIA GPU found (nvidia-smi): only the CPU rows will run" >&2
  slug="cpu-only"
fi
out="${out:-$ROOT/results/$slug.json}"
mkdir -p "$(dirname "$out")"
echo "bench.sh: writing $out" >&2
"$BUILD_DIR/bench/gpu_bench" --benchmark_out="$out" --benchmark_out_format=json "${args[@]}"
