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
// where the span starts to win (BENCHMARKS.md, "Trees that change: dirty
// nodes gathered a level at a time"):
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

// BenchmarkProgressive times a change and the root after it on the
// progressive types that change, beside a full rebuild of the same root:
// a list of 2^16 roots (one root set among the first 5, in the two lowest
// subtrees, or 64 set at random), a bitlist of 2^20 bits (64 set at random)
// and a container of 256 fields (one set).
//
//	go test ./hashtree -run '^$' -bench Progressive -cpu 1 -count 6
func BenchmarkProgressive(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	roots := randChunks(r, 1<<16)
	l := NewProgressiveList(roots)
	b.Run("list/set=1-low", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			l.Set(uint64(i%5), roots[i&0xffff])
			_ = l.Root()
		}
	})
	b.Run("list/set=64", func(b *testing.B) {
		for b.Loop() {
			for k := range 64 {
				l.Set(uint64(r.IntN(1<<16)), roots[k])
			}
			_ = l.Root()
		}
	})
	b.Run("list/rebuild", func(b *testing.B) {
		for b.Loop() {
			_ = ProgressiveListRoot(roots)
		}
	})
	ser := append(randBytes(r, 1<<17), 1)
	bl, err := NewProgressiveBitlist(ser)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("bitlist/set=64", func(b *testing.B) {
		for b.Loop() {
			for k := range 64 {
				bl.Set(uint64(r.IntN(1<<20)), k%2 == 0)
			}
			_ = bl.Root()
		}
	})
	b.Run("bitlist/rebuild", func(b *testing.B) {
		for b.Loop() {
			_, _ = ProgressiveBitlistRoot(ser)
		}
	})
	active := slices.Repeat([]bool{true}, 256)
	c := NewProgressiveContainer(roots[:256], active)
	b.Run("container/set=1", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			c.Set(i&255, roots[i&0xffff])
			_ = c.Root()
		}
	})
	b.Run("container/rebuild", func(b *testing.B) {
		for b.Loop() {
			_ = ProgressiveContainerRoot(roots[:256], active)
		}
	})
}

// BenchmarkGetAfterCopy times 4,096 random reads of a list of 2^20 uint64s
// (8 MiB) built at once: fresh; the original after a Copy; the copy; the
// copy after a slot's 700 writes. A copy reads its pages where the tree
// was built unless it moved them, not through its block and group pointers
// (BENCHMARKS.md, "Trees that change: a level's one array"):
//
//	go test ./hashtree -run '^$' -bench GetAfterCopy -cpu 1 -count 6
func BenchmarkGetAfterCopy(b *testing.B) {
	vals := make([]uint64, 1<<20)
	for i := range vals {
		vals[i] = uint64(i)
	}
	r := rand.New(rand.NewPCG(1, 2))
	idx := make([]uint64, 4096)
	for i := range idx {
		idx[i] = r.Uint64N(uint64(len(vals)))
	}
	for _, state := range []string{"fresh", "original-after-Copy", "copy", "copy-after-writes"} {
		b.Run("state="+state, func(b *testing.B) {
			l := NewBasicList(vals, 1<<40)
			l.Root()
			switch state {
			case "original-after-Copy":
				_ = l.Copy()
			case "copy":
				l = l.Copy()
			case "copy-after-writes":
				l = l.Copy()
				for range 700 {
					i := r.Uint64N(uint64(len(vals)))
					l.Set(i, l.Get(i)+1)
				}
				l.Root()
			}
			var s uint64
			for b.Loop() {
				for _, i := range idx {
					s += l.Get(i)
				}
			}
			getSink = s
		})
	}
}

var getSink uint64

// BenchmarkContainerChanges times a root of a registry-like list (2^18
// containers of 8 fields, a limit of 2^40) after k containers had a field
// set at random: a slot's 16, an epoch's 2,000, and more. The changed
// containers are hashed containerBlock at a time (BENCHMARKS.md,
// "Constants that measured level"):
//
//	go test ./hashtree -run '^$' -bench ContainerChanges -cpu 1 -count 6
func BenchmarkContainerChanges(b *testing.B) {
	const n, k = 1 << 18, 8
	r := rand.New(rand.NewPCG(3, 4))
	l := NewContainerList(k, randChunks(r, n*k), 1<<40)
	l.Root()
	vals := randChunks(r, 1<<10)
	for _, changed := range []int{16, 2000, 1 << 14, 1 << 16} {
		idx := make([]uint64, changed)
		for i := range idx {
			idx[i] = r.Uint64N(n)
		}
		b.Run(fmt.Sprintf("changed=%d", changed), func(b *testing.B) {
			b.ReportAllocs()
			it := 0
			for b.Loop() {
				for j, i := range idx {
					l.SetField(i, (j+it)%k, vals[(j+it)%len(vals)])
				}
				it++
				l.Root()
			}
		})
	}
}
