package hashtree

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// The references: the specs' definitions written out plainly with
// crypto/sha256, sharing no code with the package.

func refPair(l, r [32]byte) [32]byte {
	return sha256.Sum256(append(l[:], r[:]...))
}

func refPairs(chunks [][32]byte) [][32]byte {
	out := make([][32]byte, len(chunks)/2)
	for i := range out {
		out[i] = refPair(chunks[2*i], chunks[2*i+1])
	}
	return out
}

func refZero(d int) [32]byte {
	var z [32]byte
	for range d {
		z = refPair(z, z)
	}
	return z
}

// refMerkleize is merkleize(chunks, limit): pad to next_pow_of_two(limit)
// (virtually: a subtree past the chunks is a zero subtree), then hash.
func refMerkleize(chunks [][32]byte, limit uint64) [32]byte {
	if uint64(len(chunks)) > limit {
		panic("refMerkleize: over the limit")
	}
	depth := 0
	for limit > 1<<depth && depth < 64 {
		depth++
	}
	var sub func(c [][32]byte, d int) [32]byte
	sub = func(c [][32]byte, d int) [32]byte {
		if len(c) == 0 {
			return refZero(d)
		}
		if d == 0 {
			return c[0]
		}
		// An int holds 1<<(d-1) only below bits.UintSize-1; past it, no
		// slice is longer than half.
		if d-1 >= bits.UintSize-2 || len(c) <= 1<<(d-1) {
			return refPair(sub(c, d-1), refZero(d-1))
		}
		half := 1 << (d - 1)
		return refPair(sub(c[:half], d-1), sub(c[half:], d-1))
	}
	return sub(chunks, depth)
}

func refMixIn(r [32]byte, n uint64) [32]byte {
	var l [32]byte
	binary.LittleEndian.PutUint64(l[:], n)
	return refPair(r, l)
}

// refPack is pack(): serialized bytes right-padded into chunks.
func refPack(b []byte) [][32]byte {
	c := make([][32]byte, (len(b)+31)/32)
	for i := range b {
		c[i/32][i%32] = b[i]
	}
	return c
}

func randChunks(r *rand.Rand, n int) [][32]byte {
	c := make([][32]byte, n)
	for i := range c {
		for j := 0; j < 32; j += 8 {
			binary.LittleEndian.PutUint64(c[i][j:], r.Uint64())
		}
	}
	return c
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
