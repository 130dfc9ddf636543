package pages

import (
	"github.com/sha256x/sha256x/internal/fuzzops"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// ops draws a random sequence's steps from a fuzzer's bytes, then a
// generator.
type ops = fuzzops.Ops

// pagedModel is a level and the nodes it should hold.
type pagedModel struct {
	l   *Level
	cur [][32]byte
}

// node returns a node that tells apart the copy, the step and the index
// that wrote it.
func pagedNode(o *ops, i int) (c [32]byte) {
	c[0], c[1], c[2] = byte(i), byte(i>>8), byte(i>>16)
	c[31] = byte(o.R.Uint32())
	return c
}

// checkPaged runs random writes, whole-page writes, resizes and copies on
// copies of one level (shift given), every copy checked against its own
// nodes after each step: a write to one copy never shows in another, and
// every run that run reports lies in one array and holds the nodes it
// should (under -race, checkptr checks that unsafe.Slice stays within one
// allocation).
func checkPaged(t *testing.T, o *ops, shift uint8, steps int) {
	t.Helper()
	first := New(shift)
	ms := []*pagedModel{{l: &first}}
	grow := func(m *pagedModel, n int) {
		old := len(m.cur)
		m.l.Resize(n)
		if n <= old {
			m.cur = m.cur[:n]
			return
		}
		for i := old; i < n; i++ { // new nodes hold anything: written
			c := pagedNode(o, i)
			*m.l.Mut(i) = c
			m.cur = append(m.cur, c)
		}
	}
	grow(ms[0], o.N(3000))
	if len(ms[0].cur) > 0 && first.flat == nil {
		t.Fatalf("a level grown once from empty has no flat array")
	}
	for step := range steps {
		m := ms[o.N(len(ms))]
		n := len(m.cur)
		switch op := o.N(11); {
		case op < 4 && n > 0: // scattered writes, their pages touched first
			idx := make([]int, 1+o.N(50))
			for x := range idx {
				idx[x] = o.N(n)
			}
			m.l.Touch(idx) // reads only: the checks below see no change
			for _, i := range idx {
				c := pagedNode(o, i)
				*m.l.Mut(i) = c
				m.cur[i] = c
			}
		case op < 5 && n > 0: // a stretch, whole pages where it covers them
			a := o.N(n)
			b := a + o.N(n-a)
			m.l.Own(a, b)
			for i := a; i <= b; {
				p, k := m.l.Run(i, b-i+1)
				if k < 1 || k > b-i+1 {
					t.Fatalf("run(%d, %d) = %d nodes", i, b-i+1, k)
				}
				s := unsafe.Slice(p, k)
				for x := range s {
					s[x] = pagedNode(o, i+x)
					m.cur[i+x] = s[x]
				}
				i += k
			}
		case op < 7: // a resize
			switch o.N(3) {
			case 0:
				grow(m, n+o.N(200))
			case 1:
				grow(m, o.N(n+1))
			default:
				grow(m, o.N(4000))
			}
		case op < 9 && len(ms) < 5: // a copy
			c := Share(unsafe.Slice(m.l, 1))[0] // m.l marked shared too
			ms = append(ms, &pagedModel{&c, slices.Clone(m.cur)})
		case op == 10: // compacted: one array of its own, its copies unchanged
			Compact(unsafe.Slice(m.l, 1))
			if m.l.Shared() || n > 0 && m.l.flat == nil {
				t.Fatalf("step %d: a compacted level shared (%v) or not flat", step, m.l.Shared())
			}
			if n > 0 {
				if _, k := m.l.Run(0, n); k != n {
					t.Fatalf("step %d: a compacted level of %d nodes: a run of %d", step, n, k)
				}
			}
		}
		for k, m := range ms {
			// The blocks find the nodes where flat and base say: flat
			// only where every node lies in base, base but for the
			// pages moved.
			l := m.l
			if l.flat != nil && (l.flat != l.base || l.basePages < l.np) {
				t.Fatalf("step %d, copy %d: flat is not base, or base holds %d pages of %d", step, k, l.basePages, l.np)
			}
			for i := range m.cur {
				j := i >> l.shift
				moved := j < l.basePages && l.moved != nil && l.moved[j>>(groupShift+6)]&(1<<(j>>groupShift&63)) != 0
				if l.flat != nil && moved {
					t.Fatalf("step %d, copy %d: a flat level with page %d moved", step, k, j)
				}
				if j < l.basePages && !moved && unsafe.Pointer(l.AtWritten(i)) != unsafe.Add(unsafe.Pointer(l.base), i*32) {
					t.Fatalf("step %d, copy %d: node %d lies apart from base", step, k, i)
				}
				if l.At(i) != l.AtWritten(i) {
					t.Fatalf("step %d, copy %d: At(%d) and AtWritten(%d) differ", step, k, i, i)
				}
			}
			if m.l.n != len(m.cur) {
				t.Fatalf("step %d, copy %d: %d nodes, want %d", step, k, m.l.n, len(m.cur))
			}
			for i := range m.cur {
				if *m.l.At(i) != m.cur[i] {
					t.Fatalf("step %d, copy %d (shift %d, %d nodes): node %d is %x, want %x", step, k, shift, len(m.cur), i, *m.l.At(i), m.cur[i])
				}
			}
			for range 4 {
				if len(m.cur) == 0 {
					break
				}
				i := o.N(len(m.cur))
				p, k := m.l.Run(i, len(m.cur)-i)
				if !slices.Equal(unsafe.Slice(p, k), m.cur[i:i+k]) {
					t.Fatalf("step %d: run(%d) of %d nodes wrong", step, i, k)
				}
			}
		}
	}
}

func TestPaged(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for shift := range uint8(6) {
		checkPaged(t, &ops{R: rand.New(rand.NewPCG(uint64(shift), 39))}, shift, steps)
	}
}

func FuzzPaged(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte{0, 7, 0, 3, 0, 1, 9, 9, 0, 8, 0, 2}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, shift uint8) {
		o := &ops{B: b, R: rand.New(rand.NewPCG(uint64(len(b)), uint64(shift)))}
		checkPaged(t, o, shift%6, 30)
	})
}

// TestPagedRuns: a level built at once is one run; after a Copy, pages
// rewritten in order are runs again (a slab's), and the original's runs
// stay whole.
func TestPagedRuns(t *testing.T) {
	lv := New(3)
	l := &lv
	const n = 1 << 14
	l.Resize(n)
	if _, k := l.Run(0, n); k != n {
		t.Fatalf("a level allocated at once: a run of %d nodes, want %d", k, n)
	}
	c := Share(unsafe.Slice(l, 1))[0]
	for j := range n >> 3 {
		c.Whole(j)
	}
	runs := 0
	for i := 0; i < n; runs++ {
		_, k := c.Run(i, n-i)
		i += k
	}
	if max := n*32/maxSlab + 10; runs > max {
		t.Fatalf("pages owned in order after a copy: %d runs, want at most %d", runs, max)
	}
	if _, k := l.Run(0, n); k != n {
		t.Fatalf("the original after its copy's writes: a run of %d nodes, want %d", k, n)
	}
}

// TestShared: a level never shared owns every block and page in use
// (hashtree writes such a level through Run without Mut), and Share marks
// both the level and its copy shared.
func TestShared(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for shift := range uint8(6) {
		lv := New(shift)
		l := &lv
		for range 40 {
			l.Resize(r.IntN(5000))
			if l.n > 0 {
				*l.Mut(r.IntN(l.n)) = [32]byte{1}
			}
			if l.Shared() {
				t.Fatal("a level never copied is shared")
			}
			for j := range l.np {
				J := j >> blockShift
				if l.mine[J>>6]&(1<<(J&63)) == 0 || l.dir[J].owned&(1<<(j&blockMask)) == 0 {
					t.Fatalf("shift %d, %d pages: page %d of a level never copied is not its own", shift, l.np, j)
				}
			}
		}
		c := Share(unsafe.Slice(l, 1))[0]
		if !l.Shared() || !c.Shared() {
			t.Fatal("a level and its copy not shared")
		}
	}
}

// TestSharedReadsBase: after Share, the level and its copy both read the
// array the level was built in (flat); a write to one moves its page's
// group out in that one alone.
func TestSharedReadsBase(t *testing.T) {
	lv := New(2)
	l := &lv
	const n = 1 << 12
	l.Resize(n)
	for i := range n {
		*l.Mut(i) = [32]byte{byte(i), byte(i >> 8)}
	}
	c := Share(unsafe.Slice(l, 1))[0]
	if l.flat == nil || c.flat != l.flat {
		t.Fatal("a level built at once and its copy do not read its array after Share")
	}
	*c.Mut(100) = [32]byte{9}
	if c.flat != nil || l.flat == nil {
		t.Fatal("a write to the copy: the copy still flat, or the original not")
	}
	if *l.At(100) != [32]byte{100} || *c.At(100) != [32]byte{9} || *c.At(101) != [32]byte{101} {
		t.Fatal("a write to the copy shows in the original, or is lost")
	}
	g := 100 >> 2 >> groupShift // the group written
	for w, m := range c.moved {
		if want := map[bool]uint64{true: 1 << (g & 63)}[w == g>>6]; m != want {
			t.Fatalf("the copy's moved groups, word %d: %#x, want %#x", w, m, want)
		}
	}
	if l.moved != nil {
		t.Fatal("the original has moved groups after its copy's write")
	}
}

// TestCompact: a copy compacted holds none of the pages it shared, nor the
// array its original was built in; the original reads as before, and
// writes to either show in that one alone.
func TestCompact(t *testing.T) {
	lv := New(2)
	l := &lv
	const n = 1<<12 + 5
	l.Resize(n)
	for i := range n {
		*l.Mut(i) = [32]byte{byte(i), byte(i >> 8)}
	}
	c := Share(unsafe.Slice(l, 1))[0]
	for i := 0; i < n; i += 37 {
		*c.Mut(i) = [32]byte{byte(i), byte(i >> 8), 1}
	}
	Compact(unsafe.Slice(&c, 1))
	lo, hi := uintptr(unsafe.Pointer(l.base)), uintptr(unsafe.Pointer(l.base))+n*32
	for i := range n {
		want := [32]byte{byte(i), byte(i >> 8)}
		if *l.At(i) != want {
			t.Fatalf("the original's node %d changed", i)
		}
		if i%37 == 0 {
			want[2] = 1
		}
		p := uintptr(unsafe.Pointer(c.At(i)))
		if *c.At(i) != want || p != uintptr(unsafe.Pointer(c.base))+uintptr(i)*32 || lo <= p && p < hi {
			t.Fatalf("the compacted copy's node %d: %x at %#x, want %x in its own array", i, *c.At(i), p, want)
		}
	}
	*c.Mut(1) = [32]byte{7}
	*l.Mut(2) = [32]byte{8}
	if *l.At(1) != [32]byte{1} || *c.At(2) != [32]byte{2} {
		t.Fatal("a write after Compact shows in the other level")
	}
}
