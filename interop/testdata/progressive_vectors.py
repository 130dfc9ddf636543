#!/usr/bin/env python3
"""Writes progressive_vectors.txt: roots of EIP-7916 and EIP-7495 values
(ProgressiveList, ProgressiveBitList, ProgressiveContainer) computed by
remerkleable, the EIPs' reference implementation and the one
consensus-specs' pyspec uses (it pins eth-remerkleable). Run with
remerkleable importable, e.g. from a checkout:

    PYTHONPATH=/path/to/remerkleable python3 progressive_vectors.py > progressive_vectors.txt

The values are not stored: each is drawn from stream(label), SHA-256 of
label, ":" and a counter, and TestProgressiveVectors draws them the same
way. The lengths sit at the progressive subtrees' edges: 1, 5, 21, 85, 341,
1365 chunks in all (and the subtrees' sizes 4, 16, 64, 256, 1024), one less
and one more."""
import hashlib
from remerkleable.basic import uint8, uint64
from remerkleable.byte_arrays import Bytes32
from remerkleable.progressive import ProgressiveBitlist, ProgressiveContainer, ProgressiveList

EDGES = [0, 1, 2, 4, 5, 16, 21, 64, 85, 256, 341, 1024, 1365]


def stream(label, n):
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(("%s:%d" % (label, i)).encode()).digest()
        i += 1
    return out[:n]


def counts(per):
    ns = set()
    for c in EDGES:
        for n in (c * per - 1, c * per, c * per + 1):
            if n >= 0:
                ns.add(n)
    return sorted(ns)


# ProgressiveBitList: bit i of a random one is bit i%8 of stream byte i/8;
# of a sparse one, set where stream byte i is 0 or 1; then all zero, all one.
def bits(mode, n):
    if mode == "random":
        b = stream("bits random %d" % n, (n + 7) // 8)
        return [(b[i // 8] >> (i % 8)) & 1 == 1 for i in range(n)]
    if mode == "sparse":
        b = stream("bits sparse %d" % n, n)
        return [b[i] < 2 for i in range(n)]
    return [mode == "ones"] * n


# ProgressiveContainer(active_fields) of Bytes32 fields: field k (the k-th
# active one) is stream("fields <active>") bytes 32k to 32k+32, <active>
# written as 0s and 1s. remerkleable wants a field named "more" when
# active_fields has 256 entries. Returns the key, the type, the value and
# the fields' names.
def container_value(active):
    key = "".join(map(str, active))
    k = sum(active)
    names = ["f%d" % i for i in range(k - 1)] + ["more"]
    b = stream("fields " + key, 32 * k)
    T = type("C", (ProgressiveContainer(active_fields=active),), {"__annotations__": {n: Bytes32 for n in names}})
    return key, T, T(**{n: Bytes32(b[32 * i:32 * i + 32]) for i, n in enumerate(names)}), names


def only(n, *at):
    return [1 if i in at else 0 for i in range(n)]


# Pseudo-random active_fields j: the length from stream byte 0, each entry a
# bit of the rest, the last one 1.
def random_active(j):
    b = stream("active %d" % j, 1 + 32)
    n = 1 + b[0]
    a = [(b[1 + i // 8] >> (i % 8)) & 1 for i in range(n)]
    a[-1] = 1
    return a


def main():
    # ProgressiveList[Uint64]: 8 bytes a value, 4 to a chunk.
    for n in counts(4):
        b = stream("uint64s %d" % n, 8 * n)
        v = ProgressiveList[uint64](*[int.from_bytes(b[8 * i:8 * i + 8], "little") for i in range(n)])
        print("uint64s", n, v.hash_tree_root().hex())

    # ProgressiveByteList (ProgressiveList[Uint8]): 32 to a chunk.
    for n in counts(32):
        v = ProgressiveList[uint8](*stream("bytes %d" % n, n))
        print("bytes", n, v.hash_tree_root().hex())

    # ProgressiveList[Bytes32]: composite elements, each its own root.
    for n in counts(1):
        b = stream("roots %d" % n, 32 * n)
        v = ProgressiveList[Bytes32](*[Bytes32(b[32 * i:32 * i + 32]) for i in range(n)])
        print("roots", n, v.hash_tree_root().hex())

    for c in EDGES:
        for n in sorted({max(0, 256 * c - 1), 256 * c, 256 * c + 1, 256 * c + 8}):
            for mode in ("random", "sparse", "zeros", "ones"):
                print("bits-" + mode, n, ProgressiveBitlist(*bits(mode, n)).hash_tree_root().hex())

    for a in [only(1, 0), only(2, 1), only(5, 4), only(6, 5), only(21, 20), only(22, 21), only(85, 84),
              only(86, 85), only(256, 255), only(256, 0, 255), [1] * 256, [1] * 255,
              only(256, 0, 1, 4, 5, 20, 21, 84, 85, 255)] + [random_active(j) for j in range(24)]:
        key, _, v, _ = container_value(a)
        print("container", key, v.hash_tree_root().hex())


if __name__ == "__main__":
    main()
