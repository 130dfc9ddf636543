// Package logadapt connects package translog (github.com/sha256x/sha256x/
// merkle/translog) to the two Go libraries that transparency logs are built
// on, so that a log built on either switches its hashing to sha256x
// without a rewrite of its storage or its clients:
//
//   - github.com/transparency-dev/merkle (Trillian, Tessera, TesseraCT,
//     Sunlight): Hasher is its merkle.LogHasher; CompactRange and
//     FromCompact move a compact range either way; Visit hands translog's
//     new nodes to a compact.VisitFn; Fetch serves a proof.Nodes from a
//     translog.NodeReader; Bytes and Hashes convert proofs.
//   - golang.org/x/mod/sumdb/tlog (Go's checksum database, C2SP
//     tlog-tiles): HashReader and NodeReader turn a translog.NodeReader
//     into a tlog.HashReader and back, in tlog's stored-hash order (see
//     translog.StoredIndex and translog.FlatStore); ToTlog and FromTlog
//     convert proofs; Tile and FromTile convert tile names.
//
// It is a module of its own, so that sha256x itself depends on neither
// library: only programs that import logadapt do.
package logadapt

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"golang.org/x/mod/sumdb/tlog"
)

// Hasher is the RFC 6962 merkle.LogHasher of transparency-dev/merkle, its
// hashes computed by sha256x: a drop-in for rfc6962.DefaultHasher, with the
// same hashes. Each call hashes one leaf or node, as that interface asks;
// translog's batches are faster still.
type Hasher struct{}

var _ merkle.LogHasher = Hasher{}

var emptyRoot = translog.EmptyRoot

// EmptyRoot returns the root of a tree of no leaves: SHA-256 of nothing.
func (Hasher) EmptyRoot() []byte { return append([]byte(nil), emptyRoot[:]...) }

// HashLeaf returns SHA-256(0x00 || leaf).
func (Hasher) HashLeaf(leaf []byte) []byte {
	h := translog.LeafHash(leaf)
	return h[:]
}

// HashChildren returns SHA-256(0x01 || l || r). l and r are hashes, 32
// bytes each, as the interface's callers pass them; other lengths are
// hashed as they are too, as rfc6962.Hasher does.
func (Hasher) HashChildren(l, r []byte) []byte {
	if len(l) == sha256x.Size && len(r) == sha256x.Size {
		h := translog.NodeHash([32]byte(l), [32]byte(r))
		return h[:]
	}
	b := make([]byte, 0, 1+len(l)+len(r))
	b = append(append(append(b, 1), l...), r...)
	h := sha256x.Sum256(b)
	return h[:]
}

// Size returns 32.
func (Hasher) Size() int { return sha256x.Size }

// Factory is a compact.RangeFactory that hashes with Hasher.
var Factory = &compact.RangeFactory{Hash: Hasher{}.HashChildren}

// ID converts a transparency-dev node ID to translog's.
func ID(id compact.NodeID) translog.NodeID {
	return translog.NodeID{Level: int(id.Level), Index: id.Index}
}

// CompactID converts a translog node ID to transparency-dev's. It panics
// if the level is not 0 to 63.
func CompactID(id translog.NodeID) compact.NodeID {
	if id.Level < 0 || id.Level > 63 {
		panic("sha256x: logadapt: CompactID of level " + strconv.Itoa(id.Level))
	}
	return compact.NewNodeID(uint(id.Level), id.Index)
}

// FromCompact returns the translog.Range of the same leaves and nodes as r,
// a compact range of transparency-dev/merkle: to go on appending to a
// stored range in batches. It is an error if r's hashes are not 32 bytes
// or not as many as its range has nodes. It panics if r is nil.
func FromCompact(r *compact.Range) (*translog.Range, error) {
	if r == nil {
		panic("sha256x: logadapt: FromCompact of a nil range")
	}
	hs, err := Hashes(r.Hashes())
	if err != nil {
		return nil, err
	}
	return translog.NewRange(r.Begin(), r.End(), hs)
}

// CompactRange returns the compact.Range of factory f with the same leaves
// and nodes as r.
func CompactRange(f *compact.RangeFactory, r *translog.Range) (*compact.Range, error) {
	return f.NewRange(r.Begin(), r.End(), Bytes(r.Hashes()))
}

// Visit returns a translog.Visitor that hands each new node to visit, one
// by one with its compact.NodeID; the hash slice is visit's to keep. The
// nodes and hashes are those that compact.Range.Append (and AppendRange)
// would hand over for the same leaves, each after its children, but in
// translog's order: a batch's leaves first, then its new nodes of level 1,
// and so on up, where compact's visits each leaf and then the nodes it
// completes.
func Visit(visit compact.VisitFn) translog.Visitor {
	return func(level int, index uint64, nodes [][32]byte) {
		for k := range nodes {
			h := nodes[k]
			visit(compact.NewNodeID(uint(level), index+uint64(k)), h[:])
		}
	}
}

// Bytes returns the hashes of a proof as the [][]byte that
// transparency-dev's proof.VerifyInclusion and VerifyConsistency take, in
// the same order: the order of RFC 9162, which both libraries share.
func Bytes(hashes [][32]byte) [][]byte {
	b := make([][]byte, len(hashes))
	flat := make([]byte, len(hashes)*sha256x.Size)
	for i := range hashes {
		b[i] = flat[i*sha256x.Size : (i+1)*sha256x.Size : (i+1)*sha256x.Size]
		copy(b[i], hashes[i][:])
	}
	return b
}

// Hashes returns hashes given as byte slices (a transparency-dev proof, or
// compact range) as translog's. It is an error if one is not 32 bytes.
func Hashes(b [][]byte) ([][32]byte, error) {
	h := make([][32]byte, len(b))
	for i := range b {
		if len(b[i]) != sha256x.Size {
			return nil, errors.New("logadapt: hash " + strconv.Itoa(i) + " has " + strconv.Itoa(len(b[i])) + " bytes, not 32")
		}
		h[i] = [32]byte(b[i])
	}
	return h, nil
}

// Fetch reads the nodes of a transparency-dev proof plan (proof.Inclusion
// or proof.Consistency) from r in one ReadNodes call and rehashes them into
// the proof, as a transparency-dev log server does from its own storage.
func Fetch(n proof.Nodes, r translog.NodeReader) ([][]byte, error) {
	ids := make([]translog.NodeID, len(n.IDs))
	for i, id := range n.IDs {
		ids[i] = ID(id)
	}
	hs := make([][32]byte, len(ids))
	if err := r.ReadNodes(ids, hs); err != nil {
		return nil, err
	}
	return n.Rehash(Bytes(hs), Hasher{}.HashChildren)
}

// ToTlog returns hashes as tlog's: for tlog.RecordProof, tlog.TreeProof,
// or a tlog.HashReader's answer.
func ToTlog(hashes [][32]byte) []tlog.Hash {
	t := make([]tlog.Hash, len(hashes))
	for i := range hashes {
		t[i] = tlog.Hash(hashes[i])
	}
	return t
}

// FromTlog returns tlog's hashes (a tlog.RecordProof or tlog.TreeProof) as
// translog's.
func FromTlog(hashes []tlog.Hash) [][32]byte {
	t := make([][32]byte, len(hashes))
	for i := range hashes {
		t[i] = hashes[i]
	}
	return t
}

// HashReader returns the tlog.HashReader of r: tlog.TreeHash, ProveRecord,
// ProveTree and StoredHashes then read translog's stored nodes, by their
// stored-hash indexes.
func HashReader(r translog.NodeReader) tlog.HashReader {
	return tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		ids := make([]translog.NodeID, len(indexes))
		for i, x := range indexes {
			if x < 0 {
				return nil, fmt.Errorf("logadapt: stored hash index %d", x)
			}
			ids[i] = splitStored(uint64(x))
		}
		hs := make([][32]byte, len(ids))
		if err := r.ReadNodes(ids, hs); err != nil {
			return nil, err
		}
		return ToTlog(hs), nil
	})
}

// splitStored returns the node stored at index x (x < 2^63): what
// tlog.SplitStoredHashIndex returns, in uint64 arithmetic, which cannot
// overflow here. tlog's own loops forever on math.MaxInt64, the index of
// leaf 2^62, where its int64 sum of the next leaf's index overflows.
func splitStored(x uint64) translog.NodeID {
	// Leaf n is stored at 2n - popcount(n) <= x, and each leaf after it
	// 1 + (the nodes that leaf n completes) further on: at most 64 steps.
	n := x / 2
	at := 2*n - uint64(bits.OnesCount64(n))
	for {
		next := at + 1 + uint64(bits.TrailingZeros64(n+1))
		if next > x {
			break
		}
		n, at = n+1, next
	}
	level := int(x - at)
	return translog.NodeID{Level: level, Index: n >> level}
}

// NodeReader returns the translog.NodeReader of r, a store of tlog's
// stored hashes: translog's proofs and roots then come from a log that
// tlog.StoredHashes built.
func NodeReader(r tlog.HashReader) translog.NodeReader {
	return hashReader{r}
}

type hashReader struct{ r tlog.HashReader }

func (h hashReader) ReadNodes(ids []translog.NodeID, out [][32]byte) error {
	if len(out) != len(ids) {
		return errors.New("logadapt: ReadNodes of " + strconv.Itoa(len(ids)) + " nodes into " + strconv.Itoa(len(out)))
	}
	indexes := make([]int64, len(ids))
	for i, id := range ids {
		// Node (l, i) is stored past its last leaf ((i+1)<<l) - 1: below
		// 2^63 that leaf's index, about twice it, fits in a uint64, and
		// the node's then fits in an int64 up to leaf 2^62.
		if id.Level < 0 || id.Level > 63 || id.Index >= 1<<(63-id.Level) ||
			translog.StoredIndex(id.Level, id.Index) > math.MaxInt64 {
			return errors.New("logadapt: node " + id.String() + " has no stored hash index in an int64")
		}
		indexes[i] = int64(translog.StoredIndex(id.Level, id.Index))
	}
	hs, err := h.r.ReadHashes(indexes)
	if err != nil {
		return err
	}
	if len(hs) != len(ids) {
		return errors.New("logadapt: ReadHashes of " + strconv.Itoa(len(ids)) + " indexes returned " + strconv.Itoa(len(hs)) + " hashes")
	}
	for i := range hs {
		out[i] = hs[i]
	}
	return nil
}

// Tile returns t as tlog names it: tlog.Tile{H: 8, L, N, W}. It panics if
// N does not fit tlog's int64, which no tile that translog.ParseTilePath
// returns or that a log has (at most 2^56 a level) comes near.
func Tile(t translog.Tile) tlog.Tile {
	if t.N > math.MaxInt64 {
		panic("sha256x: logadapt: Tile of index " + strconv.FormatUint(t.N, 10) + ", past tlog's int64")
	}
	return tlog.Tile{H: translog.TileHeight, L: t.L, N: int64(t.N), W: t.W}
}

// FromTile returns tlog's tile t as translog names it. It is an error if t
// is not a tile of hashes of height 8 of a tree level below 64 (tile level
// 0 to 7), or not a tile of any log (past the last node of 2^64 - 1
// leaves): what translog.ParseTilePath takes.
func FromTile(t tlog.Tile) (translog.Tile, error) {
	if t.H != translog.TileHeight || t.L < 0 || t.L >= 64/translog.TileHeight || t.N < 0 || t.W < 1 || t.W > translog.TileWidth {
		return translog.Tile{}, fmt.Errorf("logadapt: tile %+v is not a hash tile of height 8", t)
	}
	tile := translog.Tile{L: t.L, N: uint64(t.N), W: t.W}
	if _, err := translog.ParseTilePath(tile.Path()); err != nil {
		return translog.Tile{}, fmt.Errorf("logadapt: tile %+v: %w", t, err)
	}
	return tile, nil
}
