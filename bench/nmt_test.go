package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sha256x/sha256x/merkle/nmt"
)

// TestNMTPortVectors: the port of nmt's hasher against nmt's own vectors.
// The tree of Figure 1 of docs/spec/nmt.md (namespaces of one byte,
// digests given to 7 hex digits), with the two nodes that nmt's
// example_test.go (ExampleProof_VerifyNamespace) prints in full; the
// cases of hasher_test.go's TestHashNode_Error, each error the one nmt
// returns, and its Test_namespacedTreeHasher_HashNode, over its randHash
// (32 bytes of 0x01); and the leaf form that its
// Test_namespacedTreeHasher_HashLeaf computes with crypto/sha256.
func TestNMTPortVectors(t *testing.T) {
	tr := newPortTree(1, true)
	h := tr.h
	for _, l := range []string{"\x00leaf_0", "\x00leaf_1", "\x01leaf_2", "\x03leaf_3"} {
		if err := tr.push([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	n01, _ := h.hashNode(tr.leafHashes[0], tr.leafHashes[1])
	n23, _ := h.hashNode(tr.leafHashes[2], tr.leafHashes[3])
	root, _ := tr.root()
	for _, c := range []struct {
		node []byte
		want string
	}{
		{tr.leafHashes[0], "00005fa0c9c"}, {tr.leafHashes[1], "000052385a0"}, {tr.leafHashes[2], "010171ca46a"},
		{tr.leafHashes[3], "0303b4a27922d95e91d4a566aaadcedf5026b620022715910a354184c0af384e1440"},
		{n01, "0000ead8d25851870e4e7b5e8e4d10092df495a0d73af6fec3709ac79fa6338f57ae"},
		{n23, "010352c7c03"}, {root, "0003b1c2cc5"},
	} {
		if got := hex.EncodeToString(c.node); !strings.HasPrefix(got, c.want) || len(c.want) == 68 && got != c.want {
			t.Errorf("node %s, nmt's vectors have %s", got, c.want)
		}
	}
	h2 := newPortHasher(2, false)
	d := bytes.Repeat([]byte{1}, 32) // randHash
	node := func(b ...byte) []byte { return append(b, d...) }
	for _, c := range []struct {
		l, r    []byte
		wantErr error
	}{
		// TestHashNode_Error
		{node(0, 0, 1, 1), node(0, 0, 1, 1), errPortSiblings},
		{node(0, 0, 1, 1), node(1, 1, 2, 2), nil},
		{node(0, 0, 1, 1), node(2, 2, 3, 3), nil},
		{node(2, 2, 0, 0), node(1, 1, 4, 4), errPortNodeOrder},
		{node(0, 0, 1, 1), node(4, 4, 1, 1), errPortNodeOrder},
		// Test_namespacedTreeHasher_HashNode
		{node(0, 0, 0, 0), node(1, 1, 1, 1), nil},
		{node(0, 0, 0, 0), node(0, 0, 1, 1), nil},
	} {
		got, err := h2.hashNode(c.l, c.r)
		if !errors.Is(err, c.wantErr) {
			t.Errorf("hashNode(%x, %x): %v, want %v", c.l[:4], c.r[:4], err, c.wantErr)
		}
		if err == nil {
			s := sha256.Sum256(slices.Concat([]byte{1}, c.l, c.r))
			if want := slices.Concat(c.l[:2], c.r[2:4], s[:]); !bytes.Equal(got, want) {
				t.Errorf("hashNode(%x, %x) = %x, want %x", c.l[:4], c.r[:4], got, want)
			}
		}
	}
	long := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	got, _ := newPortHasher(9, false).hashLeaf(long)
	s := sha256.Sum256(append([]byte{0}, long...))
	if want := slices.Concat(long, long, s[:]); !bytes.Equal(got, want) {
		t.Errorf("hashLeaf of a namespaced empty leaf = %x, want %x", got, want)
	}
}

// nmtSquare returns an extended square of width w with shares of 512
// bytes: its original quadrant's namespaces in order row by row, the rest
// random (parity).
func nmtSquare(w int, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 512))
	k := w / 2
	shares := make([][]byte, w*w)
	ns := make([]byte, nmt.CelestiaNamespaceSize)
	var c uint64
	for i := range w {
		for j := range w {
			s := make([]byte, 512)
			for b := 0; b < len(s); b += 8 {
				v := r.Uint64()
				for c := range 8 {
					s[b+c] = byte(v >> (8 * c))
				}
			}
			if i < k && j < k {
				c += uint64(r.IntN(2)) // a namespace for about two shares
				binary.BigEndian.PutUint64(ns[len(ns)-8:], c)
				copy(s, ns)
			}
			shares[i*w+j] = s
		}
	}
	return shares
}

// TestNMTSquareAgainstPort: merkle/nmt's Square and Tree give the port's
// roots on random squares.
func TestNMTSquareAgainstPort(t *testing.T) {
	sq := nmt.NewSquare(nmt.Celestia)
	for _, w := range []int{2, 4, 8, 12, 32, 64, 256} {
		shares := nmtSquare(w, uint64(w))
		want, err := portSquareRoots(shares, w, nmt.CelestiaNamespaceSize)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sq.Roots(nil, shares, w)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, slices.Concat(want...)) {
			t.Fatalf("width %d: Square's roots differ from the port's", w)
		}
		tt := newTreesRoots(w, len(shares[0]))
		for range 2 { // the second time on the buffers of the first
			if err := tt.roots(shares); err != nil {
				t.Fatal(err)
			}
			for i, tree := range tt.trees {
				if !bytes.Equal(tree.Root(), want[i]) {
					t.Fatalf("width %d: the benchmark's tree %d's root differs from the port's", w, i)
				}
			}
		}
		for i, ls := range nmtLeaves(shares, w) {
			tr := nmt.New(nmt.Celestia)
			for _, l := range ls {
				if err := tr.Push(l); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(tr.Root(), want[i]) {
				t.Fatalf("width %d: tree %d's root differs from the port's", w, i)
			}
		}
		tr := nmt.New(nmt.Celestia)
		for j, s := range shares[:w] { // row 0: original shares, then parity
			ns := s[:nmt.CelestiaNamespaceSize]
			if j >= w/2 {
				ns = bytes.Repeat([]byte{0xFF}, nmt.CelestiaNamespaceSize)
			}
			leaf := slices.Concat(ns, s)
			if err := tr.Push(leaf); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(tr.Root(), want[0]) {
			t.Fatalf("width %d: Tree's root of row 0 differs from the port's", w)
		}
	}
}

// BenchmarkNMTSquare: the 512 row and column roots of a 128 x 128 square
// extended to 256 x 256 shares of 512 bytes (a full Celestia block), by
// merkle/nmt's Square (each level of all 512 trees one batched call) and
// by the port of nmt (a tree per row and column, node by node, as
// celestia-app builds them). Compare with benchstat -col /impl.
func BenchmarkNMTSquare(b *testing.B) {
	const w = 256
	shares := nmtSquareOnce()
	b.Run("impl=sha256x", func(b *testing.B) {
		sq := nmt.NewSquare(nmt.Celestia)
		dst, err := sq.Roots(nil, shares, w)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(w * w * 512))
		b.ReportAllocs()
		for b.Loop() {
			dst, _ = sq.Roots(dst[:0], shares, w)
		}
	})
	// The same roots tree by tree, 512 merkle/nmt Trees (each tree's
	// leaves one batched call, each level one more, every share's leaf
	// hashed in its row and again in its column, as the port does), the
	// leaves ns || share built in the loop from the shares, as the port
	// builds its own (into a buffer a tree, reused).
	b.Run("impl=sha256x-trees", func(b *testing.B) {
		tr := newTreesRoots(w, len(shares[0]))
		b.SetBytes(int64(w * w * 512))
		b.ReportAllocs()
		for b.Loop() {
			if err := tr.roots(shares); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=nmtport", func(b *testing.B) {
		b.SetBytes(int64(w * w * 512))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := portSquareRoots(shares, w, nmt.CelestiaNamespaceSize); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var nmtSquareOnce = sync.OnceValue(func() [][]byte { return nmtSquare(256, 128) })

// treesRoots computes a square's row and column roots as 2w merkle/nmt
// Trees, each tree's leaves (ns || share, the parity namespace outside the
// original quadrant) built from the shares into its own buffer, reused
// from square to square.
type treesRoots struct {
	w     int
	trees []*nmt.Tree
	bufs  [][]byte
}

func newTreesRoots(w, shareSize int) *treesRoots {
	tr := &treesRoots{w: w, trees: make([]*nmt.Tree, 2*w), bufs: make([][]byte, 2*w)}
	for i := range tr.trees {
		tr.trees[i] = nmt.New(nmt.Celestia)
		tr.bufs[i] = make([]byte, 0, w*(nmt.CelestiaNamespaceSize+shareSize))
	}
	return tr
}

// roots pushes every tree's leaves and computes its root; root i is
// tr.trees[i].Root().
func (tr *treesRoots) roots(shares [][]byte) error {
	const nsLen = nmt.CelestiaNamespaceSize
	w := tr.w
	parity := [nsLen]byte{}
	for i := range parity {
		parity[i] = 0xFF
	}
	for t, tree := range tr.trees {
		tree.Reset()
		buf := tr.bufs[t][:0]
		for x := range w {
			i, j := t, x
			if t >= w {
				i, j = x, t-w
			}
			ns := parity[:]
			if i < w/2 && j < w/2 {
				ns = shares[i*w+j][:nsLen]
			}
			n := len(buf)
			buf = append(buf, ns...)
			buf = append(buf, shares[i*w+j]...)
			if len(buf) > cap(tr.bufs[t]) {
				panic("bench: a share larger than the trees' buffers")
			}
			if err := tree.Push(buf[n:len(buf):len(buf)]); err != nil {
				return err
			}
		}
		tree.Root()
	}
	return nil
}

// nmtLeaves returns the leaves of a square's row trees, then its column
// trees: ns || share, the parity namespace outside the original quadrant.
func nmtLeaves(shares [][]byte, w int) [][][]byte {
	parity := bytes.Repeat([]byte{0xFF}, nmt.CelestiaNamespaceSize)
	out := make([][][]byte, 2*w)
	for t := range out {
		for x := range w {
			i, j := t, x
			if t >= w {
				i, j = x, t-w
			}
			ns := parity
			if i < w/2 && j < w/2 {
				ns = shares[i*w+j][:nmt.CelestiaNamespaceSize]
			}
			out[t] = append(out[t], slices.Concat(ns, shares[i*w+j]))
		}
	}
	return out
}
