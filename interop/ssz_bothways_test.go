package interop

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	ssz "github.com/ferranbt/fastssz"
	sszx "github.com/sha256x/sha256x/hashtree"
	"github.com/sha256x/sha256x/merkle"
)

// verifyProofFastssz is fastssz's VerifyProof, a panic an error.
func verifyProofFastssz(root []byte, p *ssz.Proof) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			ok, err = false, fmt.Errorf("%w: %v", errFastsszPanic, r)
		}
	}()
	return ssz.VerifyProof(root, p)
}

// TestSSZHostileProofs: fastssz's proofs and multiproofs from its trees
// are ours (the same branch, the same helpers), and, tampered at random (a
// leaf or a hash flipped, a hash dropped or added, another gindex), are
// judged by our Verify as fastssz's VerifyProof and VerifyMultiproof
// judge them; our proofs, tampered, fail with fastssz too.
func TestSSZHostileProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 30))
	accepted, rejected, multi := 0, 0, 0
	for _, n := range []int{1, 2, 3, 4, 5, 7, 9, 16, 17, 33, 100, 129} {
		for _, limit := range []int{n, 256, 4096} {
			if limit < n {
				continue
			}
			chunks := randChunks(r, n)
			for _, list := range []bool{false, true} {
				var leaves []*ssz.Node
				for _, c := range chunks {
					leaves = append(leaves, ssz.NewNodeWithValue(bytes.Clone(c[:])))
				}
				plimit := 1
				for plimit < limit {
					plimit *= 2
				}
				var tr *sszx.Tree
				var fn *ssz.Node
				var err error
				if list {
					tr = sszx.NewListTree(chunks, uint64(limit), uint64(n))
					fn, err = ssz.TreeFromNodesWithMixin(leaves, n, plimit)
				} else {
					tr = sszx.NewTree(chunks, uint64(limit))
					fn, err = ssz.TreeFromNodes(leaves, plimit)
				}
				if err != nil {
					t.Fatal(err)
				}
				root := tr.Root()
				if !bytes.Equal(fn.Hash(), root[:]) {
					t.Fatalf("%d chunks under %d: roots differ", n, limit)
				}
				for range 40 {
					g := tr.Gindex(uint64(r.IntN(n)))
					if r.IntN(4) == 0 {
						g >>= r.IntN(4) // an inner node
					}
					fp, err := prove(fn, int(g))
					if err != nil {
						continue
					}
					ours, err := tr.Prove(g)
					if err != nil {
						t.Fatal(err)
					}
					if fromFastssz(fp).Leaf != ours.Leaf || len(fp.Hashes) != len(ours.Branch) {
						t.Fatalf("%d chunks under %d, gindex %d: fastssz's proof differs from ours", n, limit, g)
					}
					for k := range fp.Hashes {
						if [32]byte(fp.Hashes[k]) != ours.Branch[k] {
							t.Fatalf("%d chunks under %d, gindex %d: hash %d differs from fastssz's", n, limit, g, k)
						}
					}
					q := &ssz.Proof{Index: fp.Index, Leaf: bytes.Clone(fp.Leaf)}
					for _, h := range fp.Hashes {
						q.Hashes = append(q.Hashes, bytes.Clone(h))
					}
					switch r.IntN(6) {
					case 0:
						q.Leaf[r.IntN(32)] ^= 1
					case 1:
						if len(q.Hashes) > 0 {
							q.Hashes[r.IntN(len(q.Hashes))][r.IntN(32)] ^= 1
						}
					case 2:
						if len(q.Hashes) > 0 {
							q.Hashes = q.Hashes[:len(q.Hashes)-1]
						}
					case 3:
						q.Hashes = append(q.Hashes, make([]byte, 32))
					case 4:
						q.Index = q.Index ^ (1 << r.IntN(max(1, len(q.Hashes))))
						if q.Index == 0 {
							q.Index = 1
						}
					}
					oerr := fromFastssz(q).Verify(root)
					ok, ferr := verifyProofFastssz(root[:], q)
					if errors.Is(ferr, errFastsszPanic) {
						t.Logf("gindex %d, %d hashes: %v", q.Index, len(q.Hashes), ferr)
						continue
					}
					if (oerr == nil) != ok {
						t.Fatalf("%d chunks under %d, gindex %d (of %d), %d hashes: ours %v, fastssz %v (%v)", n, limit, q.Index, g, len(q.Hashes), oerr, ok, ferr)
					}
					if ok {
						accepted++
					} else {
						rejected++
					}
				}
				// Multiproofs: fastssz's are ours, and tampered fail on both
				// sides.
				for range 10 {
					var m []uint64
					for tries := 0; len(m) < 1+r.IntN(4) && tries < 50; tries++ {
						g := tr.Gindex(uint64(r.IntN(n)))
						if !related(g, m) {
							m = append(m, g)
						}
					}
					idx := make([]int, len(m))
					for i, g := range m {
						idx[i] = int(g)
					}
					fm, err := proveMulti(fn, idx)
					if err != nil {
						continue
					}
					ours, err := tr.ProveMulti(m)
					if err != nil {
						t.Fatal(err)
					}
					fq := multiFromFastssz(fm)
					if fmt.Sprint(fq) != fmt.Sprint(ours) {
						t.Fatalf("%d chunks under %d, %v: fastssz's multiproof differs from ours", n, limit, m)
					}
					if err := fq.Verify(root); err != nil {
						t.Fatalf("%v: we reject fastssz's multiproof: %v", m, err)
					}
					bad := sszx.Multiproof{Gindices: m, Leaves: append([][32]byte(nil), fq.Leaves...), Helpers: append([][32]byte(nil), fq.Helpers...)}
					switch {
					case len(bad.Helpers) > 0 && r.IntN(2) == 0:
						bad.Helpers[r.IntN(len(bad.Helpers))][r.IntN(32)] ^= 1
					default:
						bad.Leaves[r.IntN(len(bad.Leaves))][r.IntN(32)] ^= 1
					}
					oerr := bad.Verify(root)
					ok, ferr := verifyMultiproof(root[:], bs(bad.Helpers), bs(bad.Leaves), idx)
					if errors.Is(ferr, errFastsszPanic) {
						continue
					}
					if oerr == nil || ok {
						t.Fatalf("%v: a tampered multiproof: ours %v, fastssz %v (%v)", m, oerr, ok, ferr)
					}
					multi++
				}
			}
		}
	}
	t.Logf("%d accepted, %d rejected, %d multiproofs", accepted, rejected, multi)
}

// TestBinaryProofsFastssz: merkle.Binary's proofs are fastssz's proofs of
// the same chunks padded to a power of two (gindex 2^depth + i), fastssz's
// VerifyProof accepts ours and merkle.Binary's VerifyNode accepts
// fastssz's, and a flipped hash fails on both sides.
func TestBinaryProofsFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 31))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 17, 31, 33, 100, 257, 1000} {
		chunks := randChunks(r, n)
		var leaves []*ssz.Node
		for _, c := range chunks {
			leaves = append(leaves, ssz.NewNodeWithValue(bytes.Clone(c[:])))
		}
		width := 1
		for width < n {
			width *= 2
		}
		fn, err := ssz.TreeFromNodes(leaves, width)
		if err != nil {
			t.Fatal(err)
		}
		tree := merkle.Binary.BuildNodes(chunks)
		root := tree.Root()
		if !bytes.Equal(fn.Hash(), root[:]) {
			t.Fatalf("%d chunks: root %x, fastssz %x", n, root, fn.Hash())
		}
		for range 20 {
			i := r.IntN(n)
			p := tree.Proof(i)
			g := width + i
			fp, err := prove(fn, g)
			if err != nil {
				t.Fatalf("%d chunks, chunk %d: %v", n, i, err)
			}
			if len(fp.Hashes) != len(p.Path) {
				t.Fatalf("%d chunks, chunk %d: %d hashes, fastssz %d", n, i, len(p.Path), len(fp.Hashes))
			}
			for k := range p.Path {
				if !bytes.Equal(fp.Hashes[k], p.Path[k][:]) {
					t.Fatalf("%d chunks, chunk %d: hash %d differs from fastssz's", n, i, k)
				}
			}
			q := &ssz.Proof{Index: g, Leaf: bytes.Clone(chunks[i][:])}
			for _, h := range p.Path {
				q.Hashes = append(q.Hashes, bytes.Clone(h[:]))
			}
			if ok, err := verifyProofFastssz(root[:], q); !ok || err != nil {
				t.Fatalf("%d chunks, chunk %d: fastssz rejects our proof: %v", n, i, err)
			}
			theirs := merkle.Proof{Index: i, Size: n}
			for _, h := range fp.Hashes {
				theirs.Path = append(theirs.Path, [32]byte(h))
			}
			if err := merkle.Binary.VerifyNode(root, chunks[i], theirs); err != nil {
				t.Fatalf("%d chunks, chunk %d: we reject fastssz's proof: %v", n, i, err)
			}
			if len(theirs.Path) > 0 {
				k := r.IntN(len(theirs.Path))
				theirs.Path[k][r.IntN(32)] ^= 1
				q.Hashes[k] = bytes.Clone(theirs.Path[k][:])
				ok, _ := verifyProofFastssz(root[:], q)
				if err := merkle.Binary.VerifyNode(root, chunks[i], theirs); !errors.Is(err, merkle.ErrMismatch) || ok {
					t.Fatalf("%d chunks, chunk %d: a flipped hash: ours %v, fastssz %v", n, i, err, ok)
				}
			}
		}
	}
}
