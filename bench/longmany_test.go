package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x"
)

// BenchmarkLongMany: HashMany of batches of many messages longer than a
// part (1,024 blocks), each its own allocation, as files read into memory
// are: the batches hashParts takes longPass at a time (internal/sched).
func BenchmarkLongMany(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n        int
		min, max int // bytes
	}{{300, 96 << 10, 96 << 10}, {1024, 96 << 10, 96 << 10}, {1024, 64 << 10, 320 << 10}} {
		msgs := make([][]byte, c.n)
		total := 0
		for i := range msgs {
			msgs[i] = make([]byte, c.min+rng.IntN(c.max-c.min+1))
			for j := range msgs[i] {
				msgs[i][j] = byte(rng.Uint32())
			}
			total += len(msgs[i])
		}
		out := make([][sha256x.Size]byte, c.n)
		b.Run(fmt.Sprintf("n=%d/size=%d-%dK", c.n, c.min>>10, c.max>>10), func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				sha256x.HashMany(out, msgs)
			}
		})
	}
}
