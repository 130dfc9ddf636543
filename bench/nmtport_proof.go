package bench

import (
	"bytes"
	"errors"
	"math/bits"
	"slices"
)

// The proof side of the port of celestiaorg/nmt (nmtport.go has the hasher
// and the root), the reference that merkle/nmt's proofs are checked against
// both ways (nmt_proof_test.go). It follows, function for function,
// github.com/celestiaorg/nmt at d79269f, as nmtport.go does:
//
//   - proof.go: Proof (start, end, nodes, leafHash,
//     isMaxNamespaceIDIgnored), IsOfAbsence, IsEmptyProof,
//     isValidEmptyRangeProof, ComputeAndValidateLeafHashes,
//     ComputePrefixedLeafHashes, VerifyNamespace, validateProofStructure,
//     validateNamespace, validateCompleteness,
//     ComputeRootWithBasicValidation, computeRoot, VerifyLeafHashes,
//     VerifyInclusion, nextSubtreeSize, popIfNonEmpty.
//   - nmt.go: Prove, ProveRange, ProveNamespace (the empty proof for an
//     empty tree and for a namespace outside the root's range, an absence
//     proof of the leaf calculateAbsenceIndex finds, else the inclusion
//     proof of the namespace's range), validateRange, buildRangeProof,
//     Get, calculateAbsenceIndex, foundInRange.
//
// The verifiers take the base hash as nmt's do only to build an NmtHasher
// of the namespace's size and the proof's isMaxNamespaceIDIgnored: here
// newPortHasher(len(nID), proof.isMaxNamespaceIDIgnored), always over
// crypto/sha256. Nothing of nmt's code is copied.

// portProof is proof.go's Proof.
type portProof struct {
	start, end              int
	nodes                   [][]byte
	leafHash                []byte
	isMaxNamespaceIDIgnored bool
}

var (
	errPortCompleteness   = errors.New("failed completeness check") // ErrFailedCompletenessCheck
	errPortLeafHashesSize = errors.New("wrong leafHashes size")     // ErrWrongLeafHashesSize
	errPortLeafNamespace  = errors.New("leaf hash of another namespace")
	errPortNsSize         = errors.New("namespace ID size does not match the hasher's")
	errPortLeafData       = errors.New("invalid leaf data")
)

// isOfAbsence is proof.go's IsOfAbsence.
func (p portProof) isOfAbsence() bool { return len(p.leafHash) > 0 }

// isEmptyProof is proof.go's IsEmptyProof.
func (p portProof) isEmptyProof() bool {
	return p.start == p.end && len(p.nodes) == 0 && len(p.leafHash) == 0
}

// isValidEmptyRangeProof is proof.go's isValidEmptyRangeProof: an empty
// proof, no leaves, and (checkNS) the root well formed and nID outside its
// range, or the root the empty root.
func (p portProof) isValidEmptyRangeProof(h *portHasher, nID, root []byte, leaves [][]byte, checkNS bool) bool {
	if !p.isEmptyProof() || len(leaves) != 0 {
		return false
	}
	if !checkNS {
		return true
	}
	if _, _, err := h.nsRange(root); err != nil { // nth.ValidateNodeFormat(root)
		return false
	}
	rootMin, rootMax := root[:len(nID)], root[len(nID):2*len(nID)] // MinNamespace, MaxNamespace
	return bytes.Compare(nID, rootMin) < 0 || bytes.Compare(rootMax, nID) < 0 || bytes.Equal(root, h.emptyRoot())
}

// computeAndValidateLeafHashes is proof.go's ComputeAndValidateLeafHashes:
// each leaf at least a namespace long (ValidateLeaf), of namespace nid,
// hashed.
func portComputeAndValidateLeafHashes(h *portHasher, nid []byte, leaves [][]byte) ([][]byte, error) {
	hashes := make([][]byte, len(leaves))
	for i, leaf := range leaves {
		if len(leaf) < h.nsLen { // nth.ValidateLeaf(leaf) != nil
			return nil, errPortLeafData
		}
		if !bytes.Equal(leaf[:len(nid)], nid) {
			return nil, errPortLeafNamespace
		}
		hl, err := h.hashLeaf(leaf)
		if err != nil {
			return nil, err
		}
		hashes[i] = hl
	}
	return hashes, nil
}

// portComputePrefixedLeafHashes is proof.go's ComputePrefixedLeafHashes:
// each leaf hashed as nid || leaf.
func portComputePrefixedLeafHashes(h *portHasher, nid []byte, leaves [][]byte) ([][]byte, error) {
	hashes := make([][]byte, len(leaves))
	for i, leaf := range leaves {
		hl, err := h.hashLeaf(slices.Concat(nid, leaf))
		if err != nil {
			return nil, err
		}
		hashes[i] = hl
	}
	return hashes, nil
}

// verifyNamespace is proof.go's Proof.VerifyNamespace: the empty proof
// checked by isValidEmptyRangeProof; an absence proof's one leaf hash its
// leafHash (leaves not looked at); else the leaves hashed and validated;
// then VerifyLeafHashes with completeness.
func (p portProof) verifyNamespace(nID []byte, leaves [][]byte, root []byte) bool {
	h := newPortHasher(len(nID), p.isMaxNamespaceIDIgnored)
	if p.start == p.end {
		return p.isValidEmptyRangeProof(h, nID, root, leaves, true)
	}
	var got [][]byte
	if p.isOfAbsence() {
		got = [][]byte{p.leafHash}
	} else {
		var err error
		if got, err = portComputeAndValidateLeafHashes(h, nID, leaves); err != nil {
			return false
		}
	}
	ok, err := p.verifyLeafHashes(h, true, nID, got, root)
	return err == nil && ok
}

// validateProofStructure is proof.go's validateProofStructure.
func (p portProof) validateProofStructure(h *portHasher, nID []byte, leafHashes [][]byte) error {
	if p.start < 0 || p.start >= p.end {
		return errPortRange // ErrInvalidRange
	}
	if len(leafHashes) != p.end-p.start {
		return errPortLeafHashesSize
	}
	if p.isOfAbsence() {
		if _, _, err := h.nsRange(p.leafHash); err != nil {
			return err
		}
		// leafHash's minimum namespace must be above nID
		if bytes.Compare(nID, p.leafHash[:len(nID)]) >= 0 {
			return errPortLeafNamespace
		}
	}
	if len(nID) != h.nsLen {
		return errPortNsSize
	}
	for _, n := range p.nodes {
		if _, _, err := h.nsRange(n); err != nil {
			return err
		}
	}
	for _, lh := range leafHashes {
		if _, _, err := h.nsRange(lh); err != nil {
			return err
		}
	}
	return nil
}

// validateNamespace is proof.go's validateNamespace: every leaf hash's
// minimum and maximum namespace nID.
func (p portProof) validateNamespace(h *portHasher, nID []byte, leafHashes [][]byte) error {
	for _, lh := range leafHashes {
		if !bytes.Equal(nID, lh[:h.nsLen]) || !bytes.Equal(nID, lh[h.nsLen:2*h.nsLen]) {
			return errPortLeafNamespace
		}
	}
	return nil
}

// validateCompleteness is proof.go's validateCompleteness: the nodes that
// cover [0, start), walked by nextSubtreeSize, all below nID (and enough of
// them, the GHSA-r9fq-g486-v8pg guard); the rest all above it.
func (p portProof) validateCompleteness(h *portHasher, nID []byte) error {
	var leafIndex uint64
	left := make([][]byte, 0, len(p.nodes))
	nodes := p.nodes
	for leafIndex != uint64(p.start) && len(nodes) > 0 {
		size := portNextSubtreeSize(leafIndex, uint64(p.start))
		left = append(left, nodes[0])
		nodes = nodes[1:]
		leafIndex += uint64(size)
	}
	if leafIndex != uint64(p.start) {
		return errPortCompleteness
	}
	for _, n := range left {
		if bytes.Compare(nID, n[h.nsLen:2*h.nsLen]) <= 0 { // nID.LessOrEqual(MaxNamespace)
			return errPortCompleteness
		}
	}
	for _, n := range nodes {
		if bytes.Compare(n[:h.nsLen], nID) <= 0 { // MinNamespace.LessOrEqual(nID)
			return errPortCompleteness
		}
	}
	return nil
}

// computeRootWithBasicValidation is proof.go's
// ComputeRootWithBasicValidation: the structure validated, with
// isNamespace the namespace and completeness too, then the root computed
// and its format checked.
func (p portProof) computeRootWithBasicValidation(h *portHasher, nID []byte, leafHashes [][]byte, isNamespace bool) ([]byte, error) {
	if err := p.validateProofStructure(h, nID, leafHashes); err != nil {
		return nil, err
	}
	if isNamespace {
		if err := p.validateNamespace(h, nID, leafHashes); err != nil {
			return nil, err
		}
		if err := p.validateCompleteness(h, nID); err != nil {
			return nil, err
		}
	}
	root, err := p.computeRoot(h, leafHashes)
	if err != nil {
		return nil, err
	}
	if _, _, err := h.nsRange(root); err != nil {
		return nil, err
	}
	return root, nil
}

// computeRoot is proof.go's Proof.computeRoot: the recursion over the
// tree of 2*getSplitPoint(end) leaves (at least 1), a leaf in the range
// popped from leafHashes, a leaf or a subtree outside it popped from the
// nodes (nil if none is left: a missing right subtree), then the nodes
// left over hashed in on the right. p is a copy: popping its nodes leaves
// the caller's proof as it was.
func (p portProof) computeRoot(h *portHasher, leafHashes [][]byte) ([]byte, error) {
	var rec func(start, end int) ([]byte, error)
	rec = func(start, end int) ([]byte, error) {
		if end-start == 1 {
			if start >= p.start && start < p.end {
				return portPopIfNonEmpty(&leafHashes), nil
			}
			return portPopIfNonEmpty(&p.nodes), nil
		}
		if end <= p.start || start >= p.end {
			return portPopIfNonEmpty(&p.nodes), nil
		}
		k := portSplit(end - start)
		left, err := rec(start, start+k)
		if err != nil {
			return nil, err
		}
		right, err := rec(start+k, end)
		if err != nil {
			return nil, err
		}
		if right == nil {
			return left, nil
		}
		return h.hashNode(left, right)
	}
	estimate := max(portSplitOrZero(p.end)*2, 1) // proofRangeSubtreeEstimate
	root, err := rec(0, estimate)
	if err != nil {
		return nil, err
	}
	for _, n := range p.nodes {
		if root, err = h.hashNode(root, n); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// portSplitOrZero is getSplitPoint where proof.go's computeRoot calls it,
// on proof.end: 0 for 1 (as getSplitPoint gives), and, where nmt's
// getSplitPoint panics (end < 1, which validateProofStructure excludes),
// 0 too.
func portSplitOrZero(n int) int {
	if n < 1 {
		return 0
	}
	return portSplit(n)
}

// verifyLeafHashes is proof.go's Proof.VerifyLeafHashes: the structure,
// the root's format, the leaf hashes' namespace (not for an absence
// proof), with verifyCompleteness the completeness, then the root.
func (p portProof) verifyLeafHashes(h *portHasher, verifyCompleteness bool, nID []byte, leafHashes [][]byte, root []byte) (bool, error) {
	if err := p.validateProofStructure(h, nID, leafHashes); err != nil {
		return false, err
	}
	if _, _, err := h.nsRange(root); err != nil {
		return false, err
	}
	if !p.isOfAbsence() {
		if err := p.validateNamespace(h, nID, leafHashes); err != nil {
			return false, err
		}
	}
	if verifyCompleteness {
		if err := p.validateCompleteness(h, nID); err != nil {
			return false, err
		}
	}
	got, err := p.computeRoot(h, leafHashes)
	if err != nil {
		return false, err
	}
	return bytes.Equal(got, root), nil
}

// verifyInclusion is proof.go's Proof.VerifyInclusion: the leaves, without
// their namespace, hashed as nid || leaf, then VerifyLeafHashes without
// completeness; the empty proof valid for no leaves, whatever the root.
func (p portProof) verifyInclusion(nid []byte, leavesWithoutNamespace [][]byte, root []byte) bool {
	h := newPortHasher(len(nid), p.isMaxNamespaceIDIgnored)
	if p.start == p.end {
		return p.isValidEmptyRangeProof(h, nid, root, leavesWithoutNamespace, false)
	}
	hashes, err := portComputePrefixedLeafHashes(h, nid, leavesWithoutNamespace)
	if err != nil {
		return false
	}
	ok, err := p.verifyLeafHashes(h, false, nid, hashes, root)
	return err == nil && ok
}

// portNextSubtreeSize is proof.go's nextSubtreeSize: the size of the
// largest subtree that starts at start and ends by end.
func portNextSubtreeSize(start, end uint64) int {
	ideal := bits.TrailingZeros64(start)
	maxBits := bits.Len64(end-start) - 1
	if ideal > maxBits {
		return 1 << uint(maxBits)
	}
	return 1 << uint(ideal)
}

// portPopIfNonEmpty is proof.go's popIfNonEmpty.
func portPopIfNonEmpty(s *[][]byte) []byte {
	if len(*s) == 0 {
		return nil
	}
	first := (*s)[0]
	*s = (*s)[1:]
	return first
}

// prove is nmt.go's Prove: ProveRange(index, index+1).
func (t *portTree) prove(index int) (portProof, error) { return t.proveRange(index, index+1) }

// proveRange is nmt.go's ProveRange: an invalid range the empty proof and
// ErrInvalidRange, else the inclusion proof of buildRangeProof's nodes.
func (t *portTree) proveRange(start, end int) (portProof, error) {
	ignored := t.h.ignoreMaxNs // n.treeHasher.IsMaxNamespaceIDIgnored()
	if err := t.validateRange(start, end); err != nil {
		return portProof{isMaxNamespaceIDIgnored: ignored}, err // NewEmptyRangeProof
	}
	nodes, err := t.buildRangeProof(start, end)
	if err != nil {
		return portProof{}, err
	}
	return portProof{start: start, end: end, nodes: nodes, isMaxNamespaceIDIgnored: ignored}, nil
}

// proveNamespace is nmt.go's ProveNamespace: case 1, the empty proof, for
// an empty tree or nID outside the root's namespace range; case 2, the
// absence proof of the leaf calculateAbsenceIndex finds; case 3, the
// inclusion proof of nID's range.
func (t *portTree) proveNamespace(nID []byte) (portProof, error) {
	ignored := t.h.ignoreMaxNs
	if len(t.leaves) == 0 {
		return portProof{isMaxNamespaceIDIgnored: ignored}, nil
	}
	root, err := t.root()
	if err != nil {
		return portProof{}, err
	}
	ns := t.h.nsLen
	treeMin, treeMax := root[:ns], root[ns:2*ns]
	if bytes.Compare(nID, treeMin) < 0 || bytes.Compare(treeMax, nID) < 0 {
		return portProof{isMaxNamespaceIDIgnored: ignored}, nil
	}
	found, start, end := t.foundInRange(nID)
	if !found {
		start = t.calculateAbsenceIndex(nID)
		end = start + 1
	}
	nodes, err := t.buildRangeProof(start, end)
	if err != nil {
		return portProof{}, err
	}
	if found {
		return portProof{start: start, end: end, nodes: nodes, isMaxNamespaceIDIgnored: ignored}, nil
	}
	return portProof{start: start, end: end, nodes: nodes, leafHash: t.leafHashes[start], isMaxNamespaceIDIgnored: ignored}, nil
}

// validateRange is nmt.go's validateRange.
func (t *portTree) validateRange(start, end int) error {
	if start < 0 || start >= end || end > len(t.leaves) {
		return errPortRange
	}
	return nil
}

// buildRangeProof is nmt.go's buildRangeProof: the recursion over the tree
// of 2*getSplitPoint(n) leaves (at least 1), every node hashed again; a
// subtree outside the range whose parent overlaps it (includeNode, and
// newIncludeNode false below it) goes into the proof, in order.
func (t *portTree) buildRangeProof(proofStart, proofEnd int) ([][]byte, error) {
	proof := [][]byte{}
	if err := t.validateRange(proofStart, proofEnd); err != nil {
		return nil, err
	}
	var rec func(start, end int, includeNode bool) ([]byte, error)
	rec = func(start, end int, includeNode bool) ([]byte, error) {
		if start >= len(t.leaves) {
			return nil, nil
		}
		if end-start == 1 {
			lh := t.leafHashes[start]
			if (start < proofStart || start >= proofEnd) && includeNode {
				proof = append(proof, lh)
			}
			return lh, nil
		}
		newInclude := includeNode
		if (end <= proofStart || start >= proofEnd) && includeNode {
			newInclude = false
		}
		k := portSplit(end - start)
		left, err := rec(start, start+k, newInclude)
		if err != nil {
			return nil, err
		}
		right, err := rec(start+k, end, newInclude)
		if err != nil {
			return nil, err
		}
		hash := left
		if right != nil {
			if hash, err = t.h.hashNode(left, right); err != nil {
				return nil, err
			}
		}
		if includeNode && !newInclude {
			proof = append(proof, hash)
		}
		return hash, nil
	}
	full := max(portSplitOrZero(len(t.leaves))*2, 1) // fullTreeSize
	if _, err := rec(0, full, true); err != nil {
		return nil, err
	}
	return proof, nil
}

// get is nmt.go's Get: the leaves of foundInRange's range.
func (t *portTree) get(nID []byte) [][]byte {
	_, start, end := t.foundInRange(nID)
	return t.leaves[start:end]
}

// calculateAbsenceIndex is nmt.go's calculateAbsenceIndex: the first leaf
// whose left neighbour is below nID and itself above it; it panics if
// there is none, as nmt's does.
func (t *portTree) calculateAbsenceIndex(nID []byte) int {
	ns := t.h.nsLen
	var prev []byte
	for i, cur := range t.leaves {
		if i == 0 {
			prev = cur
			continue
		}
		if bytes.Compare(prev[:ns], nID) < 0 && bytes.Compare(nID, cur[:ns]) < 0 {
			return i
		}
		prev = cur
	}
	panic("calculateAbsenceIndex() called although (nID < minNID) or (maxNID < nID) for provided nID")
}

// foundInRange is nmt.go's foundInRange: the namespace's range from the
// map Push keeps, (false, 0, 0) if it has none.
func (t *portTree) foundInRange(nID []byte) (bool, int, int) {
	r, ok := t.namespaceRanges[string(nID)]
	return ok, r.start, r.end
}
