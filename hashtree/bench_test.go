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
