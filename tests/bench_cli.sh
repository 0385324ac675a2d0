#!/usr/bin/env bash
# gpu_bench's command line (no GPU needed): every bad use ends with a non-zero exit and a short
# message (its own line, after Google Benchmark's where that one speaks first; a machine without a
# GPU adds its notice), never a crash; and the row list is complete without a GPU. Usage: bench_cli.sh path/to/gpu_bench
set -uo pipefail
bench="$1"
fails=0
expect() { # expected-exit description args...
  local want="$1" what="$2" err rc
  shift 2
  err="$(timeout 120 "$bench" "$@" 2>&1 >/dev/null)"
  rc=$?
  if [ "$rc" != "$want" ] || [ "$(grep -vc 'no GPU' <<<"$err")" -gt 2 ] ||
    grep -qiE 'terminate|abort|core dumped|segmentation' <<<"$err"; then
    echo "FAIL $what: exit $rc (want $want), stderr: $err"
    fails=$((fails + 1))
  else
    echo "ok   $what: $(tail -1 <<<"$err")"
  fi
}
expect 2 "unknown flag" --bogus
expect 2 "unknown project option" --gps_bogus=1
expect 2 "min time (would repeat each row's sampling)" --benchmark_min_time=1s
expect 2 "bad shard" --gps_shard=5/4
expect 1 "filter that selects nothing" '--benchmark_filter=^nomatch$'
expect 1 "invalid regular expression" '--benchmark_filter=['
rows="$("$bench" --benchmark_list_tests 2>/dev/null | wc -l)"
if [ "$rows" -lt 9000 ]; then
  echo "FAIL --benchmark_list_tests lists $rows rows (every row, GPU or not, expected)"
  fails=$((fails + 1))
else
  echo "ok   --benchmark_list_tests lists $rows rows"
fi
exit $((fails > 0))
