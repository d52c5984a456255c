#!/usr/bin/env bash
# Solver-only rate of each SIMD path side by side (issue 21): for every set and mode, `batchdoku bench -j 1
# --simd PATH` on each available path, interleaved, best of ROUNDS; permuted (--permute 1) unless GIVEN=1.
# Usage: benches/results/issue21/paths.sh FILE...   (env: ROUNDS=3, MIN_TIME=1, PATHS="sse2 avx2 avx512")
set -euo pipefail
cd "$(dirname "$0")/../../.."
B=target/release/batchdoku
ROUNDS=${ROUNDS:-3}
MIN_TIME=${MIN_TIME:-1}
PATHS=${PATHS:-sse2 avx2 avx512}
PERMUTE=(--permute 1)
[ "${GIVEN:-0}" = 1 ] && PERMUTE=()
echo "| set | mode | $(echo "$PATHS" | sed 's/ / | /g') | widest / sse2 |"
echo "|---|---|$(for _ in $PATHS; do printf -- '---:|'; done)---:|"
for f in "$@"; do
  for k in 1 2; do
    declare -A best=()
    for ((r = 0; r < ROUNDS; r++)); do
      for p in $PATHS; do
        rate=$("$B" bench -j 1 -k "$k" --min-time "$MIN_TIME" "${PERMUTE[@]}" --simd "$p" --format csv "$f" | awk -F, 'NR == 2 { print $6 }')
        best[$p]=$(awk -v a="${best[$p]:-0}" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')
      done
    done
    row="| $(basename "$f" .txt) | $([ "$k" = 1 ] && echo first || echo count2) |"
    for p in $PATHS; do row+=" ${best[$p]} |"; done
    last=${PATHS##* }
    row+=" $(awk -v a="${best[$last]}" -v b="${best[sse2]}" 'BEGIN { printf "%.2f", a / b }') |"
    echo "$row"
    unset best
  done
done
