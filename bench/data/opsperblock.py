#!/usr/bin/env python3
"""Counts the instructions the SHA-NI kernels' loops execute per block, by
kind, from a generated kernel_shani_amd64.s: for each kernel, the block body
(from <name>_block: to the step's bookkeeping, or shaniX1's and shaniX1Job's
whole per-block loop) plus the bookkeeping, divided by the streams.

Two layouts are understood. Before commit "shani: segments" every step ran
the padding-block check (<name>_loop) and the advance (<name>_advance and the
<name>_next<i> checks). Since then a kernel runs segments: a step is the
block and <name>_step (the pointers' increments and the step count); a
segment's start (<name>_loop: the minimum of the runs left, the padding-block
check) and end (<name>_segEnd and the <name>_next<i> checks) run once per
segment. The per-block column adds the segment's cost spread over the steps
of a segment of -steps steps (default 65/3, tape-leaves' 3 segments in 65
steps); the old layout's segments are one step. Usage:

    bench/data/opsperblock.py [-steps N] kernel_shani_amd64.s [older.s]
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
    if '(' in ins and not ins.startswith('MOVOU '):
        return 'memory'
    if '(' in ins:
        return 'load'   # MOVOU of a message group
    if op in ('ADDQ', 'SUBQ', 'DECQ', 'CMPQ', 'JEQ', 'JNE', 'JAE', 'JB', 'MOVQ',
              'TESTQ', 'LEAQ', 'JMP', 'INCQ', 'CMOVQCS'):
        return 'control'
    return 'vector'

def upto(lines, op):
    """lines up to and including the last one that starts with op."""
    last = max(i for i, x in enumerate(lines) if x.startswith(op))
    return lines[:last + 1]

def tally(lines, n):
    c = {}
    for ins in lines:
        k = kind(ins)
        c[k] = c.get(k, 0) + 1.0 / n
    return c

def count(path, steps):
    sec = sections(path)
    res = {}
    # Each kernel by its name in internal/kernel (shaniX4), or in files
    # generated before the move (shani4).
    for names, n in ((('shaniX1', 'shani1'), 1), (('shaniX1Job', 'shaniJob'), 1), (('shaniX2', 'shani2'), 2),
                     (('shaniX3', 'shani3'), 3), (('shaniX4', 'shani4'), 4)):
        name = next((m for m in names if m + '_block' in sec), None)
        if name is None:
            continue
        step, seg = list(sec[name + '_block']), []
        if n > 1:
            checks = []
            for i in range(n):
                checks += sec.get(name + '_next%d' % i, [])
            checks = upto(checks, 'JAE')  # not the return path after it
            pad = upto(sec.get(name + '_loop', []), 'JNE')  # not the padding block's rounds
            if name + '_segEnd' in sec:
                step += sec[name + '_step']
                seg = pad + sec[name + '_segEnd'] + checks
            else:
                step += pad + sec[name + '_advance'] + checks
        st, sg = tally(step, n), tally(seg, n)
        per = {k: st.get(k, 0) + sg.get(k, 0) / steps for k in set(st) | set(sg)}
        res[names[0]] = (per, sum(sg.values()))
    return res

args = sys.argv[1:]
steps = 65 / 3
if args and args[0] == '-steps':
    steps, args = float(args[1]), args[2:]
kinds = ['schedule', 'load', 'memory', 'vector', 'control']
counts = [count(f, steps) for f in args]
tag = lambda i: 'now' if i == 0 else 'before'
print('| kernel | ' + ' | '.join('%s (%s)' % (k, tag(i)) for k in kinds + ['all but rnds2', 'a segment']
                           for i in range(len(args))) + ' |')
print('|---' * (1 + len(args) * (len(kinds) + 2)) + '|')
for name in counts[0]:
    row = [name]
    for k in kinds + ['all', 'seg']:
        for c in counts:
            per, seg = c.get(name, ({}, 0))
            if k == 'seg':
                v = seg
            elif k == 'all':
                v = sum(x for kk, x in per.items() if kk != 'rnds2')
            else:
                v = per.get(k, 0)
            row.append('%.1f' % v)
    print('| ' + ' | '.join(row) + ' |')
