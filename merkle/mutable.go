package merkle

import (
	"math/bits"
	"slices"
	"strconv"
)

// denseEighths: where at least denseEighths/8 of the nodes between a
// level's first and last dirty node are dirty, Mutable.Root hashes that
// stretch in place in one call rather than gather the dirty nodes'
// children; hashtree's threshold (BENCHMARKS.md, "Trees that change: dirty
// nodes gathered a level at a time").
const denseEighths = 6

// gatherBlock is how many dirty nodes one gathered call hashes
// (BENCHMARKS.md, "Trees that change: dirty nodes gathered a level at a
// time").
const gatherBlock = 1024

// A Mutable is a Merkle tree of a Scheme whose leaves are replaced and
// appended, its root and proofs recomputed from the nodes that changed, a
// level at a time: each level's dirty nodes' children gathered into one
// batched call, or, where most of a stretch is dirty, the stretch hashed
// in place. Its root and proofs are Scheme.Build's over the current
// leaves, for every Odd.
//
// A Mutable has one writer at a time: Set, SetNode, SetMany, Append,
// AppendNode, Root and Proof (which call Root) write; Len reads. Set, Root
// and Proof's path allocate nothing once the tree has grown (a Proof is a
// new slice).
//
// The zero Mutable has no Scheme and its methods panic: make one with
// Scheme.NewMutable or Scheme.NewMutableNodes.
type Mutable struct {
	s      Scheme
	levels [][][Size]byte // levels[0] the leaf nodes; the last, once hashed, the root alone
	mark   []uint64       // bit i: leaf i is in dirty
	dirty  []int          // leaves changed since the last root, each once
	stale  bool
	buf    [][Size]byte // gathered children, hashed in place
	qs     []int        // the nodes whose children buf holds
	zero   [][Size]byte // ZeroPad: the zero subtrees' roots, by height
	leaf   [1][Size]byte
}

// NewMutable returns the tree over leaves (see LeafHash), hashed. It panics
// as Root does, and also, whatever the number of leaves, if s.Node is a
// Join that HashLevel refuses: a tree that changes grows past one leaf.
func (s *Scheme) NewMutable(leaves [][]byte) *Mutable {
	s.check(len(leaves))
	nodes := make([][Size]byte, len(leaves))
	s.leafNodes(nodes, leaves, 0)
	return s.newMutable(nodes)
}

// NewMutableNodes is NewMutable over leaf nodes already hashed. nodes is
// copied.
func (s *Scheme) NewMutableNodes(nodes [][Size]byte) *Mutable {
	s.check(len(nodes))
	return s.newMutable(slices.Clone(nodes))
}

func (s *Scheme) newMutable(nodes [][Size]byte) *Mutable {
	// A Node that HashLevel refuses panics here (a join of no nodes checks
	// the Join alone), not at a later Root, which would have forgotten the
	// dirty leaves by then.
	s.Node.HashLevel(nil, nil)
	m := &Mutable{s: *s, levels: [][][Size]byte{nodes}}
	m.mark = make([]uint64, (len(nodes)+63)/64)
	if len(nodes) > 0 {
		m.shape()
		for d := 1; d < len(m.levels); d++ {
			m.span(d, 0, len(m.levels[d])-1)
		}
	}
	return m
}

// shape sizes every level above the leaves for their number.
func (m *Mutable) shape() {
	n := len(m.levels[0])
	h := height(n)
	for len(m.levels) <= h {
		m.levels = append(m.levels, nil)
	}
	m.levels = m.levels[:max(h+1, 1)]
	for d, k := 1, (n+1)/2; d <= h; d, k = d+1, (k+1)/2 {
		lv := m.levels[d]
		if cap(lv) < k {
			lv = append(lv[:cap(lv)], make([][Size]byte, k-cap(lv))...)
		}
		m.levels[d] = lv[:k]
	}
	if m.s.Odd == ZeroPad && len(m.zero) < h+1 {
		sc := new(scratch)
		m.zero = m.s.zeros(sc, n)
	}
}

// Len returns the number of leaves.
func (m *Mutable) Len() int { return len(m.leaves()) }

// leaves returns the leaf nodes. It panics for the zero Mutable, which has
// no levels.
func (m *Mutable) leaves() [][Size]byte {
	if len(m.levels) == 0 {
		panic("sha256x: merkle: the zero Mutable, not made by Scheme.NewMutable or Scheme.NewMutableNodes")
	}
	return m.levels[0]
}

func (m *Mutable) index(op string, i int) {
	if i < 0 || i >= len(m.leaves()) {
		panic("sha256x: merkle: Mutable." + op + "(" + strconv.Itoa(i) + ") of a tree of " + strconv.Itoa(len(m.levels[0])) + " leaves")
	}
}

func (m *Mutable) touch(i int) {
	if w, b := i>>6, uint64(1)<<(i&63); m.mark[w]&b == 0 {
		m.mark[w] |= b
		m.dirty = append(m.dirty, i)
	}
	m.stale = true
}

// Set replaces leaf i by data (hashed by LeafHash). It panics unless 0 <=
// i < Len().
func (m *Mutable) Set(i int, data []byte) {
	m.index("Set", i)
	m.s.leafNodes(m.leaf[:], [][]byte{data}, i)
	m.levels[0][i] = m.leaf[0]
	m.touch(i)
}

// SetNode replaces leaf node i by node, already hashed.
func (m *Mutable) SetNode(i int, node [Size]byte) {
	m.index("SetNode", i)
	m.levels[0][i] = node
	m.touch(i)
}

// SetMany replaces leaf indices[k] by leaves[k] for each k (a later one
// wins), the leaves hashed in one batched call in a buffer the tree keeps.
func (m *Mutable) SetMany(indices []int, leaves [][]byte) {
	m.leaves()
	if len(indices) != len(leaves) {
		panic("sha256x: merkle: Mutable.SetMany of " + strconv.Itoa(len(indices)) + " indices and " + strconv.Itoa(len(leaves)) + " leaves")
	}
	for _, i := range indices {
		m.index("SetMany", i)
	}
	if len(m.buf) < len(leaves) {
		m.buf = make([][Size]byte, max(len(leaves), 2*gatherBlock))
	}
	m.s.leafNodes(m.buf[:len(leaves)], leaves, 0)
	for k, i := range indices {
		m.levels[0][i] = m.buf[k]
		m.touch(i)
	}
}

// Append adds a leaf at the end.
func (m *Mutable) Append(data []byte) {
	m.s.leafNodes(m.leaf[:], [][]byte{data}, len(m.leaves()))
	m.AppendNode(m.leaf[0])
}

// AppendNode adds a leaf node, already hashed, at the end.
func (m *Mutable) AppendNode(node [Size]byte) {
	n := len(m.leaves())
	m.levels[0] = append(m.levels[0], node)
	if len(m.mark) < (n+64)/64 {
		m.mark = append(m.mark, 0)
	}
	m.touch(n)
}

// Root returns the root of the tree over the current leaves, after
// rehashing what changed since the last; the scheme's Empty for no leaves.
// It panics for no leaves if the scheme has NoEmpty.
func (m *Mutable) Root() [Size]byte {
	n := len(m.leaves())
	m.s.check(n)
	if n == 0 {
		return m.s.Empty
	}
	if m.stale {
		m.stale = false
		m.shape()
		d := m.sorted()
		for h := 1; h < len(m.levels); h++ {
			k := 0
			for _, i := range d {
				if p := i >> 1; k == 0 || d[k-1] != p {
					d[k] = p
					k++
				}
			}
			d = d[:k]
			if len(d) == 0 {
				break
			}
			if a, b := d[0], d[len(d)-1]; 8*len(d) >= denseEighths*(b-a+1) {
				m.span(h, a, b)
			} else {
				m.gather(h, d)
			}
		}
		m.dirty = m.dirty[:0]
	}
	return m.levels[len(m.levels)-1][0]
}

// sorted returns the dirty leaves in order, their marks cleared: sorted
// when few, read from the bitmap when many.
func (m *Mutable) sorted() []int {
	k := len(m.dirty)
	if k*bits.Len(uint(k)) < len(m.mark) {
		slices.Sort(m.dirty)
		for _, i := range m.dirty {
			m.mark[i>>6] = 0
		}
		return m.dirty
	}
	m.dirty = m.dirty[:0]
	for w, b := range m.mark {
		for b != 0 {
			m.dirty = append(m.dirty, w<<6|bits.TrailingZeros64(b))
			b &= b - 1
		}
		m.mark[w] = 0
	}
	return m.dirty
}

// odd sets node q of level h, whose right child is past the level below,
// by the Odd rule; it reports false where it leaves the pair in two to be
// hashed.
func (m *Mutable) odd(h, q int, two *[2][Size]byte) bool {
	c := m.levels[h-1]
	two[0] = c[2*q]
	switch m.s.Odd {
	case Promote:
		m.levels[h][q] = c[2*q]
		return true
	case Duplicate:
		two[1] = c[2*q]
	default:
		two[1] = m.zero[h-1]
	}
	return false
}

// span rehashes the nodes a..b of level h in place, in one call.
func (m *Mutable) span(h, a, b int) {
	c, p := m.levels[h-1], m.levels[h]
	j := m.s.node()
	if 2*b+1 >= len(c) {
		var two [2][Size]byte
		if !m.odd(h, b, &two) {
			j.HashLevel(p[b:b+1], two[:])
		}
		b--
	}
	if a <= b {
		j.HashLevel(p[a:b+1], c[2*a:2*b+2])
	}
}

// gather rehashes the nodes d of level h: their children gathered into a
// buffer and hashed a block a call.
func (m *Mutable) gather(h int, d []int) {
	c, p := m.levels[h-1], m.levels[h]
	j := m.s.node()
	if len(m.buf) < 2*gatherBlock {
		m.buf = make([][Size]byte, 2*gatherBlock)
	}
	if len(m.qs) < gatherBlock {
		m.qs = make([]int, gatherBlock)
	}
	for len(d) > 0 {
		blk := d[:min(len(d), gatherBlock)]
		d = d[len(blk):]
		k := 0
		for _, q := range blk {
			if 2*q+1 < len(c) {
				m.buf[2*k], m.buf[2*k+1] = c[2*q], c[2*q+1]
			} else if m.odd(h, q, (*[2][Size]byte)(m.buf[2*k:])) {
				continue
			}
			m.qs[k] = q
			k++
		}
		j.HashLevel(m.buf[:k], m.buf[:2*k])
		for i, q := range m.qs[:k] {
			p[q] = m.buf[i]
		}
	}
}

// Proof returns the inclusion proof of leaf i in the current tree, as
// Tree.Proof does. It panics unless 0 <= i < Len().
func (m *Mutable) Proof(i int) Proof {
	m.index("Proof", i)
	m.Root()
	return (&Tree{s: m.s, levels: m.levels}).Proof(i)
}
