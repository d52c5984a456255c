#!/bin/bash
# usage: ab.sh A B ROUNDS -> median puzzles/s of A and B per file/mode, and B/A
A=$1; B=$2; N=${3:-5}; OUT=/tmp/s5/ab.$$; mkdir -p $OUT
FILES="/tmp/speed7/f1106 /tmp/speed7/f1905 /tmp/speed7/serg /tmp/speed7/c17 /tmp/speed7/top1465"
for i in $(seq $N); do
  for k in 1 2; do
    $A bench -j 1 -k $k --min-time 0.5 --format csv $FILES 2>/dev/null | tail -n +2 | sed "s/^/A,/" >> $OUT/all
    $B bench -j 1 -k $k --min-time 0.5 --format csv $FILES 2>/dev/null | tail -n +2 | sed "s/^/B,/" >> $OUT/all
  done
done
python3 - $OUT/all <<'PY'
import sys,statistics,collections
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.strip().split(',')
    d[(f[1].split('/')[-1],f[4],f[0])].append(float(f[6]))
keys=sorted({(k[0],k[1]) for k in d})
for f,m in keys:
    a=d[(f,m,'A')]; b=d[(f,m,'B')]
    ratios=sorted(y/x for x,y in zip(a,b))
    print(f"{f:8} {m:6} A {statistics.median(a):>9.0f} B {statistics.median(b):>9.0f} B/A median {statistics.median(ratios):.3f} range {ratios[0]:.3f}-{ratios[-1]:.3f}")
PY
cat /proc/loadavg
