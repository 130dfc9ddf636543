package hashtree

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

// A Tree is one merkleization with every node kept, for proofs: the tree of
// chunks padded to a limit (Merkleize), and, for a list, the length mixed
// in (MixInLength). Nodes are named by generalized index: 1 is the root,
// and the children of g are 2g and 2g+1. The padding's zero subtrees are
// not stored. A Tree does not change once made, and is safe for
// concurrent use.
type Tree struct {
	levels [][][sha256x.Size]byte // levels[h]: the nodes at height h that are not padding
	depth  int
	list   bool
	length [sha256x.Size]byte
	root   [sha256x.Size]byte
}

// NewTree returns the tree of Merkleize(chunks, limit), every level hashed
// in one batched call. chunks is copied. It panics if len(chunks) > limit.
func NewTree(chunks [][sha256x.Size]byte, limit uint64) *Tree {
	if uint64(len(chunks)) > limit {
		panic(fmt.Sprintf("sha256x: hashtree: NewTree of %d chunks, more than the limit %d", len(chunks), limit))
	}
	t := &Tree{depth: Depth(limit)}
	n := len(chunks)
	if n == 0 {
		t.root = zeroHashes[t.depth]
		return t
	}
	// Each level has room for one more node, an odd level's zero sibling.
	total := 0
	for h, m := 0, n; h <= t.depth; h++ {
		total += m + 1
		m = (m + 1) / 2
	}
	mem := make([][sha256x.Size]byte, total)
	t.levels = make([][][sha256x.Size]byte, t.depth+1)
	m := n
	for h := range t.levels {
		t.levels[h] = mem[: m : m+1]
		mem = mem[m+1:]
		m = (m + 1) / 2
	}
	copy(t.levels[0], chunks)
	for h := 1; h <= t.depth; h++ {
		below := t.levels[h-1]
		if len(below)%2 == 1 {
			below = append(below, zeroHashes[h-1]) // within the level's room
		}
		sha256x.Join{}.HashLevel(t.levels[h], below)
	}
	t.root = t.levels[t.depth][0]
	return t
}

// NewListTree returns the tree of a list: NewTree(chunks, limit) with
// length mixed in (gindex 3), the chunks' root at gindex 2. For a list of
// basic values length is the number of values packed into chunks.
func NewListTree(chunks [][sha256x.Size]byte, limit, length uint64) *Tree {
	t := NewTree(chunks, limit)
	t.list = true
	var l [sha256x.Size]byte
	for i := range 8 {
		l[i] = byte(length >> (8 * i))
	}
	t.length = l
	t.root = pair(t.root, l)
	return t
}

// Root returns the tree's root.
func (t *Tree) Root() [sha256x.Size]byte { return t.root }

// Gindex returns the generalized index of chunk i of the tree. It panics
// unless i is below 2^depth (the limit rounded up to a power of two) and
// the gindex fits in 64 bits (a tree of depth 64, or 63 for a list, has
// none).
func (t *Tree) Gindex(i uint64) uint64 {
	d := t.depth
	if t.list {
		d++ // under gindex 2
	}
	if d > 63 || i >= 1<<t.depth {
		panic(fmt.Sprintf("sha256x: hashtree: Gindex(%d) of a tree of depth %d", i, t.depth))
	}
	return 1<<d | i
}

// Errors of proofs. Every error of Prove, ProveMulti, Verify and Root wraps
// one of these.
var (
	// ErrGindex is a generalized index that is not a node of the tree: 0,
	// or below its leaves.
	ErrGindex = errors.New("hashtree: generalized index not in the tree")
	// ErrMalformed is a proof whose shape does not match its indices: a
	// branch of the wrong length, too few or too many helper nodes, a
	// duplicated index, or a node missing its sibling.
	ErrMalformed = errors.New("hashtree: malformed proof")
	// ErrMismatch is a well-formed proof of another root, or one that
	// gives two different hashes for the same node. It is
	// merkle.ErrMismatch, the one mismatch error of sha256x's packages.
	ErrMismatch = merkle.ErrMismatch
)

// Node returns the node at generalized index g.
func (t *Tree) Node(g uint64) ([sha256x.Size]byte, error) {
	if g == 0 {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex 0", ErrGindex)
	}
	if g == 1 {
		return t.root, nil
	}
	l := bits.Len64(g) - 1 // g's depth
	if t.list {
		if g>>(l-1)&1 == 1 { // under the length
			if g == 3 {
				return t.length, nil
			}
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d is below the length of a list", ErrGindex, g)
		}
		l--
		g = 1<<l | g&(1<<l-1)
	}
	if l > t.depth {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d is below the leaves of a tree of depth %d", ErrGindex, g, t.depth)
	}
	h, i := t.depth-l, g-1<<l
	if h < len(t.levels) && i < uint64(len(t.levels[h])) {
		return t.levels[h][i], nil
	}
	return zeroHashes[h], nil
}

// A Proof is a single Merkle proof: the branch from the node at Gindex up to
// the root, the siblings lowest first (the specs' order, and fastssz's
// Proof.Hashes').
type Proof struct {
	Gindex uint64
	Leaf   [sha256x.Size]byte
	Branch [][sha256x.Size]byte
}

// Prove returns the proof of the node at generalized index g.
func (t *Tree) Prove(g uint64) (Proof, error) {
	leaf, err := t.Node(g)
	if err != nil {
		return Proof{}, err
	}
	p := Proof{Gindex: g, Leaf: leaf, Branch: make([][sha256x.Size]byte, 0, bits.Len64(g)-1)}
	for ; g > 1; g >>= 1 {
		s, err := t.Node(g ^ 1)
		if err != nil {
			return Proof{}, err
		}
		p.Branch = append(p.Branch, s)
	}
	return p, nil
}

// Root returns the root that p proves (the specs' calculate_merkle_root),
// or an error if its branch does not have one node per level above its
// index.
func (p Proof) Root() ([sha256x.Size]byte, error) {
	if p.Gindex == 0 {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex 0", ErrGindex)
	}
	if want := bits.Len64(p.Gindex) - 1; len(p.Branch) != want {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: %d branch nodes for gindex %d, want %d", ErrMalformed, len(p.Branch), p.Gindex, want)
	}
	r := p.Leaf
	for i, s := range p.Branch {
		if p.Gindex>>i&1 == 1 {
			r = pair(s, r)
		} else {
			r = pair(r, s)
		}
	}
	return r, nil
}

// Verify returns nil if p proves its leaf at its gindex under root, and an
// error otherwise (wrapping ErrMismatch for a well-formed proof of another
// root).
func (p Proof) Verify(root [sha256x.Size]byte) error {
	r, err := p.Root()
	if err != nil {
		return err
	}
	if r != root {
		return fmt.Errorf("%w: gindex %d leads to root %x, not %x", ErrMismatch, p.Gindex, r, root)
	}
	return nil
}

// ConcatGindices returns the generalized index of the node at inner within
// the subtree whose root is at outer (the specs'
// concat_generalized_indices of two). It panics if either is 0 or the
// result needs more than 64 bits.
func ConcatGindices(outer, inner uint64) uint64 {
	g, ok := concat(outer, inner)
	if !ok {
		panic(fmt.Sprintf("sha256x: hashtree: ConcatGindices(%d, %d): 0 or more than 64 bits", outer, inner))
	}
	return g
}

func concat(outer, inner uint64) (uint64, bool) {
	if outer == 0 || inner == 0 {
		return 0, false
	}
	l := bits.Len64(inner) - 1
	if bits.Len64(outer)+l > 64 {
		return 0, false
	}
	return outer<<l | inner&(1<<l-1), true
}

// ConcatProofs chains the proof inner, of a node in the subtree whose root
// is outer's leaf, with outer: the proof of inner's leaf at
// ConcatGindices(outer.Gindex, inner.Gindex) under outer's root. It returns
// an error if inner does not prove outer.Leaf or the gindex needs more than
// 64 bits.
func ConcatProofs(outer, inner Proof) (Proof, error) {
	r, err := inner.Root()
	if err != nil {
		return Proof{}, err
	}
	if r != outer.Leaf {
		return Proof{}, fmt.Errorf("%w: the inner proof's root is not the outer proof's leaf", ErrMismatch)
	}
	g, ok := concat(outer.Gindex, inner.Gindex)
	if !ok {
		return Proof{}, fmt.Errorf("%w: gindices %d and %d: 0 or more than 64 bits", ErrGindex, outer.Gindex, inner.Gindex)
	}
	return Proof{Gindex: g, Leaf: inner.Leaf, Branch: append(slices.Clip(inner.Branch), outer.Branch...)}, nil
}

// HelperIndices returns the generalized indices of the nodes that a
// multiproof of the nodes at gindices carries besides them (the specs'
// get_helper_indices): the siblings along their paths to the root that
// neither lie on one of those paths nor are one of gindices, in decreasing
// order. A gindex of 0 has no path and adds nothing.
func HelperIndices(gindices []uint64) []uint64 {
	var branch, path []uint64
	for _, g := range gindices {
		for ; g > 1; g >>= 1 {
			branch = append(branch, g^1)
			path = append(path, g)
		}
	}
	desc := func(a, b uint64) int { return cmp.Compare(b, a) }
	slices.SortFunc(branch, desc)
	slices.SortFunc(path, desc)
	branch, path = slices.Compact(branch), slices.Compact(path)
	out := branch[:0]
	j := 0
	for _, g := range branch {
		for j < len(path) && path[j] > g {
			j++
		}
		if j < len(path) && path[j] == g {
			continue
		}
		out = append(out, g)
	}
	return out
}

// A Multiproof proves several nodes at once: the nodes at Gindices
// (Leaves, in the same order) and the helper nodes at
// HelperIndices(Gindices), in that order: the specs' multiproof, and
// fastssz's.
type Multiproof struct {
	Gindices []uint64
	Leaves   [][sha256x.Size]byte
	Helpers  [][sha256x.Size]byte
}

// ProveMulti returns the multiproof of the nodes at gindices. No gindices,
// or one given twice, is an error (ErrMalformed), as Multiproof.Root has
// it.
func (t *Tree) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(t.Node, gindices)
}

type gnode struct {
	g uint64
	h [sha256x.Size]byte
}

// Root returns the root that m proves (the specs'
// calculate_multi_merkle_root), or an error for a multiproof whose shape
// does not match its indices. Unlike the specs' function, a node given
// twice (a leaf whose ancestor is another leaf) must have one hash, so
// that no leaf goes unchecked.
func (m Multiproof) Root() ([sha256x.Size]byte, error) {
	if len(m.Gindices) == 0 {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: no gindices", ErrMalformed)
	}
	if len(m.Leaves) != len(m.Gindices) {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: %d leaves for %d gindices", ErrMalformed, len(m.Leaves), len(m.Gindices))
	}
	helpers := HelperIndices(m.Gindices)
	if len(m.Helpers) != len(helpers) {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: %d helper nodes, want %d", ErrMalformed, len(m.Helpers), len(helpers))
	}
	in := make([]gnode, 0, len(m.Leaves)+len(helpers))
	for i, g := range m.Gindices {
		if g == 0 {
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex 0", ErrGindex)
		}
		in = append(in, gnode{g, m.Leaves[i]})
	}
	for i, g := range helpers {
		in = append(in, gnode{g, m.Helpers[i]})
	}
	slices.SortFunc(in, func(a, b gnode) int { return cmp.Compare(b.g, a.g) })
	for i := 1; i < len(in); i++ {
		if in[i].g == in[i-1].g {
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d twice", ErrMalformed, in[i].g)
		}
	}
	// Nodes come off two queues in decreasing order, the given ones and
	// the parents computed so far; a node both give must agree.
	var made []gnode
	i, j := 0, 0
	next := func() (gnode, error) {
		var n gnode
		switch {
		case j == len(made) || (i < len(in) && in[i].g > made[j].g):
			n = in[i]
			i++
		case i == len(in) || made[j].g > in[i].g:
			n = made[j]
			j++
		default: // the same node given and computed
			if in[i].h != made[j].h {
				return n, fmt.Errorf("%w: gindex %d given and computed differ", ErrMismatch, in[i].g)
			}
			n = in[i]
			i, j = i+1, j+1
		}
		return n, nil
	}
	for {
		r, err := next()
		if err != nil {
			return [sha256x.Size]byte{}, err
		}
		if r.g == 1 {
			return r.h, nil
		}
		if i == len(in) && j == len(made) || r.g&1 == 0 {
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d has no sibling", ErrMalformed, r.g)
		}
		l, err := next()
		if err != nil {
			return [sha256x.Size]byte{}, err
		}
		if l.g != r.g-1 {
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d has no sibling", ErrMalformed, r.g)
		}
		made = append(made, gnode{r.g / 2, pair(l.h, r.h)})
	}
}

// Verify returns nil if m proves its leaves at their gindices under root,
// and an error otherwise (wrapping ErrMismatch for a well-formed proof of
// another root).
func (m Multiproof) Verify(root [sha256x.Size]byte) error {
	r, err := m.Root()
	if err != nil {
		return err
	}
	if r != root {
		return fmt.Errorf("%w: the multiproof of %d leaves leads to root %x, not %x", ErrMismatch, len(m.Leaves), r, root)
	}
	return nil
}
