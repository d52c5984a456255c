import sys,re,subprocess
# exclusive instructions per function (summed over the files its inlined code comes from)
out=subprocess.run(['callgrind_annotate','--auto=no','--threshold=100',sys.argv[1]],capture_output=True,text=True).stdout
tot=None; by={}
for line in out.splitlines():
    m=re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)",line)
    if not m: continue
    n=int(m.group(1).replace(",","")); rest=m.group(2)
    if 'PROGRAM TOTALS' in rest: tot=n; continue
    fn=rest.split(':',1)[1].split(' [')[0] if ':' in rest else rest
    key=None
    for k in ['update','naked_singles','stacks','branch_cell','fewest_candidates','place','load','to_grid']:
        if fn.endswith('State::'+k): key=k
    if key is None: key='search loop, propagate, copies' if ('Engine>::' in fn) else 'other'
    by[key]=by.get(key,0)+n
order=['update','naked_singles','stacks','branch_cell','place','load','to_grid','search loop, propagate, copies','fewest_candidates','other']
print(sys.argv[2], f"{tot/1e6:.1f}M", ' '.join(f"{k}={100*by.get(k,0)/tot:.1f}%" for k in order))
