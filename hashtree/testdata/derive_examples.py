#!/usr/bin/env python3
"""Computes, with hashlib alone, the digests in example_test.go's and
example_gohashtree_test.go's Output lines: the SSZ definitions written out
plainly (each example's data is spelled out again here)."""
import hashlib

def h(a, b):
    return hashlib.sha256(a + b).digest()

def merkleize(chunks, limit):
    depth = 0
    while (1 << depth) < limit:
        depth += 1
    zero = [bytes(32)]
    for _ in range(depth):
        zero.append(h(zero[-1], zero[-1]))
    level = list(chunks) or [bytes(32)]
    for d in range(depth):
        if len(level) % 2:
            level.append(zero[d])
        level = [h(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]

def mix_in_length(root, n):
    return h(root, n.to_bytes(32, "little"))

def u64(v):
    return v.to_bytes(8, "little").ljust(32, b"\0")

# ExampleHash: four chunks, chunk i all bytes i+1, hashed in place.
c = [bytes([i + 1]) * 32 for i in range(4)]
print("ExampleHash", h(c[0], c[1]).hex(), h(c[2], c[3]).hex())

# ExampleHashByteSlice: five chunks of bytes i+1, merkleized level by level
# as fastssz does (a zero chunk after an odd level).
c = [bytes([i + 1]) * 32 for i in range(5)]
print("ExampleHashByteSlice", merkleize(c, 5).hex())

# ExampleMerkleize: three chunks of bytes 1, 2, 3 under limits 3 and 2^40,
# and the list root.
c = [bytes([i + 1]) * 32 for i in range(3)]
print("ExampleMerkleize", merkleize(c, 3).hex(), merkleize(c, 1 << 40).hex(),
      mix_in_length(merkleize(c, 1 << 40), 3).hex())

# ExampleContainerRoots: a registry of 1000 validators.
FAR = (1 << 64) - 1
roots = []
for i in range(1000):
    pub = bytes((i + j) % 256 for j in range(48))
    cred = bytes((3 * i + j) % 256 for j in range(32))
    fields = [
        merkleize([pub[:32], pub[32:].ljust(32, b"\0")], 2),
        cred,
        u64(32_000_000_000 - i),
        u64(1 if i % 7 == 0 else 0),
        u64(i), u64(i + 1), u64(FAR), u64(FAR),
    ]
    roots.append(merkleize(fields, 8))
print("ExampleContainerRoots", mix_in_length(merkleize(roots, 1 << 40), 1000).hex())

# interop/example_test.go: a BeaconBlockHeader through fastssz.
fields = [u64(1), u64(2), bytes([0x11]) * 32, bytes([0x22]) * 32, bytes([0x33]) * 32]
print("Example_fastssz", merkleize(fields, 8).hex())
