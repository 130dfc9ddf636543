// Package merkle builds binary Merkle trees of SHA-256 with sha256x: the
// leaves in one batched call and each level of interior nodes in another
// (sha256x.Join.HashLevel), with no allocation per node. A large tree is
// cut into subtrees hashed side by side (see Scheme.Workers).
//
// A Scheme says how leaves and nodes are hashed and what happens to the odd
// last node of a level. The predefined schemes are RFC6962 (Certificate
// Transparency), Bitcoin (transaction Merkle roots), Binary (Ethereum SSZ,
// gohashtree) and Solana (the shred Merkle tree of Solana's validator).
//
// Root computes a tree's root; Build keeps every level, for inclusion
// proofs (Tree.Proof) that Verify checks. A tree whose leaves are replaced
// or appended is a Mutable (Scheme.NewMutable): its root and proofs are
// Build's over the current leaves, recomputed from the nodes that changed.
//
// Programmer errors (a leaf of the wrong size for a scheme of 32-byte
// leaves, a proof index out of range, a Solana tree of no leaves, a Scheme
// whose fields are out of range) panic with a message that starts
// "sha256x: merkle:", or, for a Node that sha256x.Join.HashLevel refuses,
// with HashLevel's "sha256x:" one (not in Root and Build of one leaf, which
// hash no node). A proof from outside is data: Verify returns an error,
// wrapping ErrMismatch for a proof of another root.
package merkle

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/malformed"
)

// Size is the size of a node in bytes.
const Size = sha256x.Size

// ErrMismatch is the error, wrapped, of a well-formed proof that does not
// lead to the root it is checked against: errors.Is(err, ErrMismatch). The
// ErrMismatch of translog, nmt, hashtree and cometadapt is this error;
// every other error of a verification says what is malformed.
var ErrMismatch = errors.New("proof does not match the root")

// ErrMalformed is the error, wrapped, of a proof that no tree of its scheme
// has (an index out of range, a path of the wrong length) or a leaf of the
// wrong size: errors.Is(err, ErrMalformed). translog's and nmt's
// ErrMalformed is this error.
var ErrMalformed = malformed.Err

// Odd says what a level of a tree does with its last node when it has an
// odd number of nodes.
type Odd int

const (
	// Promote carries the odd last node up to the next level unchanged, as
	// RFC 6962 does (its tree splits n leaves at the largest power of two
	// below n).
	Promote Odd = iota
	// Duplicate joins the odd last node with itself, as Bitcoin and Solana
	// do.
	Duplicate
	// ZeroPad joins the odd last node with the root of an all-zero subtree
	// of the same height: the leaves padded with zero nodes to a power of
	// two, as Ethereum's SSZ does, without hashing the padding.
	ZeroPad
)

// A Scheme is one way to make a Merkle tree: a predefined one, or a
// literal. It must not be changed while in use; its methods are safe for
// concurrent use.
type Scheme struct {
	// LeafPrefix goes before each leaf's data: a leaf node is
	// SHA-256(LeafPrefix || data). Unused when RawLeaves is set.
	LeafPrefix []byte
	// RawLeaves takes each leaf, which must then be 32 bytes long, as a
	// node as it is, without hashing it (Bitcoin's txids, SSZ chunks).
	RawLeaves bool
	// Node makes an interior node from its two children:
	// SHA-256(Node.Prefix || left[:W] || Node.Infix || right[:W]), where W
	// is Node.Width (0 means 32).
	Node sha256x.Join
	// Double hashes each interior node a second time: SHA-256 of the
	// 32-byte join, as Bitcoin does, in the same pass (sha256x.Join.Double).
	Double bool
	// Odd is what a level does with an odd last node.
	Odd Odd
	// Empty is the root of a tree of no leaves, unless NoEmpty is set.
	Empty [Size]byte
	// NoEmpty makes a tree of no leaves a programmer error: Root and Build
	// panic.
	NoEmpty bool
	// Workers caps the goroutines that hash one large tree: 0 means
	// runtime.GOMAXPROCS(0), 1 keeps every tree on the calling goroutine,
	// and no tree takes more than GOMAXPROCS. A tree of 4,096 leaves or
	// more (or of fewer, long ones: about 256 KiB to hash) is cut into
	// subtrees that the caller and up to Workers-1 others hash side by
	// side, one allocation for each goroutine started; smaller trees stay
	// on the caller. Roots, levels and proofs are the same whatever
	// Workers is.
	Workers int
}

var (
	// RFC6962 is the Merkle Tree Hash of Certificate Transparency (RFC 6962
	// section 2.1, RFC 9162 section 2.1.1): leaf SHA-256(0x00 || data),
	// node SHA-256(0x01 || left || right), the tree split at the largest
	// power of two below n (an odd last node is promoted), and the root of
	// no leaves SHA-256 of nothing. Proofs are RFC 6962 audit paths.
	RFC6962 = Scheme{
		LeafPrefix: []byte{0},
		Node:       sha256x.Join{Prefix: []byte{1}},
		Odd:        Promote,
		Empty:      sha256x.Sum256(nil),
	}

	// Bitcoin is the transaction Merkle tree of a Bitcoin block: the leaves
	// are txids in internal byte order (as SHA-256d produces them and the
	// block stores them; explorers print them reversed), a node is
	// SHA-256(SHA-256(left || right)), and the odd last node of a level is
	// paired with itself. The root is in internal order too (see Reverse);
	// the root of no leaves is the zero hash, as Bitcoin Core's
	// ComputeMerkleRoot returns.
	//
	// Duplicating the odd node makes different transaction lists share a
	// root (CVE-2012-2459: txids a, b, c, c and a, b, c). Validators reject
	// blocks with duplicate txids; this package does not.
	Bitcoin = Scheme{
		RawLeaves: true,
		Double:    true,
		Odd:       Duplicate,
	}

	// Binary is the plain binary tree of Ethereum's SSZ (hash_tree_root's
	// merkleize) and of gohashtree: the leaves are 32-byte chunks as they
	// are, a node is SHA-256(left || right), and the leaves are padded with
	// zero chunks to a power of two. The root of no leaves is the zero
	// chunk, of one leaf that leaf. Proofs include the zero subtrees' roots
	// where the padding is the sibling.
	Binary = Scheme{
		RawLeaves: true,
		Odd:       ZeroPad,
	}

	// Solana is the shred Merkle tree of Solana's validator (agave,
	// ledger/src/shred/merkle_tree.rs): leaf
	// SHA-256("\x00SOLANA_MERKLE_SHREDS_LEAF" || shred bytes), node
	// SHA-256("\x01SOLANA_MERKLE_SHREDS_NODE" || left[:20] || right[:20]),
	// the odd last node joined with itself, and the root the whole top
	// node. Proof entries are the siblings' first 20 bytes, as in a shred,
	// the rest zero. A tree of no leaves has no root: Root and Build
	// panic, where agave returns an error.
	Solana = Scheme{
		LeafPrefix: []byte("\x00SOLANA_MERKLE_SHREDS_LEAF"),
		Node:       sha256x.Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20},
		Odd:        Duplicate,
		NoEmpty:    true,
	}
)

// Reverse returns h with its bytes in reverse order: how a Bitcoin txid or
// Merkle root turns between internal order and display order.
func Reverse(h [Size]byte) [Size]byte {
	for i, j := 0, Size-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h
}

// width is how many bytes of a child go into a node.
func (s *Scheme) width() int {
	if s.Node.Width == 0 {
		return Size
	}
	return s.Node.Width
}

func (s *Scheme) check(n int) {
	if s.Odd < Promote || s.Odd > ZeroPad {
		panic("sha256x: merkle: Scheme.Odd = " + strconv.Itoa(int(s.Odd)) + ", not Promote, Duplicate or ZeroPad")
	}
	if s.Workers < 0 {
		panic("sha256x: merkle: Scheme.Workers = " + strconv.Itoa(s.Workers) + ", less than 0")
	}
	if n == 0 && s.NoEmpty {
		panic("sha256x: merkle: a tree of no leaves, which this scheme does not have")
	}
}

// LeafHash returns the leaf node of data: SHA-256(LeafPrefix || data), or
// data itself with RawLeaves, when it panics unless data is 32 bytes long.
func (s *Scheme) LeafHash(data []byte) [Size]byte {
	if s.RawLeaves {
		if len(data) != Size {
			panic("sha256x: merkle: a leaf of " + strconv.Itoa(len(data)) + " bytes in a scheme of 32-byte leaves")
		}
		return [Size]byte(data)
	}
	var out [1][Size]byte
	sha256x.HashManyPrefixed(out[:], s.LeafPrefix, [][]byte{data})
	return out[0]
}

// leafNodes sets nodes[i] to the leaf node of leaves[i]; leaves[0] is leaf
// number first of the tree.
func (s *Scheme) leafNodes(nodes [][Size]byte, leaves [][]byte, first int) {
	if !s.RawLeaves {
		sha256x.HashManyPrefixed(nodes, s.LeafPrefix, leaves)
		return
	}
	for i, l := range leaves {
		if len(l) != Size {
			panic("sha256x: merkle: leaf " + strconv.Itoa(first+i) + " has " + strconv.Itoa(len(l)) + " bytes in a scheme of 32-byte leaves")
		}
		nodes[i] = [Size]byte(l)
	}
}

// scratch is the working memory of one tree, or of one worker of a split
// tree: reused through a pool.
type scratch struct {
	nodes [][Size]byte // a level, reduced in place, with a spare slot
	zero  [][Size]byte // ZeroPad: the roots of zero subtrees, by height
	split split        // a tree cut into subtrees for several goroutines
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reducer hashes one level into the next, for one scheme and one tree.
type reducer struct {
	s    *Scheme
	node sha256x.Join // s.Node, Double if s is
	zero [][Size]byte // ZeroPad: the roots of zero subtrees, by height
}

// reducer returns the reducer of a tree of n leaves, in sc's memory.
func (s *Scheme) reducer(sc *scratch, n int) reducer {
	var zero [][Size]byte
	if s.Odd == ZeroPad {
		zero = s.zeros(sc, n)
	}
	return s.reducerOver(zero)
}

// reducerOver returns a reducer with the zero subtrees' roots zero (shared
// by the workers of a split tree, read only).
func (s *Scheme) reducerOver(zero [][Size]byte) reducer {
	return reducer{s: s, node: s.node(), zero: zero}
}

// node is the join of s's interior nodes, SHA-256d if s is Double.
func (s *Scheme) node() sha256x.Join {
	j := s.Node
	j.Double = j.Double || s.Double
	return j
}

// zeros returns the roots of all-zero subtrees of heights 0 up to the
// height of a tree of n leaves.
func (s *Scheme) zeros(sc *scratch, n int) [][Size]byte {
	h := height(n)
	z := grow(sc.zero, h+1)
	sc.zero = z
	z[0] = [Size]byte{}
	var pair [2][Size]byte
	for d := 1; d <= h; d++ {
		pair[0], pair[1] = z[d-1], z[d-1]
		z[d] = s.join(&pair)
	}
	return z
}

// height is the number of levels above the leaves in a tree of n leaves.
func height(n int) int {
	h := 0
	for m := n; m > 1; m = (m + 1) / 2 {
		h++
	}
	return h
}

// join returns the node over pair[0] and pair[1].
func (s *Scheme) join(pair *[2][Size]byte) [Size]byte {
	var out [1][Size]byte
	j := s.node()
	j.HashLevel(out[:], pair[:])
	return out[0]
}

// level hashes the m nodes of level d, in nodes[:m], into out[:(m+1)/2].
// nodes must have a spare slot at nodes[m] when m is odd; out may be nodes
// (in place) or must not overlap it.
func (r *reducer) level(out, nodes [][Size]byte, m, d int) {
	s := r.s
	pairs := m
	if m%2 == 1 {
		switch s.Odd {
		case Promote:
			pairs = m - 1
		case Duplicate:
			nodes[m] = nodes[m-1]
			pairs = m + 1
		case ZeroPad:
			nodes[m] = r.zero[d]
			pairs = m + 1
		}
	}
	k := pairs / 2
	r.node.HashLevel(out[:k], nodes[:pairs])
	if pairs < m {
		// Promote: in place, out[k] is past every node hashed into.
		out[k] = nodes[m-1]
	}
}

// levelOut is level for nodes that have no spare slot after them (the
// caller's own), and out that does not overlap them.
func (r *reducer) levelOut(out, nodes [][Size]byte, m, d int) {
	even := m &^ 1
	if even > 0 {
		r.level(out, nodes, even, d)
	}
	if even < m {
		last := [2][Size]byte{nodes[m-1]} // and its spare slot
		r.level(out[even/2:], last[:], 1, d)
	}
}

// Root returns the root of the tree over leaves (see LeafHash), on up to
// Workers goroutines. It allocates nothing once its pooled memory has grown
// to the tree's size, but for each goroutine it starts.
func (s *Scheme) Root(leaves [][]byte) [Size]byte {
	s.check(len(leaves))
	n := len(leaves)
	if n == 0 {
		return s.Empty
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.nodes = grow(sc.nodes, n+1)
	if w, k := s.plan(n, leaves); w > 1 {
		return s.splitRoot(sc, w, k, leaves, nil)
	}
	s.leafNodes(sc.nodes, leaves, 0)
	r := s.reducer(sc, n)
	return r.reduce(sc.nodes, n, 0)
}

// RootNodes returns the root of the tree whose leaf nodes are nodes: leaves
// already hashed (or, with RawLeaves, the 32-byte leaves themselves). It
// hashes and allocates as Root does.
func (s *Scheme) RootNodes(nodes [][Size]byte) [Size]byte {
	s.check(len(nodes))
	n := len(nodes)
	if n == 0 {
		return s.Empty
	}
	if n == 1 {
		return nodes[0]
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	// The first level is hashed from nodes, not from a copy of them.
	sc.nodes = grow(sc.nodes, (n+1)/2+1)
	if w, k := s.plan(n, nil); w > 1 {
		return s.splitRoot(sc, w, k, nil, nodes)
	}
	r := s.reducer(sc, n)
	r.levelOut(sc.nodes, nodes, n, 0)
	return r.reduce(sc.nodes, (n+1)/2, 1)
}

// reduce reduces the m nodes of level d, in nodes[:m] with a spare slot
// after them, to the root, in place.
func (r *reducer) reduce(nodes [][Size]byte, m, d int) [Size]byte {
	for ; m > 1; m, d = (m+1)/2, d+1 {
		r.level(nodes, nodes, m, d)
	}
	return nodes[0]
}

// A Tree is a whole Merkle tree: every level, from the leaf nodes up to the
// root. Its methods are safe for concurrent use.
type Tree struct {
	s      Scheme
	levels [][][Size]byte
}

// Build hashes the tree over leaves, on up to Workers goroutines, and
// keeps every level, for proofs, allocated in one piece.
func (s *Scheme) Build(leaves [][]byte) *Tree {
	s.check(len(leaves))
	t := s.newTree(len(leaves))
	if len(leaves) > 0 {
		t.hash(leaves, nil)
	}
	return t
}

// BuildNodes is Build over leaf nodes already hashed (or, with RawLeaves,
// the 32-byte leaves themselves). nodes is copied.
func (s *Scheme) BuildNodes(nodes [][Size]byte) *Tree {
	s.check(len(nodes))
	t := s.newTree(len(nodes))
	if len(nodes) > 0 {
		t.hash(nil, nodes)
	}
	return t
}

// newTree lays out the levels of a tree of n leaves in one allocation, each
// level followed by a spare slot for the partner of an odd last node.
func (s *Scheme) newTree(n int) *Tree {
	t := &Tree{s: *s}
	if n == 0 {
		return t
	}
	total, count := 0, 0
	for m := n; ; m = (m + 1) / 2 {
		total += m + 1
		count++
		if m == 1 {
			break
		}
	}
	all := make([][Size]byte, total)
	t.levels = make([][][Size]byte, 0, count)
	for m := n; ; m = (m + 1) / 2 {
		t.levels = append(t.levels, all[:m:m+1])
		all = all[m+1:]
		if m == 1 {
			break
		}
	}
	return t
}

// hash fills the tree's levels from leaves (hashed) or from nodes (copied).
func (t *Tree) hash(leaves [][]byte, nodes [][Size]byte) {
	s := &t.s
	n := len(t.levels[0])
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	var r reducer
	d := 0
	if w, k := s.plan(n, leaves); w > 1 {
		r = s.splitBuild(sc, w, k, t.levels, leaves, nodes)
		d = k
	} else {
		if leaves != nil {
			s.leafNodes(t.levels[0], leaves, 0)
		} else {
			copy(t.levels[0], nodes)
		}
		r = s.reducer(sc, n)
	}
	for ; d+1 < len(t.levels); d++ {
		lv := t.levels[d]
		r.level(t.levels[d+1], lv[:cap(lv)], len(lv), d)
	}
}

// Len returns the number of leaves.
func (t *Tree) Len() int {
	if len(t.levels) == 0 {
		return 0
	}
	return len(t.levels[0])
}

// Root returns the root: the top node, or the scheme's Empty for a tree of
// no leaves.
func (t *Tree) Root() [Size]byte {
	if len(t.levels) == 0 {
		return t.s.Empty
	}
	return t.levels[len(t.levels)-1][0]
}

// Levels returns the tree's levels: Levels()[0] are the leaf nodes, each
// next level has half as many rounded up, and the last is the root alone
// (none for no leaves). They are the tree's own memory: do not change them.
func (t *Tree) Levels() [][][Size]byte {
	return t.levels
}

// A Proof shows that a leaf is in a tree: the siblings of the nodes on the
// path from the leaf to the root, lowest first. Where nodes join W < 32
// bytes of each child (Solana), only each entry's first W bytes count, and
// Tree.Proof leaves the rest zero.
type Proof struct {
	Index int          // the leaf's index, from 0
	Size  int          // the number of leaves in the tree
	Path  [][Size]byte // siblings, from the leaves up
}

// Proof returns the inclusion proof of leaf i. With Promote (RFC 6962), a
// level where the path's node is promoted has no entry; with Duplicate, the
// entry is the node itself; with ZeroPad, the root of the zero subtree.
// Proof panics unless 0 <= i < t.Len().
func (t *Tree) Proof(i int) Proof {
	n := t.Len()
	if i < 0 || i >= n {
		panic("sha256x: merkle: proof of leaf " + strconv.Itoa(i) + " in a tree of " + strconv.Itoa(n) + " leaves")
	}
	s := &t.s
	var zero [][Size]byte
	if s.Odd == ZeroPad {
		sc := scratchPool.Get().(*scratch)
		defer scratchPool.Put(sc)
		zero = s.zeros(sc, n)
	}
	p := Proof{Index: i, Size: n, Path: make([][Size]byte, 0, len(t.levels)-1)}
	w := s.width()
	for d, lv := range t.levels[:len(t.levels)-1] {
		var e [Size]byte
		switch j := i ^ 1; {
		case j < len(lv):
			e = lv[j]
		case s.Odd == Promote:
			i >>= 1
			continue
		case s.Odd == Duplicate:
			e = lv[i]
		default:
			e = zero[d]
		}
		clear(e[w:])
		p.Path = append(p.Path, e)
		i >>= 1
	}
	return p
}

// Verify checks that p proves that leaf (data, hashed by LeafHash) is leaf
// p.Index of p.Size leaves under root. It returns nil if it does, an error
// wrapping ErrMismatch if p is well formed but leads to another root, and
// one wrapping ErrMalformed that says what otherwise (an index out of
// range, a path of the wrong length, a leaf of the wrong size). The root
// and p.Size must come from where the verifier trusts them (a signed tree
// head, a block header): the same path can prove the same leaf in trees of
// several sizes. Verify allocates nothing when the proof holds.
func (s *Scheme) Verify(root [Size]byte, leaf []byte, p Proof) error {
	if s.RawLeaves && len(leaf) != Size {
		return malformed.New("merkle: a leaf of " + strconv.Itoa(len(leaf)) + " bytes in a scheme of 32-byte leaves")
	}
	return s.VerifyNode(root, s.LeafHash(leaf), p)
}

// VerifyNode is Verify for a leaf node already hashed.
func (s *Scheme) VerifyNode(root, node [Size]byte, p Proof) error {
	s.check(1)
	if p.Index < 0 || p.Index >= p.Size {
		return malformed.New("merkle: a proof of leaf " + strconv.Itoa(p.Index) + " in a tree of " + strconv.Itoa(p.Size) + " leaves")
	}
	var pair [2][Size]byte
	k := 0
	for i, m := p.Index, p.Size; m > 1; i, m = i>>1, m-m/2 { // m-m/2: (m+1)/2 overflows at MaxInt
		if i == m-1 && i%2 == 0 && s.Odd == Promote {
			continue // promoted: no sibling at this level
		}
		if k == len(p.Path) {
			return s.pathError(p)
		}
		if i%2 == 0 {
			pair[0], pair[1] = node, p.Path[k]
		} else {
			pair[0], pair[1] = p.Path[k], node
		}
		node = s.join(&pair)
		k++
	}
	if k != len(p.Path) {
		return s.pathError(p)
	}
	if node != root {
		return fmt.Errorf("%w: leaf %d of %d leads to root %x, not %x", ErrMismatch, p.Index, p.Size, node, root)
	}
	return nil
}

// pathError is the error of p, whose path has the wrong length for its
// index and size in s.
func (s *Scheme) pathError(p Proof) error {
	want := 0
	for i, m := p.Index, p.Size; m > 1; i, m = i>>1, m-m/2 {
		if i != m-1 || i%2 != 0 || s.Odd != Promote {
			want++
		}
	}
	return malformed.New("merkle: a path of " + strconv.Itoa(len(p.Path)) + " nodes for leaf " + strconv.Itoa(p.Index) + " of " +
		strconv.Itoa(p.Size) + " leaves, which has " + strconv.Itoa(want))
}
