import random,sys
# Applies one random validity-preserving transformation to each puzzle (seeded).
rng=random.Random(int(sys.argv[1]))
for line in sys.stdin:
    p=line.strip()
    if len(p)!=81: continue
    digits=list('123456789'); rng.shuffle(digits); relabel=dict(zip('123456789',digits)); relabel['.']='.'; relabel['0']='.'
    bands=[0,1,2]; rng.shuffle(bands)
    rows=[3*b+r for b in bands for r in rng.sample(range(3),3)]
    stacks=[0,1,2]; rng.shuffle(stacks)
    cols=[3*s+c for s in stacks for c in rng.sample(range(3),3)]
    t=rng.random()<0.5
    out=[]
    for r in range(9):
        for c in range(9):
            rr,cc=(rows[r],cols[c])
            ch=p[9*cc+rr] if t else p[9*rr+cc]
            out.append(relabel[ch])
    print(''.join(out))
