#!/usr/bin/env python3
"""Derives solana_vectors.txt: Solana shred Merkle roots and proofs.

Usage: derive_solana.py > solana_vectors.txt

A transcription, with hashlib, of agave's ledger/src/shred/merkle_tree.rs
(anza-xyz/agave, the version with get_proof_size): make_merkle_tree lays
the tree out flat, leaves first, each level joining nodes (index, index+1)
with index+1 clamped to the level's last node; join_nodes hashes
"\x01SOLANA_MERKLE_SHREDS_NODE" with the first 20 bytes of each child;
make_merkle_proof takes (index ^ 1) clamped the same way and keeps 20 bytes.
The leaves are hashed as in merkle.rs get_merkle_node:
SHA-256("\x00SOLANA_MERKLE_SHREDS_LEAF" || shred bytes).
Shred i of n is the text "shred {i} of {n} " repeated, cut to 1031 + i%2
bytes (the sizes of the "solana" benchmark shape).
"""
import hashlib

LEAF = b"\x00SOLANA_MERKLE_SHREDS_LEAF"
NODE = b"\x01SOLANA_MERKLE_SHREDS_NODE"

def h(*parts):
    m = hashlib.sha256()
    for p in parts: m.update(p)
    return m.digest()

def shred(i, n):
    s = f"shred {i} of {n} ".encode()
    return (s * (1100 // len(s) + 1))[:1031 + i % 2]

def make_tree(leaves):
    nodes = list(leaves)
    size = len(leaves)
    if size > 1:
        while True:
            offset = len(nodes) - size
            for index in range(offset, offset + size, 2):
                other = min(index + 1, offset + size - 1)
                nodes.append(h(NODE, nodes[index][:20], nodes[other][:20]))
            if size <= 2: break
            size = (size + 1) >> 1
    return nodes

def make_proof(index, size, tree):
    offset, out = 0, []
    while size > 1:
        out.append(tree[offset + min(index ^ 1, size - 1)][:20])
        offset += size
        size = (size + 1) >> 1
        index >>= 1
    assert offset + 1 == len(tree)
    return out

print("# Solana shred Merkle trees, from derive_solana.py (a hashlib transcription")
print("# of agave's ledger/src/shred/merkle_tree.rs). root N HEX: the root of N")
print("# shreds; proof N I HEX20...: the proof of shred I, entries of 20 bytes.")
for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 63, 64, 65, 67, 96, 143]:
    leaves = [h(LEAF, shred(i, n)) for i in range(n)]
    tree = make_tree(leaves)
    print("root", n, tree[-1].hex())
    for i in sorted({0, n // 2, n - 1}):
        print("proof", n, i, *[e.hex() for e in make_proof(i, n, tree)])
