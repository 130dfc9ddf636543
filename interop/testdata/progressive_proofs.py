#!/usr/bin/env python3
"""Writes progressive_proofs.txt: generalized indices and Merkle proofs of
EIP-7916 and EIP-7495 values (ProgressiveList[Bytes32], ProgressiveBitList,
ProgressiveContainer of Bytes32 fields) as remerkleable, the EIPs' reference
implementation, numbers and stores them. Run it as progressive_vectors.py:

    PYTHONPATH=/path/to/remerkleable python3 progressive_proofs.py > progressive_proofs.txt

The values are drawn by progressive_vectors.py's helpers, beside it (and
TestProgressiveProofVectors draws them the same way), at the subtrees' edges.
Each line is one of

    proof <kind> <param> <index> <gindex> <leaf> <branch, lowest first...>
    node <kind> <param> <gindex> <node, or none>

kind is roots, bits or container; param the length, or a container's name,
which a line "active <name> <active_fields as 0s and 1s>" gives first; index the element, bit or field index, or mix for gindex 3 (the
length, or active_fields). A node is in hex, or zN for the root of a zero
subtree of height N (z0 the zero chunk), which keeps the file small. The gindex is the type's own (chunk_to_gindex;
a container's active field by key_to_static_gindex), the leaf and branch
read from the value's backing by gindex (getter). A node line probes the
edges of the tree: the zero chunk that ends the spine, the nodes below it
and below gindex 3 and a leaf, where remerkleable has none. (remerkleable
keeps a subtree's padding as zero leaves, which hashtree's trees, as its
Chunks, open into zero subtrees: no probe lies there.)"""
from remerkleable.byte_arrays import Bytes32
from remerkleable.progressive import ProgressiveBitlist, ProgressiveList
from remerkleable.tree import NavigationError, zero_hashes

from progressive_vectors import bits, container_value, only, random_active, stream


def node(v, g):
    try:
        r = v.get_backing().getter(g).merkle_root()
    except NavigationError:
        return "none"
    return "z%d" % zero_hashes.index(r) if r in zero_hashes[:64] else r.hex()


def proof(kind, param, v, index, g):
    branch = []
    x = g
    while x > 1:
        branch.append(node(v, x ^ 1))
        x >>= 1
    print("proof", kind, param, index, g, node(v, g), *branch)


def probes(kind, param, v, chunks, last):
    # The spine's end: gindex 2 turned right once a subtree.
    subs, size, end = 0, 1, 2
    while chunks > 0:
        chunks -= min(chunks, size)
        subs, size, end = subs + 1, size * 4, 2 * end + 1
    for g in (6, 7, end, 2 * end, 2 * end + 1, 4 * end + 2, 2 * last):
        print("node", kind, param, g, node(v, g))


# ProgressiveList[Bytes32]: elements first, middle and last.
for n in (0, 1, 2, 4, 5, 6, 16, 21, 22, 85, 86, 341, 342):
    b = stream("roots %d" % n, 32 * n)
    T = ProgressiveList[Bytes32]
    v = T(*[Bytes32(b[32 * i:32 * i + 32]) for i in range(n)])
    for i in sorted({0, n // 2 if n > 20 else 0, n - 1}) if n else []:
        proof("roots", n, v, i, T.chunk_to_gindex(i))
    proof("roots", n, v, "mix", 3)
    probes("roots", n, v, n, T.chunk_to_gindex(max(n - 1, 0)))


# ProgressiveBitList: progressive_vectors.py's random bits; bits first,
# middle and last.
for n in (1, 256, 257, 1281, 5377, 21760, 22016):
    v = ProgressiveBitlist(*bits("random", n))
    for i in sorted({0, n // 2, n - 1}):
        proof("bits", n, v, i, ProgressiveBitlist.chunk_to_gindex(i // 256))
    proof("bits", n, v, "mix", 3)
    probes("bits", n, v, (n + 255) // 256, ProgressiveBitlist.chunk_to_gindex((n - 1) // 256))


# ProgressiveContainer(active_fields) of Bytes32 fields, drawn as
# progressive_vectors.py's: the first and last field, and an inactive one.
def container(active):
    key, T, v, names = container_value(active)
    param = "c%d" % len(containers)
    containers.append(key)
    print("active", param, key)
    at = [i for i in range(len(active)) if active[i]]
    for i, name in ((at[0], names[0]), (at[-1], names[-1])):
        proof("container", param, v, i, T.key_to_static_gindex(name))
    off = [i for i in range(len(active)) if not active[i]]
    if off:
        proof("container", param, v, off[len(off) // 2], T.chunk_to_gindex(off[len(off) // 2]))
    proof("container", param, v, "mix", T.key_to_static_gindex("__active_fields__"))
    probes("container", param, v, len(active), T.chunk_to_gindex(len(active) - 1))


containers = []
# Edges, then progressive_vectors.py's first pseudo-random patterns.
for a in [only(1, 0), only(2, 1), only(6, 5), only(22, 21), only(86, 85), only(256, 0, 255),
          only(256, 0, 1, 4, 5, 20, 21, 84, 85, 255), [1] * 21, random_active(0), random_active(1)]:
    container(a)
