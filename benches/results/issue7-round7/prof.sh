#!/bin/bash
# usage: prof.sh BINARY OUTDIR FILE... -> per-function inclusive share of the solver's instructions, K=1 and 2
BIN=$1; OUT=$2; shift 2; mkdir -p $OUT
for f in "$@"; do for k in 1 2; do
  n=$(basename $f .txt)
  valgrind --tool=callgrind --callgrind-out-file=$OUT/$n.$k.out --toggle-collect='*Solver as batchdoku::solver::Engine>::*' $BIN solve -j 1 -k $k -q -o /dev/null $f >/dev/null 2>&1 &
  while [ $(jobs -r | wc -l) -ge 2 ]; do sleep 0.2; done
done; done; wait
for f in "$@"; do for k in 1 2; do
  n=$(basename $f .txt)
  callgrind_annotate --inclusive=yes $OUT/$n.$k.out 2>/dev/null | python3 -c '
import sys,re
name,k,total=sys.argv[1],sys.argv[2],None
want={"update":"update","naked_singles":"naked","stacks":"stack pass","branch_cell":"branch_cell","place":"place","load":"load","to_grid":"to_grid","propagate":"propagate"}
got={}
for line in sys.stdin:
    m=re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+(\S+)",line)
    if not m: continue
    n=int(m.group(1).replace(",","")); fn=m.group(3)
    if "PROGRAM TOTALS" in line: total=n; continue
    for key,label in want.items():
        if re.search(r"State::"+key+r"$", fn.split(" ")[0]) or fn.endswith("State::"+key):
            got[label]=got.get(label,0)+n
total=total or 1
p=lambda x: f"{100*got.get(x,0)/total:.0f}%"
print(f"| {name} | {k} | {total/1e6:.1f}M | "+" | ".join(p(x) for x in ["propagate","update","naked","stack pass","branch_cell","place","load","to_grid"])+" |")
' $n $k
done; done
