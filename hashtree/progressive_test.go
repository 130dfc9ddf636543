package hashtree

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refProgressive is the specs' merkleize_progressive(chunks, num_leaves),
// written out as the specs recurse.
func refProgressive(chunks [][32]byte, numLeaves int) [32]byte {
	if len(chunks) == 0 {
		return [32]byte{}
	}
	a := refMerkleize(chunks[:min(len(chunks), numLeaves)], uint64(numLeaves))
	b := refProgressive(chunks[min(len(chunks), numLeaves):], numLeaves*4)
	return refPair(a, b)
}

func TestMerkleizeProgressive(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 7916))
	for n := range 400 {
		if n > 100 && n%17 != 0 {
			continue
		}
		c := randChunks(r, n)
		if got, want := MerkleizeProgressive(c), refProgressive(c, 1); got != want {
			t.Fatalf("%d chunks: %x, want %x", n, got, want)
		}
		if got, want := ProgressiveListRoot(c), refMixIn(refProgressive(c, 1), uint64(n)); got != want {
			t.Fatalf("ProgressiveListRoot of %d: %x, want %x", n, got, want)
		}
		vals := make([]uint16, n)
		for i := range vals {
			vals[i] = uint16(r.Uint32())
		}
		b := make([]byte, 2*n)
		for i, v := range vals {
			b[2*i], b[2*i+1] = byte(v), byte(v>>8)
		}
		if got, want := ProgressiveBasicListRoot(vals), refMixIn(refProgressive(refPack(b), 1), uint64(n)); got != want {
			t.Fatalf("ProgressiveBasicListRoot of %d: %x, want %x", n, got, want)
		}
	}
	// A bitlist of 10 bits, 1011000101: serialized with its delimiter.
	bits := []byte{0b10001101, 0b110}
	want := refMixIn(refProgressive(refPack([]byte{0b10001101, 0b10}), 1), 10)
	if got, err := ProgressiveBitlistRoot(bits); err != nil || got != want {
		t.Fatalf("ProgressiveBitlistRoot: %x, %v; want %x", got, err, want)
	}
	if _, err := ProgressiveBitlistRoot([]byte{1, 0}); err == nil {
		t.Fatal("a bitlist without its delimiter: no error")
	}
	// active_fields [1, 0, 1]: the fields at 0 and 2, a zero chunk at 1.
	f := randChunks(r, 2)
	var act [32]byte
	act[0] = 0b101
	if got, want := ProgressiveContainerRoot(f, []bool{true, false, true}), refPair(refProgressive([][32]byte{f[0], {}, f[1]}, 1), act); got != want {
		t.Fatalf("ProgressiveContainerRoot: %x, want %x", got, want)
	}
	panicsWith(t, "sha256x: hashtree: ProgressiveContainerRoot of 2 active fields, not 1..256 ending in an active one", func() { ProgressiveContainerRoot(f, []bool{true, false}) })
}

// TestProgressiveList: random sets, appends, truncations and copies, each
// root against a full rebuild of the current roots.
func TestProgressiveList(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for _, n0 := range []int{0, 1, 5, 21, 100, 1500} {
		r := rand.New(rand.NewPCG(uint64(n0), 7916))
		cur := randChunks(r, n0)
		type model struct {
			l   *ProgressiveList
			cur [][32]byte
		}
		ms := []*model{{NewProgressiveList(cur), slices.Clone(cur)}}
		for step := range steps {
			m := ms[r.IntN(len(ms))]
			n := len(m.cur)
			switch op := r.IntN(6); {
			case op < 2 && n > 0:
				for range 1 + r.IntN(50) {
					i, c := r.IntN(n), randChunks(r, 1)[0]
					m.l.Set(uint64(i), c)
					m.cur[i] = c
				}
			case op < 4:
				for range r.IntN(40) {
					c := randChunks(r, 1)[0]
					m.l.Append(c)
					m.cur = append(m.cur, c)
				}
			case op < 5:
				k := r.IntN(n + 1)
				m.l.Truncate(uint64(k))
				m.cur = m.cur[:k]
			case len(ms) < 4:
				ms = append(ms, &model{m.l.Copy(), slices.Clone(m.cur)})
			}
			for k, m := range ms {
				if got, want := m.l.Root(), ProgressiveListRoot(m.cur); got != want {
					t.Fatalf("from %d, step %d, copy %d, %d roots: %x, want %x", n0, step, k, len(m.cur), got, want)
				}
				if len(m.cur) > 0 {
					i := r.IntN(len(m.cur))
					if m.l.Get(uint64(i)) != m.cur[i] {
						t.Fatalf("Get(%d) wrong", i)
					}
				}
			}
		}
	}
	l := NewProgressiveList(nil)
	panicsWith(t, "sha256x: hashtree: ProgressiveList.Set(0) past the length 0", func() { l.Set(0, [32]byte{}) })
	panicsWith(t, "sha256x: hashtree: ProgressiveList.Truncate(1) past the length 0", func() { l.Truncate(1) })
}
