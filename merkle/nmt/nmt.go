// Package nmt is Celestia's namespaced Merkle tree (NMT), as its
// specification (celestiaorg/nmt, docs/spec/nmt.md) defines it, with the
// hashing done by sha256x in batches, for a tree (Tree) or a whole data
// square's row and column trees (Square).
//
// A leaf is namespaced data, ns || message, its namespace the first
// NamespaceSize bytes. A node is minNs || maxNs || digest: a leaf's
// ns || ns || SHA-256(0x00 || ns || message), an inner node's
// left.minNs || maxNs || SHA-256(0x01 || left || right), where maxNs is
// right.maxNs, or left.maxNs when IgnoreMaxNamespace is set and the right
// child's minNs is the largest namespace (all 0xFF bytes: Celestia's parity
// shares). The tree's shape is RFC 6962's: n leaves split at the largest
// power of two below n. Leaves go in in namespace order; a leaf that would
// break it is an error.
//
// Proofs are the spec's: the nodes, in the order of an in-order traversal,
// that a Merkle range proof of the leaves start to end-1 needs (Proof);
// ProveRange proves any range, ProveNamespace the whole range of a
// namespace, its absence (the leaf where it would be, with its hash), or
// nothing (the empty proof, for a namespace outside the root's range).
// Hasher.VerifyInclusion and Hasher.VerifyNamespace check them as
// celestiaorg/nmt's Proof.VerifyInclusion and Proof.VerifyNamespace do,
// completeness included; anything malformed is an error that says what,
// never a panic.
package nmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"
	"strconv"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/malformed"
	"github.com/sha256x/sha256x/merkle"
)

// CelestiaNamespaceSize is the size of a namespace in Celestia: a version
// byte and 28 bytes of ID.
const CelestiaNamespaceSize = 29

// Celestia is the hasher of Celestia's row and column trees.
var Celestia = Hasher{NamespaceSize: CelestiaNamespaceSize, IgnoreMaxNamespace: true}

// ErrMismatch is the error, wrapped, of a well-formed proof that does not
// lead to the root it is checked against: errors.Is(err, ErrMismatch). It is
// merkle.ErrMismatch, the one mismatch error of sha256x's packages.
var ErrMismatch = merkle.ErrMismatch

// ErrMalformed is the error, wrapped, of a proof, node or leaf that no tree
// of the Hasher has: a node of the wrong size or namespaces out of order, a
// leaf shorter than its namespace, a proof of the wrong shape for its range.
// It is merkle.ErrMalformed.
var ErrMalformed = merkle.ErrMalformed

var (
	leafPrefix = []byte{0}
	nodePrefix = []byte{1}
)

// A Hasher is an NMT's parameters: the size of its namespaces in bytes,
// and whether the largest namespace is left out of the nodes' maxNs (the
// spec's IgnoreMaxNamespace, true in Celestia, and nmt's default). The zero
// Hasher has namespaces of no bytes: a plain RFC 6962 tree of 32-byte
// digests. A negative NamespaceSize is a programmer error: New, NewSquare,
// NodeSize, HashLeaf, HashNode and the verifiers panic with a message
// starting "sha256x:".
type Hasher struct {
	NamespaceSize      int
	IgnoreMaxNamespace bool
}

// NodeSize returns the size of a node: two namespaces and a digest.
func (h Hasher) NodeSize() int {
	if h.NamespaceSize < 0 {
		panic("sha256x: nmt: namespace size " + strconv.Itoa(h.NamespaceSize))
	}
	return 2*h.NamespaceSize + sha256x.Size
}

// EmptyRoot returns the root of a tree of no leaves: zero namespaces and
// SHA-256 of nothing.
func (h Hasher) EmptyRoot() []byte {
	r := make([]byte, h.NodeSize())
	d := sha256x.Sum256(nil)
	copy(r[2*h.NamespaceSize:], d[:])
	return r
}

// ffs is the largest namespace of up to 64 bytes: compared whole, not byte
// by byte, as three nodes of four in a data square join a parity node.
var ffs = func() (b [64]byte) {
	for i := range b {
		b[i] = 0xFF
	}
	return b
}()

func isMax(ns []byte) bool {
	if len(ns) <= len(ffs) {
		return bytes.Equal(ns, ffs[:len(ns)])
	}
	for _, b := range ns {
		if b != 0xFF {
			return false
		}
	}
	return true
}

// MinNamespace and MaxNamespace return a node's namespaces (slices of it).
// They panic if node is shorter than NodeSize.
func (h Hasher) MinNamespace(node []byte) []byte { return h.node(node)[:h.NamespaceSize] }

// MaxNamespace returns a node's largest namespace (a slice of it).
func (h Hasher) MaxNamespace(node []byte) []byte {
	return h.node(node)[h.NamespaceSize : 2*h.NamespaceSize]
}

// node returns node, checked to be at least NodeSize long.
func (h Hasher) node(node []byte) []byte {
	if n := h.NodeSize(); len(node) < n {
		panic("sha256x: nmt: a node of " + strconv.Itoa(len(node)) + " bytes, shorter than " + strconv.Itoa(n))
	}
	return node
}

// CheckNode returns nil if node is a node of h: NodeSize bytes, its
// minNs <= its maxNs.
func (h Hasher) CheckNode(node []byte) error {
	if len(node) != h.NodeSize() {
		return malformed.New("nmt: a node of " + strconv.Itoa(len(node)) + " bytes, want " + strconv.Itoa(h.NodeSize()))
	}
	if bytes.Compare(h.MaxNamespace(node), h.MinNamespace(node)) < 0 {
		return malformed.New("nmt: a node whose max namespace is below its min namespace")
	}
	return nil
}

// HashLeaf appends to dst the node of a leaf, ns || ns || SHA-256(0x00 ||
// leaf), and returns the extended slice. It is an error if leaf is shorter
// than a namespace.
func (h Hasher) HashLeaf(dst, leaf []byte) ([]byte, error) {
	h.NodeSize() // checks the namespace size
	ns := h.NamespaceSize
	if len(leaf) < ns {
		return dst, malformed.New("nmt: a leaf of " + strconv.Itoa(len(leaf)) + " bytes, shorter than its namespace (" + strconv.Itoa(ns) + ")")
	}
	var out [1][sha256x.Size]byte
	sha256x.HashManyPrefixed(out[:], leafPrefix, [][]byte{leaf})
	dst = append(dst, leaf[:ns]...)
	dst = append(dst, leaf[:ns]...)
	return append(dst, out[0][:]...), nil
}

// HashNode appends to dst the node over left and right and returns the
// extended slice. It is an error if either is not a node of h, or if they
// are out of order (right's minNs below left's maxNs).
func (h Hasher) HashNode(dst, left, right []byte) ([]byte, error) {
	if err := h.CheckNode(left); err != nil {
		return dst, err
	}
	if err := h.CheckNode(right); err != nil {
		return dst, err
	}
	if bytes.Compare(h.MinNamespace(right), h.MaxNamespace(left)) < 0 {
		return dst, malformed.New("nmt: sibling nodes out of namespace order")
	}
	nl := h.NodeSize()
	var buf [1 + 2*(2*255+sha256x.Size)]byte
	var msg []byte
	if 1+2*nl <= len(buf) {
		msg = buf[:0]
	}
	msg = append(msg, 1)
	msg = append(msg, left...)
	msg = append(msg, right...)
	d := sha256x.Sum256(msg)
	dst = append(dst, make([]byte, nl)...)
	h.join(dst[len(dst)-nl:], left, right, &d)
	return dst, nil
}

// join writes the node over left and right, of digest d, to dst (which
// may be left).
func (h Hasher) join(dst, left, right []byte, d *[sha256x.Size]byte) {
	ns := h.NamespaceSize
	if ns == CelestiaNamespaceSize {
		joinCelestia((*[celestiaNode]byte)(dst), (*[2 * cns]byte)(left[:2*cns]), (*[2 * cns]byte)(right[:2*cns]), d, h.IgnoreMaxNamespace)
		return
	}
	copy(dst[:ns], left[:ns])
	if h.IgnoreMaxNamespace && isMax(right[:ns]) {
		copy(dst[ns:2*ns], left[ns:2*ns])
	} else {
		copy(dst[ns:2*ns], right[ns:2*ns])
	}
	copy(dst[2*ns:], d[:])
}

// leafNode writes the node of a leaf of namespace ns, of digest d, to dst.
func (h Hasher) leafNode(dst, ns []byte, d *[sha256x.Size]byte) {
	if len(ns) == cns {
		n, s := (*[celestiaNode]byte)(dst), [cns]byte(ns)
		*(*[cns]byte)(n[:cns]), *(*[cns]byte)(n[cns : 2*cns]), *(*[sha256x.Size]byte)(n[2*cns:]) = s, s, *d
		return
	}
	copy(dst, ns)
	copy(dst[len(ns):], ns)
	copy(dst[2*len(ns):], d[:])
}

// The nodes of Celestia's namespaces are joined by moves of fixed sizes
// that the compiler makes inline, not by three calls of memmove and one
// of memequal a node (BENCHMARKS.md, "Celestia's data squares").
const (
	cns          = CelestiaNamespaceSize
	celestiaNode = 2*cns + sha256x.Size
)

func joinCelestia(dst *[celestiaNode]byte, left, right *[2 * cns]byte, d *[sha256x.Size]byte, ignoreMax bool) {
	lo, hi := [cns]byte(left[:cns]), [cns]byte(right[cns:])
	if ignoreMax && isMaxCelestia((*[cns]byte)(right[:cns])) {
		hi = [cns]byte(left[cns:])
	}
	*(*[cns]byte)(dst[:cns]), *(*[cns]byte)(dst[cns : 2*cns]), *(*[sha256x.Size]byte)(dst[2*cns:]) = lo, hi, *d
}

// isMaxCelestia reports whether ns is the largest namespace, in four loads.
func isMaxCelestia(ns *[cns]byte) bool {
	return binary.LittleEndian.Uint64(ns[0:])&binary.LittleEndian.Uint64(ns[8:])&
		binary.LittleEndian.Uint64(ns[16:])&binary.LittleEndian.Uint64(ns[21:]) == ^uint64(0)
}

// scratch is the memory of a batched level: its messages (each two
// nodes), where each one's parent goes, the digests, and the messages of
// a level laid across (addAcross) gathered.
type scratch struct {
	msgs   [][]byte
	to     [][]byte
	out    [][sha256x.Size]byte
	gather []byte
	ng     int // the bytes of gather the messages added hold
}

func (sc *scratch) digests(n int) [][sha256x.Size]byte {
	if cap(sc.out) < n {
		sc.out = make([][sha256x.Size]byte, n)
	}
	return sc.out[:n]
}

// levelChunk is the most pairs a level hashes in one batched call, so that
// the joins after it read messages the call has just read, still in the
// core's cache, not a whole level's back from memory (BENCHMARKS.md,
// "Celestia's data squares").
const levelChunk = 512

// add adds a message, two nodes, whose parent goes to to; with levelChunk
// of them, it hashes them and writes their parents.
func (h Hasher) add(sc *scratch, msg, to []byte) {
	sc.msgs, sc.to = append(sc.msgs, msg), append(sc.to, to)
	if len(sc.msgs) == levelChunk {
		h.joins(sc)
	}
}

// joins hashes the messages added and writes their parents.
func (h Hasher) joins(sc *scratch) {
	nl := h.NodeSize()
	out := sc.digests(len(sc.msgs))
	sha256x.HashManyPrefixed(out, nodePrefix, sc.msgs)
	for k, msg := range sc.msgs {
		h.join(sc.to[k], msg[:nl], msg[nl:], &out[k])
	}
	sc.msgs, sc.to, sc.ng = sc.msgs[:0], sc.to[:0], 0
}

// level hashes the next level of trees trees from src into dst (which may
// be src): tree t's m nodes at src[t*stride:], node i at
// src[t*stride+i*nl:], its new level at the same places in dst. The pairs
// of every tree are hashed in batched calls of levelChunk; a lone last node
// is promoted. It returns the number of nodes each tree's new level has.
func (h Hasher) level(sc *scratch, dst, src []byte, trees, m, stride int) int {
	h.addLevel(sc, dst, src, trees, m, stride)
	h.joins(sc)
	return h.promote(dst, src, trees, m, stride)
}

// addLevel adds level's pairs. In place, each node is written over one
// already read: node i of tree t after the pairs before it, whose nodes
// 2i' and 2i'+1 lie at or past i.
func (h Hasher) addLevel(sc *scratch, dst, src []byte, trees, m, stride int) {
	nl := h.NodeSize()
	for t := range trees {
		for i := range m / 2 {
			h.add(sc, src[t*stride+2*i*nl:][:2*nl], dst[t*stride+i*nl:][:nl])
		}
	}
}

// promote copies each tree's lone last node, if m is odd, once its level's
// pairs are hashed (in place, a pair may read where it goes), and returns
// the number of nodes each tree's new level has.
func (h Hasher) promote(dst, src []byte, trees, m, stride int) int {
	if nl, p := h.NodeSize(), m/2; m%2 == 1 {
		for t := range trees {
			copy(dst[t*stride+p*nl:][:nl], src[t*stride+(m-1)*nl:][:nl])
		}
	}
	return (m + 1) / 2
}

// addAcross is addLevel for trees laid across one another: node i of tree
// t at src[i*stride+t*nl] (a data square's columns in its rows' layout).
// A pair's nodes lie apart, so each message is gathered as it is added,
// the two rows a pair of rows' messages come from read in order; promote
// them with promoteAcross.
func (h Hasher) addAcross(sc *scratch, dst, src []byte, trees, m, stride int) {
	nl := h.NodeSize()
	if cap(sc.gather) < levelChunk*2*nl {
		sc.gather = make([]byte, levelChunk*2*nl)
	}
	for i := range m / 2 {
		for t := range trees {
			g := append(sc.gather[sc.ng:sc.ng], src[2*i*stride+t*nl:][:nl]...)
			g = append(g, src[(2*i+1)*stride+t*nl:][:nl]...)
			sc.ng += 2 * nl
			h.add(sc, g, dst[i*stride+t*nl:][:nl])
		}
	}
}

// promoteAcross is promote for trees laid across one another.
func (h Hasher) promoteAcross(dst, src []byte, trees, m, stride int) int {
	if nl, p := h.NodeSize(), m/2; m%2 == 1 {
		copy(dst[p*stride:][:trees*nl], src[(m-1)*stride:][:trees*nl])
	}
	return (m + 1) / 2
}

// A Tree is a namespaced Merkle tree that leaves are pushed to, in
// namespace order. Its root and proofs are computed when asked for, the
// leaves in one batched call and each level in calls of up to 512 pairs.
// The zero Tree is not usable: make one with New.
type Tree struct {
	h      Hasher
	leaves [][]byte
	levels [][]byte // levels[l]: the nodes of level l, flat; valid if rooted
	rooted bool
	sc     scratch
}

// New returns an empty tree of hasher h.
func New(h Hasher) *Tree {
	h.NodeSize() // checks the namespace size
	return &Tree{h: h}
}

// Hasher returns the tree's hasher.
func (t *Tree) Hasher() Hasher { return t.h }

// Len returns the number of leaves pushed.
func (t *Tree) Len() int { return len(t.leaves) }

// Reset empties the tree, keeping its memory.
func (t *Tree) Reset() {
	clear(t.leaves)
	t.leaves = t.leaves[:0]
	t.rooted = false
}

// Push adds a leaf: namespaced data, its namespace the first NamespaceSize
// bytes. The tree keeps leaf, not a copy: it must not change while the
// tree is in use. It is an error if leaf is shorter than a namespace or
// its namespace is below the last leaf's.
func (t *Tree) Push(leaf []byte) error {
	ns := t.h.NamespaceSize
	if len(leaf) < ns {
		return malformed.New("nmt: a leaf of " + strconv.Itoa(len(leaf)) + " bytes, shorter than its namespace (" + strconv.Itoa(ns) + ")")
	}
	if n := len(t.leaves); n > 0 && bytes.Compare(leaf[:ns], t.leaves[n-1][:ns]) < 0 {
		return malformed.New("nmt: leaf " + strconv.Itoa(n) + " pushed with a namespace below the last leaf's")
	}
	t.leaves = append(t.leaves, leaf)
	t.rooted = false
	return nil
}

// build hashes every level of the tree, unless it is up to date.
func (t *Tree) build() {
	if t.rooted {
		return
	}
	t.rooted = true
	n := len(t.leaves)
	nl := t.h.NodeSize()
	ns := t.h.NamespaceSize
	t.levels = t.levels[:0]
	if n == 0 {
		return
	}
	lv := t.levelBuf(0, n*nl)
	out := t.sc.digests(n)
	sha256x.HashManyPrefixed(out, leafPrefix, t.leaves)
	for i, leaf := range t.leaves {
		t.h.leafNode(lv[i*nl:(i+1)*nl], leaf[:ns], &out[i])
	}
	for l, m := 0, n; m > 1; l++ {
		next := t.levelBuf(l+1, (m+1)/2*nl)
		m = t.h.level(&t.sc, next, t.levels[l], 1, m, 0)
	}
}

// levelBuf returns level l's buffer, of n bytes, its memory reused.
func (t *Tree) levelBuf(l, n int) []byte {
	// Levels are built in order, l == len(t.levels): the slice grows
	// back over the buffers of an earlier build, kept past its length.
	if l < cap(t.levels) {
		t.levels = t.levels[:l+1]
	} else {
		t.levels = append(t.levels, nil)
	}
	if cap(t.levels[l]) < n {
		t.levels[l] = make([]byte, n)
	}
	t.levels[l] = t.levels[l][:n]
	return t.levels[l]
}

// Root returns the tree's root: EmptyRoot for no leaves. The slice is the
// tree's memory, valid until the next Push or Reset: copy what you keep.
// In steady state (a tree reset and refilled) it allocates nothing.
func (t *Tree) Root() []byte {
	if len(t.leaves) == 0 {
		return t.h.EmptyRoot()
	}
	t.build()
	return t.levels[len(t.levels)-1]
}

// node returns node (l, i): the root of leaves i<<l to min((i+1)<<l, n)-1.
func (t *Tree) node(l, i int) []byte {
	nl := t.h.NodeSize()
	return t.levels[l][i*nl : (i+1)*nl]
}

// A Proof is an NMT proof: the leaves Start to End-1 and the nodes, in
// in-order traversal, of the largest subtrees left and right of them. An
// absence proof also carries LeafHash, the node of the leaf at Start whose
// namespace is the smallest above the absent one. The empty proof (Start
// == End, no nodes) proves that a namespace is outside a tree's range.
type Proof struct {
	Start, End int
	Nodes      [][]byte
	LeafHash   []byte
}

// IsEmpty reports whether p is the empty proof.
func (p Proof) IsEmpty() bool { return p.Start == p.End && len(p.Nodes) == 0 && len(p.LeafHash) == 0 }

// IsAbsence reports whether p is an absence proof.
func (p Proof) IsAbsence() bool { return len(p.LeafHash) > 0 }

// ProveRange returns the proof of the leaves start to end-1. It is an
// error unless 0 <= start < end <= Len().
func (t *Tree) ProveRange(start, end int) (Proof, error) {
	if start < 0 || start >= end || end > len(t.leaves) {
		return Proof{}, errors.New("nmt: range [" + strconv.Itoa(start) + ", " + strconv.Itoa(end) + ") of a tree of " +
			strconv.Itoa(len(t.leaves)) + " leaves")
	}
	t.build()
	var ids [][2]int
	ids = t.proofNodes(ids, len(t.levels)-1, 0, start, end)
	nl := t.h.NodeSize()
	flat := make([]byte, len(ids)*nl)
	p := Proof{Start: start, End: end, Nodes: make([][]byte, len(ids))}
	for k, id := range ids {
		p.Nodes[k] = flat[k*nl : (k+1)*nl : (k+1)*nl]
		copy(p.Nodes[k], t.node(id[0], id[1]))
	}
	return p, nil
}

// proofNodes appends the nodes under node (l, i) that a proof of [start,
// end) needs, in order: each largest subtree outside the range.
func (t *Tree) proofNodes(dst [][2]int, l, i, start, end int) [][2]int {
	n := len(t.leaves)
	lo := i << l
	if lo >= n {
		return dst
	}
	hi := min((i+1)<<l, n)
	if hi <= start || lo >= end {
		return append(dst, [2]int{l, i})
	}
	if l == 0 {
		return dst
	}
	dst = t.proofNodes(dst, l-1, 2*i, start, end)
	return t.proofNodes(dst, l-1, 2*i+1, start, end)
}

// ProveNamespace returns the proof for namespace ns: the empty proof if ns
// lies outside the root's namespace range (and for an empty tree);
// otherwise of the range of its leaves if it has any, of its absence if
// not. It is an error if ns is not a namespace of the tree's size. The
// range is the root's, as in celestiaorg/nmt: with IgnoreMaxNamespace, the
// largest namespace's leaves lie outside it unless the tree has no others,
// and get the empty proof.
func (t *Tree) ProveNamespace(ns []byte) (Proof, error) {
	size := t.h.NamespaceSize
	if len(ns) != size {
		return Proof{}, errors.New("nmt: a namespace of " + strconv.Itoa(len(ns)) + " bytes, want " + strconv.Itoa(size))
	}
	if len(t.leaves) == 0 {
		return Proof{}, nil
	}
	root := t.Root()
	if bytes.Compare(ns, t.h.MinNamespace(root)) < 0 || bytes.Compare(t.h.MaxNamespace(root), ns) < 0 {
		return Proof{}, nil
	}
	first := sort.Search(len(t.leaves), func(i int) bool { return bytes.Compare(t.leaves[i][:size], ns) >= 0 })
	end := sort.Search(len(t.leaves), func(i int) bool { return bytes.Compare(t.leaves[i][:size], ns) > 0 })
	if first < end {
		return t.ProveRange(first, end)
	}
	// Absent: the first leaf above ns (there is one, as ns is at most the
	// root's max namespace), proven with its node.
	p, err := t.ProveRange(first, first+1)
	if err != nil {
		return Proof{}, err
	}
	p.LeafHash = bytes.Clone(t.node(0, first))
	return p, nil
}
