package translog

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAppendBatch appends batches of leaf hashes (and of entries of
// about 100 bytes) of chunkLeaves and more to a log of 2^20 leaves plus
// one (so that a chunk's first node pairs with a node of the range), the sizes a log
// sequencer's batches or a bulk import reach: what chunkLeaves trades, a
// Range's scratch kept inside L2 against a few more short calls at each
// chunk's top levels (BENCHMARKS.md, "Constants that measured level").
//
//	go test ./merkle/translog -run '^$' -bench AppendBatch -cpu 1 -count 6
func BenchmarkAppendBatch(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1 << 12, 1 << 14, 1 << 16} {
		hashes := make([][Size]byte, n)
		for i := range hashes {
			for j := range hashes[i] {
				hashes[i][j] = byte(r.Uint32())
			}
		}
		entries := make([][]byte, n)
		for i := range entries {
			entries[i] = make([]byte, 90+r.IntN(20))
			for j := range entries[i] {
				entries[i][j] = byte(r.Uint32())
			}
		}
		start := &Range{}
		start.Append(make([][Size]byte, 1<<20+1), nil)
		// The log grows by a batch an operation, its scratch made by the
		// first batch, as a sequencer's does.
		b.Run(fmt.Sprintf("leaves=%d/what=hashes", n), func(b *testing.B) {
			g := start.Clone()
			g.Append(hashes, nil)
			b.SetBytes(int64(n * Size))
			b.ReportAllocs()
			for b.Loop() {
				g.Append(hashes, nil)
			}
		})
		b.Run(fmt.Sprintf("leaves=%d/what=entries", n), func(b *testing.B) {
			g := start.Clone()
			g.AppendEntries(entries, nil)
			b.ReportAllocs()
			for b.Loop() {
				g.AppendEntries(entries, nil)
			}
		})
	}
}
