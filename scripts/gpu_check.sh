#!/usr/bin/env bash
# One call on a GPU machine: build, GPU tests, compute-sanitizer (memcheck, racecheck, synccheck)
# over the GPU tests at quick sizes, then benchmarks. Logs and JSON go to $OUT (default out/).
# Usage: STEPS="build test sanitize bench" BENCH_ARGS="--benchmark_filter=^scan/" scripts/gpu_check.sh
# STEPS may also hold "gate": the regression gate checked on this GPU: the quick preset (--gps_quick)
#   run three times with 5 repetitions, the third with --gps_inject_slowdown=$GATE_SLOWDOWN (0.05),
#   then compare.py --fail-above 3.5: no alarm between the first two, every GPU row of the third
#   flagged (gate-*.json and gate.txt in $OUT). GATE_FILTER (default: the GPU rows, -/(cpu|iconv))
#   picks the rows: the gate judges GPU rows, and the CPU rows would take most of the time.
#   TESTS="test_scan test_compact"  test binaries to run (default: every tests/test_* binary)
#   SANITIZE_MAX_N=4096             largest size run under racecheck/synccheck (memcheck: x16)
#   SANITIZE_TIMEOUT=300            seconds each sanitizer process may take
#   SANITIZE_JOBS=16                sanitizer processes at a time
#   SANITIZE_TOOLS="memcheck racecheck synccheck"  the compute-sanitizer tools to run
#   SANITIZE_SPLIT_BLOCKS=racecheck tools run as one process per block size too (racecheck of
#                                   sort/block_local_4bit's five blocks takes over 7 minutes)
#   SANITIZE_ONLY=REGEX             only the sanitizer groups whose name matches (grep -E), e.g.
#                                   'onesweep|prefetch' after a change to those kernels
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
  # One sanitizer process per variant and axis point of test_variants (prefixes such as
  # sort_split_1bit_pairs_uniform) and per operation and variant of test_utf8, SANITIZE_JOBS at a
  # time: racecheck of one whole binary takes far longer than a device call.
  sanitize_job() { # "tool|max|binary|filter|label"
    IFS='|' read -r tool max bin filter label <<<"$1"
    local log="$OUT/sanitize/$tool-$label.log" rc=0
    GPS_TEST_MAX_N=$max timeout "${SANITIZE_TIMEOUT:-300}" compute-sanitizer --tool "$tool" \
      --error-exitcode 99 "$BUILD_DIR/tests/$bin" --gtest_brief=1 --gtest_filter="$filter" \
      >"$log" 2>&1 || rc=$?
    # 77: every case skipped (no GPU, or every size above GPS_TEST_MAX_N)
    if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
      echo "SANITIZER $tool $label FAILED (exit $rc; 124: timed out): $log"
      return 1
    fi
    echo "$tool $label: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  }
  export -f sanitize_job
  export OUT BUILD_DIR SANITIZE_TIMEOUT
  mkdir -p "$OUT/sanitize"
  # test_variants names: MatchesReference/<algorithm>_<variant>_<axes>_block<B>_n<N>
  block_groups="$("$BUILD_DIR/tests/test_variants" --gtest_list_tests --gtest_filter='Gpu/*' |
    sed -n 's/^  MatchesReference\/\(.*_block[0-9]*\)_n[0-9]*.*/\1/p' | sort -u)"
  groups="$(sed 's/_block[0-9]*$//' <<<"$block_groups" | sort -u)"
  utf8_list="$("$BUILD_DIR/tests/test_utf8" --gtest_list_tests --gtest_filter='Gpu/*' 2>/dev/null)"
  utf8_groups="$(sed -n 's/^  [A-Za-z]*\/\([a-z]*_[a-z_]*[a-z]\)\(_block[0-9]*\)\{0,1\}  *#.*/\1/p' <<<"$utf8_list" | sort -u)"
  # split per block: the names that end in _block<B> one group each, the others as before
  utf8_block_groups="$( (sed -n 's/^  [A-Za-z]*\/\([a-z]*_[a-z_]*[a-z]_block[0-9]*\)  *#.*/\1/p' <<<"$utf8_list"
    sed -n 's/^  [A-Za-z]*\/\([a-z]*_[a-z_]*[a-z]\)  *#.*/\1/p' <<<"$utf8_list" | grep -v '_block[0-9]*$') | sort -u)"
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    max=$SANITIZE_MAX_N
    [ "$tool" = memcheck ] && max=$((SANITIZE_MAX_N * 16))
    log "compute-sanitizer $tool (n <= $max)"
    jobs=()
    if [[ " ${SANITIZE_SPLIT_BLOCKS-racecheck} " == *" $tool "* ]]; then
      for g in $block_groups; do jobs+=("$tool|$max|test_variants|Gpu/VariantTest.*/${g}_n*|$g"); done
      for g in $utf8_block_groups; do jobs+=("$tool|$max|test_utf8|Gpu/*/${g}|utf8_$g"); done
    else
      for g in $groups; do jobs+=("$tool|$max|test_variants|Gpu/VariantTest.*/${g}_block*|$g"); done
      for g in $utf8_groups; do jobs+=("$tool|$max|test_utf8|Gpu/*/${g}*|utf8_$g"); done
    fi
    jobs+=("$tool|$max|test_utf8|Utf8Concurrency.*|utf8_concurrency")
    jobs+=("$tool|$max|test_checks|Contract.*:*Concurrent*:SortScanChoice.*|checks")
    jobs+=("$tool|$max|test_checks|SortKeyTypes.*:SortDeviceCheck.*|sort_checks")
    printf '%s\n' "${jobs[@]}" | awk -F'|' -v re="${SANITIZE_ONLY:-.}" '$5 ~ re' |
      xargs -d '\n' -P "${SANITIZE_JOBS:-16}" -I{} bash -c 'sanitize_job "$1"' _ {} \
        >>"$OUT/summary.txt" || status=1
    grep -E "^SANITIZER $tool" "$OUT/summary.txt" | head -20
  done
fi

if has bench; then
  log "bench ${BENCH_ARGS:-}"
  # shellcheck disable=SC2086
  "$BUILD_DIR/bench/gpu_bench" --benchmark_out="$OUT/${BENCH_JSON:-bench.json}" \
    --benchmark_out_format=json ${BENCH_ARGS:-} >"$OUT/bench.log" 2>&1 || { status=1; log "BENCH FAILED"; }
  tail -5 "$OUT/bench.log"
fi
if has gate; then
  for tag in a b slow; do
    extra=""
    [ "$tag" = slow ] && extra="--gps_inject_slowdown=${GATE_SLOWDOWN:-0.05}"
    log "gate run $tag $extra"
    # shellcheck disable=SC2086
    "$BUILD_DIR/bench/gpu_bench" --gps_quick --benchmark_repetitions=5 $extra \
      --benchmark_filter="${GATE_FILTER:--/(cpu|iconv)}" \
      --benchmark_out="$OUT/gate-$tag.json" --benchmark_out_format=json >/dev/null 2>"$OUT/gate-$tag.err" ||
      { status=1; log "GATE RUN $tag FAILED"; tail -3 "$OUT/gate-$tag.err"; }
  done
  gps_python_env "matplotlib pandas" || exit 1 # what scripts/deps.py asks for
  {
    echo "== rerun (expected: no alarm, exit 0)"
    "$GPS_PY" "$ROOT/scripts/compare.py" "$OUT/gate-a.json" "$OUT/gate-b.json" --fail-above 3.5 \
      --changed-only
    echo "exit $?"
    echo "== injected slowdown (expected: every GPU row slower, exit 1)"
    "$GPS_PY" "$ROOT/scripts/compare.py" "$OUT/gate-a.json" "$OUT/gate-slow.json" --fail-above 3.5 |
      tail -5
    echo "exit ${PIPESTATUS[0]}"
  } >"$OUT/gate.txt" 2>&1
  cat "$OUT/gate.txt" | tee -a "$OUT/summary.txt" | tail -20
fi
log "done (status $status)"
exit $status
