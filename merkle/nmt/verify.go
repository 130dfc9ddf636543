package nmt

import (
	"bytes"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/malformed"
)

// VerifyInclusion checks that proof shows leaves, namespaced data that all
// share one namespace, to be the leaves proof.Start to proof.End-1 of the
// tree of root root (nmt's Proof.VerifyInclusion, which takes them without
// their namespace: no completeness). The empty proof proves no leaves. It
// returns nil, an error wrapping ErrMismatch, or an error saying what is
// malformed. As nmt's, the verifiers take no tree size: a proof fixes its
// leaves' positions only as far as its nodes do (a range at the end of a
// tree also verifies shifted to where a larger tree would have it).
func (h Hasher) VerifyInclusion(root []byte, leaves [][]byte, proof Proof) error {
	h.NodeSize() // checks the namespace size
	if proof.Start == proof.End {
		if !proof.IsEmpty() || len(leaves) != 0 {
			return malformed.New("nmt: an empty range with nodes, a leaf hash or leaves")
		}
		return nil
	}
	if proof.IsAbsence() {
		return malformed.New("nmt: an absence proof proves the inclusion of no leaf")
	}
	if len(leaves) == 0 {
		return malformed.New("nmt: no leaves")
	}
	ns := h.NamespaceSize
	if len(leaves[0]) < ns {
		return malformed.New("nmt: a leaf shorter than its namespace")
	}
	hashes, err := h.leafHashes(leaves[0][:ns], leaves)
	if err != nil {
		return err
	}
	return h.verify(root, leaves[0][:ns], hashes, proof, false)
}

// VerifyNamespace checks that proof shows leaves to be all the leaves of
// namespace ns in the tree of root root (nmt's Proof.VerifyNamespace): an
// inclusion proof of the leaves, complete (the nodes left of the range are
// all below ns, those right of it all above); an absence proof (no leaves:
// the leaf at proof.Start, of node proof.LeafHash, is above ns, and the
// nodes left of it below); or the empty proof, for an ns outside the
// root's namespace range or an empty tree. The spec's short absence
// proofs (LeafHash a node above that leaf, clear of ns, Start its index in
// its level) verify as in nmt. It returns nil, an error wrapping
// ErrMismatch, or an error saying what is malformed.
func (h Hasher) VerifyNamespace(root, ns []byte, leaves [][]byte, proof Proof) error {
	h.NodeSize() // checks the namespace size
	if len(ns) != h.NamespaceSize {
		return malformed.New("nmt: a namespace of " + strconv.Itoa(len(ns)) + " bytes, want " + strconv.Itoa(h.NamespaceSize))
	}
	if proof.Start == proof.End {
		if !proof.IsEmpty() || len(leaves) != 0 {
			return malformed.New("nmt: an empty range with nodes, a leaf hash or leaves")
		}
		if err := h.CheckNode(root); err != nil {
			return err
		}
		if bytes.Compare(ns, h.MinNamespace(root)) < 0 || bytes.Compare(h.MaxNamespace(root), ns) < 0 || bytes.Equal(root, h.EmptyRoot()) {
			return nil
		}
		return fmt.Errorf("%w: an empty proof for a namespace inside the root's range", ErrMismatch)
	}
	var hashes [][]byte
	if proof.IsAbsence() {
		if len(leaves) != 0 {
			return malformed.New("nmt: an absence proof with leaves")
		}
		if err := h.CheckNode(proof.LeafHash); err != nil {
			return err
		}
		if bytes.Compare(ns, h.MinNamespace(proof.LeafHash)) >= 0 {
			return fmt.Errorf("%w: the absence proof's leaf is not above the namespace", ErrMismatch)
		}
		hashes = [][]byte{proof.LeafHash}
	} else {
		var err error
		if hashes, err = h.leafHashes(ns, leaves); err != nil {
			return err
		}
	}
	return h.verify(root, ns, hashes, proof, true)
}

// leafHashes hashes leaves, in one batched call, into nodes; it is an error
// if one is not of namespace ns.
func (h Hasher) leafHashes(ns []byte, leaves [][]byte) ([][]byte, error) {
	size := h.NamespaceSize
	for i, leaf := range leaves {
		if len(leaf) < size || !bytes.Equal(leaf[:size], ns) {
			return nil, malformed.New("nmt: leaf " + strconv.Itoa(i) + " is not of the namespace")
		}
	}
	out := make([][sha256x.Size]byte, len(leaves))
	sha256x.HashManyPrefixed(out, leafPrefix, leaves)
	nl := h.NodeSize()
	flat := make([]byte, len(leaves)*nl)
	hashes := make([][]byte, len(leaves))
	for i := range leaves {
		n := flat[i*nl : (i+1)*nl : (i+1)*nl]
		copy(n, ns)
		copy(n[size:], ns)
		copy(n[2*size:], out[i][:])
		hashes[i] = n
	}
	return hashes, nil
}

// maxLeaves bounds a proof's range, so that the tree rootOf walks has a
// size an int holds: 2^48 leaves where an int has 64 bits, 2^24 where 32.
const maxLeaves = 1 << (bits.UintSize * 3 / 4)

// verify checks a non-empty proof of the leaf nodes hashes.
func (h Hasher) verify(root, ns []byte, hashes [][]byte, proof Proof, complete bool) error {
	if proof.Start < 0 || proof.Start >= proof.End || proof.End > maxLeaves {
		return malformed.New("nmt: a proof of the range [" + strconv.Itoa(proof.Start) + ", " + strconv.Itoa(proof.End) + ")")
	}
	if len(hashes) != proof.End-proof.Start {
		return malformed.New("nmt: " + strconv.Itoa(len(hashes)) + " leaves for the range [" + strconv.Itoa(proof.Start) + ", " +
			strconv.Itoa(proof.End) + ")")
	}
	if err := h.CheckNode(root); err != nil {
		return err
	}
	for _, n := range proof.Nodes {
		if err := h.CheckNode(n); err != nil {
			return err
		}
	}
	if complete {
		if err := h.complete(ns, proof); err != nil {
			return err
		}
	}
	got, err := h.rootOf(hashes, proof)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, root) {
		return fmt.Errorf("%w: the proof of [%d, %d) leads to root %x, not %x", ErrMismatch, proof.Start, proof.End, got, root)
	}
	return nil
}

// complete checks that the nodes left of the range are all below ns and
// those right of it all above: the nodes that cover leaves 0 to Start-1
// come first, each the largest subtree that starts where the last ended.
func (h Hasher) complete(ns []byte, proof Proof) error {
	nodes := proof.Nodes
	at := uint64(0)
	start := uint64(proof.Start)
	for at != start && len(nodes) > 0 {
		k := bits.TrailingZeros64(at)
		if m := bits.Len64(start-at) - 1; k > m {
			k = m
		}
		if bytes.Compare(ns, h.MaxNamespace(nodes[0])) <= 0 {
			return fmt.Errorf("%w: a node left of the range reaches the namespace", ErrMismatch)
		}
		nodes = nodes[1:]
		at += 1 << k
	}
	if at != start {
		return malformed.New("nmt: too few nodes left of the range")
	}
	for _, n := range nodes {
		if bytes.Compare(h.MinNamespace(n), ns) <= 0 {
			return fmt.Errorf("%w: a node right of the range reaches the namespace", ErrMismatch)
		}
	}
	return nil
}

// rootOf computes the root from the leaf nodes and the proof's nodes, as
// nmt does, with no tree size: the tree of 2*split(End) leaves (split the
// largest power of two below End), its subtrees outside the range taken
// from the nodes in order (a missing one ends the tree there), then the
// nodes left over joined on the right.
func (h Hasher) rootOf(hashes [][]byte, proof Proof) ([]byte, error) {
	nodes := proof.Nodes
	pop := func(s *[][]byte) []byte {
		if len(*s) == 0 {
			return nil
		}
		n := (*s)[0]
		*s = (*s)[1:]
		return n
	}
	var rec func(s, e int) ([]byte, error)
	rec = func(s, e int) ([]byte, error) {
		if e-s == 1 && s >= proof.Start && s < proof.End {
			return pop(&hashes), nil
		}
		if e-s == 1 || e <= proof.Start || s >= proof.End {
			return pop(&nodes), nil
		}
		k := (e - s) / 2 // e - s is a power of two
		left, err := rec(s, s+k)
		if err != nil {
			return nil, err
		}
		right, err := rec(s+k, e)
		if err != nil || right == nil {
			return left, err
		}
		if left == nil {
			return nil, malformed.New("nmt: too few nodes in the proof")
		}
		return h.HashNode(nil, left, right)
	}
	w := 1
	if proof.End > 1 {
		w = 2 << (bits.Len(uint(proof.End-1)) - 1)
	}
	root, err := rec(0, w)
	if err != nil {
		return nil, err
	}
	if root == nil || len(hashes) != 0 {
		return nil, malformed.New("nmt: too few nodes in the proof")
	}
	for _, n := range nodes {
		if root, err = h.HashNode(nil, root, n); err != nil {
			return nil, err
		}
	}
	return root, nil
}
