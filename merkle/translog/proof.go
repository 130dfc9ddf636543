package translog

import (
	"fmt"
	"math/bits"
	"strconv"
	"sync"

	"github.com/sha256x/sha256x/internal/malformed"
)

// MaxProofHashes is the most hashes any proof has: an inclusion proof at
// most 64, a consistency proof at most 65 (in trees of up to 2^64 - 1
// leaves). ParseProof rejects longer data without reading it.
const MaxProofHashes = 65

// A plan is the stored nodes a proof is made of, in the proof's order, the
// ones in ids[eph:ephEnd] (if any) folded into one hash: the root of an
// incomplete subtree on the right edge of the tree (an "ephemeral" node).
type plan struct {
	ids         [2 * maxLevels]NodeID
	n           int
	eph, ephEnd int
	hashes      [2 * maxLevels][Size]byte
}

var planPool = sync.Pool{New: func() any { return new(plan) }}

func (p *plan) add(id NodeID) {
	p.ids[p.n] = id
	p.n++
}

// path plans the inclusion path of node (level, j), the root of a complete
// subtree, in the tree of size leaves: the sibling of each node on the way
// up, lowest first. A sibling to the left is always complete; one to the
// right is complete, or missing (the node is promoted: no entry), or, at
// most once, the incomplete subtree that ends the tree, planned as its
// compact range.
func (p *plan) path(level int, j, size uint64) {
	p.eph, p.ephEnd = 0, 0
	for l := level; (size-1)>>l > 0; l, j = l+1, j>>1 {
		s := j ^ 1
		switch {
		case s < size>>l:
			p.add(NodeID{l, s})
		case s == (size-1)>>l:
			// The incomplete subtree of leaves s<<l to size-1, which is
			// right of j: its compact range has only a right edge.
			p.eph = p.n
			p.n += len(rangeIDs(s<<l, size, p.ids[p.n:p.n:len(p.ids)]))
			p.ephEnd = p.n
		}
	}
}

// read reads the plan's nodes from r and appends the proof to dst.
func (p *plan) read(dst [][Size]byte, r NodeReader) ([][Size]byte, error) {
	if p.n == 0 {
		return dst, nil
	}
	h := p.hashes[:p.n]
	if err := r.ReadNodes(p.ids[:p.n], h); err != nil {
		return dst, err
	}
	if p.ephEnd-p.eph > 1 {
		f := foldRight(h[p.eph:p.ephEnd])
		dst = append(dst, h[:p.eph]...)
		dst = append(dst, f)
		return append(dst, h[p.ephEnd:]...), nil
	}
	return append(dst, h...), nil
}

// InclusionProof appends to dst the inclusion proof (RFC 9162 2.1.3.1, an
// RFC 6962 audit path) of leaf index in the log of size leaves, read from
// r in one ReadNodes call, and returns the extended slice. Any size up to
// what r holds works, not only the latest. It is an error if index >=
// size, or whatever r returns. It allocates nothing beyond dst's growth.
func InclusionProof(dst [][Size]byte, index, size uint64, r NodeReader) ([][Size]byte, error) {
	if index >= size {
		return dst, malformed.New("translog: inclusion proof of leaf " + itoa(index) + " in a log of " + itoa(size) + " leaves")
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	p.n = 0
	p.path(0, index, size)
	return p.read(dst, r)
}

// ConsistencyProof appends to dst the consistency proof (RFC 9162
// 2.1.4.1) that the log of size n extends the log of size m, read from r
// in one ReadNodes call, and returns the extended slice. The proof is
// empty if m is 0 or m == n. It is an error if m > n, or whatever r
// returns. It allocates nothing beyond dst's growth.
func ConsistencyProof(dst [][Size]byte, m, n uint64, r NodeReader) ([][Size]byte, error) {
	if m > n {
		return dst, malformed.New("translog: consistency proof from size " + itoa(m) + " to a smaller size " + itoa(n))
	}
	if m == 0 || m == n {
		return dst, nil
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	p.n = 0
	// The largest complete subtree that ends the old tree, and its path in
	// the new one; the verifier knows that subtree's root when it is the
	// whole old tree, m a power of two.
	level := bits.TrailingZeros64(m)
	j := (m - 1) >> level
	if j != 0 {
		p.add(NodeID{level, j})
	}
	p.path(level, j, n)
	return p.read(dst, r)
}

// TreeRoot returns the root of the log of size leaves from its stored
// nodes, read from r in one ReadNodes call: EmptyRoot for size 0.
func TreeRoot(size uint64, r NodeReader) ([Size]byte, error) {
	if size == 0 {
		return EmptyRoot, nil
	}
	p := planPool.Get().(*plan)
	defer planPool.Put(p)
	ids := rangeIDs(0, size, p.ids[:0])
	h := p.hashes[:len(ids)]
	if err := r.ReadNodes(ids, h); err != nil {
		return [Size]byte{}, err
	}
	return foldRight(h), nil
}

// RootFromInclusion returns the root that proof leads to from the leaf
// hash of leaf index in a log of size leaves (RFC 9162 2.1.3.2). It is an
// error if index >= size or the proof has the wrong number of hashes for
// them.
func RootFromInclusion(index, size uint64, leafHash [Size]byte, proof [][Size]byte) ([Size]byte, error) {
	if index >= size {
		return [Size]byte{}, malformed.New("translog: inclusion of leaf " + itoa(index) + " in a log of " + itoa(size) + " leaves")
	}
	inner := bits.Len64(index ^ (size - 1))
	border := bits.OnesCount64(index >> inner)
	if len(proof) != inner+border {
		return [Size]byte{}, malformed.New("translog: inclusion proof of leaf " + itoa(index) + " in a log of " + itoa(size) +
			" leaves has " + strconv.Itoa(len(proof)) + " hashes, want " + strconv.Itoa(inner+border))
	}
	h := leafHash
	for i, p := range proof[:inner] {
		if index>>i&1 == 0 {
			h = NodeHash(h, p)
		} else {
			h = NodeHash(p, h)
		}
	}
	for _, p := range proof[inner:] {
		h = NodeHash(p, h)
	}
	return h, nil
}

// VerifyInclusion checks that proof shows the leaf of hash leafHash to be
// leaf index of the log of size leaves whose root is root. It returns nil,
// an error wrapping ErrMismatch, or an error saying what is malformed. The
// size and root must come from where the verifier trusts them (a signed
// checkpoint).
func VerifyInclusion(index, size uint64, leafHash [Size]byte, proof [][Size]byte, root [Size]byte) error {
	got, err := RootFromInclusion(index, size, leafHash, proof)
	if err != nil {
		return err
	}
	if got != root {
		return fmt.Errorf("%w: leaf %d of %d leads to root %x, not %x", ErrMismatch, index, size, got, root)
	}
	return nil
}

// RootFromConsistency checks that proof leads from the root oldRoot of the
// log of size m to a log of size n that extends it, and returns the root of
// that log (RFC 9162 2.1.4.2): the caller compares it with the root it was
// given for size n. It returns oldRoot when m == n (the proof must be
// empty). It is an error if m > n, if m is 0 (every log extends the empty
// one: there is no root to compute), if the proof has the wrong number of
// hashes, or (wrapping ErrMismatch) if it does not lead to oldRoot.
func RootFromConsistency(m, n uint64, oldRoot [Size]byte, proof [][Size]byte) ([Size]byte, error) {
	switch {
	case m > n:
		return [Size]byte{}, malformed.New("translog: consistency from size " + itoa(m) + " to a smaller size " + itoa(n))
	case m == 0:
		return [Size]byte{}, malformed.New("translog: no root follows from the empty log")
	case m == n:
		if len(proof) != 0 {
			return [Size]byte{}, malformed.New("translog: consistency proof between equal sizes " + itoa(m) + " has " +
				strconv.Itoa(len(proof)) + " hashes, want 0")
		}
		return oldRoot, nil
	}
	// The proof is the root of the largest complete subtree that ends the
	// old tree (left out when that is the whole old tree, m a power of
	// two), then the path from it to the new root, lowest first: below
	// the level where the paths to leaves m-1 and n-1 part ("inner"), the
	// siblings on either side; above, the left siblings along the right
	// edge ("border"). Both roots follow from the same path: the old one
	// from the left siblings alone.
	shift := bits.TrailingZeros64(m)
	inner := bits.Len64((m-1)^(n-1)) - shift
	border := bits.OnesCount64((m - 1) >> (inner + shift))
	seed, start := oldRoot, 0
	if m != 1<<shift {
		start = 1
	}
	if len(proof) != start+inner+border {
		return [Size]byte{}, malformed.New("translog: consistency proof from size " + itoa(m) + " to " + itoa(n) + " has " +
			strconv.Itoa(len(proof)) + " hashes, want " + strconv.Itoa(start+inner+border))
	}
	if start == 1 {
		seed = proof[0]
	}
	path := proof[start:]
	mask := (m - 1) >> shift
	h1, h2 := seed, seed
	var pairs [4][Size]byte
	var out [2][Size]byte
	for i, p := range path {
		if i < inner && mask>>i&1 == 0 {
			h2 = NodeHash(h2, p) // the old tree ends left of p
			continue
		}
		// p is left of both: two independent joins, hashed side by side.
		pairs[0], pairs[1], pairs[2], pairs[3] = p, h1, p, h2
		node.HashLevel(out[:], pairs[:])
		h1, h2 = out[0], out[1]
	}
	if h1 != oldRoot {
		return [Size]byte{}, fmt.Errorf("%w: the consistency proof from size %d to %d leads to old root %x, not %x", ErrMismatch, m, n, h1, oldRoot)
	}
	return h2, nil
}

// VerifyConsistency checks that proof shows the log of size n and root
// newRoot to extend the log of size m and root oldRoot. For m == 0 the
// proof must be empty and oldRoot EmptyRoot; for m == n, the proof empty
// and the roots equal. It returns nil, an error wrapping ErrMismatch, or an
// error saying what is malformed. The proof comes last, as in
// VerifyInclusion; transparency-dev's takes it before the roots.
func VerifyConsistency(m, n uint64, oldRoot, newRoot [Size]byte, proof [][Size]byte) error {
	if m == 0 {
		if len(proof) != 0 {
			return malformed.New("translog: consistency proof from the empty log has " + strconv.Itoa(len(proof)) + " hashes, want 0")
		}
		if oldRoot != EmptyRoot {
			return fmt.Errorf("%w: the empty log's root is %x, not %x", ErrMismatch, EmptyRoot, oldRoot)
		}
		if n == 0 && newRoot != EmptyRoot {
			return fmt.Errorf("%w: the empty log's root is %x, not %x", ErrMismatch, EmptyRoot, newRoot)
		}
		return nil
	}
	got, err := RootFromConsistency(m, n, oldRoot, proof)
	if err != nil {
		return err
	}
	if got != newRoot {
		return fmt.Errorf("%w: the consistency proof from size %d to %d leads to new root %x, not %x", ErrMismatch, m, n, got, newRoot)
	}
	return nil
}

// ParseProof appends to dst the hashes of a proof sent as bytes, 32 per
// hash (the wire form of RFC 9162's inclusion_path and consistency_path,
// and of tlog's proofs), and returns the extended slice. It is an error if
// data is not a whole number of hashes, or longer than MaxProofHashes
// hashes.
func ParseProof(dst [][Size]byte, data []byte) ([][Size]byte, error) {
	if len(data)%Size != 0 {
		return dst, malformed.New("translog: proof data of " + strconv.Itoa(len(data)) + " bytes is not a whole number of 32-byte hashes")
	}
	if len(data)/Size > MaxProofHashes {
		return dst, malformed.New("translog: proof data of " + strconv.Itoa(len(data)/Size) + " hashes, more than any proof has (" +
			strconv.Itoa(MaxProofHashes) + ")")
	}
	for ; len(data) > 0; data = data[Size:] {
		dst = append(dst, [Size]byte(data[:Size]))
	}
	return dst, nil
}

// AppendProof appends proof's hashes to b, 32 bytes each: the form
// ParseProof reads.
func AppendProof(b []byte, proof [][Size]byte) []byte {
	for _, h := range proof {
		b = append(b, h[:]...)
	}
	return b
}
