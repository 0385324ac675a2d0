#!/usr/bin/env bash
# Builds gpu_bench and runs the benchmark suites into one results file (results/<gpu-name>.json).
# Each suite (the algorithms gpu_bench lists, in its order) runs as its own process; the parts are
# checked and merged by merge_results.py, in a temporary folder that is always removed.
# Usage: scripts/bench.sh [--out FILE] [--suite NAME]... [gpu_bench flags...]
#   scripts/bench.sh                                    # every suite
#   scripts/bench.sh --suite scan --suite reduce        # some suites (mind --out)
#   scripts/bench.sh --out /tmp/cub.json --benchmark_filter='^scan/cub/'   # one process
#   scripts/bench.sh --benchmark_repetitions=5          # for compare.py's rank test
# Without a GPU the output goes to $BUILD_DIR/cpu-only.json unless --out names a file.
# GPU_BENCH=/path/to/gpu_bench runs that binary instead of building one.
# Exit status: 0 written; 1 the build or a run failed, or nothing was measured (e.g. only GPU
# rows selected on a machine without a GPU); 2 bad usage (an unknown suite, a flag or filter
# gpu_bench rejects, a filter that selects nothing). Never leaves an empty or partial file.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

die() { echo "bench.sh: $1" >&2; exit "${2:-2}"; }

out=""
suites=()
args=()
filter=""
has_filter=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a file name"; out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --suite) [ $# -ge 2 ] || die "--suite needs a name"; suites+=("$2"); shift 2 ;;
    --suite=*) suites+=("${1#--suite=}"); shift ;;
    --benchmark_filter=*) filter="${1#--benchmark_filter=}"; has_filter=1; shift ;;
    --benchmark_filter) die "write --benchmark_filter=REGEX (with '=')" ;;
    --benchmark_out|--benchmark_out=*|--benchmark_out_format*) die "use --out FILE, not $1" ;;
    --benchmark_list_tests*) die "bench.sh runs benchmarks; list them with $BUILD_DIR/bench/gpu_bench --benchmark_list_tests" ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ "$has_filter" = 1 ] && [ ${#suites[@]} -gt 0 ]; then
  die "give --suite or --benchmark_filter, not both (a filter such as '^scan/' selects a suite)"
fi
if [ -n "$out" ] && [ -d "$out" ]; then die "--out $out is a folder, not a file"; fi

gps_python_env "matplotlib pandas" || exit 1 # merge_results.py checks the output: fail before a long run
if [ -n "${GPU_BENCH:-}" ]; then
  bin="$GPU_BENCH"
  [ -x "$bin" ] || die "GPU_BENCH=$bin is not an executable file" 1
else
  gps_configure_and_build --target gpu_bench || die "the build failed" 1
  bin="$BUILD_DIR/bench/gpu_bench"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gps-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# what gpu_bench would run: its own check of the flags and the filter, and its suite order
list() { # list [--benchmark_filter=F]: the names into $work/list; one line and exit when refused
  local status=0 why
  "$bin" --benchmark_list_tests "$@" ${args[@]+"${args[@]}"} >"$work/list" 2>"$work/list.err" || status=$?
  why=$(grep -v "GPU rows will be reported" "$work/list.err" \
    | grep -iE "could not compile|unrecognized|unknown option|bad value|invalid" | head -n1 || true)
  [ -z "$why" ] || die "gpu_bench refused ${*:-the flags}${args[*]:+ ${args[*]}}: $why"
  if [ "$status" != 0 ] && ! grep -qiE "failed to match|no benchmark matches" "$work/list.err"; then
    why=$(grep -v '^$' "$work/list.err" | head -n1 || true)
    die "gpu_bench --benchmark_list_tests failed (exit status $status): ${why:-no message}" 1
  fi
  sed -i '/^$/d' "$work/list"
}
list
all_suites=$(cut -d/ -f1 "$work/list" | awk '!seen[$0]++' | tr '\n' ' ')
[ -n "$all_suites" ] || die "gpu_bench lists no benchmark at all" 1
for s in ${suites[@]+"${suites[@]}"}; do
  [[ " $all_suites " == *" $s "* ]] || die "unknown suite '$s' (gpu_bench has: ${all_suites% })"
done
if [ "$has_filter" = 1 ]; then
  list --benchmark_filter="$filter"
  [ -s "$work/list" ] || die "--benchmark_filter='$filter' selects no benchmark"
fi

if command -v nvidia-smi >/dev/null 2>&1 && gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1) && [ -n "$gpu" ]; then
  slug=$(echo "$gpu" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
  out="${out:-$ROOT/results/$slug.json}"
else
  # a CPU-only run is no result to keep: it goes to the build folder unless asked for
  out="${out:-$BUILD_DIR/cpu-only.json}"
  echo "bench.sh: no NVIDIA GPU found (nvidia-smi): only the CPU rows will be measured" >&2
fi
mkdir -p "$(dirname "$out")"

run() { # run NAME FILTER: one gpu_bench process into $work/NAME.json
  local name="$1" start status=0
  start=$(date +%s)
  echo "bench.sh: $name -> $work/$name.json" >&2
  "$bin" --benchmark_filter="$2" --benchmark_out="$work/$name.json" --benchmark_out_format=json \
    ${args[@]+"${args[@]}"} || status=$?
  [ "$status" = 0 ] || die "gpu_bench failed on $name (exit status $status)" 1
  echo "bench.sh: $name took $(( $(date +%s) - start )) s" >&2
  parts+=("$work/$name.json")
}
parts=()
if [ "$has_filter" = 1 ]; then
  run filtered "$filter"
else
  # in gpu_bench's order, whatever the order of the --suite flags
  for s in $all_suites; do
    if [ ${#suites[@]} -eq 0 ] || [[ " ${suites[*]} " == *" $s "* ]]; then run "$s" "^$s/"; fi
  done
fi
"$GPS_PY" "$ROOT/scripts/merge_results.py" -o "$out" "${parts[@]}" || exit 1
echo "bench.sh: wrote $out" >&2
