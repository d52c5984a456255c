#!/usr/bin/env bash
# A/B of two batchdoku builds on the same puzzles: solver only, one thread, interleaved, best of ROUNDS.
#
# Usage: scripts/bench/ab.sh A B [FILE...]
#   A, B   each either a batchdoku binary (a path to an executable file) or a git revision (anything
#          `git rev-parse` takes: main, HEAD~1, a commit). A revision is exported with `git archive` into
#          target/ab/src-<commit>/ and built with `cargo build --release --locked` (target dir target/ab/target,
#          shared by the revisions so that dependencies build once); the binary is kept as
#          target/ab/bin/batchdoku-<commit> and reused next time. To measure uncommitted work, build it and pass
#          target/release/batchdoku. A and B may be the same binary with different flags (ARGS_A, ARGS_B below),
#          e.g. two SIMD paths.
#   FILE   puzzle files, one 81-character puzzle per line (default: every $BATCHDOKU_DATA/*.txt, else
#          ../shared/data/*.txt).
#
# The puzzles: unless GIVEN=1, every file is written once as a permuted copy (python3, standard library only):
# the file repeated to at least MIN_PUZZLES puzzles (default 20,000, `bench`'s working set), each copy of each
# puzzle a different random equivalent (digits relabelled, rows and columns shuffled within bands and stacks,
# bands and stacks shuffled, maybe transposed; seeded by SEED, default 1). Both builds then read the same files
# as given, so the comparison does not depend on either build's own `--permute` (older builds lack it).
#
# Each row (file, mode): ROUNDS times (default 3), `BIN bench -j 1 -k K --min-time MIN_TIME --format csv FILE`
# for A and for B, the order alternating from round to round so that drift on a shared machine hits both
# alike; the best rate of each is kept (the figure least disturbed by other work). Prints a Markdown table
# with both rates, B / A, both guess counts (equal when a change keeps the same search; marked when they
# differ) and the geometric mean of B / A; every run goes to RUN_DIR/ab_raw.csv.
#
# Environment: ROUNDS (3), MIN_TIME (1 second), MODES ("1 2": first solution, count to 2), SEED (1),
# MIN_PUZZLES (20000), GIVEN=1 (the files as given, no permuted copies), ARGS_A / ARGS_B (extra `bench` flags
# for one side, e.g. ARGS_A="--simd sse2"), RUN_DIR (default target/bench-runs/<date>-<host>; BENCH_RUN_DIR
# too). Needs git and cargo for revisions, python3 unless GIVEN=1. Installs nothing.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
die() { echo "ab.sh: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: scripts/bench/ab.sh A B [FILE...]   (A, B: a binary or a git revision; see the header)"
A_SPEC=$1; B_SPEC=$2; shift 2
ROUNDS=${ROUNDS:-3}
MIN_TIME=${MIN_TIME:-1}
MODES=${MODES:-1 2}
SEED=${SEED:-1}
MIN_PUZZLES=${MIN_PUZZLES:-20000}
read -ra ARGS_A <<< "${ARGS_A:-}"
read -ra ARGS_B <<< "${ARGS_B:-}"
RUN_DIR=${RUN_DIR:-${BENCH_RUN_DIR:-target/bench-runs/$(date +%Y-%m-%d)-$(hostname)}}
mkdir -p "$RUN_DIR"
# shellcheck source=scripts/bench/bench_lib.sh
source scripts/bench/bench_lib.sh

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  DATA=${BATCHDOKU_DATA:-../shared/data}
  for f in "$DATA"/*.txt; do [ -f "$f" ] && files+=("$f"); done
  [ ${#files[@]} -gt 0 ] || die "no FILE given and no sets in $DATA"
fi
for f in "${files[@]}"; do [ -f "$f" ] || die "no such file: $f"; done

# binary SPEC: the path of the binary SPEC names (building a revision first; build output on stderr).
binary() {
  if [ -f "$1" ] && [ -x "$1" ]; then echo "$1"; return; fi
  local sha
  sha=$(git rev-parse --verify --quiet "$1^{commit}") || die "$1 is neither an executable file nor a git revision"
  local short=${sha:0:12} bin=target/ab/bin/batchdoku-${sha:0:12}
  if [ ! -x "$bin" ]; then
    command -v cargo > /dev/null || die "building $1 needs cargo"
    local src=target/ab/src-$short
    rm -rf "$src"; mkdir -p "$src" target/ab/bin
    git archive "$sha" | tar -x -C "$src"
    echo "ab.sh: building $1 ($short) in $src" >&2
    CARGO_TARGET_DIR="$PWD/target/ab/target" cargo build --release --locked --quiet --manifest-path "$src/Cargo.toml" >&2
    cp target/ab/target/release/batchdoku "$bin"
    rm -rf "$src"
  fi
  echo "$bin"
}
A=$(binary "$A_SPEC")
B=$(binary "$B_SPEC")

# The puzzles both sides solve.
inputs=()
if [ "${GIVEN:-0}" = 1 ]; then
  inputs=("${files[@]}")
  order="as given"
else
  command -v python3 > /dev/null || die "permuted copies need python3 (or set GIVEN=1)"
  PERMUTED=$RUN_DIR/ab-permuted-$SEED
  mkdir -p "$PERMUTED"
  for f in "${files[@]}"; do
    out=$PERMUTED/$(basename "$f")
    python3 - "$f" "$out" "$SEED" "$MIN_PUZZLES" << 'EOF'
import random, sys
src, out, seed, at_least = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
cells = set("123456789.0")
puzzles = [l[:81] for l in open(src) if len(l.rstrip("\r\n")) >= 81 and set(l[:81]) <= cells]
if not puzzles:
    sys.exit(f"ab.sh: {src}: no 81-character puzzle lines")
rng = random.Random(seed)
def perm3():  # a permutation of 0..8 keeping the three bands (or stacks) of three
    blocks = rng.sample(range(3), 3)
    return [3 * b + i for b in blocks for i in rng.sample(range(3), 3)]
with open(out, "w") as w:
    for copy in range(-(-at_least // len(puzzles))):
        for p in puzzles:
            digits = rng.sample("123456789", 9)
            relabel = {str(d + 1): digits[d] for d in range(9)}
            rows, cols, transpose = perm3(), perm3(), rng.random() < 0.5
            line = []
            for r in range(9):
                for c in range(9):
                    ch = p[9 * cols[c] + rows[r]] if transpose else p[9 * rows[r] + cols[c]]
                    line.append(relabel.get(ch, "."))
            w.write("".join(line) + "\n")
EOF
    inputs+=("$out")
  done
  order="permuted (seed $SEED, each set repeated to at least $MIN_PUZZLES puzzles, every copy a different equivalent; files in $PERMUTED)"
fi

# csv_field NAME: the field of that name in the second line of a CSV with a header (no quoted commas).
csv_field() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) col = i } NR == 2 && col { print $col }'; }
# run BIN K FILE ARGS...: "puzzles/s guesses/puzzle" of one `bench` run.
run() {
  local bin=$1 k=$2 file=$3; shift 3
  local csv
  csv=$("$bin" bench -j 1 -k "$k" --min-time "$MIN_TIME" --format csv "$@" "$file")
  local rate guesses
  rate=$(csv_field puzzles/s <<< "$csv"); guesses=$(csv_field guesses/puzzle <<< "$csv")
  [ -n "$rate" ] || die "no rate from $bin bench on $file"
  echo "$rate $guesses"
}

echo "## A/B: solver only, one thread"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); host: $(hostname); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); cores: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- A: $A_SPEC = $A ($("$A" --version))${ARGS_A[*]:+, flags ${ARGS_A[*]}}"
echo "- B: $B_SPEC = $B ($("$B" --version))${ARGS_B[*]:+, flags ${ARGS_B[*]}}"
echo "- puzzles: $order"
echo "- every rate the best of $ROUNDS runs of \`bench -j 1 -k K --min-time $MIN_TIME\`, A and B alternated"
echo
echo "| set | mode | A p/s | B p/s | B / A | A guesses/puzzle | B guesses/puzzle |"
echo "|---|---|---:|---:|---:|---:|---:|"
echo "set,mode,side,round,puzzles_per_s,guesses_per_puzzle" > "$RUN_DIR/ab_raw.csv"
logsum=0; rows=0
for input in "${inputs[@]}"; do
  name=$(basename "$input" .txt)
  for k in $MODES; do
    mode=$(case $k in 1) echo first ;; 2) echo count2 ;; *) echo "count$k" ;; esac)
    best_a=0; best_b=0; ga=-; gb=-
    for ((r = 1; r <= ROUNDS; r++)); do
      sides=(A B); [ $((r % 2)) = 0 ] && sides=(B A)
      for side in "${sides[@]}"; do
        if [ "$side" = A ]; then
          read -r rate ga <<< "$(run "$A" "$k" "$input" "${ARGS_A[@]}")"; best_a=$(max "$best_a" "$rate")
        else
          read -r rate gb <<< "$(run "$B" "$k" "$input" "${ARGS_B[@]}")"; best_b=$(max "$best_b" "$rate")
        fi
        echo "$name,$mode,$side,$r,$rate,$([ "$side" = A ] && echo "$ga" || echo "$gb")" >> "$RUN_DIR/ab_raw.csv"
      done
    done
    awk -v n="$name" -v m="$mode" -v a="$best_a" -v b="$best_b" -v ga="$ga" -v gb="$gb" 'BEGIN {
      mark = (ga == gb ? "" : " (differ)")
      printf "| %s | %s | %.0f | %.0f | %.3f | %s | %s%s |\n", n, m, a, b, b / a, ga, gb, mark }'
    logsum=$(awk -v s="$logsum" -v a="$best_a" -v b="$best_b" 'BEGIN { print s + log(b / a) }')
    rows=$((rows + 1))
  done
done
echo
awk -v s="$logsum" -v n="$rows" 'BEGIN { printf "Geometric mean of B / A over %d rows: %.3f\n", n, exp(s / n) }'
echo "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); raw runs: $RUN_DIR/ab_raw.csv"
