package translog

import (
	"errors"
	"math/bits"
	"strconv"
)

// A Range is a compact range: the leaves begin to end-1 of a log, held as
// the roots of the fewest perfect subtrees that cover them (at most two a
// level, one a level when begin is 0), left to right: all the state a log
// needs to append and to compute its root, O(log n) hashes, with the nodes
// of transparency-dev/merkle's compact.Range, but a batch at a time.
//
// The zero Range is an empty range at 0, ready to grow a log from its
// first entry. A Range keeps scratch memory for its batches (up to
// 4,096 leaves' worth, 256 KiB): after the first batch of a size,
// appending allocates nothing. A Range is not safe for concurrent use;
// copy one with Clone (an assigned copy shares its memory).
type Range struct {
	begin, end uint64
	ids        []NodeID
	hashes     [][Size]byte

	// Scratch: one level of a batch in a, the next hashed into b (then the
	// other way round), each with a free slot in front for the left
	// sibling the level may take from the range.
	a, b  [][Size]byte
	right []rangeNode // a batch's unpaired last nodes, lowest level first
}

type rangeNode struct {
	id   NodeID
	hash [Size]byte
}

// chunkLeaves bounds the leaves appended in one pass: a larger batch is
// appended chunkLeaves at a time, so a Range's scratch stays 256 KiB
// (inside L2) whatever the batch (BENCHMARKS.md, "Constants that measured
// level").
const chunkLeaves = 1 << 12

// NewRange returns the range of leaves begin to end-1 whose compact nodes
// are hashes, left to right, as Range.Hashes returns them (or as
// transparency-dev's compact.Range.Hashes does). NewRange(b, b, nil) is an
// empty range at b. It is an error if end < begin or hashes are not as
// many as the range has nodes. hashes is copied.
func NewRange(begin, end uint64, hashes [][Size]byte) (*Range, error) {
	if end < begin {
		return nil, errors.New("translog: a range from " + itoa(begin) + " to " + itoa(end) + " ends before it begins")
	}
	r := &Range{begin: begin, end: end}
	r.ids = rangeIDs(begin, end, nil)
	if len(hashes) != len(r.ids) {
		return nil, errors.New("translog: the range " + itoa(begin) + " to " + itoa(end) + " has " +
			strconv.Itoa(len(r.ids)) + " nodes, not " + strconv.Itoa(len(hashes)))
	}
	r.hashes = append([][Size]byte(nil), hashes...)
	return r, nil
}

// Begin returns the first leaf of the range.
func (r *Range) Begin() uint64 { return r.begin }

// End returns one past the last leaf of the range: the log's size, for a
// range that begins at 0.
func (r *Range) End() uint64 { return r.end }

// Hashes returns the range's compact nodes, left to right: the range's own
// memory, valid until it next changes. Do not change them.
func (r *Range) Hashes() [][Size]byte { return r.hashes }

// IDs returns the names of the range's compact nodes, left to right: the
// range's own memory, valid until it next changes.
func (r *Range) IDs() []NodeID { return r.ids }

// Clone returns an independent copy of r, without its scratch memory.
func (r *Range) Clone() *Range {
	return &Range{
		begin:  r.begin,
		end:    r.end,
		ids:    append([]NodeID(nil), r.ids...),
		hashes: append([][Size]byte(nil), r.hashes...),
	}
}

// Root returns the root of the tree of the range's leaves: of the log of
// size End, for a range that begins at 0, EmptyRoot for no leaves. It is
// an error if the range does not begin at 0.
func (r *Range) Root() ([Size]byte, error) {
	if r.begin != 0 {
		return [Size]byte{}, errors.New("translog: the root of a range that begins at " + itoa(r.begin) + ", not 0")
	}
	return foldRight(r.hashes), nil
}

// foldRight returns the root over a compact range's nodes, right to left:
// EmptyRoot for none.
func foldRight(h [][Size]byte) [Size]byte {
	if len(h) == 0 {
		return EmptyRoot
	}
	root := h[len(h)-1]
	for i := len(h) - 2; i >= 0; i-- {
		root = NodeHash(h[i], root)
	}
	return root
}

// Append appends leaves whose leaf hashes are leafHashes: each chunk of
// them copied once into the range's scratch, then hashed up level by level.
// visit, unless nil, is handed every new node.
func (r *Range) Append(leafHashes [][Size]byte, visit Visitor) {
	r.checkGrowth(len(leafHashes))
	for len(leafHashes) > 0 {
		k := min(len(leafHashes), chunkLeaves)
		r.scratch(k)
		copy(r.a[1:], leafHashes[:k])
		r.appendChunk(k, visit)
		leafHashes = leafHashes[k:]
	}
}

// AppendEntries appends entries, leaf-hashed in one batched call a chunk
// at a time. visit, unless nil, is handed every new node, the leaf hashes
// first.
func (r *Range) AppendEntries(entries [][]byte, visit Visitor) {
	r.checkGrowth(len(entries))
	for len(entries) > 0 {
		k := min(len(entries), chunkLeaves)
		r.scratch(k)
		LeafHashes(r.a[1:k+1], entries[:k])
		r.appendChunk(k, visit)
		entries = entries[k:]
	}
}

func (r *Range) checkGrowth(k int) {
	if r.end+uint64(k) < r.end {
		panic("sha256x: translog: a log grown past 2^64 - 1 leaves")
	}
}

// scratch makes room for a chunk of k leaves.
func (r *Range) scratch(k int) {
	if len(r.a) < k+1 {
		n := max(k+1, min(2*len(r.a), chunkLeaves+1))
		r.a = make([][Size]byte, n)
		r.b = make([][Size]byte, n/2+2)
	}
}

// appendChunk appends the k leaf hashes at r.a[1:k+1], level by level: at
// each level the new nodes, with the left sibling of the first one when
// the range holds it, are paired and hashed in one call into the other
// scratch buffer. A first node whose left sibling the range begins after
// stays in the range, on its left edge; a last node without a partner, on
// its right edge, until a later append brings its sibling.
func (r *Range) appendChunk(k int, visit Visitor) {
	cur, next := r.a, r.b
	base := 1 // cur[base:base+m] are the level's new nodes
	m := k
	idx := r.end // the index of the first of them in their level
	r.end += uint64(k)
	r.right = r.right[:0]
	for level := 0; ; level++ {
		if visit != nil {
			visit(level, idx, cur[base:base+m])
		}
		lo, start := base, idx // the nodes to pair: cur[lo:base+m], from index start
		if idx&1 == 1 {
			if n := len(r.ids); n > 0 && r.ids[n-1] == (NodeID{level, idx - 1}) {
				cur[base-1] = r.hashes[n-1]
				r.ids, r.hashes = r.ids[:n-1], r.hashes[:n-1]
				lo, start = base-1, idx-1
			} else {
				r.ids = append(r.ids, NodeID{level, idx})
				r.hashes = append(r.hashes, cur[base])
				lo, start = base+1, idx+1
			}
		}
		w := base + m - lo
		pairs := w / 2
		if w&1 == 1 {
			r.right = append(r.right, rangeNode{NodeID{level, start + uint64(w-1)}, cur[base+m-1]})
		}
		if pairs == 0 {
			break
		}
		node.HashLevel(next[1:1+pairs], cur[lo:lo+2*pairs])
		cur, next = next, cur
		base, m, idx = 1, pairs, start/2
	}
	for i := len(r.right) - 1; i >= 0; i-- {
		r.ids = append(r.ids, r.right[i].id)
		r.hashes = append(r.hashes, r.right[i].hash)
	}
}

// AppendRange merges the adjacent range other into r, on its right:
// r then covers r.Begin() to other.End(). visit, unless nil, is handed each
// node the merge creates. It is an error if other does not begin where r
// ends; other is not changed.
func (r *Range) AppendRange(other *Range, visit Visitor) error {
	if other.begin != r.end {
		return errors.New("translog: a range that begins at " + itoa(other.begin) + " appended to one that ends at " + itoa(r.end))
	}
	var one [1][Size]byte
	for i, id := range other.ids {
		r.ids = append(r.ids, id)
		r.hashes = append(r.hashes, other.hashes[i])
		for n := len(r.ids); n >= 2; n = len(r.ids) {
			a, b := r.ids[n-2], r.ids[n-1]
			if a.Level != b.Level || a.Index&1 != 0 || b.Index != a.Index+1 {
				break
			}
			one[0] = NodeHash(r.hashes[n-2], r.hashes[n-1])
			up := NodeID{a.Level + 1, a.Index >> 1}
			r.ids, r.hashes = r.ids[:n-1], r.hashes[:n-1]
			r.ids[n-2], r.hashes[n-2] = up, one[0]
			if visit != nil {
				visit(up.Level, up.Index, one[:])
			}
		}
	}
	r.end = other.end
	return nil
}

// rangeIDs appends to dst the compact nodes of leaves begin to end-1, left
// to right: the nodes of its left edge, rising, then those of its right
// edge, falling. It requires begin <= end.
func rangeIDs(begin, end uint64, dst []NodeID) []NodeID {
	left, right := decompose(begin, end)
	pos := begin
	for left != 0 {
		l := bits.TrailingZeros64(left)
		dst = append(dst, NodeID{l, pos >> l})
		pos += 1 << l
		left &^= 1 << l
	}
	for right != 0 {
		l := bits.Len64(right) - 1
		dst = append(dst, NodeID{l, pos >> l})
		pos += 1 << l
		right &^= 1 << l
	}
	return dst
}

// decompose returns the sizes of a range's perfect subtrees as two bit
// masks: bit l of left is a subtree of 2^l leaves on its left edge, of
// right one on its right edge. Below the level where the paths to leaves
// begin-1 and end part, the left edge is the zero bits of begin-1 and the
// right edge the one bits of end.
func decompose(begin, end uint64) (left, right uint64) {
	if begin == 0 {
		return 0, end
	}
	x := begin - 1
	mask := uint64(1)<<(bits.Len64(x^end)-1) - 1
	return ^x & mask, end & mask
}
