import re,statistics,collections,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    m=re.match(r'BenchmarkShapes/([^/]+)/(\S+)-2\s+\d+\s+([\d.]+) ns/op',l)
    if m: d[(m.group(1),m.group(2))].append(float(m.group(3)))
shapes=[]; plans=[]
for s,p in d:
    if s not in shapes: shapes.append(s)
    if p not in plans: plans.append(p)
for name,f in (('min',min),('median',statistics.median)):
    print('%s-based ratio to crypto/sha256 (n=%d)'%(name,len(d[(shapes[0],'crypto')])))
    print('%-22s'%'plan'+''.join('%12s'%s[:11] for s in shapes))
    for p in plans:
        row='%-22s'%p[:22]
        for s in shapes:
            if (s,p) in d and (s,'crypto') in d:
                row+='%12.2f'%(f(d[(s,'crypto')])/f(d[(s,p)]))
            else: row+='%12s'%'-'
        print(row)
