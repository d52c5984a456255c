#!/usr/bin/env bash
# Whole-program benchmarks for BENCHMARKS.md. Re-run with: scripts/bench/bench.sh [DATA_DIR]
#
#  1. solver-only rate per public set (`batchdoku bench`, puzzles in memory, 1 thread),
#  2. end-to-end `solve` (read + parse + solve + CSV write to /dev/null) on each set, replicated so that one run
#     lasts about 4 s, at 1 and 2 threads, for first-solution and count-to-2 modes,
#  3. thread scaling on a >= 1M-puzzle input (puzzles2_17_clue replicated),
#  4. peak memory (max RSS, /usr/bin/time -v) for 1M and 10M puzzles streamed from stdin,
#  5. single-thread rates side by side with the `sudoku` crate and tdoku (scripts/bench/peers.sh; its MIN_SECONDS, SETS and
#     TDOKU_DIR apply).
#
# Output: a Markdown report on stdout and in target/bench-runs/<date>-<host>/report.md (with raw CSV beside it;
# BENCH_RUN_DIR overrides the folder). Copy the figures you keep into BENCHMARKS.md.
# Environment: SECONDS_PER_RUN (default 4), REPEATS (default 3: every rate in steps 1-3 is the best of that many
# runs, the runs of one row interleaved; step 5 too), SKIP_MEMORY=1 to skip step 4, SKIP_PEERS=1 to skip step 5,
# PERMUTE_SEED (default 1): step 5 runs once on the files as given and once on permuted copies from this seed.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-${BATCHDOKU_DATA:-../shared/data}}
PER_RUN=${SECONDS_PER_RUN:-4}
REPEATS=${REPEATS:-3}
RUN_DIR=${BENCH_RUN_DIR:-target/bench-runs/$(date +%Y-%m-%d)-$(hostname)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$RUN_DIR"
cargo build --release --quiet
B=target/release/batchdoku

# shellcheck source=scripts/bench/bench_lib.sh
source scripts/bench/bench_lib.sh
# e2e FILE THREADS K: puzzles/s of a whole `solve` run, wall clock.
e2e() {
  local n t0 t1; n=$(grep -c '' "$1")
  t0=$(now); "$B" solve -q -j "$2" -k "$3" "$1" > /dev/null || [ $? -eq 1 ]; t1=$(now)
  echo "$n $t0 $t1" | awk '{ printf "%.0f", $1 / ($3 - $2) }'
}

# solo FILE K: puzzles/s of the solver alone (`batchdoku bench`, puzzles in memory, 1 thread).
solo() { "$B" bench -j 1 -k "$2" --min-time 2 --format csv "$1" | awk -F, 'NR==2 { print $6 }'; }

{
echo "# batchdoku whole-program benchmark"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); host: $(hostname); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); cores: $(nproc)"
echo "- binary: $($B --version); data: $DATA; every rate the best of $REPEATS runs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## Solver only vs end to end"
echo
echo "| set | mode | solver-only 1t | e2e 1t | e2e / solver | e2e 2t | 2t / 1t | puzzles per run |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
} | tee "$RUN_DIR/report.md"
echo "set,mode,solver_only_1t,e2e_1t,e2e_2t,puzzles" > "$RUN_DIR/raw.csv"

for f in "$DATA"/*.txt; do
  name=$(basename "$f" .txt)
  for k in 1 2; do
    want=$(awk -v r="$(solo "$f" "$k")" -v s="$PER_RUN" 'BEGIN { printf "%d", r * s }')
    replicate "$f" "$want" "$TMP/in.txt"
    n=$(grep -c '' "$TMP/in.txt")
    # Interleaved (solver only, 1 thread, 2 threads) so that a burst of other work on the machine hits all three
    # alike; the best of each.
    solo=0; one=0; two=0
    for ((r = 0; r < REPEATS; r++)); do
      solo=$(max "$solo" "$(solo "$f" "$k")")
      one=$(max "$one" "$(e2e "$TMP/in.txt" 1 "$k")")
      two=$(max "$two" "$(e2e "$TMP/in.txt" 2 "$k")")
    done
    mode=$([ "$k" = 1 ] && echo first || echo count2)
    echo "$name,$mode,$solo,$one,$two,$n" >> "$RUN_DIR/raw.csv"
    awk -v n="$name" -v m="$mode" -v s="$solo" -v a="$one" -v b="$two" -v c="$n" \
      'BEGIN { printf "| %s | %s | %d | %d | %.2f | %d | %.2f | %d |\n", n, m, s, a, a / s, b, b / a, c }' \
      | tee -a "$RUN_DIR/report.md"
  done
done

{
echo
echo "## Thread scaling on a 1M-puzzle input (puzzles2_17_clue replicated)"
echo
} | tee -a "$RUN_DIR/report.md"
replicate "$DATA/puzzles2_17_clue.txt" 1000000 "$TMP/1m.txt"
{
echo "| mode | 1 thread | 2 threads | speed-up |"
echo "|---|---:|---:|---:|"
for k in 1 2; do
  one=0; two=0
  for ((r = 0; r < REPEATS; r++)); do
    one=$(max "$one" "$(e2e "$TMP/1m.txt" 1 "$k")"); two=$(max "$two" "$(e2e "$TMP/1m.txt" 2 "$k")")
  done
  awk -v k="$k" -v a="$one" -v b="$two" 'BEGIN { printf "| %s | %d | %d | %.2f |\n", (k == 1 ? "first" : "count2"), a, b, b / a }'
done
} | tee -a "$RUN_DIR/report.md"

if [ "${SKIP_MEMORY:-0}" != 1 ]; then
  {
  echo
  echo "## Peak memory, streaming from stdin (-j 2)"
  echo
  echo "| puzzles | max RSS (MB) | seconds | puzzles/s |"
  echo "|---:|---:|---:|---:|"
  } | tee -a "$RUN_DIR/report.md"
  for copies in 1 10; do
    n=$(( copies * $(grep -c '' "$TMP/1m.txt") ))
    t0=$(now)
    /usr/bin/time -v -o "$TMP/time.txt" bash -c "for ((i = 0; i < $copies; i++)); do cat '$TMP/1m.txt'; done | '$B' solve -q -j 2 > /dev/null"
    t1=$(now)
    rss=$(awk -F: '/Maximum resident set size/ { print $2 }' "$TMP/time.txt")
    awk -v n="$n" -v r="$rss" -v a="$t0" -v b="$t1" 'BEGIN { printf "| %d | %.1f | %.1f | %.0f |\n", n, r / 1024, b - a, n / (b - a) }' \
      | tee -a "$RUN_DIR/report.md"
  done
fi

# 5. Side by side with the `sudoku` crate 0.8 and tdoku on the same puzzles, as given and permuted (scripts/bench/peers.sh,
#    which writes its own peers.md and peers_raw.csv into the same folder). SKIP_PEERS=1 to skip.
if [ "${SKIP_PEERS:-0}" != 1 ]; then
  echo | tee -a "$RUN_DIR/report.md"
  BENCH_RUN_DIR=$RUN_DIR REPEATS=$REPEATS scripts/bench/peers.sh "$DATA" | tee -a "$RUN_DIR/report.md"
fi
