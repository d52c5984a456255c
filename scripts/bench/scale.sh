#!/usr/bin/env bash
# Scale check (not a CI test): streams 1 million and then 10 million
# generated puzzles through `batchdoku solve` from stdin and records peak
# memory (max RSS of the batchdoku process, /usr/bin/time -v) and
# throughput for each. Memory must stay flat (10M within 10 % of 1M) and
# under 64 MB; every puzzle must come back as exactly one row, in order.
#
# Usage: scripts/bench/scale.sh [DATA_DIR]   (default ../shared/data)
# Environment: THREADS (default 2), SCALE_SIZES (default "1000000 10000000"),
#              MAX_RSS_MB (default 64), BATCHDOKU (a prebuilt binary).
#
# Puzzles: the 17-clue, Serg benchmark and unbiased public sets (about 60k
# puzzles, easy to moderately hard), concatenated, then repeated with the
# digits relabelled by a different permutation on every pass (`tr`), so the
# stream is generated on the fly at far more than solving speed and no two
# passes are byte-identical. Nothing is written to disk but the timings.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-${BATCHDOKU_DATA:-../shared/data}}
THREADS=${THREADS:-2}
SIZES=${SCALE_SIZES:-"1000000 10000000"}
MAX_RSS_MB=${MAX_RSS_MB:-64}
if [ -z "${BATCHDOKU:-}" ]; then
  cargo build --release --quiet
  BATCHDOKU=target/release/batchdoku
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cat "$DATA/puzzles2_17_clue.txt" "$DATA/puzzles7_serg_benchmark.txt" \
    "$DATA/puzzles1_unbiased.txt" | cut -c1-81 > "$TMP/base.txt"
BASE_LINES=$(grep -c '' "$TMP/base.txt")

# generate N: N puzzle lines on stdout (relabelled copies of the base set).
generate() {
  local perms=(123456789 918273645 357198246 864297531 246813579
               975318642 531864297 692581473 417396825 789123456)
  local pass=0
  # `head` closes the pipe once it has N lines; `tr` then dies of SIGPIPE
  # and the loop must stop too (bash itself never writes to the pipe, so
  # it would not get the signal and would hold the pipe open for ever).
  {
    while tr 123456789 "${perms[pass % ${#perms[@]}]}" < "$TMP/base.txt"; do
      pass=$((pass + 1))
    done
  } 2>/dev/null | head -n "$1" || true
}

echo "# batchdoku scale check"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); host: $(hostname); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- binary: $("$BATCHDOKU" --version); threads: $THREADS; base set: $BASE_LINES puzzles, relabelled per pass"
echo
echo "| puzzles | rows out | last index | max RSS (MB) | seconds | puzzles/s | exit |"
echo "|---:|---:|---:|---:|---:|---:|---:|"

declare -A RSS
fail=0
for n in $SIZES; do
  start=$(date +%s.%N)
  set +e
  generate "$n" \
    | /usr/bin/time -v -o "$TMP/time.txt" "$BATCHDOKU" solve -q -j "$THREADS" - \
    | awk -F, 'NR > 1 { rows++; if ($1 != rows) bad++ } END { print rows + 0, $1, bad + 0 }' \
    > "$TMP/count.txt"
  codes=("${PIPESTATUS[@]}")
  set -e
  end=$(date +%s.%N)
  read -r rows last bad < "$TMP/count.txt"
  code=$(awk -F': ' '/Exit status/ { print $2 }' "$TMP/time.txt")
  rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TMP/time.txt")
  RSS[$n]=$rss_kb
  awk -v n="$n" -v r="$rows" -v l="$last" -v k="$rss_kb" -v a="$start" -v b="$end" -v c="$code" \
    'BEGIN { printf "| %d | %d | %s | %.1f | %.1f | %.0f | %s |\n", n, r, l, k / 1024, b - a, n / (b - a), c }'
  if [ "$rows" != "$n" ] || [ "$bad" != 0 ] || [ "$code" != 0 ] || [ "${codes[1]}" != 0 ]; then
    echo "FAIL: $n puzzles in, $rows rows out, $bad out of order, exit $code" >&2
    fail=1
  fi
  if [ "$rss_kb" -gt $((MAX_RSS_MB * 1024)) ]; then
    echo "FAIL: max RSS $rss_kb kB over $MAX_RSS_MB MB at $n puzzles" >&2
    fail=1
  fi
done

sizes=($SIZES)
if [ "${#sizes[@]}" -ge 2 ]; then
  small=${RSS[${sizes[0]}]}
  large=${RSS[${sizes[-1]}]}
  growth=$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')
  echo
  echo "Max RSS growth from ${sizes[0]} to ${sizes[-1]} puzzles: $growth %"
  if awk -v g="$growth" 'BEGIN { exit !(g > 10) }'; then
    echo "FAIL: memory grows with input size ($growth % > 10 %)" >&2
    fail=1
  fi
fi
exit "$fail"
