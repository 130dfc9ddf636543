package bench

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// celestiaorg/nmt's own proof tests (d79269f), their fixed cases as data,
// run on the port's proof side (nmtport_proof.go): example_test.go's
// ExampleProof_VerifyNamespace and ExampleProof_VerifyInclusion;
// nmt_test.go's TestNamespacedMerkleTree_ProveNamespace_Ranges_And_Verify,
// TestIgnoreMaxNamespace (its proofs), TestNamespacedMerkleTree_ProveErrors,
// TestNMT_absenceProofOfZeroNamespace_InEmptyTree,
// TestNMT_forgedNamespaceEmptinessProof, Test_buildRangeProof_Err,
// Test_ProveRange_Err, TestProveNamespace_MaxNamespace and
// Test_calculateAbsenceIndex_Panic; proof_test.go's
// TestVerifyNamespace_EmptyProof, TestVerifyNamespace_EmptyProofShortRoot,
// TestProof_VerifyNamespace_False, TestProof_MultipleLeaves,
// TestVerifyLeafHashes_Err, TestVerifyInclusion_False,
// TestVerifyInclusion_EmptyProofs, TestVerifyNamespace_False,
// TestVerifyInclusion_MismatchingRange, TestVerifyLeafHashes_MismatchingRange,
// TestVerifyLeafHashes_False and TestVerifyNamespace_ShortAbsenceProof_Valid
// and _Invalid; proof_completeness_test.go's three
// TestValidateCompleteness_ cases.

// portExampleIgn is nmt_test.go's exampleNMT with its ignoreMaxNamespace.
func portExampleIgn(t *testing.T, nsLen int, ignore bool, nids ...byte) *portTree {
	t.Helper()
	tr := newPortTree(nsLen, ignore)
	for i, nid := range nids {
		if err := tr.push(slices.Concat(bytes.Repeat([]byte{nid}, nsLen), fmt.Appendf(nil, "leaf_%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func portMustRoot(t *testing.T, tr *portTree) []byte {
	t.Helper()
	r, err := tr.root()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// portGenLeafData is nmt_test.go's generateLeafData for the namespaces it
// is called with here (below 128, one uvarint byte): the namespaces from
// to to-1, each nsLen bytes, the last one the number.
func portGenLeafData(nsLen, from, to int, data string) [][]byte {
	var out [][]byte
	for i := from; i < to; i++ {
		ns := make([]byte, nsLen)
		ns[nsLen-1] = byte(i)
		out = append(out, slices.Concat(ns, []byte(data)))
	}
	return out
}

func TestNMTPortProofExamples(t *testing.T) {
	tr := newPortTree(1, true)
	leaves := [][]byte{[]byte("\x00leaf_0"), []byte("\x00leaf_1"), []byte("\x01leaf_2"), []byte("\x03leaf_3")}
	for _, l := range leaves {
		if err := tr.push(l); err != nil {
			t.Fatal(err)
		}
	}
	root := portMustRoot(t, tr)
	p, err := tr.proveNamespace([]byte{1})
	if err != nil || p.start != 2 || p.end != 3 || len(p.nodes) != 2 || !p.isMaxNamespaceIDIgnored {
		t.Fatalf("proveNamespace(1) = %+v, %v; want [2, 3), two nodes", p, err)
	}
	for i, want := range []string{
		"0000ead8d25851870e4e7b5e8e4d10092df495a0d73af6fec3709ac79fa6338f57ae",
		"0303b4a27922d95e91d4a566aaadcedf5026b620022715910a354184c0af384e1440",
	} {
		if got := hex.EncodeToString(p.nodes[i]); got != want {
			t.Errorf("proof node %d: %s, want %s", i, got, want)
		}
	}
	if !p.verifyNamespace([]byte{1}, leaves[2:3], root) {
		t.Error("ExampleProof_VerifyNamespace: not valid")
	}
	p2, err := tr.prove(2)
	if err != nil || !p2.verifyInclusion([]byte{1}, [][]byte{[]byte("leaf_2")}, root) {
		t.Errorf("ExampleProof_VerifyInclusion: not valid (%v)", err)
	}
}

func TestNMTPortProveNamespaceRanges(t *testing.T) {
	raw := func(s ...string) (out [][]byte) { // newNamespaceDataPairRaw(2, s)
		for _, x := range s {
			out = append(out, []byte(x))
		}
		return out
	}
	rep := func(d [][]byte, n int) (out [][]byte) {
		for range n {
			out = append(out, d...)
		}
		return out
	}
	g := portGenLeafData
	for _, c := range []struct {
		name       string
		nsLen      int
		push       [][]byte
		nid        []byte
		start, end int
		found      bool
	}{
		{"empty tree", 1, g(1, 0, 0, "_data"), []byte{0}, 0, 0, false},
		{"found", 1, g(1, 0, 1, "_data"), []byte{0}, 0, 1, true},
		{"not found", 1, g(1, 0, 1, "_data"), []byte{1}, 0, 0, false},
		{"two leaves and found", 1, slices.Concat(g(1, 0, 1, "_data"), g(1, 1, 2, "_data")), []byte{1}, 1, 2, true},
		{"two leaves and found2", 1, rep(g(1, 0, 1, "_data"), 2), []byte{1}, 0, 0, false},
		{"three leaves and found", 1, slices.Concat(rep(g(1, 0, 1, "_data"), 2), g(1, 1, 2, "_data")), []byte{1}, 2, 3, true},
		{"three leaves and not found but with range", 2, slices.Concat(rep(g(2, 0, 1, "_data"), 2), [][]byte{[]byte("\x01\x01_data")}), []byte{0, 1}, 2, 3, false},
		{"5 leaves and not found but within range", 2, slices.Concat(g(2, 0, 4, "_data"), [][]byte{[]byte("\x01\x01_data")}), []byte{1, 0}, 4, 5, false},
		{"4 leaves, not found and nID < minNID", 2, raw("01_data", "01_data", "01_data", "11_data"), []byte("00"), 0, 0, false},
		{"4 leaves, not found and nID > maxNID ", 2, raw("00_data", "00_data", "01_data", "01_data"), []byte("11"), 0, 0, false},
	} {
		tr := newPortTree(c.nsLen, true)
		for _, d := range c.push {
			if err := tr.push(d); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		p, err := tr.proveNamespace(c.nid)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		found := p.start >= 0 && p.start < p.end && len(p.leafHash) == 0 // IsNonEmptyRange && no LeafHash
		if p.start != c.start || p.end != c.end || found != c.found {
			t.Errorf("%s: proof [%d, %d) found %v, want [%d, %d) %v", c.name, p.start, p.end, found, c.start, c.end, c.found)
		}
		if found && len(c.push) > 1 && len(p.nodes) == 0 {
			t.Errorf("%s: no nodes", c.name)
		}
		root := portMustRoot(t, tr)
		if !p.verifyNamespace(c.nid, tr.get(c.nid), root) {
			t.Errorf("%s: verifyNamespace false", c.name)
		}
		if found {
			for i, d := range c.push {
				sp, err := tr.prove(i)
				if err != nil || !sp.verifyInclusion(d[:c.nsLen], [][]byte{d[c.nsLen:]}, root) {
					t.Errorf("%s: leaf %d: verifyInclusion false (%v)", c.name, i, err)
				}
			}
		}
	}
}

// TestNMTPortIgnoreMaxNamespaceProofs: TestIgnoreMaxNamespace's trees
// (TestNMTPortIgnoreMaxNamespace has their roots), every leaf's namespace
// proven and verified, every leaf proven and verified, the proofs' flag
// the tree's.
func TestNMTPortIgnoreMaxNamespaceProofs(t *testing.T) {
	n0, n1, n2 := []byte{0, 0, 0, 0, 0, 0, 0, 0}, []byte{0, 0, 0, 0, 0, 0, 0, 1}, []byte{0, 0, 0, 0, 0, 0, 0, 2}
	mx := bytes.Repeat([]byte{0xFF}, 8)
	for _, c := range []struct {
		ignore bool
		ns     [][]byte
	}{
		{true, [][]byte{mx}}, {false, [][]byte{mx}},
		{true, [][]byte{n1, mx}}, {false, [][]byte{n1, mx}},
		{true, [][]byte{mx, mx}}, {false, [][]byte{mx, mx}},
		{true, [][]byte{n0, n1}}, {false, [][]byte{n0, n1}},
		{true, [][]byte{n0, n1, mx}}, {false, [][]byte{n0, n1, mx}},
		{true, [][]byte{n0, n0, n1, n2}},
		{true, [][]byte{n0, n1, mx, mx}}, {false, [][]byte{n0, n1, mx, mx}},
		{true, [][]byte{n0, n1, n2, n2, mx, mx, mx, mx}},
	} {
		tr := newPortTree(8, c.ignore)
		var data [][]byte
		for i, ns := range c.ns {
			data = append(data, fmt.Appendf(nil, "leaf_%d", i+1))
			if err := tr.push(slices.Concat(ns, data[i])); err != nil {
				t.Fatal(err)
			}
		}
		root := portMustRoot(t, tr)
		for i, ns := range c.ns {
			p, err := tr.proveNamespace(ns)
			if err != nil || p.isMaxNamespaceIDIgnored != c.ignore {
				t.Fatalf("proveNamespace: %v, flag %v", err, p.isMaxNamespaceIDIgnored)
			}
			var leaves [][]byte
			if !p.isEmptyProof() {
				leaves = tr.get(ns)
			}
			if !p.verifyNamespace(ns, leaves, root) {
				t.Errorf("%d leaves, ignore %v: verifyNamespace(%x) false", len(c.ns), c.ignore, ns)
			}
			sp, err := tr.prove(i)
			if err != nil || sp.isMaxNamespaceIDIgnored != c.ignore || !sp.verifyInclusion(ns, [][]byte{data[i]}, root) {
				t.Errorf("%d leaves, ignore %v: leaf %d: verifyInclusion false (%v)", len(c.ns), c.ignore, i, err)
			}
		}
	}
}

func TestNMTPortProveErrors(t *testing.T) {
	tr := newPortTree(1, true)
	for _, d := range portGenLeafData(1, 0, 10, "_data") {
		if err := tr.push(d); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 10 {
		if _, err := tr.prove(i); err != nil {
			t.Fatalf("prove(%d): %v", i, err)
		}
	}
	for _, i := range []int{-1, 11} { // TestNamespacedMerkleTree_ProveErrors
		if _, err := tr.prove(i); err == nil {
			t.Errorf("prove(%d): no error", i)
		}
	}
	nids := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	corrupt := portExampleIgn(t, 2, true, nids...)
	corrupt.leafHashes[4] = corrupt.leafHashes[4][:2]
	swapped := portExampleIgn(t, 2, true, nids...)
	swapped.leaves[4], swapped.leaves[5] = swapped.leaves[5], swapped.leaves[4]
	swapped.leafHashes[4], swapped.leafHashes[5] = swapped.leafHashes[5], swapped.leafHashes[4]
	valid := portExampleIgn(t, 2, true, nids...)
	for _, c := range []struct { // Test_buildRangeProof_Err, Test_ProveRange_Err
		tr         *portTree
		start, end int
		err        error
	}{
		{corrupt, 4, 5, errPortNodeLen}, {swapped, 4, 5, errPortSiblings},
		{swapped, 1, 2, errPortSiblings}, {swapped, 7, 8, errPortSiblings},
		{valid, 5, 4, errPortRange}, {valid, 5, 5, errPortRange}, {valid, -1, 4, errPortRange}, {valid, 0, 9, errPortRange},
	} {
		if _, err := c.tr.buildRangeProof(c.start, c.end); !errors.Is(err, c.err) {
			t.Errorf("buildRangeProof(%d, %d): %v, want %v", c.start, c.end, err, c.err)
		}
		if _, err := c.tr.proveRange(c.start, c.end); !errors.Is(err, c.err) {
			t.Errorf("proveRange(%d, %d): %v, want %v", c.start, c.end, err, c.err)
		}
	}
	// Test_calculateAbsenceIndex_Panic: no leaf to find
	for _, c := range []struct {
		lo, hi int
		nid    []byte
	}{{0, 0, []byte{0, 0}}, {1, 3, []byte{0, 0}}, {1, 3, []byte{0, 3}}} {
		tr := newPortTree(2, true)
		for _, d := range portGenLeafData(2, c.lo, c.hi, "") {
			if err := tr.push(d); err != nil {
				t.Fatal(err)
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("calculateAbsenceIndex(%x) of %d leaves: no panic", c.nid, c.hi-c.lo)
				}
			}()
			tr.calculateAbsenceIndex(c.nid)
		}()
	}
}

func TestNMTPortEmptyAndForged(t *testing.T) {
	// TestNMT_absenceProofOfZeroNamespace_InEmptyTree
	empty := newPortTree(1, true)
	p, err := empty.proveNamespace([]byte{0})
	if err != nil || len(empty.get([]byte{0})) != 0 || !p.verifyNamespace([]byte{0}, nil, portMustRoot(t, empty)) {
		t.Errorf("the empty tree's proof of namespace 0 does not verify (%v)", err)
	}
	// TestNMT_forgedNamespaceEmptinessProof
	tr := newPortTree(1, true)
	for _, l := range []string{"\x01leaf_0", "\x01leaf_1", "\x02leaf_2", "\x02leaf_3"} {
		if err := tr.push([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	forged := portProof{nodes: [][]byte{}, leafHash: []byte{}, isMaxNamespaceIDIgnored: true}
	if forged.verifyNamespace([]byte{1}, [][]byte{}, portMustRoot(t, tr)) {
		t.Error("a forged empty proof of a non-empty namespace verifies")
	}
	// TestProveNamespace_MaxNamespace
	for _, c := range []struct {
		nids  []byte
		empty bool
	}{
		{nil, true}, {[]byte{0xFF}, false}, {[]byte{1, 0xFF}, true}, {[]byte{1, 2, 0xFF, 0xFF}, true},
		{[]byte{1, 2, 3, 4, 0xFF, 0xFF, 0xFF, 0xFF}, true},
	} {
		p, err := portExampleIgn(t, 1, true, c.nids...).proveNamespace([]byte{0xFF})
		if err != nil || p.isEmptyProof() != c.empty {
			t.Errorf("%x: proveNamespace(FF) empty %v (%v), want %v", c.nids, p.isEmptyProof(), err, c.empty)
		}
	}
}

func TestNMTPortVerifyNamespaceEmptyProof(t *testing.T) {
	tr := portExampleIgn(t, 1, true, 1, 2, 3, 4)
	root := portMustRoot(t, tr)
	valid, err := tr.proveNamespace([]byte{0})
	if err != nil {
		t.Fatal(err)
	}
	invalid, err := tr.proveNamespace([]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	invalid.start, invalid.end = 0, 0
	emptyRoot := tr.h.emptyRoot()
	for i, c := range []struct {
		p            portProof
		nid          byte
		leaves       [][]byte
		root         []byte
		want, wantIE bool
	}{
		{valid, 0, [][]byte{}, root, true, true},
		{invalid, 1, [][]byte{}, root, false, false},
		{valid, 0, [][]byte{{1}}, root, false, true},
		{valid, 1, [][]byte{}, root, false, true},
		{valid, 0, [][]byte{}, emptyRoot, true, true},
		{invalid, 1, [][]byte{}, emptyRoot, false, false},
		{valid, 0, [][]byte{{1}}, emptyRoot, false, true},
	} {
		if c.p.isEmptyProof() != c.wantIE {
			t.Errorf("case %d: isEmptyProof %v", i, !c.wantIE)
		}
		if got := c.p.verifyNamespace([]byte{c.nid}, c.leaves, c.root); got != c.want {
			t.Errorf("case %d: verifyNamespace %v, want %v", i, got, c.want)
		}
	}
	// TestVerifyNamespace_EmptyProofShortRoot
	if (portProof{isMaxNamespaceIDIgnored: true}).verifyNamespace(bytes.Repeat([]byte{1}, 8), nil, make([]byte, 4)) {
		t.Error("an empty proof verifies against a root of 4 bytes")
	}
}

// TestNMTPortVerifyNamespaceFalse is proof_test.go's
// TestProof_VerifyNamespace_False, with its own check that verifying does
// not change the proof's nodes.
func TestNMTPortVerifyNamespaceFalse(t *testing.T) {
	tr := newPortTree(3, true)
	for _, d := range slices.Concat([][]byte{[]byte("\x00\x00\x00first leaf")}, portGenLeafData(3, 0, 9, "data"), [][]byte{[]byte("\x00\x00\x08last leaf")}) {
		if err := tr.push(d); err != nil {
			t.Fatal(err)
		}
	}
	ns0, ns8 := []byte{0, 0, 0}, []byte{0, 0, 8}
	validProof, err := tr.proveNamespace(ns0)
	if err != nil {
		t.Fatal(err)
	}
	inc0, _ := tr.buildRangeProof(0, 1)
	inc3, _ := tr.buildRangeProof(3, 4)
	inc10, _ := tr.buildRangeProof(10, 11)
	zero, last := tr.get(ns0), tr.get(ns8)
	root := portMustRoot(t, tr)
	for _, c := range []struct {
		name   string
		p      portProof
		nid    []byte
		leaves [][]byte
	}{
		{"invalid nid (too long)", validProof, []byte{0, 0, 0, 0}, zero},
		{"invalid leaf data (too short)", validProof, ns0, [][]byte{{0, 1}}},
		{"mismatching IDs in data", validProof, ns0, slices.Concat(zero, [][]byte{{1, 1, 1}})},
		{"added another leaf", validProof, ns0, slices.Concat(zero, [][]byte{{0, 0, 0}})},
		{"remove one leaf, errors", validProof, ns0, zero[:len(zero)-1]},
		{"remove one leaf & update proof range", portProof{start: validProof.start, end: validProof.end - 1, nodes: validProof.nodes}, ns0, zero[:len(zero)-1]},
		{"incomplete namespace proof (right)", portProof{start: 0, end: 1, nodes: inc0}, ns0, zero[:len(zero)-1]},
		{"incomplete namespace proof (left)", portProof{start: 10, end: 11, nodes: inc10}, ns8, last[1:]},
		{"remove all leaves, errors", validProof, ns0, zero[:len(zero)-2]},
		{"invalid absence proof of an existing nid", portProof{start: 3, end: 4, nodes: inc3, leafHash: tr.leafHashes[3]}, []byte{0, 0, 2}, [][]byte{}},
	} {
		before := make([][]byte, len(c.p.nodes))
		for i, n := range c.p.nodes {
			before[i] = bytes.Clone(n)
		}
		if c.p.verifyNamespace(c.nid, c.leaves, root) {
			t.Errorf("%s: verifies", c.name)
		}
		for i := range before {
			if !bytes.Equal(before[i], c.p.nodes[i]) {
				t.Errorf("%s: verifying changed the proof", c.name)
			}
		}
	}
}

func TestNMTPortMultipleLeaves(t *testing.T) {
	tr := newPortTree(8, true) // New(sha256.New()): DefaultNamespaceIDLen, IgnoreMaxNamespace
	ns := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	var raw [][]byte
	for i := range 8 {
		raw = append(raw, bytes.Repeat([]byte{byte(i + 1)}, 100))
		if err := tr.push(slices.Concat(ns, raw[i])); err != nil {
			t.Fatal(err)
		}
	}
	root := portMustRoot(t, tr)
	for _, c := range []struct {
		start, end int
		root       []byte
		want       bool
	}{{2, 4, root, true}, {2, 3, root, true}, {0, 1, root, true}, {0, 7, root, true}, {0, 7, bytes.Repeat([]byte{1}, 48), false}} {
		p, err := tr.proveRange(c.start, c.end)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.verifyInclusion(ns, raw[c.start:c.end], c.root); got != c.want {
			t.Errorf("[%d, %d): verifyInclusion %v, want %v", c.start, c.end, got, c.want)
		}
	}
}

func TestNMTPortVerifyLeafHashesErr(t *testing.T) {
	tr := portExampleIgn(t, 2, true, 1, 2, 3, 4, 5, 6, 7, 8)
	h := tr.h
	root := portMustRoot(t, tr)
	ns5, ns4 := []byte{5, 5}, []byte{4, 4}
	p5, _ := tr.proveNamespace(ns5)
	lh5 := tr.leafHashes[4]
	smaller := slices.Concat([]byte{3, 3, 3, 3}, lh5[4:])
	bigger := slices.Concat([]byte{7, 7, 7, 7}, lh5[4:])
	p4bad, _ := tr.proveNamespace(ns4)
	p4bad.nodes = slices.Clone(p4bad.nodes)
	p4bad.nodes[2] = p4bad.nodes[2][:1]
	lh4 := tr.leafHashes[3]
	see, _ := tr.proveNamespace(ns4)
	see.start, see.end = 0, 0
	sbe, _ := tr.proveNamespace(ns4)
	sbe.start = sbe.end + 1
	slz, _ := tr.proveNamespace(ns4)
	slz.start = -1
	for i, c := range []struct {
		p        portProof
		complete bool
		nid      []byte
		lh       []byte
		root     []byte
	}{
		{p5, true, ns5, lh5, root[:len(root)-1]},
		{p5, true, ns5, lh5[:2], root},
		{p5, true, ns5, smaller, root},
		{p5, true, ns5, bigger, root},
		{p4bad, false, ns4, lh4, root},
		{see, true, ns4, lh4, root},
		{sbe, true, ns4, lh4, root},
		{slz, true, ns4, lh4, root},
	} {
		if _, err := c.p.verifyLeafHashes(h, c.complete, c.nid, [][]byte{c.lh}, c.root); err == nil {
			t.Errorf("TestVerifyLeafHashes_Err case %d: no error", i)
		}
	}
}

func TestNMTPortVerifyFalseSizes(t *testing.T) {
	nids := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	t1, t2 := portExampleIgn(t, 1, true, nids...), portExampleIgn(t, 2, true, nids...)
	r1, r2 := portMustRoot(t, t1), portMustRoot(t, t2)
	p1, _ := t1.proveRange(3, 4)
	p2, _ := t2.proveRange(3, 4)
	n1, n2 := []byte{4}, []byte{4, 4}
	leaf := t1.leaves[3][1:]
	// TestVerifyInclusion_False
	for i, c := range []struct {
		p    portProof
		nid  []byte
		root []byte
	}{{p1, n2, r2}, {p2, n1, r1}, {p2, n2, r1}, {p1, n1, r2}, {p1, n2, r1}, {p2, n1, r2}} {
		if c.p.verifyInclusion(c.nid, [][]byte{leaf}, c.root) {
			t.Errorf("TestVerifyInclusion_False case %d: verifies", i)
		}
	}
	// TestVerifyNamespace_False
	nids = append(nids, 11)
	t1, t2 = portExampleIgn(t, 1, true, nids...), portExampleIgn(t, 2, true, nids...)
	r1, r2 = portMustRoot(t, t1), portMustRoot(t, t2)
	q1, _ := t1.proveNamespace(n1)
	q2, _ := t2.proveNamespace(n2)
	a1, _ := t1.proveNamespace([]byte{9})
	a2, _ := t2.proveNamespace([]byte{9, 9})
	if !a1.isOfAbsence() || !a2.isOfAbsence() {
		t.Fatal("namespace 9: not an absence proof")
	}
	a1.leafHash, a2.leafHash = a2.leafHash, a1.leafHash
	nsLeaf := t1.leaves[3]
	for i, c := range []struct {
		p      portProof
		nid    []byte
		leaves [][]byte
		root   []byte
	}{
		{q1, n2, [][]byte{nsLeaf}, r2}, {q2, n1, [][]byte{nsLeaf}, r1}, {q2, n2, [][]byte{nsLeaf}, r1}, {q1, n1, [][]byte{nsLeaf}, r2},
		{a2, []byte{9, 9}, nil, r2}, {a1, []byte{9}, nil, r1},
	} {
		if c.p.verifyNamespace(c.nid, c.leaves, c.root) {
			t.Errorf("TestVerifyNamespace_False case %d: verifies", i)
		}
	}
	// TestVerifyLeafHashes_False
	nids = []byte{1, 2, 3, 4, 6, 7, 8, 9}
	t1, t2 = portExampleIgn(t, 1, true, nids...), portExampleIgn(t, 2, true, nids...)
	r1, r2 = portMustRoot(t, t1), portMustRoot(t, t2)
	q1, _ = t1.proveNamespace(n1)
	q2, _ = t2.proveNamespace(n2)
	lh1, lh2 := t1.leafHashes[3], t2.leafHashes[3]
	lh1c := slices.Concat([]byte{0, 0}, lh1[2:])
	a5, _ := t1.proveNamespace([]byte{5})
	if !bytes.Equal(a5.leafHash, t1.leafHashes[4]) {
		t.Fatal("namespace 5's absence proof: not leaf 4's hash")
	}
	for i, c := range []struct {
		p      portProof
		nsSize int
		nid    []byte
		lh     []byte
		root   []byte
		want   bool
	}{
		{q1, 2, n2, lh2, r2, false}, {q2, 1, n1, lh1, r1, false}, {q2, 2, n2, lh2, r1, false}, {q1, 1, n1, lh1, r2, false},
		{q1, 1, n2, lh1, r1, false}, {q2, 2, n1, lh2, r2, false}, {q2, 2, n2, lh1, r2, false}, {q1, 1, n1, lh2, r1, false},
		{q1, 1, n1, lh1c, r1, false}, {a5, 1, []byte{5}, t1.leafHashes[4], r1, true},
	} {
		if got, _ := c.p.verifyLeafHashes(newPortHasher(c.nsSize, true), true, c.nid, [][]byte{c.lh}, c.root); got != c.want {
			t.Errorf("TestVerifyLeafHashes_False case %d: %v, want %v", i, got, c.want)
		}
	}
}

func TestNMTPortVerifyInclusionEmptyAndRanges(t *testing.T) {
	tr := portExampleIgn(t, 1, true, 1, 2, 3, 4, 5, 6, 7, 8)
	root := portMustRoot(t, tr)
	leaf, nid := tr.leaves[3][1:], tr.leaves[3][:1]
	nonEmpty := portProof{nodes: [][]byte{tr.leafHashes[7]}}
	// TestVerifyInclusion_EmptyProofs
	for i, c := range []struct {
		p      portProof
		leaves [][]byte
		want   bool
	}{{portProof{}, [][]byte{}, true}, {portProof{}, [][]byte{leaf}, false}, {nonEmpty, [][]byte{}, false}, {nonEmpty, [][]byte{leaf}, false}} {
		if got := c.p.verifyInclusion(nid, c.leaves, root); got != c.want {
			t.Errorf("TestVerifyInclusion_EmptyProofs case %d: %v, want %v", i, got, c.want)
		}
	}
	// TestVerifyInclusion_MismatchingRange
	tr = portExampleIgn(t, 1, true, 1, 2, 3, 4, 6, 6, 6, 9)
	root = portMustRoot(t, tr)
	n6 := []byte{6}
	inc6, _ := tr.proveNamespace(n6)
	l4, l5, l6 := tr.leaves[4][1:], tr.leaves[5][1:], tr.leaves[6][1:]
	for i, c := range []struct {
		p      portProof
		leaves [][]byte
		want   bool
	}{
		{inc6, [][]byte{l4, l5, l6}, true}, {inc6, [][]byte{l4, l5}, false}, {inc6, [][]byte{}, false},
		{inc6, [][]byte{l4, l5, l6, l6}, false}, {portProof{start: 1, end: 1}, [][]byte{}, true},
		{portProof{start: 1, end: 1}, [][]byte{l4, l5, l6}, false},
	} {
		if got := c.p.verifyInclusion(n6, c.leaves, root); got != c.want {
			t.Errorf("TestVerifyInclusion_MismatchingRange case %d: %v, want %v", i, got, c.want)
		}
	}
	// TestVerifyLeafHashes_MismatchingRange
	a5, _ := tr.proveNamespace([]byte{5})
	lh5 := tr.leafHashes[4]
	inc, _ := tr.prove(5)
	lh6 := tr.leafHashes[5]
	h := newPortHasher(1, true)
	for i, c := range []struct {
		p    portProof
		nid  []byte
		lhs  [][]byte
		want bool
		err  error
	}{
		{a5, []byte{5}, [][]byte{lh5}, true, nil}, {a5, []byte{5}, [][]byte{}, false, errPortLeafHashesSize},
		{a5, []byte{5}, [][]byte{lh5, lh5}, false, errPortLeafHashesSize}, {inc, n6, [][]byte{lh6}, true, nil},
		{inc, n6, [][]byte{}, false, errPortLeafHashesSize}, {inc, n6, [][]byte{lh6, lh6}, false, errPortLeafHashesSize},
	} {
		got, err := c.p.verifyLeafHashes(h, false, c.nid, c.lhs, root)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("TestVerifyLeafHashes_MismatchingRange case %d: %v (%v), want %v (%v)", i, got, err, c.want, c.err)
		}
	}
}

func TestNMTPortShortAbsenceProofs(t *testing.T) {
	for _, c := range []struct {
		nids []byte
		q    byte
		// the full proof's leaf and sibling leaf (Node_{leaf}, the other of
		// Node4_6's two), then whether the short ones verify
		leaf, sibling int
		short         bool
	}{
		{[]byte{1, 2, 3, 4, 6, 7, 8, 9}, 5, 4, 5, true},  // _Valid
		{[]byte{1, 2, 3, 4, 6, 8, 8, 8}, 7, 5, 4, false}, // _Invalid
	} {
		tr := portExampleIgn(t, 1, true, c.nids...)
		root := portMustRoot(t, tr)
		sub := func(s, e int) []byte {
			r, err := tr.computeRoot(s, e)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		n04, n68, n46, n48 := sub(0, 4), sub(6, 8), sub(4, 6), sub(4, 8)
		full := [][]byte{n04, tr.leafHashes[c.sibling], n68}
		q := []byte{c.q}
		for i, p := range []struct {
			p    portProof
			want bool
		}{
			{portProof{start: c.leaf, end: c.leaf + 1, nodes: full, leafHash: tr.leafHashes[c.leaf]}, true},
			{portProof{start: 2, end: 3, nodes: [][]byte{n04, n68}, leafHash: n46}, c.short},
			{portProof{start: 1, end: 2, nodes: [][]byte{n04}, leafHash: n48}, c.short},
		} {
			if got := p.p.verifyNamespace(q, nil, root); got != p.want {
				t.Errorf("absence of %d in %x, case %d: %v, want %v", c.q, c.nids, i, got, p.want)
			}
		}
	}
}

func TestNMTPortValidateCompleteness(t *testing.T) {
	h := newPortHasher(1, false)
	node := func(ns byte, s string) []byte { return slices.Concat([]byte{ns, ns}, nmtSum([]byte(s))) }
	for i, p := range []portProof{
		{start: 8, end: 9},
		{start: 12, end: 13, nodes: [][]byte{node(1, "leftSubtreeNode")}},
		{start: 0, end: 1, nodes: [][]byte{node(1, "rightSubtreeNode")}},
	} {
		if err := p.validateCompleteness(h, []byte{5}); !errors.Is(err, errPortCompleteness) {
			t.Errorf("proof_completeness_test.go case %d: %v", i, err)
		}
	}
}
