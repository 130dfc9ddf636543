// Package translog is the Merkle tree of a transparency log that only ever
// grows: RFC 6962 / RFC 9162 (Certificate Transparency, Go's checksum
// database, Sigstore's Rekor, C2SP tlog-tiles and checkpoints), with the
// hashing done by sha256x in batches.
//
// A Range is a log's compact state, the roots of its perfect subtrees. Its
// Append methods take a batch of entries (or leaf hashes), every new node
// handed to a Visitor to store. InclusionProof and ConsistencyProof serve
// proofs from stored nodes (a NodeReader: a NodeStore, a FlatStore in
// tlog.StoredHashes order, a merkle.Tree through TreeNodes, or the
// caller's own storage); VerifyInclusion and VerifyConsistency check them,
// and RootFromConsistency computes a new root from an old root and a
// proof. A TileLog appends entries and returns the C2SP tlog-tiles (height
// 8) that each growth touches, byte for byte what
// golang.org/x/mod/sumdb/tlog reads.
//
// The tree is RFC 6962's: leaf SHA-256(0x00 || entry), node SHA-256(0x01 ||
// left || right), the tree of n leaves split at the largest power of two
// below n, and the root of no leaves SHA-256 of nothing (the same tree as
// merkle.RFC6962). A node is named by its level (0 for the leaves) and its
// index in that level (NodeID), and is stored once the log holds all its
// leaves.
//
// Data that comes from outside (a proof, a stored range, a tile, a tree
// size) is checked: anything wrong is an error that says what is wrong,
// never a panic and never a wrong root. Only programmer errors panic, with
// a message that starts "sha256x:": a Visitor or NodeStore fed nodes out
// of order, or a log grown past 2^64 - 1 leaves.
package translog

import (
	"strconv"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

// Size is the size of a hash in bytes.
const Size = sha256x.Size

var (
	leafPrefix = []byte{0}
	node       = sha256x.Join{Prefix: []byte{1}}
)

// EmptyRoot is the root of a log of no entries: SHA-256 of nothing.
var EmptyRoot = sha256x.Sum256(nil)

// LeafHash returns the leaf hash of an entry: SHA-256(0x00 || entry).
func LeafHash(entry []byte) [Size]byte {
	var out [1][Size]byte
	sha256x.HashManyPrefixed(out[:], leafPrefix, [][]byte{entry})
	return out[0]
}

// LeafHashes sets out[i] to the leaf hash of entries[i], in one batched
// call. It panics if len(out) < len(entries).
func LeafHashes(out [][Size]byte, entries [][]byte) {
	sha256x.HashManyPrefixed(out, leafPrefix, entries)
}

// NodeHash returns the interior node over left and right:
// SHA-256(0x01 || left || right).
func NodeHash(left, right [Size]byte) [Size]byte {
	var b [1 + 2*Size]byte
	b[0] = 1
	copy(b[1:], left[:])
	copy(b[1+Size:], right[:])
	return sha256x.Sum256(b[:])
}

// A NodeID names a node: its level, 0 for the leaves, and its index in
// that level. Node (l, i) covers leaves i<<l to (i+1)<<l - 1.
type NodeID struct {
	Level int
	Index uint64
}

func (id NodeID) String() string {
	return "(" + strconv.Itoa(id.Level) + ", " + strconv.FormatUint(id.Index, 10) + ")"
}

// A Visitor is handed the nodes that an append creates, a level's run at a
// time: nodes[i] is node (level, index+i). The slice is scratch memory,
// valid only during the call: copy what you keep. Every node of the tree
// is handed over exactly once, when its subtree becomes complete: in each
// pass of an append (the batch, or each 4,096 leaves of a larger one) the
// leaves first, then each level above them, so that each level's runs come
// in order. A Visitor must not use the Range or TileLog whose append calls
// it: that append is half done until it returns.
type Visitor func(level int, index uint64, nodes [][Size]byte)

// A NodeReader reads stored nodes: the roots of complete subtrees, as a
// Visitor was handed them.
type NodeReader interface {
	// ReadNodes sets out[i] to node ids[i] for every i; len(out) ==
	// len(ids). It returns an error if a node is missing: proofs built
	// from it are then that error, never a wrong proof.
	ReadNodes(ids []NodeID, out [][Size]byte) error
}

// ErrMismatch is the error, wrapped, of a well-formed proof that does not
// lead to the root it is checked against: errors.Is(err, ErrMismatch). It
// is merkle.ErrMismatch, the one mismatch error of sha256x's packages.
var ErrMismatch = merkle.ErrMismatch

// ErrMalformed is the error, wrapped, of a proof, or indices and sizes a
// proof is asked for or checked with, that no log has: a proof of the
// wrong length for its sizes, sizes out of order, an index past the tree,
// a subtree that is none. It is merkle.ErrMalformed.
var ErrMalformed = merkle.ErrMalformed

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// maxLevels is more than the levels of any tree: 2^64 - 1 leaves have 64.
const maxLevels = 65
