#!/usr/bin/env bash
# Instructions per puzzle and per guess, ours beside tdoku's, counted by callgrind (stable on a busy machine).
#
# Usage: scripts/bench/instructions.sh FILE...
#
# For each FILE: the first N puzzles (default 1,000) of its permuted working set (seed SEED, default 1: what
# `batchdoku-peers --write-permuted` writes and peers.sh measures), or with ORDER=given of the file as given
# (repeated up to N lines when shorter, as peers.sh repeats small sets), and for each K in KS (default "1 2"):
#  - ours: `valgrind --tool=callgrind` over `batchdoku solve -j 1 -k K`, collecting only inside the engines'
#    entry points (as profile.sh: parsing and output left out), divided by N;
#  - tdoku: `valgrind --tool=callgrind tdoku_avx2 FILE K 0`, the whole program, divided by 2N (its driver solves
#    the file twice: a warm-up and one timed pass; its parsing is a few hundred instructions a puzzle).
# Valgrind's CPU has no AVX-512: both run their AVX2 code. Guesses per puzzle: `batchdoku bench --min-time 0` and
# tdoku's own report, on the same N puzzles.
# Output: a Markdown table on stdout (set, N, K, instructions per puzzle, guesses, instructions per guess).
#
# Environment: N, SEED, ORDER (permuted|given), KS, TDOKU_DIR (default ../shared/peers/tdoku), OUT (callgrind files; default a
# temporary directory, removed). Needs valgrind (Debian: `apt-get install valgrind`); installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
die() { echo "instructions.sh: $*" >&2; exit 2; }
# shellcheck source=scripts/bench/bench_lib.sh
source scripts/bench/bench_lib.sh
[ $# -ge 1 ] || die "usage: scripts/bench/instructions.sh FILE...   (N, SEED, KS, TDOKU_DIR; see the header)"
command -v valgrind > /dev/null || die "needs valgrind (Debian: apt-get install valgrind)"
N=${N:-1000}
SEED=${SEED:-1}
KS=${KS:-1 2}
ORDER=${ORDER:-permuted}
case $ORDER in permuted|given) ;; *) die "ORDER must be permuted or given";; esac
TDOKU=${TDOKU_DIR:-../shared/peers/tdoku}/tdoku_avx2
[ -x "$TDOKU" ] || die "no tdoku_avx2 at $TDOKU (set TDOKU_DIR)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OUT=${OUT:-$TMP}
mkdir -p "$OUT"

cargo build --release --quiet
(cd benches/peers && cargo build --release --quiet)
B=target/release/batchdoku
PEERS=benches/peers/target/release/batchdoku-peers

# refs LOG: the total instruction count valgrind printed.
refs() { sed -n 's/.*I *refs: *//p' "$1" | tr -d ','; }

echo "| set (N) | K | ours / puzzle | tdoku's | our guesses | tdoku's | ours / guess | tdoku's / guess |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for file in "$@"; do
  name=$(basename "$file")
  input=$TMP/sample.txt
  if [ "$ORDER" = permuted ]; then
    rm -rf "$TMP/permuted" && mkdir -p "$TMP/permuted"
    "$PEERS" --write-permuted "$SEED" "$TMP/permuted" "$file" > /dev/null
    head -n "$N" "$TMP/permuted/$name" > "$input"
  else
    replicate "$file" "$N" "$TMP/repeated.txt"
    head -n "$N" "$TMP/repeated.txt" > "$input"
  fi
  n=$(grep -c '' "$input")
  for k in $KS; do
    valgrind --tool=callgrind --callgrind-out-file="$OUT/ours-$name-$k.cg" \
      --toggle-collect='*as batchdoku_core::engine::Engine>::*' \
      "$B" solve -j 1 -k "$k" -q "$input" -o /dev/null 2> "$TMP/ours.log"
    ours=$(refs "$TMP/ours.log")
    our_guesses=$("$B" bench -j 1 -k "$k" --min-time 0 --format csv "$input" | awk -F, 'NR == 2 { print $9 }')
    valgrind --tool=callgrind --callgrind-out-file="$OUT/tdoku-$name-$k.cg" \
      "$TDOKU" "$input" "$k" 0 > "$TMP/tdoku.csv" 2> "$TMP/tdoku.log"
    theirs=$(refs "$TMP/tdoku.log")
    their_guesses=$(awk -F, '{ print $6 }' "$TMP/tdoku.csv" | tail -1)
    awk -v s="${name%.txt} ($n, $ORDER)" -v k="$k" -v o="$ours" -v t="$theirs" -v n="$n" \
      -v og="$our_guesses" -v tg="$their_guesses" 'BEGIN {
        op = o / n; tp = t / (2 * n)
        printf "| %s | %s | %.1fk | %.1fk | %.2f | %.2f | %s | %s |\n", s, k, op / 1000, tp / 1000, og, tg,
          (og >= 1 ? sprintf("%.2fk", op / og / 1000) : ""), (tg >= 1 ? sprintf("%.2fk", tp / tg / 1000) : "") }'
  done
done
