// Package interop tests sha256x against other implementations. It is a
// separate module so that the library itself depends on none of them.
package interop

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x/merkle"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
)

func leaves(n int) [][]byte {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	d := make([][]byte, n)
	for i := range d {
		d[i] = fmt.Appendf(nil, "leaf %d:", i)
		for range r.IntN(150) {
			d[i] = append(d[i], byte(r.Uint32()))
		}
	}
	return d
}

func sizes() []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	ns = append(ns, 127, 128, 129, 1000, 1025)
	if !testing.Short() {
		ns = append(ns, 4097, 10007)
	}
	return ns
}

// TestRFC6962Vectors: the published leaves and roots of transparency-dev's
// testonly package (the tree of Certificate Transparency's test vectors).
func TestRFC6962Vectors(t *testing.T) {
	in, roots := testonly.LeafInputs(), testonly.RootHashes()
	for n := range len(in) + 1 {
		if n >= len(roots) {
			break
		}
		got := merkle.RFC6962.Root(in[:n])
		if !bytes.Equal(got[:], roots[n]) {
			t.Errorf("%d leaves: root %x, want %x", n, got, roots[n])
		}
	}
	lv := merkle.RFC6962.Build(in).Levels()
	for d, want := range testonly.NodeHashes() {
		for i := range want {
			if !bytes.Equal(lv[d][i][:], want[i]) {
				t.Errorf("level %d node %d: %x, want %x", d, i, lv[d][i], want[i])
			}
		}
	}
}

// TestRFC6962: roots and inclusion proofs against transparency-dev/merkle's
// reference tree, both ways: our proofs are its proofs and verify with its
// verifier, and its proofs verify with ours.
func TestRFC6962(t *testing.T) {
	h := rfc6962.DefaultHasher
	for _, n := range sizes() {
		d := leaves(n)
		ref := testonly.New(h)
		ref.AppendData(d...)
		tree := merkle.RFC6962.Build(d)
		root := tree.Root()
		if !bytes.Equal(root[:], ref.Hash()) {
			t.Fatalf("%d leaves: root %x, transparency-dev %x", n, root, ref.Hash())
		}
		if got := merkle.RFC6962.Root(d); got != root {
			t.Fatalf("%d leaves: Root and Build differ", n)
		}
		for i := 0; i < n; i++ {
			if n > 200 && i%31 != 0 && i != n-1 {
				continue
			}
			p := tree.Proof(i)
			want := checkInclusionTD(t, ref, p, d[i], root)
			theirs := merkle.Proof{Index: i, Size: n}
			for _, e := range want {
				theirs.Path = append(theirs.Path, [32]byte(e))
			}
			if err := merkle.RFC6962.Verify(root, d[i], theirs); err != nil {
				t.Fatalf("%d leaves, leaf %d: we reject transparency-dev's proof: %v", n, i, err)
			}
			if j := (i + 1) % n; j != i && !errors.Is(merkle.RFC6962.Verify(root, d[j], theirs), merkle.ErrMismatch) {
				t.Fatalf("%d leaves: leaf %d with leaf %d's proof is no ErrMismatch", n, j, i)
			}
		}
	}
}

// gohashtreeRoot is the SSZ root of chunks with gohashtree hashing each
// level: zero chunks pad the leaves to a power of two.
func gohashtreeRoot(t *testing.T, chunks [][32]byte) [32]byte {
	n := 1
	for n < len(chunks) {
		n *= 2
	}
	level := make([][32]byte, n)
	copy(level, chunks)
	for len(level) > 1 {
		next := make([][32]byte, len(level)/2)
		if err := gohashtree.Hash(next, level); err != nil {
			t.Fatal(err)
		}
		level = next
	}
	return level[0]
}

// TestBinary: the Binary scheme against gohashtree over zero-padded
// leaves, and its levels each against gohashtree's hash of the level below.
func TestBinary(t *testing.T) {
	for _, n := range sizes() {
		chunks := make([][32]byte, n)
		raw := make([][]byte, n)
		for i, l := range leaves(n) {
			chunks[i] = merkle.RFC6962.LeafHash(l) // any 32 distinct bytes
			raw[i] = chunks[i][:]
		}
		want := gohashtreeRoot(t, chunks)
		if got := merkle.Binary.Root(raw); got != want {
			t.Fatalf("%d chunks: root %x, gohashtree %x", n, got, want)
		}
		tree := merkle.Binary.BuildNodes(chunks)
		if tree.Root() != want {
			t.Fatalf("%d chunks: BuildNodes root %x, gohashtree %x", n, tree.Root(), want)
		}
		lv := tree.Levels()
		for d := 0; d+1 < len(lv); d++ {
			below := append([][32]byte(nil), lv[d]...)
			if len(below)%2 == 1 {
				below = append(below, [32]byte{}) // padding: stands in for the zero subtree below
				if d > 0 {
					below[len(below)-1] = zeroRoot(t, d)
				}
			}
			next := make([][32]byte, len(below)/2)
			if err := gohashtree.Hash(next, below); err != nil {
				t.Fatal(err)
			}
			for i := range next {
				if next[i] != lv[d+1][i] {
					t.Fatalf("%d chunks: level %d node %d differs from gohashtree", n, d+1, i)
				}
			}
		}
		for i := 0; i < n; i += max(1, n/17) {
			if err := merkle.Binary.Verify(want, raw[i], tree.Proof(i)); err != nil {
				t.Fatalf("%d chunks: the proof of chunk %d fails: %v", n, i, err)
			}
		}
	}
}

// zeroRoot is the root of 2^d zero chunks, by gohashtree.
func zeroRoot(t *testing.T, d int) [32]byte {
	return gohashtreeRoot(t, make([][32]byte, 1<<d))
}

// TestWorkers: trees large enough to be cut into subtrees, on 1 to 5
// goroutines, against transparency-dev's tree (RFC 6962) and gohashtree
// (Binary), which know nothing of the split. GOMAXPROCS is raised to 8,
// as the goroutines of a tree are capped at it.
func TestWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	for _, n := range []int{8191, 10007, 1<<15 + 3} {
		d := leaves(n)
		ref := testonly.New(rfc6962.DefaultHasher)
		ref.AppendData(d...)
		chunks := make([][32]byte, n)
		for i, l := range d {
			chunks[i] = merkle.RFC6962.LeafHash(l)
		}
		want := gohashtreeRoot(t, chunks)
		for workers := 1; workers <= 5; workers++ {
			rfc, bin := merkle.RFC6962, merkle.Binary
			rfc.Workers, bin.Workers = workers, workers
			if got := rfc.Root(d); !bytes.Equal(got[:], ref.Hash()) {
				t.Fatalf("%d leaves, %d workers: RFC 6962 root %x, transparency-dev %x", n, workers, got, ref.Hash())
			}
			if got := rfc.Build(d).Root(); !bytes.Equal(got[:], ref.Hash()) {
				t.Fatalf("%d leaves, %d workers: RFC 6962 Build root %x, transparency-dev %x", n, workers, got, ref.Hash())
			}
			if got := bin.RootNodes(chunks); got != want {
				t.Fatalf("%d chunks, %d workers: Binary root %x, gohashtree %x", n, workers, got, want)
			}
		}
	}
}

// checkInclusionTD checks our RFC 6962 inclusion proof p of leaf against
// transparency-dev's: the same path as its tree's, and accepted by its
// verifier under root. It returns transparency-dev's path.
func checkInclusionTD(t *testing.T, ref *testonly.Tree, p merkle.Proof, leaf []byte, root [32]byte) [][]byte {
	t.Helper()
	h := rfc6962.DefaultHasher
	i, n := p.Index, p.Size
	want, err := ref.InclusionProof(uint64(i), uint64(n))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(p.Path) {
		t.Fatalf("%d leaves, leaf %d: %d entries, transparency-dev %d", n, i, len(p.Path), len(want))
	}
	path := make([][]byte, len(p.Path))
	for k := range p.Path {
		path[k] = p.Path[k][:]
		if !bytes.Equal(path[k], want[k]) {
			t.Fatalf("%d leaves, leaf %d: entry %d differs", n, i, k)
		}
	}
	if err := proof.VerifyInclusion(h, uint64(i), uint64(n), h.HashLeaf(leaf), path, root[:]); err != nil {
		t.Fatalf("%d leaves, leaf %d: transparency-dev rejects our proof: %v", n, i, err)
	}
	return want
}
