package bench

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
)

// Merkle Tree Certificates' subtree proofs (issue 41) in the 2^20-entry log
// of the proof benchmarks: subtrees as a CA picks them (CoveringSubtrees of
// random ranges), a random leaf of each. transparency-dev/merkle v0.0.2,
// the version served here, has no subtree proofs: its peer for a subtree
// inclusion proof is what its newer VerifySubtreeInclusion computes,
// proof.VerifyInclusion in the subtree's own tree; subtree consistency
// proofs have no peer (for start 0 they are consistency proofs:
// BenchmarkLogVerify).
type mtcItem struct {
	idx, start, end, size uint64
	leaf, sub, root       [32]byte
	incl, cons            [][32]byte
	inclB                 [][]byte
}

var mtcItems = sync.OnceValue(func() []mtcItem {
	store, _ := proofLog()
	r := rand.New(rand.NewPCG(41, 41))
	items := make([]mtcItem, 0, 256)
	for len(items) < cap(items) {
		n := 2 + r.Uint64N(logEntries-1)
		b := 1 + r.Uint64N(n)
		a := b - 1 - r.Uint64N(min(b, 1<<12))
		left, right, _ := translog.CoveringSubtrees(a, b)
		for _, s := range []translog.Subtree{left, right} {
			if s.Len() == 0 {
				continue
			}
			it := mtcItem{idx: s.Start + r.Uint64N(s.Len()), start: s.Start, end: s.End, size: n}
			it.sub, _ = translog.SubtreeRoot(s.Start, s.End, store)
			it.root, _ = translog.TreeRoot(n, store)
			leaf, _ := translog.SubtreeRoot(it.idx, it.idx+1, store)
			it.leaf = leaf
			it.incl, _ = translog.SubtreeInclusionProof(nil, it.idx, s.Start, s.End, store)
			it.cons, _ = translog.SubtreeConsistencyProof(nil, s.Start, s.End, n, store)
			for _, h := range it.incl {
				it.inclB = append(it.inclB, bytes.Clone(h[:]))
			}
			items = append(items, it)
		}
	}
	return items
})

// BenchmarkSubtreeVerify: an op is one subtree proof checked, a different
// subtree each time.
func BenchmarkSubtreeVerify(b *testing.B) {
	items := mtcItems()
	h := rfc6962.DefaultHasher
	for _, c := range []struct {
		name   string
		verify func(it *mtcItem) error
	}{
		{"proof=inclusion/impl=sha256x", func(it *mtcItem) error {
			return translog.VerifySubtreeInclusion(it.idx, it.start, it.end, it.leaf, it.incl, it.sub)
		}},
		{"proof=inclusion/impl=transparency-dev", func(it *mtcItem) error {
			return proof.VerifyInclusion(h, it.idx-it.start, it.end-it.start, it.leaf[:], it.inclB, it.sub[:])
		}},
		{"proof=consistency/impl=sha256x", func(it *mtcItem) error {
			return translog.VerifySubtreeConsistency(it.start, it.end, it.size, it.sub, it.root, it.cons)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := c.verify(&items[i%len(items)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
