// Package shapes defines the batches the benchmarks hash: real workloads
// of Merkle trees and file hashing, and the extremes around them.
package shapes

import (
	"crypto/sha256"
	"hash"
	"math/rand/v2"
)

// A Shape is one benchmark operation: hash every message of Msgs, each
// after Prefix. Single shapes hash one message at a time with Sum256.
type Shape struct {
	Name   string
	Prefix []byte
	Msgs   [][]byte
	Single bool
	What   string // what the shape is, in a line of at most 80 bytes
}

// Bytes is how many bytes one operation hashes, prefixes included.
func (s *Shape) Bytes() int64 {
	var n int64
	for _, m := range s.Msgs {
		n += int64(len(s.Prefix) + len(m))
	}
	return n
}

// All returns every shape, with fresh pseudo-random contents (the same on
// every call).
func All() []*Shape {
	r := rand.New(rand.NewPCG(2026, 11))
	fill := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	many := func(lens ...int) [][]byte {
		ms := make([][]byte, len(lens))
		for i, n := range lens {
			ms[i] = fill(n)
		}
		return ms
	}
	rep := func(n, size int) []int {
		ls := make([]int, n)
		for i := range ls {
			ls[i] = size
		}
		return ls
	}
	var solana, short, mixed []int
	for i := 0; i < 64; i++ {
		solana = append(solana, 1031+i%2)
	}
	for i := 0; i < 10000; i++ {
		short = append(short, r.IntN(201))
	}
	for i := 0; i < 256; i++ {
		mixed = append(mixed, []int{32, 100, 1000, 4096, 65536}[r.IntN(5)])
	}
	return []*Shape{
		// Solana shred Merkle leaves: 64 data shreds of ~1 KB.
		{Name: "solana", Prefix: []byte("\x00SOLANA_MERKLE_SHREDS_LEAF"), Msgs: many(solana...),
			What: "64 Solana shred leaves of 1,031-1,032 B, each after a 26-byte prefix"},
		// Tape leaves: a group of 20 blobs of 4 KiB.
		{Name: "tape-leaves", Prefix: []byte("LEAF"), Msgs: many(rep(20, 4096)...),
			What: "20 blobs of 4 KiB, each after the prefix LEAF (Merkle leaves)"},
		// Merkle joins: 1024 pairs of 32-byte digests.
		{Name: "joins", Msgs: many(rep(1024, 64)...),
			What: "1,024 pairs of 32-byte digests: one level of a Merkle tree"},
		{Name: "short", Msgs: many(short...),
			What: "10,000 messages of 0-200 B, lengths at random"},
		{Name: "mixed", Msgs: many(mixed...),
			What: "256 messages of 32 B, 100 B, 1000 B, 4 KiB or 64 KiB, mixed at random"},
		{Name: "stream", Msgs: many(16 << 20),
			What: "one message of 16 MiB"},
		{Name: "single-64", Msgs: many(64), Single: true,
			What: "one message of 64 B by Sum256, call after call"},
		{Name: "single-1k", Msgs: many(1024), Single: true,
			What: "one message of 1 KiB by Sum256, call after call"},
	}
}

// HashCrypto hashes the shape with crypto/sha256 one message after another,
// its fastest honest use and every benchmark's baseline: sha256.Sum256
// without a prefix; with one, h (a crypto/sha256 hash, reused) doing Reset,
// Write(prefix), Write(msg), Sum.
func (s *Shape) HashCrypto(out [][32]byte, h hash.Hash) {
	if s.Prefix == nil {
		for i, m := range s.Msgs {
			out[i] = sha256.Sum256(m)
		}
		return
	}
	for i, m := range s.Msgs {
		h.Reset()
		h.Write(s.Prefix)
		h.Write(m)
		h.Sum(out[i][:0])
	}
}
