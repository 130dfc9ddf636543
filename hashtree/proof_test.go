package hashtree

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/merkle"
)

// refHeap is every node of the padded tree of chunks under limit (depth at
// most 12), by gindex, and, with list, the length mixed in.
func refHeap(chunks [][32]byte, limit uint64, list bool, length uint64) map[uint64][32]byte {
	depth := Depth(limit)
	h := map[uint64][32]byte{}
	base := uint64(1) << depth
	for i := range base {
		var c [32]byte
		if i < uint64(len(chunks)) {
			c = chunks[i]
		}
		h[base+i] = c
	}
	for g := base - 1; g >= 1; g-- {
		h[g] = refPair(h[2*g], h[2*g+1])
	}
	if !list {
		return h
	}
	l := map[uint64][32]byte{}
	for g, n := range h { // under gindex 2
		d := bits.Len64(g) - 1
		l[1<<(d+1)|g&(1<<d-1)] = n
	}
	var lc [32]byte
	lc[0], lc[1], lc[2], lc[3] = byte(length), byte(length>>8), byte(length>>16), byte(length>>24)
	l[3] = lc
	l[1] = refPair(l[2], l[3])
	return l
}

// refHelpers is get_helper_indices, with sets.
func refHelpers(gs []uint64) []uint64 {
	helper, path := map[uint64]bool{}, map[uint64]bool{}
	for _, g := range gs {
		for ; g > 1; g >>= 1 {
			helper[g^1] = true
			path[g] = true
		}
	}
	var out []uint64
	for g := range helper {
		if !path[g] {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

func TestTree(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, n := range []int{0, 1, 2, 3, 5, 8, 13} {
		for _, limit := range []uint64{uint64(n), uint64(n) + 1, 16, 64} {
			if limit < uint64(n) {
				continue
			}
			chunks := randChunks(r, n)
			for _, list := range []bool{false, true} {
				tr, ref := NewTree(chunks, limit), refHeap(chunks, limit, false, 0)
				if list {
					tr, ref = NewListTree(chunks, limit, uint64(n)), refHeap(chunks, limit, true, uint64(n))
				}
				if tr.Root() != ref[1] {
					t.Fatalf("%d chunks, limit %d, list %v: root wrong", n, limit, list)
				}
				for i := range n {
					if tr.Gindex(uint64(i)) != map[bool]uint64{false: 1, true: 2}[list]<<Depth(limit)|uint64(i) {
						t.Fatalf("Gindex(%d) wrong", i)
					}
				}
				var all []uint64
				for g, want := range ref {
					all = append(all, g)
					if got, err := tr.Node(g); err != nil || got != want {
						t.Fatalf("%d chunks, limit %d, list %v: node %d: %x, %v", n, limit, list, g, got, err)
					}
					p, err := tr.Prove(g)
					if err != nil || p.Verify(ref[1]) != nil {
						t.Fatalf("proof of %d: %v / %v", g, err, p.Verify(ref[1]))
					}
					if len(p.Branch) > 0 {
						p.Branch[len(p.Branch)-1][3] ^= 1
						if err := p.Verify(ref[1]); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), fmt.Sprintf("not %x", ref[1])) {
							t.Fatalf("tampered proof of %d: %v (want ErrMismatch, naming the root)", g, err)
						}
						p.Branch = p.Branch[1:]
						if err := p.Verify(ref[1]); !errors.Is(err, ErrMalformed) {
							t.Fatalf("short proof of %d: %v", g, err)
						}
					}
				}
				maxG := slices.Max(all)
				for _, g := range []uint64{0, 2 * maxG, 2*maxG + 1} {
					if _, err := tr.Node(g); !errors.Is(err, ErrGindex) {
						t.Fatalf("node %d: %v, want ErrGindex", g, err)
					}
					if _, err := tr.Prove(g); !errors.Is(err, ErrGindex) {
						t.Fatalf("proof of %d: %v, want ErrGindex", g, err)
					}
				}
				for range 20 {
					gs := make([]uint64, 1+r.IntN(5))
					for i := range gs {
						gs[i] = all[r.IntN(len(all))]
					}
					slices.Sort(gs)
					gs = slices.Compact(gs)
					r.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
					if !slices.Equal(HelperIndices(gs), refHelpers(gs)) {
						t.Fatalf("HelperIndices(%v) = %v, want %v", gs, HelperIndices(gs), refHelpers(gs))
					}
					m, err := tr.ProveMulti(gs)
					if err != nil {
						t.Fatal(err)
					}
					if err := m.Verify(ref[1]); err != nil {
						t.Fatalf("multiproof of %v: %v", gs, err)
					}
					if len(m.Helpers) > 0 {
						m.Helpers[r.IntN(len(m.Helpers))][0] ^= 1
						if err := m.Verify(ref[1]); err == nil {
							t.Fatalf("tampered multiproof of %v verified", gs)
						}
						m.Helpers = m.Helpers[1:]
						if err := m.Verify(ref[1]); !errors.Is(err, ErrMalformed) {
							t.Fatalf("short multiproof of %v: %v", gs, err)
						}
					}
				}
			}
		}
	}
}

// TestMultiproofAncestor: a leaf whose ancestor is also a leaf must agree
// with it, where the specs' function would not look at it.
func TestMultiproofAncestor(t *testing.T) {
	chunks := randChunks(rand.New(rand.NewPCG(21, 22)), 4)
	tr := NewTree(chunks, 4)
	m, err := tr.ProveMulti([]uint64{2, 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(tr.Root()); err != nil {
		t.Fatal(err)
	}
	other := tr.Root()
	other[0] ^= 1
	if err := m.Verify(other); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), fmt.Sprintf("not %x", other)) {
		t.Fatalf("another root: %v (want ErrMismatch, naming the root)", err)
	}
	m.Leaves[1][0] ^= 1 // the leaf at 4, below 2
	if err := m.Verify(tr.Root()); !errors.Is(err, ErrMismatch) {
		t.Fatalf("an inconsistent leaf below another: %v", err)
	}
	if err := m.Verify(tr.Root()); !errors.Is(err, merkle.ErrMismatch) {
		t.Fatalf("hashtree's mismatch is not merkle.ErrMismatch: %v", err)
	}
	if _, err := (Multiproof{Gindices: []uint64{5, 5}, Leaves: make([][32]byte, 2), Helpers: make([][32]byte, 2)}).Root(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("a gindex twice: %v", err)
	}
	if _, err := (Multiproof{}).Root(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("no gindices: %v", err)
	}
	if _, err := (Multiproof{Gindices: []uint64{0}, Leaves: make([][32]byte, 1)}).Root(); !errors.Is(err, ErrGindex) {
		t.Fatalf("gindex 0: %v", err)
	}
}

func TestConcatProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	// A list of 5 containers of 6 fields, proving field 4 of container 3.
	fields := randChunks(r, 30)
	roots := make([][32]byte, 5)
	ContainerRoots(roots, fields, 6)
	list := NewListTree(roots, 1<<40, 5)
	inner := NewTree(fields[18:24], 6)
	pi, _ := inner.Prove(inner.Gindex(4))
	po, err := list.Prove(list.Gindex(3))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ConcatProofs(po, pi)
	if err != nil {
		t.Fatal(err)
	}
	if p.Gindex != ConcatGindices(list.Gindex(3), inner.Gindex(4)) || p.Leaf != fields[22] {
		t.Fatalf("gindex %d, leaf %x", p.Gindex, p.Leaf)
	}
	if err := p.Verify(list.Root()); err != nil {
		t.Fatal(err)
	}
	if len(p.Branch) != 41+3 {
		t.Fatalf("branch of %d", len(p.Branch))
	}
	pi.Leaf[0] ^= 1
	if _, err := ConcatProofs(po, pi); !errors.Is(err, ErrMismatch) {
		t.Fatalf("a proof of another subtree: %v", err)
	}
	if _, err := ConcatProofs(Proof{Gindex: 1 << 62, Leaf: pi.Leaf}, Proof{Gindex: 8, Leaf: pi.Leaf, Branch: make([][32]byte, 3)}); err == nil {
		t.Fatal("a gindex of 66 bits")
	}
	mustPanic(t, "ConcatGindices overflow", func() { ConcatGindices(1<<62, 8) })
	mustPanic(t, "NewTree over the limit", func() { NewTree(make([][32]byte, 5), 4) })
	mustPanic(t, "Gindex past the limit", func() { NewTree(make([][32]byte, 2), 4).Gindex(4) })
	func() {
		defer func() {
			// The value's index, not its chunk's: 8 of a list of uint64s
			// whose limit 5 makes two chunks.
			if r := fmt.Sprint(recover()); !strings.HasPrefix(r, "sha256x: hashtree: BasicList.Gindex(8)") {
				t.Errorf("BasicList.Gindex past the limit: panic %q", r)
			}
		}()
		NewBasicList(make([]uint64, 5), 5).Gindex(8)
	}()
	mustPanic(t, "NewListTree over the limit", func() { NewListTree(make([][32]byte, 3), 2, 3) })
}

// TestGindexDeepest: the deepest trees whose leaves have gindices, as
// Tree.Gindex documents them: depth 63 (a limit of 2^63), or 62 for a list,
// each leaf's gindex 2^63 + i, whose proof of 63 nodes verifies against
// the reference root; one level deeper, none.
func TestGindexDeepest(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 62))
	c := randChunks(r, 3)
	for _, list := range []bool{false, true} {
		limit := uint64(1) << 63
		tr := NewTree(c, limit)
		want := refMerkleize(c, limit)
		if list {
			limit >>= 1
			tr = NewListTree(c, limit, 3)
			want = refMixIn(refMerkleize(c, limit), 3)
		}
		if tr.Root() != want {
			t.Fatalf("list %v: root %x, the reference %x", list, tr.Root(), want)
		}
		g := tr.Gindex(2)
		if g != 1<<63|2 {
			t.Fatalf("list %v: Gindex(2) = %#x, want %#x", list, g, uint64(1<<63|2))
		}
		p, err := tr.Prove(g)
		if err != nil || p.Leaf != c[2] || len(p.Branch) != 63 {
			t.Fatalf("list %v: proof of %#x: %v, %d nodes", list, g, err, len(p.Branch))
		}
		if err := p.Verify(want); err != nil {
			t.Fatalf("list %v: %v", list, err)
		}
		p.Branch[40][0] ^= 1
		if err := p.Verify(want); !errors.Is(err, ErrMismatch) {
			t.Fatalf("list %v: a tampered proof: %v", list, err)
		}
		deeper := NewTree(c, 1<<63+1) // depth 64
		if list {
			deeper = NewListTree(c, 1<<62+1, 3) // depth 63, under gindex 2
		}
		mustPanic(t, "Gindex one level too deep", func() { deeper.Gindex(2) })
	}
}

// FuzzMultiproof: a multiproof from outside never panics.
func FuzzMultiproof(f *testing.F) {
	f.Add([]byte{2, 4, 9}, uint8(3))
	f.Add([]byte{1}, uint8(0))
	f.Add([]byte{255, 3, 7, 7}, uint8(9))
	f.Fuzz(func(t *testing.T, gs []byte, helpers uint8) {
		m := Multiproof{Helpers: make([][32]byte, helpers%16)}
		for _, g := range gs {
			m.Gindices = append(m.Gindices, uint64(g)<<(g%7))
			m.Leaves = append(m.Leaves, [32]byte{g})
		}
		if len(gs) > 0 && gs[0]%5 == 0 {
			m.Leaves = m.Leaves[1:]
		}
		_, _ = m.Root()
		p := Proof{Gindex: uint64(helpers) << (helpers % 60), Branch: make([][32]byte, len(gs))}
		_, _ = p.Root()
	})
}

// TestProveMultiVerifies: on every tree that proves, a multiproof
// ProveMulti returns verifies against its root; gindices Multiproof.Root
// calls malformed (one given twice, none) are ProveMulti's error too.
func TestProveMultiVerifies(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	c := randChunks(r, 5)
	for _, tc := range []struct {
		name  string
		prove func([]uint64) (Multiproof, error)
		root  [32]byte
	}{
		{"Tree", NewTree(c, 8).ProveMulti, NewTree(c, 8).Root()},
		{"list Tree", NewListTree(c, 8, 5).ProveMulti, NewListTree(c, 8, 5).Root()},
		{"Chunks", NewChunks(c, 8).ProveMulti, NewChunks(c, 8).Root()},
		{"Chunks list", NewChunkList(c, 8).ProveMulti, NewChunkList(c, 8).Root()},
		{"BasicList", NewBasicList([]uint64{1, 2, 3, 4, 5}, 32).ProveMulti, NewBasicList([]uint64{1, 2, 3, 4, 5}, 32).Root()},
		{"ContainerList", NewContainerList(1, c, 8).ProveMulti, NewContainerList(1, c, 8).Root()},
	} {
		for _, gs := range [][]uint64{{5, 5}, {4, 9, 4}, {1, 1}, {2, 3, 2}, {}, nil} {
			m, err := tc.prove(gs)
			if err == nil {
				if verr := m.Verify(tc.root); verr != nil {
					t.Errorf("%s: ProveMulti(%v) returned a multiproof that does not verify: %v", tc.name, gs, verr)
				}
			} else if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: ProveMulti(%v): %v, want ErrMalformed", tc.name, gs, err)
			}
		}
	}
}

// FuzzMultiproofSound: a tree's multiproof, with hashes altered or added,
// verifies only if unchanged, and then to the specs' root too; unchanged,
// of distinct gindices, it verifies. A single proof likewise.
func FuzzMultiproofSound(f *testing.F) {
	tr := NewTree(randChunks(rand.New(rand.NewPCG(5, 6)), 13), 16)
	node := func(g uint64) [32]byte { h, _ := tr.Node(g); return h }
	f.Add([]byte{16, 17, 9, 31}, uint64(0), uint8(0))
	f.Add([]byte{2, 5, 11}, uint64(2), uint8(1))
	f.Fuzz(func(t *testing.T, gs []byte, alter uint64, extra uint8) {
		var m Multiproof
		for _, g := range gs {
			m.Gindices = append(m.Gindices, 1+uint64(g)%31)
			m.Leaves = append(m.Leaves, node(1+uint64(g)%31))
		}
		for _, g := range HelperIndices(m.Gindices) {
			m.Helpers = append(m.Helpers, node(g))
		}
		nodes := append(slices.Clone(m.Leaves), m.Helpers...)
		changed := extra%4 == 1 || extra%4 == 2
		for i := range nodes {
			if alter>>(i%64)&1 == 1 {
				p := &m.Leaves
				if i >= len(m.Leaves) {
					p, i = &m.Helpers, i-len(m.Leaves)
				}
				(*p)[i][i%32] ^= 0x80
				changed = true
			}
		}
		if extra%4 == 1 {
			m.Helpers = append(m.Helpers, [32]byte{})
		} else if extra%4 == 2 {
			m.Leaves = append(m.Leaves, [32]byte{})
		}
		err := m.Verify(tr.Root())
		sr, ok := specMultiRoot(m.Leaves, m.Helpers, m.Gindices)
		distinct := len(slices.Compact(slices.Sorted(slices.Values(m.Gindices)))) == len(gs)
		if err == nil && (changed || !ok || sr != tr.Root()) || err != nil && !changed && distinct && len(gs) > 0 {
			t.Fatalf("%v (altered %x, extra %d): %v; the specs' root %x, %v", m.Gindices, alter, extra%4, err, sr, ok)
		}
		p, _ := tr.Prove(1 + alter%31)
		k := int(extra) % (len(p.Branch) + 1)
		if k < len(p.Branch) {
			p.Branch[k][extra%32] ^= 1
		}
		if err := p.Verify(tr.Root()); (err == nil) != (k == len(p.Branch)) {
			t.Fatalf("gindex %d, branch node %d altered: %v", p.Gindex, k, err)
		}
	})
}
