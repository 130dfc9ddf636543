package files

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestCallAllocs pins the allocations of a call that reads plainly, on one
// goroutine: of one small file, and of 16 large ones streamed side by
// side (Go 1.26, linux/amd64: 31 and 220-221). The change that lets a file
// refused a descriptor wait took them to 34 and 231: each worker handed to
// run and a list of them, the streams' list of files being read grown on
// the heap once admit took it, and the large files of a batch grown on the
// heap once two appends added to them.
func TestCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates more")
	}
	r := rand.New(rand.NewPCG(3, 3))
	small := randomFiles(t, r, 1, func(int) int64 { return 1000 })
	large := randomFiles(t, r, 16, func(int) int64 { return 256<<10 + 1 })
	h := Hasher{Workers: 1, PlainReads: true}
	arenas.drain() // others' arenas, of other sizes, would leave no room for its own
	for _, c := range []struct {
		paths []string
		max   float64
	}{
		{small, 31},
		{large, 221},
	} {
		a := testing.AllocsPerRun(20, func() {
			res, err := h.Hash(context.Background(), c.paths)
			if err != nil || res[0].Err != nil {
				t.Fatal(err, res[0].Err)
			}
		})
		if a > c.max {
			t.Errorf("%d files: %.0f allocations a call, want at most %.0f", len(c.paths), a, c.max)
		}
	}
}
