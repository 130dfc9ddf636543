package hashtree

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkDenseThreshold times the two ways Root hashes a level's dirty
// nodes, on a level of 2^16 nodes over 2^17 (4 MiB: past L2) with a
// fraction eighths/8 of its nodes dirty at random: gathered (their
// children copied into a buffer, hashed, copied back) and the span (every
// node from the first dirty one to the last, in place). denseEighths is
// where the span starts to win (BENCHMARKS.md, "Trees that change"):
//
//	go test ./hashtree -run '^$' -bench DenseThreshold -cpu 1 -count 5
func BenchmarkDenseThreshold(b *testing.B) {
	const n = 1 << 17
	r := rand.New(rand.NewPCG(1, 2))
	t := newTree(randChunks(r, n), 17)
	for _, e := range []int{8, 7, 6, 5, 4, 2, 1} {
		perm := r.Perm(n / 2)
		d := slices.Sorted(slices.Values(perm[:n/2*e/8]))
		b.Run(fmt.Sprintf("eighths=%d/path=gather", e), func(b *testing.B) {
			for b.Loop() {
				t.gather(1, d)
			}
		})
		b.Run(fmt.Sprintf("eighths=%d/path=span", e), func(b *testing.B) {
			for b.Loop() {
				t.hash(1, d[0], d[len(d)-1])
			}
		})
	}
}
