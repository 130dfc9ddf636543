package translog

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/sha256x/sha256x/internal/malformed"
)

// Subtrees of a log, as Merkle Tree Certificates use them
// (draft-ietf-plants-merkle-tree-certs, "Subtrees"): the tree over the
// entries start to end-1 of a log, MTH(D[start:end]), where start is a
// multiple of the smallest power of two >= end - start. Such a subtree is a
// node of every log of end leaves or more (on its right edge when it is not
// perfect), so its root and proofs come from the log's stored nodes. A CA
// proves a certificate's inclusion in a subtree (SubtreeInclusionProof),
// and the subtree's consistency with a log a relying party trusts
// (SubtreeConsistencyProof); CoveringSubtrees picks the at most two
// subtrees that cover a range of entries.

// A Subtree is the range of leaves Start to End-1 of a log.
type Subtree struct {
	Start, End uint64
}

// Len returns the number of leaves of the subtree.
func (s Subtree) Len() uint64 { return s.End - s.Start }

func (s Subtree) String() string { return "[" + itoa(s.Start) + ", " + itoa(s.End) + ")" }

// CheckSubtree returns nil if [start, end) is a subtree: start <= end, and
// start 0 or a multiple of the smallest power of two >= end - start. The
// empty range (start == end) is a subtree, of root EmptyRoot.
func CheckSubtree(start, end uint64) error {
	switch {
	case start > end:
		return malformed.New("translog: subtree [" + itoa(start) + ", " + itoa(end) + ") starts after it ends")
	case start == 0 || start == end:
		return nil
	}
	n := end - start
	if n > 1<<63 || start&(1<<bits.Len64(n-1)-1) != 0 {
		return malformed.New("translog: [" + itoa(start) + ", " + itoa(end) + ") is not a subtree: " + itoa(start) +
			" is not a multiple of the smallest power of two >= " + itoa(n))
	}
	return nil
}

// CoveringSubtrees returns the two adjacent subtrees that cover the leaves
// start to end-1, the draft's "Selecting Two Subtrees": left, a perfect
// subtree that may begin before start (by less than half its size), and
// right, which ends at end and may be empty (right.Start == right.End ==
// end, when end - start <= 1). A range that is itself a subtree is still
// cut in two. It is an error if start > end.
func CoveringSubtrees(start, end uint64) (left, right Subtree, err error) {
	if start > end {
		return Subtree{}, Subtree{}, errors.New("translog: range [" + itoa(start) + ", " + itoa(end) + ") starts after it ends")
	}
	if end-start <= 1 {
		return Subtree{start, end}, Subtree{end, end}, nil
	}
	// The paths to the first and last leaves part at level k+1: the right
	// subtree is the last leaf's side of level k, the left one the
	// smallest aligned block on start's side that reaches it.
	k := bits.Len64(start^(end-1)) - 1
	mid := (end - 1) >> k << k
	z := bits.Len64(^start & (1<<k - 1))
	return Subtree{start >> z << z, mid}, Subtree{mid, end}, nil
}

// SubtreeRoot returns the root of the subtree [start, end) from a log's
// stored nodes, read from r in one ReadNodes call (r must hold a log of at
// least end leaves): EmptyRoot for an empty subtree. It is an error if
// [start, end) is not a subtree, or whatever r returns.
func SubtreeRoot(start, end uint64, r NodeReader) ([Size]byte, error) {
	if err := CheckSubtree(start, end); err != nil {
		return [Size]byte{}, err
	}
	if start == end {
		return EmptyRoot, nil
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	ids := rangeIDs(start, end, p.ids[:0])
	h := p.hashes[:len(ids)]
	if err := r.ReadNodes(ids, h); err != nil {
		return [Size]byte{}, err
	}
	return foldRight(h), nil
}

// SubtreeInclusionProof appends to dst the proof that leaf index is in the
// subtree [start, end), read from a log's stored nodes in one ReadNodes
// call, and returns the extended slice: the inclusion proof of leaf
// index - start in the tree of the subtree's leaves. It is an error if
// [start, end) is not a subtree or index is outside it, or whatever r
// returns. It allocates nothing beyond dst's growth.
func SubtreeInclusionProof(dst [][Size]byte, index, start, end uint64, r NodeReader) ([][Size]byte, error) {
	if err := checkSubtreeIndex(index, start, end); err != nil {
		return dst, err
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	p.n = 0
	p.path(0, index-start, end-start)
	// The subtree's nodes are the log's, shifted right by start (start is
	// a multiple of the subtree's width, hence of every node's in it).
	for i := range p.ids[:p.n] {
		p.ids[i].Index += start >> p.ids[i].Level
	}
	return p.read(dst, r)
}

func checkSubtreeIndex(index, start, end uint64) error {
	if err := CheckSubtree(start, end); err != nil {
		return err
	}
	if index < start || index >= end {
		return malformed.New("translog: leaf " + itoa(index) + " is not in the subtree [" + itoa(start) + ", " + itoa(end) + ")")
	}
	return nil
}

// RootFromSubtreeInclusion returns the subtree root that proof leads to
// from the leaf hash of leaf index in the subtree [start, end). It is an
// error if [start, end) is not a subtree, index is outside it, or the
// proof has the wrong number of hashes.
func RootFromSubtreeInclusion(index, start, end uint64, leafHash [Size]byte, proof [][Size]byte) ([Size]byte, error) {
	if err := checkSubtreeIndex(index, start, end); err != nil {
		return [Size]byte{}, err
	}
	return RootFromInclusion(index-start, end-start, leafHash, proof)
}

// VerifySubtreeInclusion checks that proof shows the leaf of hash leafHash
// to be leaf index of the subtree [start, end) of root subRoot. It returns
// nil, an error wrapping ErrMismatch, or an error saying what is
// malformed.
func VerifySubtreeInclusion(index, start, end uint64, leafHash [Size]byte, proof [][Size]byte, subRoot [Size]byte) error {
	got, err := RootFromSubtreeInclusion(index, start, end, leafHash, proof)
	if err != nil {
		return err
	}
	if got != subRoot {
		return fmt.Errorf("%w: leaf %d of the subtree [%d, %d) leads to root %x, not %x", ErrMismatch, index, start, end, got, subRoot)
	}
	return nil
}

// SubtreeConsistencyProof appends to dst the proof that the subtree
// [start, end) is part of the log of size leaves, read from r in one
// ReadNodes call, and returns the extended slice. For start 0 it is the
// consistency proof from size end to size. The proof is empty if the
// subtree is empty or the whole log. It is an error if [start, end) is not
// a subtree, if end > size, or whatever r returns. It allocates nothing
// beyond dst's growth.
func SubtreeConsistencyProof(dst [][Size]byte, start, end, size uint64, r NodeReader) ([][Size]byte, error) {
	if err := CheckSubtree(start, end); err != nil {
		return dst, err
	}
	if end > size {
		return dst, malformed.New("translog: subtree [" + itoa(start) + ", " + itoa(end) + ") ends past a log of " + itoa(size) + " leaves")
	}
	if start == end || start == 0 && end == size {
		return dst, nil
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	p.n = 0
	if end == size {
		// The subtree is a node on the log's right edge: its path up,
		// which has only left siblings.
		l := bits.Len64((end - 1) ^ start)
		p.path(l, start>>l, size)
		return p.read(dst, r)
	}
	// The largest perfect subtree that ends the subtree (unless that is
	// the subtree itself, whose root the verifier knows), then its path
	// in the log.
	l := bits.TrailingZeros64(end - start)
	j := (end - 1) >> l
	if end-start != 1<<l {
		p.add(NodeID{l, j})
	}
	p.path(l, j, size)
	return p.read(dst, r)
}

// RootFromSubtreeConsistency checks that proof leads from the root subRoot
// of the subtree [start, end) to a log of size leaves that contains it,
// and returns that log's root: the caller compares it with the root it
// trusts. It returns subRoot when the subtree is the whole log (the proof
// must be empty), EmptyRoot for an empty subtree of the empty log. It is
// an error if [start, end) is not a subtree, end > size, the subtree is
// empty and the log is not (no root follows), the proof has the wrong
// number of hashes, or (wrapping ErrMismatch) it does not lead to subRoot.
func RootFromSubtreeConsistency(start, end, size uint64, subRoot [Size]byte, proof [][Size]byte) ([Size]byte, error) {
	if err := CheckSubtree(start, end); err != nil {
		return [Size]byte{}, err
	}
	want := 0
	switch {
	case end > size:
		return [Size]byte{}, malformed.New("translog: subtree [" + itoa(start) + ", " + itoa(end) + ") ends past a log of " + itoa(size) + " leaves")
	case start == end && size != 0:
		return [Size]byte{}, malformed.New("translog: no root follows from the empty subtree [" + itoa(start) + ", " + itoa(end) + ")")
	case start == end:
		if subRoot != EmptyRoot {
			return [Size]byte{}, fmt.Errorf("%w: the empty subtree's root is %x, not %x", ErrMismatch, EmptyRoot, subRoot)
		}
	case start == 0 && end == size:
	case end == size:
		want = bits.OnesCount64(start >> bits.Len64((end-1)^start))
	default:
		return rootFromSubtreeConsistency(start, end, size, subRoot, proof)
	}
	if len(proof) != want {
		return [Size]byte{}, errSubtreeProofLen(start, end, size, len(proof), want)
	}
	// The subtree is on the log's right edge: the proof is the left
	// siblings of its path up, lowest first.
	h := subRoot
	for _, p := range proof {
		h = NodeHash(p, h)
	}
	return h, nil
}

func errSubtreeProofLen(start, end, size uint64, got, want int) error {
	return malformed.New("translog: consistency proof of the subtree [" + itoa(start) + ", " + itoa(end) + ") in a log of " + itoa(size) +
		" leaves has " + strconv.Itoa(got) + " hashes, want " + strconv.Itoa(want))
}

// rootFromSubtreeConsistency is RootFromSubtreeConsistency for a non-empty
// subtree that ends before the log does.
func rootFromSubtreeConsistency(start, end, size uint64, subRoot [Size]byte, proof [][Size]byte) ([Size]byte, error) {
	// The proof is the root of the largest perfect subtree that ends the
	// subtree (left out when that is the whole subtree), then the path
	// from it to the log's root, lowest first: below the level where the
	// paths to leaves end-1 and size-1 part ("inner"), the siblings on
	// either side; above, the left siblings along the right edge
	// ("border"). The subtree's root follows from the path's first left
	// siblings: those below the subtree's own height.
	shift := bits.TrailingZeros64(end - start)
	inner := bits.Len64((end-1)^(size-1)) - shift
	border := bits.OnesCount64((end - 1) >> (inner + shift))
	mask := (end - 1) >> shift
	first := 1
	if end-start == 1<<shift {
		first = 0
	}
	if len(proof) != first+inner+border {
		return [Size]byte{}, errSubtreeProofLen(start, end, size, len(proof), first+inner+border)
	}
	seed := subRoot
	if first == 1 {
		seed = proof[0]
	}
	height := bits.Len64((end - 1) ^ start)
	own := bits.OnesCount64(mask & (1<<uint(height-shift) - 1))
	h1, h2 := seed, seed
	var pairs [4][Size]byte
	var out [2][Size]byte
	for i, p := range proof[first:] {
		switch {
		case i < inner && mask>>i&1 == 0:
			h2 = NodeHash(h2, p) // right of the subtree
		case own > 0:
			// p is left of both: two independent joins, side by side.
			own--
			pairs[0], pairs[1], pairs[2], pairs[3] = p, h1, p, h2
			node.HashLevel(out[:], pairs[:])
			h1, h2 = out[0], out[1]
		default:
			h2 = NodeHash(p, h2) // left of the subtree
		}
	}
	if h1 != subRoot {
		return [Size]byte{}, fmt.Errorf("%w: the consistency proof of the subtree [%d, %d) in a log of %d leaves leads to subtree root %x, not %x",
			ErrMismatch, start, end, size, h1, subRoot)
	}
	return h2, nil
}

// VerifySubtreeConsistency checks that proof shows the subtree [start,
// end) of root subRoot to be part of the log of size leaves and root root.
// An empty subtree is part of every log of size >= end: its root must be
// EmptyRoot and its proof empty, whatever root is. It returns nil, an
// error wrapping ErrMismatch, or an error saying what is malformed.
func VerifySubtreeConsistency(start, end, size uint64, subRoot, root [Size]byte, proof [][Size]byte) error {
	if start == end && end <= size {
		if len(proof) != 0 {
			return errSubtreeProofLen(start, end, size, len(proof), 0)
		}
		if subRoot != EmptyRoot {
			return fmt.Errorf("%w: the empty subtree's root is %x, not %x", ErrMismatch, EmptyRoot, subRoot)
		}
		return nil
	}
	got, err := RootFromSubtreeConsistency(start, end, size, subRoot, proof)
	if err != nil {
		return err
	}
	if got != root {
		return fmt.Errorf("%w: the consistency proof of the subtree [%d, %d) in a log of %d leaves leads to root %x, not %x",
			ErrMismatch, start, end, size, got, root)
	}
	return nil
}
