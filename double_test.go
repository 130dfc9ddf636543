package sha256x

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

func sha256d(m []byte) [Size]byte {
	h := sha256.Sum256(m)
	return sha256.Sum256(h[:])
}

// TestHashManyDouble checks SHA-256d of batches of every size to past a
// window and the pairs kernels' chunks, with lengths from 0 to past a
// part, on every plan, against crypto/sha256 twice.
func TestHashManyDouble(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 1))
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 63, 64, 65, 100, 300, 1100} {
			msgs := make([][]byte, n)
			for i := range msgs {
				switch r.IntN(4) {
				case 0:
					msgs[i] = pattern(r.IntN(120), i)
				case 1:
					msgs[i] = pattern(64, i)
				case 2:
					msgs[i] = pattern(80, i) // headers
				default:
					msgs[i] = pattern(r.IntN(3000), i)
				}
			}
			if n == 300 {
				msgs[7] = pattern(3*partBlocks*BlockSize/2, 7)
			}
			out := make([][Size]byte, n+1)
			sentinel := [Size]byte{1, 2, 3}
			out[n] = sentinel
			sched.HashManyDouble(pl, out, msgs)
			for i, m := range msgs {
				if out[i] != sha256d(m) {
					t.Fatalf("%d messages: message %d (%d bytes): wrong SHA-256d", n, i, len(m))
				}
			}
			if out[n] != sentinel {
				t.Fatalf("%d messages: out[%d] written", n, n)
			}
		}
	})
}

func TestHashManyDoubleAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	msgs := make([][]byte, 300)
	for i := range msgs {
		msgs[i] = pattern(i*7%500, i)
	}
	out := make([][Size]byte, len(msgs))
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{1, 2, 3, 64, 65, 300} {
			if a := testing.AllocsPerRun(20, func() { sched.HashManyDouble(pl, out, msgs[:n]) }); a != 0 {
				t.Errorf("HashManyDouble of %d messages: %v allocations", n, a)
			}
		}
	})
}

func TestHashManyDoublePanics(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); len(r) < 9 || r[:9] != "sha256x: " {
			t.Errorf("recovered %q, want a panic starting \"sha256x: \"", r)
		}
	}()
	HashManyDouble(make([][Size]byte, 1), make([][]byte, 2))
}

func TestHashManyDoubleAPI(t *testing.T) {
	msgs := [][]byte{nil, []byte("abc"), make([]byte, 80)}
	out := make([][Size]byte, len(msgs))
	HashManyDouble(out, msgs)
	for i, m := range msgs {
		if out[i] != sha256d(m) {
			t.Errorf("message %d: wrong SHA-256d", i)
		}
	}
}
