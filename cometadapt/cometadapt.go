// Package cometadapt is a drop-in for CometBFT's crypto/merkle
// (github.com/cometbft/cometbft/crypto/merkle): the same roots as its
// HashFromByteSlices and the same proofs, of its own *merkle.Proof type, as
// its ProofsFromByteSlices, computed by sha256x a level at a time (every
// leaf in one batched call, every level in another) instead of a SHA-256
// call per node; and HashFromByteSlicesMany, the roots of many blocks'
// trees at once, each level of every tree in one call.
//
// CometBFT's tree is RFC 6962's (leaf SHA-256(0x00 || item), node
// SHA-256(0x01 || left || right), split at the largest power of two below
// the count, no items SHA-256 of nothing): sha256x's merkle.RFC6962.
//
// It is a module of its own, so that sha256x itself does not depend on
// CometBFT: only programs that import cometadapt do.
package cometadapt

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
	"github.com/sha256x/sha256x/merkle/translog"
)

// Size is the size of a hash in bytes.
const Size = sha256x.Size

// ErrMismatch is the mismatch error of sha256x's verifiers: a well-formed
// proof of another root or leaf.
var ErrMismatch = translog.ErrMismatch

// ErrMalformed is a proof that is not of the shape of any tree: a negative
// or out-of-range index, a hash not 32 bytes long, too many or too few
// aunts.
var ErrMalformed = errors.New("cometadapt: malformed proof")

var scheme = merkle.RFC6962

// Root is HashFromByteSlices without the allocation of its result.
func Root(items [][]byte) [Size]byte {
	return scheme.Root(items)
}

// HashFromByteSlices returns the root of the tree over items, as CometBFT's
// merkle.HashFromByteSlices does. A tree of 4,096 items or more is hashed
// on up to GOMAXPROCS goroutines (merkle.Scheme.Workers).
func HashFromByteSlices(items [][]byte) []byte {
	r := Root(items)
	return r[:]
}

// ProofsFromByteSlices returns the root of the tree over items and the
// proof of each item, as CometBFT's merkle.ProofsFromByteSlices does: its
// Proof.Verify accepts them. The aunts of all the proofs share one
// allocation.
func ProofsFromByteSlices(items [][]byte) (rootHash []byte, proofs []*cmtmerkle.Proof) {
	t := scheme.Build(items)
	r := t.Root()
	rootHash = r[:]
	n := len(items)
	proofs = make([]*cmtmerkle.Proof, n)
	if n == 0 {
		return rootHash, proofs
	}
	// Each aunt is the sibling of the path's node at each level where it
	// has one (RFC 6962: a promoted node has none), read where the tree
	// holds it: the proofs share the tree's memory, as CometBFT's share
	// its nodes' hashes.
	levels := t.Levels()
	ps := make([]cmtmerkle.Proof, n)
	aunts := make([][]byte, 0, n*(len(levels)-1))
	for i := range proofs {
		ps[i] = cmtmerkle.Proof{Total: int64(n), Index: int64(i), LeafHash: levels[0][i][:]}
		start := len(aunts)
		j := i
		for _, lv := range levels[:len(levels)-1] {
			if j^1 < len(lv) {
				aunts = append(aunts, lv[j^1][:])
			}
			j >>= 1
		}
		ps[i].Aunts = aunts[start:len(aunts):len(aunts)]
		proofs[i] = &ps[i]
	}
	return rootHash, proofs
}

// LeafHash is CometBFT's leaf hash, SHA-256(0x00 || item).
func LeafHash(item []byte) [Size]byte {
	return scheme.LeafHash(item)
}

// VerifyProof verifies p, a proof from CometBFT or from
// ProofsFromByteSlices, that leaf is item p.Index of p.Total under
// rootHash. It returns nil when it does, an error wrapping ErrMismatch for
// a well-formed proof of another root or leaf, and one wrapping
// ErrMalformed for a proof of no tree. It accepts what CometBFT's
// Proof.Verify accepts with hashes of 32 bytes (what ValidateBasic and
// every CometBFT proof have), and rejects other lengths.
func VerifyProof(p *cmtmerkle.Proof, rootHash, leaf []byte) error {
	// The proof's shape first: a proof of no tree is ErrMalformed whatever
	// leaf it is checked against.
	err := VerifyLeafHash(p, rootHash)
	if errors.Is(err, ErrMalformed) {
		return err
	}
	if h := LeafHash(leaf); [Size]byte(p.LeafHash) != h {
		return mismatch(fmt.Sprintf("the proof's leaf hash is %x, not the leaf's %x", p.LeafHash, h))
	}
	return err
}

// VerifyLeafHash is VerifyProof of p.LeafHash, the leaf already hashed.
func VerifyLeafHash(p *cmtmerkle.Proof, rootHash []byte) error {
	switch {
	case p == nil:
		return malformed("a nil proof")
	case len(rootHash) != Size:
		return malformed("a root of " + strconv.Itoa(len(rootHash)) + " bytes")
	case len(p.LeafHash) != Size:
		return malformed("a leaf hash of " + strconv.Itoa(len(p.LeafHash)) + " bytes")
	case p.Total <= 0 || p.Index < 0 || p.Index >= p.Total:
		return malformed("index " + strconv.FormatInt(p.Index, 10) + " of " + strconv.FormatInt(p.Total, 10) + " items")
	case len(p.Aunts) > cmtmerkle.MaxAunts:
		return malformed(strconv.Itoa(len(p.Aunts)) + " aunts, more than CometBFT's limit")
	}
	// RFC 9162's audit path check, bottom up: fn is the node's index in its
	// level, sn the level's last index.
	var buf [1 + 2*Size]byte
	buf[0] = 1
	r := [Size]byte(p.LeafHash)
	fn, sn := uint64(p.Index), uint64(p.Total-1)
	for i, a := range p.Aunts {
		if len(a) != Size {
			return malformed("aunt " + strconv.Itoa(i) + " of " + strconv.Itoa(len(a)) + " bytes")
		}
		if sn == 0 {
			return malformed("more aunts than the tree has levels")
		}
		if fn&1 == 1 || fn == sn {
			copy(buf[1:], a)
			copy(buf[1+Size:], r[:])
			for fn&1 == 0 && fn != 0 {
				fn, sn = fn>>1, sn>>1
			}
		} else {
			copy(buf[1:], r[:])
			copy(buf[1+Size:], a)
		}
		r = sha256x.Sum256(buf[:])
		fn, sn = fn>>1, sn>>1
	}
	if sn != 0 {
		return malformed("fewer aunts than the tree has levels")
	}
	if r != [Size]byte(rootHash) {
		return mismatch(fmt.Sprintf("item %d of %d leads to root %x, not %x", p.Index, p.Total, r, rootHash))
	}
	return nil
}

func malformed(what string) error { return wrapped{ErrMalformed, what} }
func mismatch(what string) error  { return wrapped{ErrMismatch, what} }

type wrapped struct {
	err  error
	what string
}

func (w wrapped) Error() string { return "cometadapt: " + w.what }
func (w wrapped) Unwrap() error { return w.err }

// HashFromByteSlicesMany sets roots[i] to HashFromByteSlices(blocks[i]) for
// every block: the leaves of all the trees hashed in one batched call, then
// each level of every tree in one call, so that many small trees (the
// blocks a node catching up hashes) fill the lanes as one large tree does.
// Blocks are taken in groups of at most 64Ki items and blocks together (a
// larger block in a group of its own), so that the working memory stays
// bounded by the larger of 64Ki hashes and the largest block, however many
// blocks there are; it is pooled, and after warm-up the call allocates
// nothing. Every tree is hashed on the calling goroutine.
//
// It panics with a message starting "sha256x: " if len(roots) <
// len(blocks).
func HashFromByteSlicesMany(roots [][Size]byte, blocks [][][]byte) {
	if len(roots) < len(blocks) {
		panic("sha256x: cometadapt: len(roots) = " + strconv.Itoa(len(roots)) + " < len(blocks) = " + strconv.Itoa(len(blocks)))
	}
	sc := manyPool.Get().(*manyScratch)
	defer manyPool.Put(sc)
	sc.many(roots, blocks)
}

// many hashes the roots of blocks a group at a time.
func (sc *manyScratch) many(roots [][Size]byte, blocks [][][]byte) {
	for start := 0; start < len(blocks); {
		end, items := start, 0
		for end < len(blocks) && (end == start || items+len(blocks[end])+(end-start+1) <= groupItems) {
			items += len(blocks[end])
			end++
		}
		sc.group(roots[start:end], blocks[start:end], items)
		start = end
	}
}

// groupItems bounds the items and blocks of one group of
// HashFromByteSlicesMany: each block takes a hash of scratch besides its
// items (an empty block's root too), so that counting the items alone let
// a group of empty blocks grow without bound.
const groupItems = 1 << 16

var (
	manyPool  = sync.Pool{New: func() any { return new(manyScratch) }}
	emptyRoot = sha256x.Sum256(nil)
	leafJoin  = []byte{0}
	nodeJoin  = sha256x.Join{Prefix: []byte{1}}
)

type manyScratch struct {
	msgs [][]byte     // every item of the group, in order
	a, b [][Size]byte // a level, each tree's nodes from an even index; the hashes of it
	live []liveTree   // the trees with two nodes or more
}

// A liveTree is a tree still being reduced: its root's index, and where its
// level's nodes lie in manyScratch.a.
type liveTree struct {
	root, at, n int
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// group hashes the roots of blocks, which hold items items between them.
func (sc *manyScratch) group(roots [][Size]byte, blocks [][][]byte, items int) {
	sc.msgs = sc.msgs[:0]
	for _, b := range blocks {
		sc.msgs = append(sc.msgs, b...)
	}
	// The leaves, packed into b, then laid out in a from even indices.
	sc.b = grow(sc.b, items+len(blocks))
	sc.a = grow(sc.a, items+len(blocks))
	sha256x.HashManyPrefixed(sc.b, leafJoin, sc.msgs)
	clear(sc.msgs) // hold no item
	sc.live = sc.live[:0]
	from, at := 0, 0
	for i, b := range blocks {
		switch len(b) {
		case 0:
			roots[i] = emptyRoot
		case 1:
			roots[i] = sc.b[from]
		default:
			copy(sc.a[at:], sc.b[from:from+len(b)])
			sc.live = append(sc.live, liveTree{root: i, at: at, n: len(b)})
			at += len(b) + len(b)&1
		}
		from += len(b)
	}
	// Each level of every tree: a's pairs hashed into b in one call (an
	// odd last node's pair with the slot after it is hashed and dropped),
	// then b's parents laid out in a again from even indices, each odd
	// last node promoted as it is.
	for len(sc.live) > 0 {
		nodeJoin.HashLevel(sc.b[:at/2], sc.a[:at])
		at = 0
		live := sc.live[:0]
		for _, t := range sc.live {
			m := t.n / 2
			copy(sc.a[at:], sc.b[t.at/2:t.at/2+m])
			if t.n&1 == 1 {
				sc.a[at+m] = sc.a[t.at+t.n-1]
				m++
			}
			if m == 1 {
				roots[t.root] = sc.a[at]
				continue
			}
			live = append(live, liveTree{root: t.root, at: at, n: m})
			at += m + m&1
		}
		sc.live = live
	}
}
