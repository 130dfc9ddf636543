package translog

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"

	"github.com/sha256x/sha256x/merkle"
)

// A NodeStore keeps every node of a log in memory, level by level: a
// Visitor (its Visit method) and a NodeReader. It holds a log from its
// first leaf. The zero NodeStore is empty and ready to use. It is not safe
// for concurrent use while it is visited.
type NodeStore struct {
	levels [][][Size]byte
}

// Visit stores nodes (level, index) onward, as a Range's append hands them
// over. It panics if the nodes would leave a gap in their level: a
// NodeStore holds a log from its first leaf, its nodes in order.
func (s *NodeStore) Visit(level int, index uint64, nodes [][Size]byte) {
	if level < 0 {
		panic("sha256x: translog: NodeStore visited with node " + NodeID{level, index}.String() + " of no level")
	}
	for len(s.levels) <= level {
		s.levels = append(s.levels, nil)
	}
	lv := s.levels[level]
	if index > uint64(len(lv)) {
		panic("sha256x: translog: NodeStore visited with node " + NodeID{level, index}.String() + " before node " +
			NodeID{level, uint64(len(lv))}.String())
	}
	i := int(index)
	if n := i + len(nodes); n > len(lv) {
		lv = slices.Grow(lv, n-len(lv))[:n]
	}
	copy(lv[i:], nodes)
	s.levels[level] = lv
}

// ReadNodes implements NodeReader.
func (s *NodeStore) ReadNodes(ids []NodeID, out [][Size]byte) error {
	if len(out) != len(ids) {
		return errors.New("translog: ReadNodes of " + strconv.Itoa(len(ids)) + " nodes into " + strconv.Itoa(len(out)))
	}
	for i, id := range ids {
		if id.Level < 0 || id.Level >= len(s.levels) || id.Index >= uint64(len(s.levels[id.Level])) {
			return errors.New("translog: node " + id.String() + " is not stored")
		}
		out[i] = s.levels[id.Level][id.Index]
	}
	return nil
}

// Level returns the stored nodes of a level, from index 0: the store's own
// memory, valid until it is next visited.
func (s *NodeStore) Level(level int) [][Size]byte {
	if level < 0 || level >= len(s.levels) {
		return nil
	}
	return s.levels[level]
}

// Reset empties the store, keeping its memory for reuse.
func (s *NodeStore) Reset() {
	for i := range s.levels {
		s.levels[i] = s.levels[i][:0]
	}
}

// StoredIndex returns where node (level, index) goes in the one-slice
// layout of golang.org/x/mod/sumdb/tlog (tlog.StoredHashIndex; Crosby and
// Wallach's order): each leaf, then the nodes that it completes, lowest
// first.
func StoredIndex(level int, index uint64) uint64 {
	// Node (l, i) is stored right after the last leaf it covers,
	// ((i+1)<<l) - 1, and after the l-1 nodes below it that leaf
	// completes too. Leaf n is at n + n/2 + n/4 + ... = 2n - popcount(n).
	n := (index+1)<<level - 1
	return 2*n - uint64(bits.OnesCount64(n)) + uint64(level)
}

// StoredCount returns how many nodes a log of size leaves stores: the
// length of its FlatStore (tlog.StoredHashCount).
func StoredCount(size uint64) uint64 {
	if size == 0 {
		return 0
	}
	// Leaf size-1 and the nodes it completes: one per trailing one bit.
	return StoredIndex(0, size-1) + 1 + uint64(bits.TrailingZeros64(^(size - 1)))
}

// A FlatStore keeps every node of a log in one slice, in the order of
// golang.org/x/mod/sumdb/tlog (see StoredIndex): Hashes[StoredIndex(l, i)]
// is node (l, i), and after a log of size n leaves is appended the slice
// has StoredCount(n) hashes, what tlog.StoredHashes returns record by
// record. It is a Visitor (its Visit method) and a NodeReader. The zero
// FlatStore is empty and ready to use.
type FlatStore struct {
	Hashes [][Size]byte
}

// Visit stores nodes (level, index) onward at their stored indexes. It
// panics if the nodes would leave a gap: a leaf before the earlier leaves,
// and every node they complete, are stored, or a node before the leaves it
// covers; a hole in Hashes would read as a stored node. Unlike a NodeStore,
// it therefore refuses a leaf that a Range beginning inside the log hands
// over while a node it shares with the ranges on its left is not yet made
// (AppendRange makes it): merge such a Range before it grows past that
// node.
func (s *FlatStore) Visit(level int, index uint64, nodes [][Size]byte) {
	if len(nodes) == 0 {
		return
	}
	if !s.covers(level, index, uint64(len(nodes))) {
		panic("sha256x: translog: FlatStore visited with node " + NodeID{level, index}.String() +
			" before the leaves before it or below it")
	}
	// The last node is stored furthest along: make room for it.
	if end := StoredIndex(level, index+uint64(len(nodes))-1) + 1; end > uint64(len(s.Hashes)) {
		s.Hashes = slices.Grow(s.Hashes, int(end)-len(s.Hashes))[:end]
	}
	if level == 0 {
		// Leaf i+1 is stored 1 + (the nodes leaf i completes) after leaf i.
		x := StoredIndex(0, index)
		for k := range nodes {
			s.Hashes[x] = nodes[k]
			x += 1 + uint64(bits.TrailingZeros64(^(index + uint64(k))))
		}
		return
	}
	for k := range nodes {
		s.Hashes[StoredIndex(level, index+uint64(k))] = nodes[k]
	}
}

// covers reports whether the store may take k nodes (level, index) onward:
// leaves from one at most past the last stored leaf, other nodes whose
// leaves are all stored. Stored leaves are fewer than len(s.Hashes), which
// keeps the arithmetic from overflowing.
func (s *FlatStore) covers(level int, index, k uint64) bool {
	n := uint64(len(s.Hashes))
	if level == 0 {
		return index <= n && StoredIndex(0, index) <= n
	}
	last := index + k - 1
	return level > 0 && level < 64 && last >= index && last < n>>level &&
		StoredIndex(0, (last+1)<<level-1) < n
}

// ReadNodes implements NodeReader.
func (s *FlatStore) ReadNodes(ids []NodeID, out [][Size]byte) error {
	if len(out) != len(ids) {
		return errors.New("translog: ReadNodes of " + strconv.Itoa(len(ids)) + " nodes into " + strconv.Itoa(len(out)))
	}
	for i, id := range ids {
		// Node (l, i) is stored past leaf ((i+1)<<l) - 1: the first test
		// keeps that from overflowing.
		if id.Level < 0 || id.Level >= 64 || id.Index >= uint64(len(s.Hashes))>>id.Level ||
			StoredIndex(id.Level, id.Index) >= uint64(len(s.Hashes)) {
			return errors.New("translog: node " + id.String() + " is not stored")
		}
		out[i] = s.Hashes[StoredIndex(id.Level, id.Index)]
	}
	return nil
}

// TreeNodes returns a NodeReader of the complete subtrees' roots of t, a
// tree built with merkle.RFC6962 (Build or BuildNodes): proofs for every
// log size up to t.Len() come from it. Node (l, i) of a tree of n leaves is
// t.Levels()[l][i] if (i+1)<<l <= n.
func TreeNodes(t *merkle.Tree) NodeReader {
	return treeNodes{t.Levels(), uint64(t.Len())}
}

type treeNodes struct {
	levels [][][Size]byte
	n      uint64
}

func (t treeNodes) ReadNodes(ids []NodeID, out [][Size]byte) error {
	if len(out) != len(ids) {
		return errors.New("translog: ReadNodes of " + strconv.Itoa(len(ids)) + " nodes into " + strconv.Itoa(len(out)))
	}
	for i, id := range ids {
		if id.Level < 0 || id.Level >= len(t.levels) || id.Index >= t.n>>id.Level {
			return errors.New("translog: node " + id.String() + " is not a complete subtree of a tree of " + itoa(t.n) + " leaves")
		}
		out[i] = t.levels[id.Level][id.Index]
	}
	return nil
}
