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
expect 2 "--gps_utf8_file that does not exist" --gps_utf8_file=/nonexistent/text.txt
expect 2 "--gps_utf8_file that is a folder" --gps_utf8_file=/
empty="$(mktemp)"
text="$(mktemp)"
trap 'rm -f "$empty" "$text"' EXIT
expect 2 "--gps_utf8_file that is empty" --gps_utf8_file="$empty"
printf 'h\xc3\xa9llo w\xc3\xb6rld \xe4\xb8\xad\xf0\x9f\x98\x80 \xff\n' >"$text"
file_rows="$("$bench" --gps_utf8_file="$text" --benchmark_list_tests --benchmark_filter=/file/ 2>/dev/null)"
if ! grep -q '^utf8/single_pass/decode/file/pot/log2n:20/block:256/' <<<"$file_rows" ||
  ! grep -q '^utf8/cpu/encode/file/pot/log2n:20/' <<<"$file_rows"; then
  echo "FAIL --gps_utf8_file: the file mix's rows are not listed"
  fails=$((fails + 1))
else
  echo "ok   --gps_utf8_file lists $(wc -l <<<"$file_rows") rows of the file mix"
fi
rows="$("$bench" --benchmark_list_tests 2>/dev/null | wc -l)"
if [ "$rows" -lt 9000 ]; then
  echo "FAIL --benchmark_list_tests lists $rows rows (every row, GPU or not, expected)"
  fails=$((fails + 1))
else
  echo "ok   --benchmark_list_tests lists $rows rows"
fi
exit $((fails > 0))
