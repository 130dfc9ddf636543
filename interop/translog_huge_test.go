package interop

import (
	"bytes"
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
	"github.com/sha256x/sha256x/cometadapt"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/sha256x/sha256x/logadapt"
)

// uniform is a log of any size, up to 2^64 - 1 leaves, all of one leaf
// hash: its perfect subtree of 2^l leaves has hash level[l], wherever it
// lies, so its nodes, roots and proofs (planned by transparency-dev's
// proof.Inclusion and proof.Consistency) come without storing it.
type uniform struct{ level [65][32]byte }

func newUniform(leaf [32]byte) *uniform {
	u := &uniform{}
	u.level[0] = leaf
	for l := 1; l < len(u.level); l++ {
		u.level[l] = translog.NodeHash(u.level[l-1], u.level[l-1])
	}
	return u
}

// root is the RFC 6962 root of n leaves: the perfect subtrees of n's bits,
// joined from the smallest up.
func (u *uniform) root(n uint64) [32]byte {
	if n == 0 {
		return translog.EmptyRoot
	}
	acc := u.level[bits.TrailingZeros64(n)]
	for n &= n - 1; n != 0; n &= n - 1 {
		acc = translog.NodeHash(u.level[bits.TrailingZeros64(n)], acc)
	}
	return acc
}

// plan returns the proof of transparency-dev's plan.
func (u *uniform) plan(t *testing.T, n proof.Nodes, err error) [][]byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	hs := make([][]byte, len(n.IDs))
	for i, id := range n.IDs {
		hs[i] = bytes.Clone(u.level[id.Level][:])
	}
	p, err := n.Rehash(hs, rfc6962.DefaultHasher.HashChildren)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hugeSize is a random log size of any bit length, and the edges.
func hugeSize(r *rand.Rand) uint64 {
	switch r.IntN(8) {
	case 0:
		return math.MaxUint64 - r.Uint64N(3)
	case 1:
		return 1<<63 + r.Uint64N(3) - 1
	case 2:
		return 1<<uint(r.IntN(64)) + r.Uint64N(3) - 1
	default:
		return 1 + r.Uint64()>>r.IntN(64)
	}
}

// TestTranslogHugeSizes: inclusion and consistency proofs in logs of up
// to 2^64 - 1 leaves, planned by transparency-dev: ours accept them as
// transparency-dev's verifiers (and tlog's, to 2^62) do, lead to the
// same root, and reject them flipped as they do.
func TestTranslogHugeSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 40))
	h := rfc6962.DefaultHasher
	for range 3000 {
		var leaf [32]byte
		for i := range leaf {
			leaf[i] = byte(r.Uint32())
		}
		u := newUniform(leaf)
		n := max(hugeSize(r), 1)
		root := u.root(n)
		i := r.Uint64N(n)
		if r.IntN(3) == 0 {
			i = n - 1 - r.Uint64N(min(n, 3))
		}
		pn, err := proof.Inclusion(i, n)
		p := u.plan(t, pn, err)
		if err := proof.VerifyInclusion(h, i, n, leaf[:], p, root[:]); err != nil {
			t.Fatalf("leaf %d of %d: transparency-dev rejects its own proof: %v", i, n, err)
		}
		ps := hashesOf(t, p)
		if err := translog.VerifyInclusion(i, n, leaf, ps, root); err != nil {
			t.Fatalf("leaf %d of %d: we reject transparency-dev's proof: %v", i, n, err)
		}
		if got, err := translog.RootFromInclusion(i, n, leaf, ps); err != nil || got != root {
			t.Fatalf("leaf %d of %d: RootFromInclusion %x (%v), want %x", i, n, got, err, root)
		}
		if n <= 1<<62 { // tlog's maxpow2 loops past 2^62
			if err := tlog.CheckRecord(logadapt.ToTlog(ps), int64(n), root, int64(i), leaf); err != nil {
				t.Fatalf("leaf %d of %d: tlog rejects the proof: %v", i, n, err)
			}
		}
		if len(ps) > 0 {
			bad := append([][32]byte(nil), ps...)
			bad[r.IntN(len(bad))][r.IntN(32)] ^= 1
			ours := translog.VerifyInclusion(i, n, leaf, bad, root)
			td := proof.VerifyInclusion(h, i, n, leaf[:], logadapt.Bytes(bad), root[:])
			if !errors.Is(ours, translog.ErrMismatch) || td == nil {
				t.Fatalf("leaf %d of %d, a hash flipped: ours %v, transparency-dev %v", i, n, ours, td)
			}
		}
		// A proof of another index of the same length: verdicts agree.
		j := r.Uint64N(n)
		ours := translog.VerifyInclusion(j, n, leaf, ps, root)
		td := proof.VerifyInclusion(h, j, n, leaf[:], p, root[:])
		if (ours == nil) != (td == nil) {
			t.Fatalf("leaf %d of %d with leaf %d's proof: ours %v, transparency-dev %v", j, n, i, ours, td)
		}
		got, oerr := translog.RootFromInclusion(j, n, leaf, ps)
		want, terr := proof.RootFromInclusionProof(h, j, n, leaf[:], p)
		if (oerr == nil) != (terr == nil) || oerr == nil && !bytes.Equal(got[:], want) {
			t.Fatalf("leaf %d of %d with leaf %d's proof: RootFromInclusion %x (%v), transparency-dev %x (%v)", j, n, i, got, oerr, want, terr)
		}

		// Consistency from m to n.
		m := 1 + r.Uint64N(n)
		switch r.IntN(4) {
		case 0:
			m = uint64(1) << bits.Len64(n) >> (1 + r.IntN(bits.Len64(n)))
		case 1:
			m = n - r.Uint64N(min(n, 3))
		}
		m = max(m, 1)
		old := u.root(m)
		cn, err := proof.Consistency(m, n)
		cp := u.plan(t, cn, err)
		if len(cp) > translog.MaxProofHashes {
			t.Fatalf("sizes %d to %d: %d hashes", m, n, len(cp))
		}
		if err := proof.VerifyConsistency(h, m, n, cp, old[:], root[:]); err != nil {
			t.Fatalf("sizes %d to %d: transparency-dev rejects its own proof: %v", m, n, err)
		}
		cs := hashesOf(t, cp)
		if err := translog.VerifyConsistency(m, n, old, root, cs); err != nil {
			t.Fatalf("sizes %d to %d: we reject transparency-dev's proof: %v", m, n, err)
		}
		if got, err := translog.RootFromConsistency(m, n, old, cs); err != nil || got != root {
			t.Fatalf("sizes %d to %d: RootFromConsistency %x (%v), want %x", m, n, got, err, root)
		}
		if n <= 1<<62 { // tlog's maxpow2 loops past 2^62
			if err := tlog.CheckTree(logadapt.ToTlog(cs), int64(n), root, int64(m), old); err != nil {
				t.Fatalf("sizes %d to %d: tlog rejects the proof: %v", m, n, err)
			}
		}
		if buf := translog.AppendProof(nil, cs); true {
			back, err := translog.ParseProof(nil, buf)
			if err != nil || len(back) != len(cs) {
				t.Fatalf("sizes %d to %d: ParseProof of AppendProof: %v", m, n, err)
			}
		}
		if len(cs) > 0 {
			bad := append([][32]byte(nil), cs...)
			bad[r.IntN(len(bad))][r.IntN(32)] ^= 1
			ours := translog.VerifyConsistency(m, n, old, root, bad)
			td := proof.VerifyConsistency(h, m, n, logadapt.Bytes(bad), old[:], root[:])
			if (ours == nil) != (td == nil) {
				t.Fatalf("sizes %d to %d, a hash flipped: ours %v, transparency-dev %v", m, n, ours, td)
			}
		}
	}
}

// TestCometHugeTotals: CometBFT's trees are RFC 6962's: proofs in trees of
// up to 2^63 - 1 items, planned by transparency-dev, are judged by
// cometadapt's verifiers as by CometBFT's Proof.Verify, flipped or not,
// for their own index or another.
func TestCometHugeTotals(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 41))
	for range 2000 {
		item := make([]byte, r.IntN(40))
		for i := range item {
			item[i] = byte(r.Uint32())
		}
		leaf := translog.LeafHash(item)
		u := newUniform(leaf)
		n := max(hugeSize(r)>>1, 1) // CometBFT's Total is an int64
		root := u.root(n)
		i := r.Uint64N(n)
		if r.IntN(3) == 0 {
			i = n - 1 - r.Uint64N(min(n, 3))
		}
		pn, err := proof.Inclusion(i, n)
		p := u.plan(t, pn, err)
		cp := &cmtmerkle.Proof{Total: int64(n), Index: int64(i), LeafHash: bytes.Clone(leaf[:]), Aunts: p}
		theirs := cp.Verify(root[:], item)
		if theirs != nil {
			t.Fatalf("item %d of %d: CometBFT rejects the proof: %v", i, n, theirs)
		}
		if err := cometadapt.VerifyProof(cp, root[:], item); err != nil {
			t.Fatalf("item %d of %d: we reject a proof CometBFT accepts: %v", i, n, err)
		}
		bad := *cp
		switch r.IntN(3) {
		case 0:
			bad.Index = int64(r.Uint64N(n))
		case 1:
			bad.Total = int64(max(r.Uint64N(n)<<1>>1, 1))
		default:
			if len(p) > 0 {
				bad.Aunts = append([][]byte(nil), p...)
				k := r.IntN(len(p))
				bad.Aunts[k] = bytes.Clone(p[k])
				bad.Aunts[k][r.IntN(32)] ^= 1
			}
		}
		ours, theirs := cometadapt.VerifyProof(&bad, root[:], item), bad.Verify(root[:], item)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("item %d of %d (proof of %d of %d): ours %v, CometBFT's %v", bad.Index, bad.Total, i, n, ours, theirs)
		}
	}
}
