package interop

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/merkle"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
)

// TestRFC6962Mutable: a Mutable RFC6962 tree through random Sets and
// Appends (batches crossing powers of two) against transparency-dev's
// reference tree rebuilt over the current leaves; proofs verify with its
// verifier.
func TestRFC6962Mutable(t *testing.T) {
	h := rfc6962.DefaultHasher
	for _, n0 := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025, 2000} {
		r := rand.New(rand.NewPCG(uint64(n0), 5))
		d := leaves(n0)
		m := merkle.RFC6962.NewMutable(d)
		for step := range 12 {
			switch r.IntN(3) {
			case 0:
				for range 1 + r.IntN(len(d)+1) {
					if len(d) == 0 {
						break
					}
					i := r.IntN(len(d))
					d[i] = fmt.Appendf(nil, "set %d %d %d", i, step, r.Uint32())
					m.Set(i, d[i])
				}
			default:
				k := 1 + r.IntN(5)
				if r.IntN(2) == 0 {
					p := 1
					for p <= len(d) {
						p *= 2
					}
					k = max(1, p-len(d)+r.IntN(3)-1)
				}
				for range k {
					l := fmt.Appendf(nil, "app %d %d", len(d), r.Uint32())
					d = append(d, l)
					m.Append(l)
				}
			}
			n := len(d)
			ref := testonly.New(h)
			ref.AppendData(d...)
			root := m.Root()
			if !bytes.Equal(root[:], ref.Hash()) {
				t.Fatalf("n0 %d step %d, %d leaves: root %x, transparency-dev %x", n0, step, n, root, ref.Hash())
			}
			for i := 0; i < n; i++ {
				if n > 100 && i%37 != 0 && i != n-1 && i != n-2 {
					continue
				}
				checkInclusionTD(t, ref, m.Proof(i), d[i], root)
			}
		}
	}
}
