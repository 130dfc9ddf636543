#!/usr/bin/env python3
"""Counts the instructions the SHA-NI kernels' loops execute per block, by
kind, from a generated kernel_shani_amd64.s: for each kernel, the block body
(from <name>_block: to <name>_advance:, or shani1's and shaniJob's whole
per-block loop) plus the per-step bookkeeping (the padding-block check at
<name>_loop and the advance), divided by the streams. Usage:

    benchdata/opsperblock.py kernel_shani_amd64.s [older.s]
"""
import re, sys

def sections(path):
    cur, out = None, {}
    for line in open(path):
        s = line.split('//')[0].rstrip()
        m = re.match(r'^(\w+):$', s.strip()) if not s.startswith('\t') else None
        if m:
            cur = m.group(1); out[cur] = []; continue
        if s.startswith('TEXT'):
            cur = None; continue
        if cur and s.strip():
            out[cur].append(s.strip())
    return out

def kind(ins):
    op = ins.split()[0]
    if op == 'SHA256RNDS2':
        return 'rnds2'
    if op in ('SHA256MSG1', 'SHA256MSG2', 'PALIGNR'):
        return 'schedule'
    if '(' in ins and not ins.startswith('MOVOU ') :
        return 'memory'
    if '(' in ins:
        return 'load'   # MOVOU of a message group
    if op in ('ADDQ','DECQ','CMPQ','JEQ','JNE','JAE','JB','MOVQ','TESTQ','LEAQ','JMP','INCQ'):
        return 'control'
    return 'vector'

def count(path):
    sec = sections(path)
    res = {}
    for name, n in (('shani1', 1), ('shaniJob', 1), ('shani2', 2), ('shani3', 3), ('shani4', 4)):
        if name + '_block' not in sec:
            continue
        body = list(sec[name + '_block'])
        if n > 1:
            loop = sec.get(name + '_loop', [])          # the padding-block check,
            last = max(i for i, x in enumerate(loop) if x.startswith('JNE'))
            body += loop[:last + 1]                     # not the padding block's rounds
            for i in range(n):                          # advance of each stream
                body += sec.get(name + '_next%d' % i, []) if i == n - 1 else []
            body += sec.get(name + '_advance', [])
            for i in range(n - 1):
                body += sec.get(name + '_next%d' % i, [])
        c = {}
        for ins in body:
            k = kind(ins)
            c[k] = c.get(k, 0) + 1
        res[name] = {k: v / n for k, v in c.items()}
    return res

kinds = ['rnds2', 'schedule', 'load', 'memory', 'vector', 'control']
files = sys.argv[1:]
counts = [count(f) for f in files]
print('| kernel | ' + ' | '.join(
    '%s (%s)' % (k, 'now' if i == 0 else 'before') for k in kinds[1:] + ['all but rnds2'] for i in range(len(files))) + ' |')
print('|---' * (1 + len(files) * len(kinds)) + '|')
for name in counts[0]:
    row = [name]
    for k in kinds[1:] + ['all']:
        for c in counts:
            d = c.get(name, {})
            v = sum(x for kk, x in d.items() if kk != 'rnds2') if k == 'all' else d.get(k, 0)
            row.append('%g' % v)
    print('| ' + ' | '.join(row) + ' |')
