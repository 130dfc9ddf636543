#!/usr/bin/env python3
"""Computes, with hashlib alone, the digests in example_test.go's Output
lines (each example's leaves are spelled out again here)."""
import hashlib

def h(*parts):
    m = hashlib.sha256()
    for p in parts: m.update(p)
    return m.digest()

def tree(leaves, join, odd):
    """odd: 'promote', 'dup' or 'zero'. Returns the root."""
    level, zero = list(leaves), bytes(32)
    while len(level) > 1:
        if len(level) % 2:
            if odd == 'promote':
                last = level.pop()
                level = [join(level[k], level[k+1]) for k in range(0, len(level), 2)] + [last]
                zero = join(zero, zero)
                continue
            level.append(level[-1] if odd == 'dup' else zero)
        level = [join(level[k], level[k+1]) for k in range(0, len(level), 2)]
        zero = join(zero, zero)
    return level[0]

# ExampleScheme_Root, ExampleTree_Proof: RFC 6962 over "a".."e".
rfc = lambda d: tree([h(b"\0", x) for x in d], lambda l, r: h(b"\1", l, r), 'promote')
print("rfc6962 a..c", rfc([b"a", b"b", b"c"]).hex())
print("rfc6962 a..e", rfc([b"a", b"b", b"c", b"d", b"e"]).hex())
print("rfc6962 empty", h().hex())

# Example_bitcoin: block 100,000.
ids = ["8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
       "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
       "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
       "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d"]
btc = tree([bytes.fromhex(x)[::-1] for x in ids], lambda l, r: h(h(l, r)), 'dup')
print("bitcoin 100000 display", btc[::-1].hex())

# Example_binary: three chunks of 0x01.., 0x02.., 0x03.. bytes.
print("binary 3", tree([bytes([i]) * 32 for i in (1, 2, 3)], lambda l, r: h(l, r), 'zero').hex())

# Example_solana: shreds "shred 0".."shred 4".
sol = tree([h(b"\x00SOLANA_MERKLE_SHREDS_LEAF", b"shred %d" % i) for i in range(5)],
           lambda l, r: h(b"\x01SOLANA_MERKLE_SHREDS_NODE", l[:20], r[:20]), 'dup')
print("solana 5", sol.hex())

# ExampleScheme (tape): "LEAF" leaves, "LEFT" l "RIGHT" r nodes, odd duplicated.
tape = tree([h(b"LEAF", x) for x in (b"blob 0", b"blob 1", b"blob 2")],
            lambda l, r: h(b"LEFT", l, b"RIGHT", r), 'dup')
print("tape 3", tape.hex())
