#!/usr/bin/env python3
"""Derives bitcoin_blocks.txt from raw blocks.

Usage: derive_bitcoin.py block.json > bitcoin_blocks.txt

block.json is test/fixtures/block.json of bitcoinjs-lib (commit 248789d2).
For each raw block with transactions, this parses the transactions, takes
each txid as SHA-256d of the transaction without its witness, and checks
that the Merkle root over them (computed here, independently of the Go
package) is the one in the block header, and that the header hashes to the
block id the fixture publishes. Only then is the block written out.
"""
import hashlib, json, sys

def dsha(b):
    return hashlib.sha256(hashlib.sha256(b).digest()).digest()

def varint(b, i):
    v = b[i]
    if v < 0xfd: return v, i + 1
    n = {0xfd: 2, 0xfe: 4, 0xff: 8}[v]
    return int.from_bytes(b[i+1:i+1+n], 'little'), i + 1 + n

def tx(b, i):
    """Returns (txid, end) for the transaction at b[i:]."""
    start = i
    i += 4
    segwit = b[i] == 0 and b[i+1] == 1
    if segwit: i += 2
    body = i
    nin, i = varint(b, i)
    for _ in range(nin):
        i += 36
        n, i = varint(b, i); i += n + 4
    nout, i = varint(b, i)
    for _ in range(nout):
        i += 8
        n, i = varint(b, i); i += n
    body_end = i
    if segwit:
        for _ in range(nin):
            items, i = varint(b, i)
            for _ in range(items):
                n, i = varint(b, i); i += n
    i += 4
    stripped = b[start:start+4] + b[body:body_end] + b[i-4:i]
    return dsha(stripped), i

def root(ids):
    level = list(ids)
    while len(level) > 1:
        if len(level) % 2: level.append(level[-1])
        level = [dsha(level[k] + level[k+1]) for k in range(0, len(level), 2)]
    return level[0]

fixtures = json.load(open(sys.argv[1]))
print("# Bitcoin blocks for TestBitcoinBlocks, derived by derive_bitcoin.py from")
print("# bitcoinjs-lib test/fixtures/block.json (commit 248789d2): raw blocks,")
print("# parsed, each txid SHA-256d of its transaction without witness.")
print("# header: the 80-byte block header; id: the published block id (display")
print("# order); txid: internal byte order.")
for v in fixtures['valid']:
    b = bytes.fromhex(v['hex'])
    if len(b) <= 80 or 'nonce changed' in v['description']: continue
    header = b[:80]
    assert dsha(header)[::-1].hex() == v['id'], v['description']
    n, i = varint(b, 80)
    ids = []
    for _ in range(n):
        t, i = tx(b, i); ids.append(t)
    assert i == len(b), v['description']
    assert root(ids) == header[36:68], v['description']
    print()
    print("block", v['description'].replace(' ', '_'), v.get('height', '?'), "txs", n)
    print("header", header.hex())
    print("id", v['id'])
    for t in ids: print("txid", t.hex())
