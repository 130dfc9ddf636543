package interop

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
	"github.com/sha256x/sha256x/cometadapt"
)

// cometItems returns n random items of 0 to max bytes.
func cometItems(r *rand.Rand, n, max int) [][]byte {
	items := make([][]byte, n)
	for i := range items {
		items[i] = make([]byte, r.IntN(max+1))
		for j := range items[i] {
			items[i][j] = byte(r.Uint32())
		}
	}
	return items
}

// cometSizes are the tree sizes of the tests: every size to 70, then
// random ones to 2,000.
func cometSizes(r *rand.Rand) []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	for range 25 {
		ns = append(ns, 71+r.IntN(1930))
	}
	return append(ns, 2000, 4096, 4097)
}

// TestCometRoots: our roots, one tree at a time and many at once, are
// CometBFT's HashFromByteSlices, for 0 to 2,000 items of 0 to 2 KiB.
func TestCometRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 10))
	var blocks [][][]byte
	for _, n := range cometSizes(r) {
		items := cometItems(r, n, 2048)
		want := cmtmerkle.HashFromByteSlices(items)
		if got := cometadapt.HashFromByteSlices(items); !bytes.Equal(got, want) {
			t.Fatalf("%d items: root differs from CometBFT's", n)
		}
		blocks = append(blocks, items)
	}
	r.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	roots := make([][32]byte, len(blocks)+1)
	cometadapt.HashFromByteSlicesMany(roots, blocks)
	for i, b := range blocks {
		if want := cmtmerkle.HashFromByteSlices(b); !bytes.Equal(roots[i][:], want) {
			t.Fatalf("HashFromByteSlicesMany: block %d (%d items): root differs from CometBFT's", i, len(b))
		}
	}
	if roots[len(blocks)] != ([32]byte{}) {
		t.Error("HashFromByteSlicesMany wrote past its blocks")
	}
	// Many small blocks, and groups cut at the item bound.
	blocks = blocks[:0]
	for range 3000 {
		blocks = append(blocks, cometItems(r, r.IntN(40), 300))
	}
	big := cometItems(r, 70000, 8)
	blocks = append(blocks, big, cometItems(r, 3, 8))
	roots = make([][32]byte, len(blocks))
	cometadapt.HashFromByteSlicesMany(roots, blocks)
	for i, b := range blocks {
		if want := cmtmerkle.HashFromByteSlices(b); !bytes.Equal(roots[i][:], want) {
			t.Fatalf("HashFromByteSlicesMany: small block %d (%d items): root differs from CometBFT's", i, len(b))
		}
	}
}

// TestCometProofs: our proofs are CometBFT's, field for field, and its
// Proof.Verify accepts them; our verifier accepts CometBFT's, and rejects
// them for another leaf, root, index or path.
func TestCometProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 11))
	for _, n := range cometSizes(r)[:90] {
		items := cometItems(r, n, 2048)
		root, proofs := cometadapt.ProofsFromByteSlices(items)
		croot, cproofs := cmtmerkle.ProofsFromByteSlices(items)
		if !bytes.Equal(root, croot) || len(proofs) != len(cproofs) {
			t.Fatalf("%d items: root or proof count differs from CometBFT's", n)
		}
		for i := range items {
			p, cp := proofs[i], cproofs[i]
			if p.Total != cp.Total || p.Index != cp.Index || !bytes.Equal(p.LeafHash, cp.LeafHash) || len(p.Aunts) != len(cp.Aunts) {
				t.Fatalf("%d items: proof %d differs from CometBFT's", n, i)
			}
			for k := range p.Aunts {
				if !bytes.Equal(p.Aunts[k], cp.Aunts[k]) {
					t.Fatalf("%d items: proof %d, aunt %d differs from CometBFT's", n, i, k)
				}
			}
			if err := p.ValidateBasic(); err != nil {
				t.Fatalf("%d items: proof %d: CometBFT's ValidateBasic: %v", n, i, err)
			}
			if err := p.Verify(croot, items[i]); err != nil {
				t.Fatalf("%d items: CometBFT rejects our proof %d: %v", n, i, err)
			}
			if err := cometadapt.VerifyProof(cp, root, items[i]); err != nil {
				t.Fatalf("%d items: we reject CometBFT's proof %d: %v", n, i, err)
			}
			// Ours reject what CometBFT rejects.
			other := append(bytes.Clone(items[i]), 1)
			if err := cometadapt.VerifyProof(cp, root, other); !errors.Is(err, cometadapt.ErrMismatch) || cp.Verify(croot, other) == nil {
				t.Fatalf("%d items: proof %d of another leaf: %v", n, i, err)
			}
			if len(cp.Aunts) > 0 {
				bad := *cp
				bad.Aunts = append([][]byte(nil), cp.Aunts...)
				k := r.IntN(len(bad.Aunts))
				bad.Aunts[k] = bytes.Clone(bad.Aunts[k])
				bad.Aunts[k][r.IntN(32)] ^= 1 << r.IntN(8)
				if err := cometadapt.VerifyProof(&bad, root, items[i]); !errors.Is(err, cometadapt.ErrMismatch) || bad.Verify(croot, items[i]) == nil {
					t.Fatalf("%d items: proof %d, aunt %d flipped: %v", n, i, k, err)
				}
				bad.Aunts = bad.Aunts[:len(bad.Aunts)-1]
				if cometadapt.VerifyProof(&bad, root, items[i]) == nil || bad.Verify(croot, items[i]) == nil {
					t.Fatalf("%d items: proof %d, an aunt short: accepted", n, i)
				}
			}
			if n > 1 {
				bad := *cp
				bad.Index = (bad.Index + 1 + int64(r.IntN(n-1))) % int64(n)
				ours, theirs := cometadapt.VerifyProof(&bad, root, items[i]), bad.Verify(croot, items[i])
				if (ours == nil) != (theirs == nil) {
					t.Fatalf("%d items: proof %d as index %d: ours %v, CometBFT's %v", n, i, bad.Index, ours, theirs)
				}
			}
		}
	}
}

// TestCometHostileProofs: proofs with random totals, indices and aunts are
// judged as CometBFT's Proof.Verify judges them (for 32-byte hashes), never
// a panic.
func TestCometHostileProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 12))
	items := cometItems(r, 37, 64)
	root, proofs := cometadapt.ProofsFromByteSlices(items)
	for range 20000 {
		i := r.IntN(len(items))
		p := *proofs[i]
		p.Aunts = append([][]byte(nil), p.Aunts...)
		switch r.IntN(5) {
		case 0:
			p.Total = int64(r.IntN(80)) - 2
		case 1:
			p.Index = int64(r.IntN(80)) - 2
		case 2:
			p.Aunts = p.Aunts[:r.IntN(len(p.Aunts)+1)]
		case 3:
			p.Aunts = append(p.Aunts, p.Aunts[r.IntN(len(p.Aunts))])
		default:
			p.Total, p.Index = int64(r.IntN(80))+1, int64(r.IntN(80))
		}
		ours, theirs := cometadapt.VerifyProof(&p, root, items[i]), p.Verify(root, items[i])
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("total %d, index %d, %d aunts: ours %v, CometBFT's %v", p.Total, p.Index, len(p.Aunts), ours, theirs)
		}
	}
}
