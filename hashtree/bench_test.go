package hashtree

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x"
)

// BenchmarkHash: the drop-in against the HashLevel call it makes, at the
// sizes of fastssz's calls; the side-by-side tables with the peers are the
// bench module's BenchmarkSSZHash.
func BenchmarkHash(b *testing.B) {
	for _, n := range []int{1, 2, 4, 16, 1024} {
		chunks := randChunks(rand.New(rand.NewPCG(1, uint64(n))), 2*n)
		out := make([][32]byte, n)
		b.Run(fmt.Sprintf("pairs=%d/impl=Hash", n), func(b *testing.B) {
			for b.Loop() {
				_ = Hash(out, chunks)
			}
		})
		b.Run(fmt.Sprintf("pairs=%d/impl=HashLevel", n), func(b *testing.B) {
			for b.Loop() {
				sha256x.Join{}.HashLevel(out, chunks)
			}
		})
	}
}

// BenchmarkMerkleizeSmall: the roots of small containers' field roots,
// whose first level fits stackNodes nodes on the stack up to 13 chunks
// and takes a buffer from the pool above (BENCHMARKS.md, "Constants that
// measured level").
//
//	go test ./hashtree -run '^$' -bench MerkleizeSmall -cpu 1 -count 6
func BenchmarkMerkleizeSmall(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{5, 8, 13, 16, 28} {
		chunks := randChunks(r, m)
		b.Run(fmt.Sprintf("chunks=%d", m), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Merkleize(chunks, uint64(m))
			}
		})
	}
}
