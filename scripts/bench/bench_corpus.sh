#!/usr/bin/env bash
# Corpus-tool rates for BENCHMARKS.md: `canon` and `dedupe` (class and --exact) end to end (read, canonicalise,
# write CSV to /dev/null) on each public set, replicated to about SECONDS_PER_RUN seconds of work, at 1 and 2
# threads; then dedupe's peak memory on 1M and 4M distinct puzzles (random row/band/digit shuffles of the
# 17-clue set, so distinct strings but few classes: the --exact table holds one entry per distinct puzzle).
# Re-run with: scripts/bench/bench_corpus.sh [DATA_DIR]. SKIP_MEMORY=1 skips the memory step.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-${BATCHDOKU_DATA:-../shared/data}}
PER_RUN=${SECONDS_PER_RUN:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cargo build --release --quiet
B=target/release/batchdoku

# shellcheck source=scripts/bench/bench_lib.sh
source scripts/bench/bench_lib.sh
# rate N CMD...: puzzles/s of one run over N records.
rate() {
  local n=$1 t0 t1; shift
  t0=$(now); "$B" "$@" > /dev/null || [ $? -eq 1 ]; t1=$(now)
  echo "$n $t0 $t1" | awk '{ printf "%.0f", $1 / ($3 - $2) }'
}

echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); cores: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | canon 1t | canon 2t | dedupe 1t | dedupe 2t | dedupe --exact 1t | dedupe --exact 2t | records per run |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in "$DATA"/*.txt; do
  name=$(basename "$f" .txt)
  # Size each run from a first 1-thread canon rate on the set itself.
  n0=$(grep -c '' "$f")
  probe=$(rate "$n0" canon -q -j 1 "$f")
  want=$(awk -v r="$probe" -v s="$PER_RUN" 'BEGIN { printf "%d", r * s }')
  replicate "$f" "$want" "$TMP/in.txt"
  n=$(grep -c '' "$TMP/in.txt")
  row="| $name"
  for cmd in "canon" "dedupe" "dedupe --exact"; do
    for j in 1 2; do
      # shellcheck disable=SC2086
      row="$row | $(rate "$n" $cmd -q -j "$j" "$TMP/in.txt")"
    done
  done
  echo "$row | $n |"
done

if [ -z "${SKIP_MEMORY:-}" ]; then
  echo
  echo "| distinct puzzles | dedupe --exact peak RSS (MB) | seconds (2 threads) |"
  echo "|---:|---:|---:|"
  for n in 1000000 4000000; do
    # Distinct puzzles: every input line shuffled by its own random row/band/digit permutation.
    awk -v n="$n" 'BEGIN { srand(7) } { p[NR] = $1 } END {
      for (i = 0; i < n; i++) {
        s = p[int(rand() * NR) + 1]; split("123456789", d, ""); 
        for (k = 9; k > 1; k--) { r = int(rand() * k) + 1; t = d[k]; d[k] = d[r]; d[r] = t }
        out = ""; for (c = 1; c <= 81; c++) { ch = substr(s, c, 1); out = out (ch ~ /[1-9]/ ? d[ch + 0] : ".") }
        b = int(rand() * 3); o = ""; for (bb = 0; bb < 3; bb++) { x = (bb + b) % 3; o = o substr(out, 27 * x + 1, 27) }
        print o } }' "$DATA/puzzles2_17_clue.txt" > "$TMP/distinct.txt"
    /usr/bin/time -f "%M %e" -o "$TMP/time.txt" "$B" dedupe --exact -q -j 2 "$TMP/distinct.txt" > /dev/null
    read -r kb secs < "$TMP/time.txt"
    echo "| $n | $((kb / 1024)) | $secs |"
  done
fi
