#!/usr/bin/env python3
"""Counts the instructions the arm64 lane kernels (sha2X1..sha2X4, neonX4)
execute per block, from `go tool objdump` of an arm64 test binary, whose
lines name the source line each instruction came from (a macro's
instructions all name its line). The source's labels split each kernel:

  - now: a step is loop: up to the step's BNE loop; a segment's own work is
    seg: up to loop: and segend: up to LANE_LOOP, spread over -steps steps
    (default 65/3: tape-leaves' 3 segments in 65 steps);
  - before the segments (commit 2a31082): a step is loop: up to LANE_LOOP.

Per block is per step divided by the kernel's streams or lanes; the inner
loop over the schedule (sched: up to CBNZ R10, sched) counts 3 times. The kind
"rounds" is SHA256H/SHA256H2 (sha2) and nothing for neonX4, whose rounds are
ordinary vector instructions: its row counts everything. Usage:

  GOARCH=arm64 go test -c -o /tmp/arm64.test .
  go tool objdump -s 'sha2X|neonX' /tmp/arm64.test > /tmp/arm64.dis
  bench/data/opsperblock_arm64.py [-steps N] /tmp/arm64.dis kernel_sha2_arm64.s kernel_neon_arm64.s
"""
import re, sys

args = sys.argv[1:]
steps = 65 / 3
if args and args[0] == '-steps':
    steps, args = float(args[1]), args[2:]
dis, sources = args[0], args[1:]

# Source line ranges of each kernel's labels.
labels = {}  # (file, func) -> {label: line}
for src in sources:
    fn = None
    for i, line in enumerate(open(src), 1):
        m = re.match(r'TEXT ·(\w+)\(SB\)', line)
        if m:
            fn = m.group(1); labels[(src.split('/')[-1], fn)] = {'TEXT': i}
            continue
        m = re.match(r'^(\w+):\s*$', line)
        if fn and m:
            labels[(src.split('/')[-1], fn)][m.group(1)] = i
        if fn and 'LANE_LOOP(' in line:
            labels[(src.split('/')[-1], fn)]['LANE_LOOP'] = i
        if fn and re.match(r'\s*BNE\s+loop', line):
            labels[(src.split('/')[-1], fn)]['BNE'] = i
        if fn and re.match(r'\s*CBNZ\s+R10, sched', line):
            labels[(src.split('/')[-1], fn)]['CBNZ'] = i

# Instructions by function and source line.
ins = {}
fn = None
for line in open(dis):
    m = re.match(r'TEXT .*\.(\w+)\.abi0\(SB\) (\S+)', line)
    if m:
        fn = (m.group(2).split('/')[-1], m.group(1)); ins[fn] = []; continue
    m = re.match(r'\s+(\S+\.s):(\d+)\s+0x[0-9a-f]+\s+[0-9a-f]+\s+(\S+)\s*(.*)', line)
    if fn and m:
        ins[fn].append((int(m.group(2)), m.group(3), m.group(4)))

def kind(op, operands):
    if op in ('SHA256H', 'SHA256H2'):
        return 'rounds'
    if op in ('JMP', 'CBZ', 'CBNZ', 'RET') or re.match(r'B[A-Z]*$', op):
        return 'control'
    if '(' in operands or op.startswith(('VLD1', 'VST1', 'LDP', 'STP')):
        return 'memory'
    if op.startswith('V') or op.startswith('SHA256SU'):
        return 'vector'
    return 'control'

def tally(lo, hi, f):
    """counts the instructions from source lines lo..hi as executed: the
    inner loop sched: .. CBNZ R10, sched runs 3 times a block."""
    lb = labels[f]
    c = {}
    for ln, op, operands in ins[f]:
        if lo <= ln <= hi:
            times = 3 if 'sched' in lb and lb['sched'] <= ln <= lb['CBNZ'] else 1
            k = kind(op, operands)
            c[k] = c.get(k, 0) + times
    return c

kinds = ['memory', 'vector', 'control']
print('| kernel | ' + ' | '.join(kinds) + ' | all but rounds | a segment, per stream |')
print('|---' * (len(kinds) + 3) + '|')
for f, lb in sorted(labels.items(), key=lambda x: x[0][1]):
    if f not in ins:
        continue
    n = int(re.search(r'(\d+)$', f[1]).group(1))
    if 'segend' in lb:
        step = tally(lb['loop'], lb['BNE'], f)
        seg = tally(lb['seg'], lb['loop'] - 1, f)
        for k, v in tally(lb['segend'], lb['LANE_LOOP'], f).items():
            seg[k] = seg.get(k, 0) + v
    else:
        step, seg = tally(lb['loop'], lb['LANE_LOOP'], f), {}
    per = {k: (step.get(k, 0) + seg.get(k, 0) / steps) / n for k in set(step) | set(seg)}
    row = [f[1]] + ['%.1f' % per.get(k, 0) for k in kinds]
    row += ['%.1f' % sum(v for k, v in per.items() if k != 'rounds'), '%.1f' % (sum(seg.values()) / n)]
    print('| ' + ' | '.join(row) + ' |')
