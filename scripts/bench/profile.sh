#!/usr/bin/env bash
# Where the solver's time goes on a set: `perf record` / `perf report`, or callgrind's instruction counts.
#
# Usage: scripts/bench/profile.sh FILE...
#
# Runs `batchdoku bench -j 1 -k K` on each FILE (solver only, puzzles in memory, the set repeated to at least
# 20,000 puzzles; with PERMUTE=SEED each copy a random equivalent) under the tool, and prints its report:
#  - TOOL=perf (the default): `perf record` over a run of MIN_TIME seconds (default 3), then
#    `perf report --stdio --no-children --sort SORT` (default `symbol`; `SORT=srcline` gives samples by source
#    line of the inlined search, slower to resolve), the first TOP lines (default 40). Hardware events are used
#    when the machine has them, else the kernel's cpu-clock (some VMs have no counters).
#  - TOOL=callgrind: `valgrind --tool=callgrind` over one pass of the working set (`--min-time 0`), collecting only
#    inside the engines' entry points (TOGGLE, default '*as batchdoku_core::engine::Engine>::*', so parsing and set-up
#    are left out; BRANCH_SIM=1 adds `--branch-sim=yes`: simulated mispredictions), then `callgrind_annotate`
#    (first TOP lines: instructions by source file of the inlined code; INCLUSIVE=1 for inclusive counts by
#    function). Valgrind's virtual CPU has no AVX-512, so the widest path it runs is AVX2 (the report says
#    which; SIMD=sse2 compares another). Instruction counts do not depend on the load of the
#    machine, so they compare builds on a busy machine where times cannot. The search is one inlined function;
#    to split it by step, mark the steps `#[inline(never)]` in a scratch build (this adds about 5%).
#
# Environment: TOOL (perf|callgrind), K (1: first solution; 2: count to 2), PERMUTE (a seed; unset: files as
# given), BIN (default target/profiling/batchdoku, the release build with line tables, built with
# `cargo build --profile profiling` when missing), SIMD (a
# `--simd` path; default the widest), MIN_TIME, SORT, TOP, TOGGLE, BRANCH_SIM, INCLUSIVE, OUT (where the perf.data /
# callgrind.out files go; default target/profile/<date>-<host>/).
# Needs perf (Debian: `apt-get install linux-perf`; a kernel.perf_event_paranoid of 2 or less) or valgrind
# (`apt-get install valgrind`). It installs nothing: when the tool is missing it says so and exits 2.
set -euo pipefail
cd "$(dirname "$0")/../.."
die() { echo "profile.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: scripts/bench/profile.sh FILE...   (TOOL=perf|callgrind, K, PERMUTE, ...; see the header)"
TOOL=${TOOL:-perf}
K=${K:-1}
MIN_TIME=${MIN_TIME:-3}
SORT=${SORT:-symbol}
TOP=${TOP:-40}
TOGGLE=${TOGGLE:-*as batchdoku_core::engine::Engine>::*}
OUT=${OUT:-target/profile/$(date +%Y-%m-%d)-$(hostname)}
for f in "$@"; do [ -f "$f" ] || die "no such file: $f"; done

case $TOOL in
  perf)
    command -v perf > /dev/null || die "TOOL=perf needs perf (Debian: apt-get install linux-perf), or use TOOL=callgrind"
    paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 2)
    [ "$paranoid" -le 2 ] || [ "$(id -u)" = 0 ] \
      || die "perf cannot record here: kernel.perf_event_paranoid is $paranoid (needs 2 or less: sysctl kernel.perf_event_paranoid=2)"
    ;;
  callgrind)
    command -v valgrind > /dev/null || die "TOOL=callgrind needs valgrind (Debian: apt-get install valgrind)"
    command -v callgrind_annotate > /dev/null || die "TOOL=callgrind needs callgrind_annotate (part of valgrind)"
    ;;
  *) die "TOOL must be perf or callgrind, not $TOOL" ;;
esac

if [ -z "${BIN:-}" ]; then
  BIN=target/profiling/batchdoku
  [ -x "$BIN" ] || cargo build --profile profiling --quiet
fi
[ -x "$BIN" ] || die "no binary at $BIN"
args=(bench -j 1 -k "$K" --format csv)
[ -n "${PERMUTE:-}" ] && args+=(--permute "$PERMUTE")
[ -n "${SIMD:-}" ] && args+=(--simd "$SIMD")
mkdir -p "$OUT"

echo "# profile: $TOOL"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); host: $(hostname); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- binary: $BIN ($("$BIN" --version)); command: $BIN ${args[*]} FILE; K=$K${PERMUTE:+, permuted (seed $PERMUTE)}; outputs in $OUT"

for f in "$@"; do
  name=$(basename "$f" .txt)
  echo
  echo "## $name"
  echo
  if [ "$TOOL" = perf ]; then
    event=()
    perf stat -e cycles true > /dev/null 2>&1 || event=(-e cpu-clock)
    data=$OUT/$name.k$K.perf.data
    perf record -q "${event[@]}" -o "$data" -- "$BIN" "${args[@]}" --min-time "$MIN_TIME" "$f" > "$OUT/$name.k$K.bench.csv"
    echo "bench: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["puzzles/s"] " puzzles/s, " $c["guesses/puzzle"] " guesses/puzzle, simd " (c["simd"] ? $c["simd"] : "-") }' "$OUT/$name.k$K.bench.csv") (under perf)${event[*]:+; event cpu-clock, no hardware counters here}"
    echo
    echo '```text'
    perf report -i "$data" --stdio --no-children --sort "$SORT" 2> /dev/null | grep -v '^#' | grep -v '^$' \
      | sed 's/[[:space:]]*-[[:space:]]*-[[:space:]]*$//' | head -n "$TOP" || true
    echo '```'
  else
    cg=$OUT/$name.k$K.callgrind.out
    sim=()
    [ "${BRANCH_SIM:-0}" = 1 ] && sim=(--branch-sim=yes)
    valgrind --tool=callgrind "${sim[@]}" --callgrind-out-file="$cg" --toggle-collect="$TOGGLE" \
      "$BIN" "${args[@]}" --min-time 0 "$f" > "$OUT/$name.k$K.bench.csv" 2> "$OUT/$name.k$K.valgrind.log" \
      || { tail -5 "$OUT/$name.k$K.valgrind.log" >&2; die "valgrind failed on $f"; }
    total=$(callgrind_annotate "$cg" 2> /dev/null | awk '/PROGRAM TOTALS/ && !t { t = $1 } END { print t }')
    [ -n "$total" ] && [ "$total" != 0 ] || echo "(nothing collected: TOGGLE='$TOGGLE' matched no function of this build)"
    echo "instructions inside '$TOGGLE': ${total:-0}, one pass over the working set; bench: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["puzzles"] " puzzles in the file, " $c["guesses/puzzle"] " guesses/puzzle, simd " (c["simd"] ? $c["simd"] : "-") }' "$OUT/$name.k$K.bench.csv")"
    echo
    echo '```text'
    # The function table: after its `file:function` header and rule, up to the next blank line.
    incl=(); [ "${INCLUSIVE:-0}" = 1 ] && incl=(--inclusive=yes)
    callgrind_annotate "${incl[@]}" "$cg" 2> /dev/null \
      | awk '/file:function/ { on = 1; getline; next } on && NF == 0 { exit } on' \
      | sed "s#$PWD/##; s#/rustc/[0-9a-f]*/library/#rust:#" | head -n "$TOP" || true
    echo '```'
  fi
done
