package bench

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"hash"
	"math/bits"
)

// A port of celestiaorg/nmt's hasher and tree root, the baseline of the
// NMT benchmarks (celestiaorg/nmt is not served by the module proxy here).
// It follows, function for function, github.com/celestiaorg/nmt at
// d79269f:
//
//   - hasher.go: NmtHasher's HashLeaf (ns || ns || Sum(0x00 || ndata),
//     the result built by appending to a new slice that h.Sum extends),
//     HashNode (both children's namespace ranges validated, then
//     computeNsRange, then Sum(0x01 || left || right)), ValidateLeaf,
//     tryFetchNodeNSRange / tryFetchLeftAndRightNSRanges, computeNsRange,
//     EmptyRoot; one hash.Hash (crypto/sha256) reset for every node.
//   - nmt.go: New, NamespacedMerkleTree.Push (namespace order checked, the
//     leaf hashed at once, the namespace ranges and min/max updated) and
//     computeRoot / getSplitPoint (the recursion over RFC 6962's split, a
//     HashNode call per node).
//
// Its behaviour is checked against nmt's own test vectors and our
// merkle/nmt against it (nmt_test.go). Nothing of nmt's code is copied.

type portHasher struct {
	base        hash.Hash
	nsLen       int
	ignoreMaxNs bool
	maxNs       []byte
}

func newPortHasher(nsLen int, ignoreMaxNs bool) *portHasher {
	return &portHasher{base: sha256.New(), nsLen: nsLen, ignoreMaxNs: ignoreMaxNs, maxNs: bytes.Repeat([]byte{0xFF}, nsLen)}
}

func (n *portHasher) size() int { return n.base.Size() + 2*n.nsLen }

func (n *portHasher) emptyRoot() []byte {
	n.base.Reset()
	return n.base.Sum(make([]byte, 2*n.nsLen, 2*n.nsLen+n.base.Size()))
}

var (
	errPortLeafLen   = errors.New("invalid NMT leaf size")
	errPortNodeLen   = errors.New("invalid NMT node size")
	errPortNodeOrder = errors.New("invalid NMT node namespace order")
	errPortSiblings  = errors.New("NMT sibling nodes should be ordered lexicographically by namespace IDs")
	errPortPushOrder = errors.New("pushed data has to be lexicographically ordered by namespace IDs")
	errPortRange     = errors.New("invalid proof range")
)

// The prefixes, hasher.go's leafPrefixSlice and nodePrefixSlice: package
// slices, so that a Write of one allocates nothing.
var (
	portLeafPrefix = []byte{0}
	portNodePrefix = []byte{1}
)

// hashLeaf is hasher.go's NmtHasher.HashLeaf.
func (n *portHasher) hashLeaf(ndata []byte) ([]byte, error) {
	h := n.base
	h.Reset()
	if len(ndata) < n.nsLen {
		return nil, errPortLeafLen
	}
	nID := ndata[:n.nsLen]
	res := make([]byte, 0, 2*n.nsLen+h.Size())
	res = append(res, nID...)
	res = append(res, nID...)
	h.Write(portLeafPrefix) // h.Write(leafPrefixSlice)
	h.Write(ndata)
	return h.Sum(res), nil
}

// nsRange is hasher.go's tryFetchNodeNSRange.
func (n *portHasher) nsRange(node []byte) (lo, hi []byte, err error) {
	if len(node) != n.size() {
		return nil, nil, errPortNodeLen
	}
	lo, hi = node[:n.nsLen], node[n.nsLen:2*n.nsLen]
	if bytes.Compare(hi, lo) < 0 {
		return nil, nil, errPortNodeOrder
	}
	return lo, hi, nil
}

// hashNode is hasher.go's NmtHasher.HashNode, with
// tryFetchLeftAndRightNSRanges and computeNsRange.
func (n *portHasher) hashNode(left, right []byte) ([]byte, error) {
	lMin, lMax, err := n.nsRange(left)
	if err != nil {
		return nil, err
	}
	rMin, rMax, err := n.nsRange(right)
	if err != nil {
		return nil, err
	}
	if bytes.Compare(rMin, lMax) < 0 {
		return nil, errPortSiblings
	}
	h := n.base
	h.Reset()
	minNs, maxNs := lMin, rMax
	if n.ignoreMaxNs && bytes.Equal(n.maxNs, rMin) {
		maxNs = lMax
	}
	res := make([]byte, 0, len(minNs)+len(maxNs)+h.Size())
	res = append(res, minNs...)
	res = append(res, maxNs...)
	h.Write(portNodePrefix) // h.Write(nodePrefixSlice)
	h.Write(left)
	h.Write(right)
	return h.Sum(res), nil
}

// portTree is nmt.go's NamespacedMerkleTree, as far as its root: New, Push
// (with the caches Push keeps: namespaceRanges, minNID and maxNID) and
// computeRoot.
type portTree struct {
	h               *portHasher
	leaves          [][]byte
	leafHashes      [][]byte
	namespaceRanges map[string]portLeafRange
	minNID, maxNID  []byte
}

// portLeafRange is nmt.go's LeafRange.
type portLeafRange struct{ start, end int }

// newPortTree is nmt.go's New with the default options but the namespace
// size and IgnoreMaxNamespace: a new hasher over a new crypto/sha256, the
// leaves' slices of DefaultCapacity (128), the namespace map, the minimum
// and maximum namespaces.
func newPortTree(nsLen int, ignoreMaxNs bool) *portTree {
	return &portTree{
		h:               newPortHasher(nsLen, ignoreMaxNs),
		leaves:          make([][]byte, 0, 128),
		leafHashes:      make([][]byte, 0, 128),
		namespaceRanges: make(map[string]portLeafRange),
		minNID:          bytes.Repeat([]byte{0xFF}, nsLen),
		maxNID:          bytes.Repeat([]byte{0x00}, nsLen),
	}
}

// push is nmt.go's Push: the namespace order checked
// (validateAndExtractNamespace), the leaf hashed, updateNamespaceRanges and
// updateMinMaxID.
func (t *portTree) push(ndata []byte) error {
	if len(ndata) < t.h.nsLen {
		return errPortLeafLen
	}
	nID := ndata[:t.h.nsLen]
	if k := len(t.leaves); k > 0 && bytes.Compare(nID, t.leaves[k-1][:t.h.nsLen]) < 0 {
		return errPortPushOrder
	}
	res, err := t.h.hashLeaf(ndata)
	if err != nil {
		return err
	}
	t.leaves = append(t.leaves, ndata)
	t.leafHashes = append(t.leafHashes, res)
	// updateNamespaceRanges (without ReuseBuffers: the key a new string)
	last := len(t.leaves) - 1
	key := string(t.leaves[last][:t.h.nsLen])
	if r, ok := t.namespaceRanges[key]; !ok {
		t.namespaceRanges[key] = portLeafRange{last, last + 1}
	} else {
		t.namespaceRanges[key] = portLeafRange{r.start, r.end + 1}
	}
	// updateMinMaxID
	if bytes.Compare(nID, t.minNID) < 0 {
		t.minNID = nID
	}
	if bytes.Compare(t.maxNID, nID) < 0 {
		t.maxNID = nID
	}
	return nil
}

func (t *portTree) root() ([]byte, error) { return t.computeRoot(0, len(t.leaves)) }

// computeRoot is nmt.go's computeRoot: the range checked at every call,
// then the recursion.
func (t *portTree) computeRoot(start, end int) ([]byte, error) {
	if start < 0 || start > end || end > len(t.leaves) { // if start < 0 || start > end || end > n.Size() {
		return nil, errPortRange // ErrInvalidRange
	}
	switch end - start {
	case 0:
		return t.h.emptyRoot(), nil
	case 1:
		return t.leafHashes[start], nil
	}
	k := portSplit(end - start)
	left, err := t.computeRoot(start, start+k)
	if err != nil {
		return nil, err
	}
	right, err := t.computeRoot(start+k, end)
	if err != nil {
		return nil, err
	}
	return t.h.hashNode(left, right)
}

// portSplit is nmt.go's getSplitPoint: the largest power of two below
// length.
func portSplit(length int) int {
	k := 1 << (bits.Len(uint(length)) - 1)
	if k == length {
		k >>= 1
	}
	return k
}

// portSquareRoots computes an extended data square's row and column roots
// as celestia-app did with nmt before it pooled its trees (nmt's
// ReuseBuffers, its resizeableBufferTree): a tree per row and column, each
// share pushed as ns || share (the share's own namespace in the original
// quadrant, the parity namespace elsewhere), the root computed node by
// node.
func portSquareRoots(shares [][]byte, width, nsLen int) ([][]byte, error) {
	k := width / 2
	parity := bytes.Repeat([]byte{0xFF}, nsLen)
	roots := make([][]byte, 0, 2*width)
	for axis := range 2 {
		for a := range width {
			t := newPortTree(nsLen, true)
			for b := range width {
				i, j := a, b
				if axis == 1 {
					i, j = b, a
				}
				ns := parity
				if i < k && j < k {
					ns = shares[i*width+j][:nsLen]
				}
				leaf := make([]byte, 0, nsLen+len(shares[i*width+j]))
				leaf = append(leaf, ns...)
				leaf = append(leaf, shares[i*width+j]...)
				if err := t.push(leaf); err != nil {
					return nil, err
				}
			}
			r, err := t.root()
			if err != nil {
				return nil, err
			}
			roots = append(roots, r)
		}
	}
	return roots, nil
}
