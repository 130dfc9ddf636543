package sched

import (
	"crypto/sha256"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/docsaid"
	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/plan/plantest"
)

// The scheduler's own edge cases; the root's tests compare every entry point
// with crypto/sha256 over every plan.

// TestHashPairs checks what hashPairs leaves the job queue: nothing when
// the lanes take a partial group, else fewer messages than the narrowest
// pairs stage takes; and the digests of what it hashed.
func TestHashPairs(t *testing.T) {
	for _, p := range plantest.All() {
		pl := p.Plan
		if len(pl.Pairs) == 0 {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			for n := 0; n <= 70; n++ {
				msgs := make([][]byte, n)
				for i := range msgs {
					msgs[i] = pattern(64, i+n)
				}
				out := make([][Size]byte, n)
				var done int
				if n > 0 {
					done = hashPairs(pl, kernel.Slices, &out[0], nil, &msgs[0], nil, n)
				}
				if pl.TakesPartial(n, kernel.Slices) && done != n {
					t.Errorf("%d messages: the lanes take a partial group, but %d are left", n, n-done)
				}
				if last := pl.Pairs[len(pl.Pairs)-1]; done < n && last.Take(n-done) != 0 && !last.Odd {
					t.Errorf("%d messages: %d left, of which the last stage takes %d", n, n-done, last.Take(n-done))
				}
				for i := range done {
					if out[i] != sha256.Sum256(msgs[i]) {
						t.Fatalf("%d messages: digest %d wrong", n, i)
					}
				}
			}
		})
	}
}

// TestWindows runs batches around both windows' sizes through the queue, with
// the generic kernel at several widths handing over to narrower stages, and
// checks every digest: carried lanes open the next window with their staged
// blocks moved.
func TestWindows(t *testing.T) {
	for _, w := range []int{2, 5, 16} {
		pl := plan.New(plan.Plan{
			Name:   fmt.Sprintf("generic-x%d", w),
			Stages: []plan.Stage{{K: kernel.Generic, Width: w, MinActive: w}, {K: kernel.Generic, Width: 2, MinActive: 1}},
			One:    []plan.Stage{{K: kernel.Generic, Width: 1, MinActive: 1}},
		})
		for _, n := range []int{smallWindow - 1, smallWindow, smallWindow + 1, window - 1, window, window + 1, 2*window + 3} {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = pattern(37*i%300, i)
			}
			out := make([][Size]byte, n)
			HashMany(pl, out, []byte("prefix"), msgs)
			for i, m := range msgs {
				if out[i] != sha256.Sum256(append([]byte("prefix"), m...)) {
					t.Fatalf("width %d, %d messages: digest %d wrong", w, n, i)
				}
			}
		}
	}
}

func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed*13 + i>>8)
	}
	return b
}

func streams(n int) []*Stream {
	ss := make([]*Stream, n)
	for i := range ss {
		ss[i] = new(Stream)
	}
	return ss
}

// TestScratchAligned: where the kernels run (64-bit), the scratch area's
// staged blocks begin on 64-byte lines: the slots, and the buffers of the
// items staged whole.
func TestScratchAligned(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("no assembly kernels where pointers are 4 bytes")
	}
	sc := newScratch().(*scratch)
	for name, p := range map[string]unsafe.Pointer{
		"scratch": unsafe.Pointer(sc), "slots": unsafe.Pointer(&sc.slots), "joins": unsafe.Pointer(&sc.joins.buf), "msgs": unsafe.Pointer(&sc.msgs.buf),
	} {
		if a := uintptr(p) % 64; a != 0 {
			t.Errorf("%s at %d past a 64-byte line", name, a)
		}
	}
}

// TestSerialBlocks: the few short messages a batch hashes one after another
// are those whose block class is below serialClass, which admits messages of
// up to 7 padded blocks, not 4 (a class holds 4-7 blocks); the comments and
// BENCHMARKS.md say the bound the code has, and the classes as blockClass
// makes them.
func TestSerialBlocks(t *testing.T) {
	serial := func(n int) bool { return bits.Len64(1<<blockClass(n)) <= serialClass }
	for _, c := range []struct {
		n      int // bytes, padded to blocks
		blocks int
		serial bool
	}{
		{0, 1, true}, {55, 1, true}, {56, 2, true}, {247, 4, true}, {248, 5, true},
		{439, 7, true}, {440, 8, false}, {1000, 16, false},
	} {
		if got := (c.n+8)/BlockSize + 1; got != c.blocks {
			t.Fatalf("%d bytes pad to %d blocks, not %d", c.n, got, c.blocks)
		}
		if got := serial(c.n); got != c.serial {
			t.Errorf("a message of %d bytes (%d blocks): one after another %v, want %v", c.n, c.blocks, got, c.serial)
		}
	}
	most := 0
	for n := 0; n < 64*BlockSize; n++ {
		if serial(n) {
			most = max(most, (n+8)/BlockSize+1)
		}
	}
	// The classes' ranges of blocks, as BENCHMARKS.md lists them.
	var classes []string
	for c, lo := 1, 1; c <= 4; c++ {
		hi := lo
		for blockClass(hi*BlockSize) == c { // hi*64 bytes pad to hi+1 blocks
			hi++
		}
		if classes = append(classes, strconv.Itoa(lo)); hi > lo {
			classes[len(classes)-1] += "-" + strconv.Itoa(hi)
		}
		lo = hi + 1
	}
	said := map[string][]string{
		"many.go":             {fmt.Sprintf("at most %d blocks each", most)},
		"../plan/plan.go":     {fmt.Sprintf("at most %d blocks each", most)},
		"../../BENCHMARKS.md": {fmt.Sprintf("at most %d blocks each", most), "block classes: " + strings.Join(classes, ", ") + " blocks"},
	}
	for f, wants := range said {
		docsaid.Check(t, []string{f}, wants...)
	}
}
