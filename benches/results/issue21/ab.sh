#!/usr/bin/env bash
# A/B wall clock of two batchdoku builds (issue 21): ab.sh A B FILE... runs `bench -j 1 -k K --min-time 1
# --permute 1` for K = 1 and 2, alternating the two binaries, best of ROUNDS (default 3) each; prints both rates,
# B / A, and the guesses per puzzle of each (which must match when a change claims the same search).
ROUNDS=${ROUNDS:-3}; A=$1; Bb=$2; shift 2
for f in "$@"; do for k in 1 2; do
  a=0; b=0
  for ((r=0;r<ROUNDS;r++)); do
    x=$($A bench -j 1 -k $k --min-time ${MIN_TIME:-1} --permute 1 --format csv $f | awk -F, 'NR==2{print $6, $9}')
    y=$($Bb bench -j 1 -k $k --min-time ${MIN_TIME:-1} --permute 1 --format csv $f | awk -F, 'NR==2{print $6, $9}')
    a=$(awk -v a=$a -v b=${x% *} 'BEGIN{print (b>a?b:a)}'); b=$(awk -v a=$b -v b=${y% *} 'BEGIN{print (b>a?b:a)}')
    ga=${x#* }; gb=${y#* }
  done
  awk -v n=$(basename $f .txt) -v k=$k -v a=$a -v b=$b -v ga=$ga -v gb=$gb 'BEGIN{printf "%-34s k=%d  %8.0f %8.0f  %.3f   guesses %s -> %s\n", n, k, a, b, b/a, ga, gb}'
done; done
