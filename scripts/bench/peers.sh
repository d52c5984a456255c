#!/usr/bin/env bash
# Side by side in one run, one thread: batchdoku, the `sudoku` crate 0.8 and tdoku on exactly the same puzzles.
# Usage: scripts/bench/peers.sh [DATA_DIR]   (default $BATCHDOKU_DATA, else ../shared/data; every DATA_DIR/*.txt is a set)
#
# For each set, as given and permuted, first solution (limit 1) and count-to-2 (limit 2), the three programs run
# one after the other, REPEATS times (interleaved, so a burst of other work on the machine hits all three alike),
# and the best rate of each is kept. Each program loads the file once and solves it again and again for at least
# MIN_SECONDS with no I/O in the timed part:
#  - batchdoku: `batchdoku bench -j 1`, the set repeated to at least 20,000 puzzles;
#  - the crate: `batchdoku-peers --only theirs` (benches/peers, a separate Cargo project that only *calls* that AGPL
#    crate), the set repeated to at least 20,000 puzzles the same way;
#  - tdoku: `tdoku_native FILE LIMIT MIN_SECONDS` (../shared/peers/tdoku, a measuring tool called, never linked;
#    `tdoku_avx2` if the native build cannot run here), the file as it is, solved over and over.
# Permuted means the working set of `batchdoku bench --permute SEED`: the set repeated to at least 20,000 puzzles,
# each copy a different random equivalent (`batchdoku-peers --write-permuted`), written to a file that all three
# then read as given (as tdoku's benchmark and ../shared/ANCHORS.md permute and replicate). As given, small sets are
# solved over and over in the same order by all three, so those rates include what the branch predictor learns of
# the set; the ratio still compares like with like.
#
# Output: a Markdown report on stdout and in RUN_DIR/peers.md, every measurement in RUN_DIR/peers_raw.csv and the
# permuted files in RUN_DIR/permuted-SEED/ (RUN_DIR: target/bench-runs/<date>-<host>/; BENCH_RUN_DIR overrides).
# Environment: SETS (names to measure, e.g. SETS="top95 hardest"; default every set), MIN_SECONDS (default 1.5),
# REPEATS (default 3), PERMUTE_SEED (default 1), TDOKU_DIR (default ../shared/peers/tdoku).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
DATA=${1:-${BATCHDOKU_DATA:-../shared/data}}
MIN_SECONDS=${MIN_SECONDS:-1.5}
REPEATS=${REPEATS:-3}
SEED=${PERMUTE_SEED:-1}
TDOKU_DIR=${TDOKU_DIR:-../shared/peers/tdoku}
RUN_DIR=${BENCH_RUN_DIR:-target/bench-runs/$(date +%Y-%m-%d)-$(hostname)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$RUN_DIR"
# shellcheck source=scripts/bench/bench_lib.sh
source scripts/bench/bench_lib.sh

files=()
if [ -n "${SETS:-}" ]; then
  read -ra names <<< "$SETS"
  for name in "${names[@]}"; do
    [ -f "$DATA/$name.txt" ] || { echo "peers.sh: no set $name ($DATA/$name.txt)" >&2; exit 2; }
    files+=("$DATA/$name.txt")
  done
else
  for f in "$DATA"/*.txt; do files+=("$f"); done
fi
[ -f "${files[0]}" ] || { echo "peers.sh: no sets in $DATA" >&2; exit 2; }
for f in "${files[@]}"; do
  # The programs' CSV output is split on commas below.
  case $(basename "$f") in *[,\"]*) echo "peers.sh: $f: a set name with a comma or quote is not supported" >&2; exit 2;; esac
done

cargo build --release --quiet
(cd benches/peers && cargo build --release --quiet)
B=target/release/batchdoku
PEERS=benches/peers/target/release/batchdoku-peers

# The permuted copies, written once so that the three programs solve the same puzzles.
PERMUTED=$RUN_DIR/permuted-$SEED
mkdir -p "$PERMUTED"
"$PEERS" --write-permuted "$SEED" "$PERMUTED" "${files[@]}"

# A few puzzles to try the programs on before measuring.
head -n 20 "${files[0]}" > "$TMP/probe.txt"

# tdoku's native build uses this machine kind's widest vector instructions; another CPU may not have them.
TDOKU=
for t in "$TDOKU_DIR/tdoku_native" "$TDOKU_DIR/tdoku_avx2"; do
  if [ -x "$t" ] && "$t" "$TMP/probe.txt" 1 0 > /dev/null 2>&1; then TDOKU=$t; break; fi
done

# csv_field NAME: the field of that name in the second line of a CSV with a header (no quoted commas).
csv_field() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) col = i } NR == 2 && col { print $col }'; }

# ours FILE LIMIT: "puzzles/s guesses/puzzle" of `batchdoku bench`.
ours() {
  "$B" bench -j 1 -k "$2" --min-time "$MIN_SECONDS" --format csv "$1" > "$TMP/ours.csv"
  echo "$(csv_field puzzles/s < "$TMP/ours.csv") $(csv_field guesses/puzzle < "$TMP/ours.csv")"
}

# crate FILE MODE: puzzles/s of the `sudoku` crate.
crate() {
  "$PEERS" --only theirs --mode "$2" --rounds 1 --min-time "$MIN_SECONDS" --format csv "$1" | csv_field sudoku_per_s
}

# tdoku FILE LIMIT: "puzzles/s guesses/puzzle" of tdoku's driver (fields counted from the right: the file name
# comes first); nothing if it solved no puzzle.
tdoku() {
  "$TDOKU" "$1" "$2" "$MIN_SECONDS" | awk -F, '$(NF - 4) > 0 { print $(NF - 3), $(NF - 1) }'
}

# need VALUE WHAT: stop if a program printed no figure (a failed run must not look like a rate of 0).
need() { [ -n "$1" ] || { echo "peers.sh: no figure from $2" >&2; exit 2; }; }

# What `batchdoku bench` says about the solver it runs (its `solver` column and any column a build adds, such as
# the vector path), passed through as it is.
"$B" bench -j 1 --min-time 0 --format csv "$TMP/probe.txt" > "$TMP/probe.csv"
solver_info=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i }
  NR == 2 { for (i = 1; i <= NF; i++) if (name[i] !~ /^(file|puzzles|mode|threads|puzzles\/s|us\/puzzle|no-guess %|guesses\/puzzle|speed-up)$/) { printf "%s%s=%s", sep, name[i], $i; sep = ", " } }' "$TMP/probe.csv")

{
echo "## Side by side: batchdoku, the sudoku crate 0.8 and tdoku (1 thread)"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); host: $(hostname); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); cores: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- binary: $($B --version); bench reports: $solver_info"
echo "- tdoku: ${TDOKU:-not run (no runnable tdoku_native or tdoku_avx2 in $TDOKU_DIR)}; data: $DATA; permuted: seed $SEED, files in $PERMUTED"
echo "- each program solves each file for at least $MIN_SECONDS s; every rate the best of $REPEATS interleaved runs; ratio = batchdoku / the faster peer (named)"
echo
echo "| set | mode | order | batchdoku p/s | crate p/s | tdoku p/s | ratio to faster peer | our guesses/puzzle | tdoku guesses/puzzle |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
} | tee "$RUN_DIR/peers.md"
echo "set,mode,order,program,round,puzzles_per_s,guesses_per_puzzle" > "$RUN_DIR/peers_raw.csv"

for f in "${files[@]}"; do
  name=$(basename "$f" .txt)
  for order in given permuted; do
    input=$f
    [ "$order" = permuted ] && input=$PERMUTED/$name.txt
    for limit in 1 2; do
      mode=$([ "$limit" = 1 ] && echo first || echo count2)
      best_ours=0; best_crate=0; best_tdoku=0; our_guesses=-; tdoku_guesses=-
      for ((r = 1; r <= REPEATS; r++)); do
        out=$(ours "$input" "$limit"); need "$out" "batchdoku bench on $input"
        read -r rate our_guesses <<< "$out"
        best_ours=$(max "$best_ours" "$rate")
        echo "$name,$mode,$order,batchdoku,$r,$rate,$our_guesses" >> "$RUN_DIR/peers_raw.csv"
        rate=$(crate "$input" "$mode"); need "$rate" "batchdoku-peers on $input"
        best_crate=$(max "$best_crate" "$rate")
        echo "$name,$mode,$order,sudoku-crate,$r,$rate," >> "$RUN_DIR/peers_raw.csv"
        if [ -n "$TDOKU" ]; then
          out=$(tdoku "$input" "$limit"); need "$out" "$TDOKU on $input"
          read -r rate tdoku_guesses <<< "$out"
          best_tdoku=$(max "$best_tdoku" "$rate")
          echo "$name,$mode,$order,tdoku,$r,$rate,$tdoku_guesses" >> "$RUN_DIR/peers_raw.csv"
        fi
      done
      awk -v n="$name" -v m="$mode" -v o="$order" -v a="$best_ours" -v c="$best_crate" -v t="$best_tdoku" \
        -v g="$our_guesses" -v tg="$tdoku_guesses" 'BEGIN {
          peer = (t > c ? "tdoku" : "crate"); fast = (t > c ? t : c)
          printf "| %s | %s | %s | %.0f | %.0f | %s | %.2f (%s) | %s | %s |\n", n, m, o, a, c,
            (t > 0 ? sprintf("%.0f", t) : "-"), a / fast, peer, g, tg }' | tee -a "$RUN_DIR/peers.md"
    done
  done
done
