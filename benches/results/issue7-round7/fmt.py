import sys,re
print("| workload (permuted) | K | instructions | update | naked singles | stack pass | branch_cell | place | load | to_grid | search loop, propagation bookkeeping, copies |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
names={"c17":"17-clue 2000","top1465":"top1465","f1106":"forum1106","f1905":"forum1905 2000","serg":"serg 2000"}
keys=["update","naked_singles","stacks","branch_cell","place","load","to_grid","search loop, propagate, copies"]
for l in sys.stdin:
    f,k,tot,rest=l.rstrip().split(" ",3)
    cells=[]
    for key in keys:
        m=re.search(re.escape(key)+r"=([\d.]+)%",rest)
        cells.append(m.group(1)+"%")
    print("| "+names[f]+" | "+k+" | "+tot+" | "+" | ".join(cells)+" |")
