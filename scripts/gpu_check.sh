#!/usr/bin/env bash
# One call on a GPU machine: build, GPU tests, compute-sanitizer (memcheck, racecheck, synccheck)
# over the GPU tests at quick sizes, then benchmarks. Logs and JSON go to $OUT (default out/).
# Usage: STEPS="build test sanitize bench" BENCH_ARGS="--benchmark_filter=^scan/" scripts/gpu_check.sh
#   TESTS="test_scan test_compact"  test binaries to run (default: every tests/test_* binary)
#   SANITIZE_MAX_N=4096             largest size run under racecheck/synccheck (memcheck: x16)
#   SANITIZE_TIMEOUT=300            seconds each sanitizer process may take
set -uo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="${OUT:-$ROOT/out}"
mkdir -p "$OUT"
STEPS="${STEPS:-build test sanitize bench}"
SANITIZE_MAX_N="${SANITIZE_MAX_N:-4096}"
status=0
log() { echo "== $(date +%T) $*" | tee -a "$OUT/summary.txt"; }
has() { [[ " $STEPS " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv \
  2>&1 | tee -a "$OUT/summary.txt"

if has build; then
  log build
  gps_configure_and_build >"$OUT/build.log" 2>&1 || { log "BUILD FAILED"; tail -50 "$OUT/build.log"; exit 1; }
fi
tests="${TESTS:-$(cd "$BUILD_DIR/tests" && ls test_* 2>/dev/null | grep -v '\.' | tr '\n' ' ')}"

if has test; then
  for t in $tests; do
    log "test $t"
    if ! "$BUILD_DIR/tests/$t" --gtest_brief=1 >"$OUT/$t.log" 2>&1; then
      status=1; log "FAILED $t"; grep -E "Failure|FAILED|error" "$OUT/$t.log" | head -40
    fi
    tail -3 "$OUT/$t.log" | tee -a "$OUT/summary.txt"
  done
fi

if has sanitize; then
  # One sanitizer process per test binary, and per algorithm for test_variants (racecheck over
  # every case of one binary takes longer than a device call), all of a tool in parallel.
  sanitize_one() { # tool max binary filter label
    local log="$OUT/sanitize-$1-$5.log"
    if ! GPS_TEST_MAX_N=$2 timeout "${SANITIZE_TIMEOUT:-300}" compute-sanitizer --tool "$1" \
        --error-exitcode 99 "$BUILD_DIR/tests/$3" --gtest_brief=1 --gtest_filter="$4" >"$log" 2>&1; then
      echo "SANITIZER $1 $5 FAILED (or timed out): $log" >>"$OUT/summary.txt"
      return 1
    fi
    echo "$1 $5: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" >>"$OUT/summary.txt"
  }
  algorithms="$("$BUILD_DIR/tests/test_variants" --gtest_list_tests --gtest_filter='Gpu/*' |
    sed -n 's/^  MatchesReference\/\([a-z0-9]*\)_.*/\1/p' | sort -u | tr '\n' ' ')"
  for tool in memcheck racecheck synccheck; do
    max=$SANITIZE_MAX_N
    [ "$tool" = memcheck ] && max=$((SANITIZE_MAX_N * 16))
    log "compute-sanitizer $tool (n <= $max)"
    pids=()
    for a in $algorithms; do
      sanitize_one "$tool" "$max" test_variants "Gpu/VariantTest.*/${a}_*" "$a" & pids+=($!)
    done
    for t in $tests; do
      [ "$t" = test_variants ] && continue
      sanitize_one "$tool" "$max" "$t" '*' "$t" & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
  done
fi

if has bench; then
  log "bench ${BENCH_ARGS:-}"
  # shellcheck disable=SC2086
  "$BUILD_DIR/bench/gpu_bench" --benchmark_out="$OUT/${BENCH_JSON:-bench.json}" \
    --benchmark_out_format=json ${BENCH_ARGS:-} >"$OUT/bench.log" 2>&1 || { status=1; log "BENCH FAILED"; }
  tail -5 "$OUT/bench.log"
fi
log "done (status $status)"
exit $status
