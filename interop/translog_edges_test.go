package interop

import (
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/logadapt"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
	"golang.org/x/mod/sumdb/tlog"
)

// TestTranslogConsistencyEdges: consistency between equal sizes (0 and 0
// among them), from the empty log, and to a smaller size, with every pair
// of the right root, another size's root, the empty log's root and a
// random hash, and proofs of no hash, the reference's, or one hash too
// many: VerifyConsistency judges each as transparency-dev's
// VerifyConsistency does (and tlog's CheckTree, from size 1), where the
// old size is 0 only with the empty log's root (transparency-dev takes
// any root there, TestTranslogHostileConsistency). The hostile test's new
// root of size 0 is always the empty log's.
func TestTranslogConsistencyEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 30))
	h := rfc6962.DefaultHasher
	const N = 9
	ref := testonly.New(h)
	roots := [][32]byte{translog.EmptyRoot}
	for i := range N {
		ref.AppendData(entry(r, i))
		roots = append(roots, [32]byte(ref.Hash()))
	}
	var junk [32]byte
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	checked := 0
	for m := uint64(0); m <= N; m++ {
		for n := uint64(0); n <= N; n++ {
			var good [][]byte
			if m <= n {
				var err error
				if good, err = ref.ConsistencyProof(m, n); err != nil {
					t.Fatal(err)
				}
			}
			proofs := [][][]byte{nil, good, append(good, junk[:])}
			for _, old := range [][32]byte{roots[m], roots[(m+1)%(N+1)], translog.EmptyRoot, junk} {
				if m == 0 && old != translog.EmptyRoot {
					continue
				}
				for _, root := range [][32]byte{roots[n], roots[(n+1)%(N+1)], translog.EmptyRoot, junk} {
					for _, p := range proofs {
						ours := translog.VerifyConsistency(m, n, old, root, hashesOf(t, p))
						td := proof.VerifyConsistency(h, m, n, p, old[:], root[:])
						if (ours == nil) != (td == nil) {
							t.Fatalf("sizes %d to %d, old %x, new %x, %d hashes: ours %v, transparency-dev %v", m, n, old[:4], root[:4], len(p), ours, td)
						}
						if m > 0 && m <= n {
							tl := tlog.CheckTree(logadapt.ToTlog(hashesOf(t, p)), int64(n), root, int64(m), old)
							if (ours == nil) != (tl == nil) {
								t.Fatalf("sizes %d to %d, old %x, new %x, %d hashes: ours %v, tlog %v", m, n, old[:4], root[:4], len(p), ours, tl)
							}
						}
						checked++
					}
				}
			}
		}
	}
	t.Logf("%d cases", checked)
}
