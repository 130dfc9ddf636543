package bench

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// More of celestiaorg/nmt's own tests (d79269f), run on the port:
// hasher_test.go's TestEmptyRoot, Test_namespacedTreeHasher_HashLeaf and
// TestComputeNsRange; nmt_test.go's TestNamespacedMerkleTreeRoot,
// TestNamespacedMerkleTree_Push, TestIgnoreMaxNamespace (the root's
// maximum namespace), TestMinMaxNamespace, Test_computeRoot_Error, and the
// namespace ranges that ExampleProof_VerifyNamespace's proof range [2, 3)
// comes from.

func nmtSum(parts ...[]byte) []byte {
	s := sha256.Sum256(slices.Concat(parts...))
	return s[:]
}

func TestNMTPortEmptyRoot(t *testing.T) {
	h := newPortHasher(1, true)
	want := []byte{0x0, 0x0, 0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55}
	if got := h.emptyRoot(); !bytes.Equal(got, want) {
		t.Fatalf("emptyRoot %x, want %x", got, want)
	}
	one := bytes.Repeat([]byte{1}, h.size())
	if _, err := h.hashNode(one, one); err != nil {
		t.Fatal(err)
	}
	if got := h.emptyRoot(); !bytes.Equal(got, want) {
		t.Fatalf("emptyRoot after hashNode %x, want %x", got, want)
	}
	if got, err := newPortTree(1, true).root(); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("root of no leaves %x (%v), want %x", got, err, want)
	}
}

func TestNMTPortHashLeaf(t *testing.T) {
	zero, one, long := []byte{0}, []byte{1}, []byte("namespace")
	data := []byte("a blockchain is a chain of blocks")
	for _, c := range []struct {
		nsLen      int
		leaf, want []byte
	}{
		{1, zero, slices.Concat(zero, zero, nmtSum([]byte{0}, zero))},
		{1, one, slices.Concat(one, one, nmtSum([]byte{0}, one))},
		{1, slices.Concat(one, data), slices.Concat(one, one, nmtSum([]byte{0}, one, data))},
		{9, slices.Concat(long, data), slices.Concat(long, long, nmtSum([]byte{0}, long, data))},
		{9, long, slices.Concat(long, long, nmtSum([]byte{0}, long))},
	} {
		got, err := newPortHasher(c.nsLen, false).hashLeaf(c.leaf)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("hashLeaf(%x) = %x (%v), want %x", c.leaf, got, err, c.want)
		}
	}
	if _, err := newPortHasher(2, false).hashLeaf([]byte{1}); err == nil {
		t.Error("hashLeaf of a leaf shorter than its namespace: no error")
	}
}

func TestNMTPortComputeNsRange(t *testing.T) {
	ff := []byte{0xFF}
	for _, c := range []struct {
		lMin, lMax, rMin, rMax, wantMin, wantMax []byte
		ignore                                   bool
	}{
		{ff, ff, ff, ff, ff, ff, true},
		{[]byte{0}, ff, ff, ff, []byte{0}, ff, true},
		{[]byte{0}, []byte{1}, ff, ff, []byte{0}, []byte{1}, true},
		{[]byte{0}, []byte{1}, []byte{2}, ff, []byte{0}, ff, true},
		{[]byte{0}, []byte{1}, []byte{2}, []byte{3}, []byte{0}, []byte{3}, true},
		{ff, ff, ff, ff, ff, ff, false},
		{[]byte{0}, ff, ff, ff, []byte{0}, ff, false},
		{[]byte{0}, []byte{1}, ff, ff, []byte{0}, ff, false},
		{[]byte{0}, []byte{1}, []byte{2}, ff, []byte{0}, ff, false},
		{[]byte{0}, []byte{1}, []byte{2}, []byte{3}, []byte{0}, []byte{3}, false},
	} {
		d := bytes.Repeat([]byte{9}, 32)
		l, r := slices.Concat(c.lMin, c.lMax, d), slices.Concat(c.rMin, c.rMax, d)
		got, err := newPortHasher(1, c.ignore).hashNode(l, r)
		if err != nil {
			t.Fatal(err)
		}
		if want := slices.Concat(c.wantMin, c.wantMax, nmtSum([]byte{1}, l, r)); !bytes.Equal(got, want) {
			t.Errorf("hashNode(%x, %x), ignore %v = %x, want %x", l[:2], r[:2], c.ignore, got, want)
		}
	}
}

func TestNMTPortTreeRoot(t *testing.T) {
	zeroNs, onesNs, data := []byte{0, 0, 0}, []byte{1, 1, 1}, []byte("leaf1")
	zeroLeaf := slices.Concat(zeroNs, zeroNs, nmtSum([]byte{0}, zeroNs, data))
	oneLeaf := slices.Concat(onesNs, onesNs, nmtSum([]byte{0}, onesNs, data))
	for _, c := range []struct {
		ns   [][]byte
		want []byte
	}{
		{nil, slices.Concat(zeroNs, zeroNs, nmtSum())},
		{[][]byte{zeroNs}, zeroLeaf},
		{[][]byte{zeroNs, zeroNs}, slices.Concat(zeroNs, zeroNs, nmtSum([]byte{1}, zeroLeaf, zeroLeaf))},
		{[][]byte{zeroNs, onesNs}, slices.Concat(zeroNs, onesNs, nmtSum([]byte{1}, zeroLeaf, oneLeaf))},
	} {
		tr := newPortTree(3, true)
		for _, ns := range c.ns {
			if err := tr.push(slices.Concat(ns, data)); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := tr.root(); err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%d leaves: root %x (%v), want %x", len(c.ns), got, err, c.want)
		}
	}
}

func TestNMTPortPush(t *testing.T) {
	tr := newPortTree(3, true)
	for i, c := range []struct {
		ns      []byte
		wantErr bool
	}{
		{[]byte{0, 0, 0}, false}, {[]byte{0, 0, 0}, false}, {[]byte{0, 0, 1}, false},
		{[]byte{0, 0, 0}, true}, {[]byte{0, 0, 1}, false}, {[]byte{1, 0, 0}, false},
		{[]byte{0, 0, 1}, true}, {[]byte{0, 0, 0}, true}, {[]byte{0, 1, 0}, true},
		{[]byte{1, 0, 0}, false}, {[]byte{1, 1, 0}, false},
	} {
		if err := tr.push(slices.Concat(c.ns, []byte("dummy data"))); (err != nil) != c.wantErr {
			t.Errorf("push %d (%x): %v, want an error %v", i, c.ns, err, c.wantErr)
		}
	}
	if err := tr.push([]byte{1, 1}); err == nil {
		t.Error("push of a leaf shorter than the namespace: no error")
	}
}

func TestNMTPortIgnoreMaxNamespace(t *testing.T) {
	n0, n1, n2 := []byte{0, 0, 0, 0, 0, 0, 0, 0}, []byte{0, 0, 0, 0, 0, 0, 0, 1}, []byte{0, 0, 0, 0, 0, 0, 0, 2}
	mx := bytes.Repeat([]byte{0xFF}, 8)
	for _, c := range []struct {
		ignore bool
		ns     [][]byte
		want   []byte
	}{
		{true, [][]byte{mx}, mx}, {false, [][]byte{mx}, mx},
		{true, [][]byte{n1, mx}, n1}, {false, [][]byte{n1, mx}, mx},
		{true, [][]byte{mx, mx}, mx}, {false, [][]byte{mx, mx}, mx},
		{true, [][]byte{n0, n1}, n1}, {false, [][]byte{n0, n1}, n1},
		{true, [][]byte{n0, n1, mx}, n1}, {false, [][]byte{n0, n1, mx}, mx},
		{true, [][]byte{n0, n0, n1, n2}, n2},
		{true, [][]byte{n0, n1, mx, mx}, n1}, {false, [][]byte{n0, n1, mx, mx}, mx},
		{true, [][]byte{n0, n1, n2, n2, mx, mx, mx, mx}, n2},
	} {
		tr := newPortTree(8, c.ignore)
		for i, ns := range c.ns {
			if err := tr.push(slices.Concat(ns, fmt.Appendf(nil, "leaf_%d", i+1))); err != nil {
				t.Fatal(err)
			}
		}
		r, err := tr.root()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r[8:16], c.want) {
			t.Errorf("%d leaves, ignore %v: root's max %x, want %x", len(c.ns), c.ignore, r[8:16], c.want)
		}
	}
}

// portExample is nmt_test.go's exampleNMT: a leaf a namespace, each nsLen
// bytes of its nid, with the data "leaf_i".
func portExample(t *testing.T, nsLen int, nids ...byte) *portTree {
	t.Helper()
	return portExampleIgn(t, nsLen, true, nids...)
}

func TestNMTPortMinMaxAndRanges(t *testing.T) {
	example := func(nsLen int, nids ...byte) *portTree { return portExample(t, nsLen, nids...) }
	for _, c := range []struct {
		tr               *portTree
		wantMin, wantMax []byte
	}{
		{example(1, 0, 0, 1, 3), []byte{0}, []byte{3}},
		{example(2, 1, 2, 3, 4, 5, 6, 7, 8), []byte{1, 1}, []byte{8, 8}},
	} {
		r, err := c.tr.root()
		if err != nil {
			t.Fatal(err)
		}
		ns := c.tr.h.nsLen
		if !bytes.Equal(r[:ns], c.wantMin) || !bytes.Equal(r[ns:2*ns], c.wantMax) ||
			!bytes.Equal(c.tr.minNID, c.wantMin) || !bytes.Equal(c.tr.maxNID, c.wantMax) {
			t.Errorf("root %x, minNID %x, maxNID %x; want %x and %x", r[:2*ns], c.tr.minNID, c.tr.maxNID, c.wantMin, c.wantMax)
		}
	}
	tr := example(1, 0, 0, 1, 3)
	want := map[string]portLeafRange{"\x00": {0, 2}, "\x01": {2, 3}, "\x03": {3, 4}}
	if len(tr.namespaceRanges) != len(want) {
		t.Fatalf("namespace ranges %v, want %v", tr.namespaceRanges, want)
	}
	for k, v := range want {
		if tr.namespaceRanges[k] != v {
			t.Errorf("namespace %x: range %v, want %v", k, tr.namespaceRanges[k], v)
		}
	}
}

// TestNMTPortAllocs: the port's hasher allocates what nmt's does without
// ReuseBuffers: the result alone (hasher.go's getBytes, make), a leaf's
// and a node's; the prefixes written are package slices (leafPrefixSlice,
// nodePrefixSlice), not a byte allocated a call.
func TestNMTPortAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's build allocates otherwise")
	}
	h := newPortHasher(29, true)
	leaf := append(bytes.Repeat([]byte{3}, 29), make([]byte, 512)...)
	l, err := h.hashLeaf(leaf)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = h.hashLeaf(leaf) }); n != 1 {
		t.Errorf("hashLeaf: %v allocations, nmt's HashLeaf 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = h.hashNode(l, l) }); n != 1 {
		t.Errorf("hashNode: %v allocations, nmt's HashNode 1", n)
	}
}

// TestNMTPortComputeRootErrors is nmt_test.go's Test_computeRoot_Error: a
// corrupt leaf hash, two leaves swapped, and ranges outside the tree, each
// the error nmt returns.
func TestNMTPortComputeRootErrors(t *testing.T) {
	nids := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	corrupt := portExample(t, 2, nids...)
	corrupt.leafHashes[4] = corrupt.leafHashes[4][:1]
	unordered := portExample(t, 2, nids...)
	unordered.leaves[4], unordered.leaves[5] = unordered.leaves[5], unordered.leaves[4]
	unordered.leafHashes[4], unordered.leafHashes[5] = unordered.leafHashes[5], unordered.leafHashes[4]
	valid := portExample(t, 2, nids...)
	for _, c := range []struct {
		tr         *portTree
		start, end int
		want       error
	}{
		{corrupt, 0, 7, errPortNodeLen}, {corrupt, 4, 7, errPortNodeLen}, {corrupt, 3, 5, errPortNodeLen},
		{unordered, 0, 7, errPortSiblings}, {unordered, 4, 6, errPortSiblings}, {unordered, 3, 7, errPortSiblings},
		{valid, -1, 1, errPortRange}, {valid, 3, 1, errPortRange}, {valid, 3, len(valid.leaves) + 1, errPortRange},
	} {
		if _, err := c.tr.computeRoot(c.start, c.end); !errors.Is(err, c.want) {
			t.Errorf("computeRoot(%d, %d): %v, want %v", c.start, c.end, err, c.want)
		}
	}
}
