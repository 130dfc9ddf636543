package interop

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/logadapt"
	"github.com/sha256x/sha256x/merkle"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
	"golang.org/x/mod/sumdb/tlog"
)

// The directions the other interop tests leave out: the references'
// proofs, and hostile variants of them, judged by our verifiers as the
// references judge them.

// mutateProof returns a variant of p: a hash flipped, dropped, repeated or
// two swapped, or p itself. p is not changed.
func mutateProof(r *rand.Rand, p [][]byte) [][]byte {
	q := make([][]byte, len(p))
	for i := range p {
		q[i] = bytes.Clone(p[i])
	}
	switch r.IntN(7) {
	case 0:
		if len(q) > 0 {
			q[r.IntN(len(q))][r.IntN(32)] ^= 1 << r.IntN(8)
		}
	case 1:
		if len(q) > 0 {
			q = q[:len(q)-1]
		}
	case 2:
		if len(q) > 0 {
			q = q[1:]
		}
	case 3:
		if len(q) > 0 {
			q = append(q, q[r.IntN(len(q))])
		} else {
			q = append(q, make([]byte, 32))
		}
	case 4:
		if len(q) > 1 {
			i, j := r.IntN(len(q)), r.IntN(len(q))
			q[i], q[j] = q[j], q[i]
		}
	}
	return q
}

func hashesOf(t *testing.T, p [][]byte) [][32]byte {
	t.Helper()
	h, err := logadapt.Hashes(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestTranslogHostileInclusion: transparency-dev's inclusion proofs,
// tampered at random (a hash, the length, the index, the size, the leaf),
// are judged by VerifyInclusion as transparency-dev's VerifyInclusion and
// tlog's CheckRecord judge them, and RootFromInclusion leads to the root
// that transparency-dev's RootFromInclusionProof does.
func TestTranslogHostileInclusion(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1))
	const N = 600
	h := rfc6962.DefaultHasher
	ref := testonly.New(h)
	var store translog.NodeStore
	var lg translog.Range
	entries := make([][]byte, N)
	for i := range entries {
		entries[i] = entry(r, i)
	}
	ref.AppendData(entries...)
	lg.AppendEntries(entries, store.Visit)
	roots := make([][32]byte, N+1)
	for m := range roots {
		roots[m], _ = translog.TreeRoot(uint64(m), &store)
	}
	accepted, rejected := 0, 0
	for range 20000 {
		n := 1 + r.Uint64N(N)
		i := r.Uint64N(n)
		theirs, err := ref.InclusionProof(i, n)
		if err != nil {
			t.Fatal(err)
		}
		lh := [32]byte(ref.LeafHash(i))
		root := roots[n]
		p := mutateProof(r, theirs)
		i0, n0 := i, n
		switch r.IntN(6) {
		case 0:
			i = r.Uint64N(n + 2)
		case 1:
			n = r.Uint64N(N + 3)
			if n <= N {
				root = roots[n]
			}
		case 2:
			lh = [32]byte(ref.LeafHash(r.Uint64N(N)))
		}
		ours := translog.VerifyInclusion(i, n, lh, hashesOf(t, p), root)
		td := proof.VerifyInclusion(h, i, n, lh[:], p, root[:])
		tl := tlog.CheckRecord(logadapt.ToTlog(hashesOf(t, p)), int64(n), root, int64(i), lh)
		if (ours == nil) != (td == nil) || (ours == nil) != (tl == nil) {
			t.Fatalf("leaf %d of %d, %d hashes: ours %v, transparency-dev %v, tlog %v", i, n, len(p), ours, td, tl)
		}
		if ours != nil && len(p) == len(theirs) && i == i0 && n == n0 && !errors.Is(ours, translog.ErrMismatch) {
			// The right length for the index and size: only a mismatch.
			t.Fatalf("leaf %d of %d: %v, not a mismatch", i, n, ours)
		}
		got, oerr := translog.RootFromInclusion(i, n, lh, hashesOf(t, p))
		want, terr := proof.RootFromInclusionProof(h, i, n, lh[:], p)
		if (oerr == nil) != (terr == nil) || oerr == nil && !bytes.Equal(got[:], want) {
			t.Fatalf("leaf %d of %d, %d hashes: RootFromInclusion %x (%v), transparency-dev %x (%v)", i, n, len(p), got, oerr, want, terr)
		}
		if ours == nil {
			accepted++
		} else {
			rejected++
		}
	}
	t.Logf("%d accepted, %d rejected", accepted, rejected)
	if accepted < 1000 || rejected < 1000 {
		t.Fatalf("%d accepted, %d rejected: too few of one", accepted, rejected)
	}
}

// TestTranslogHostileConsistency: transparency-dev's consistency proofs,
// tampered, judged by VerifyConsistency as transparency-dev and tlog judge
// them; RootFromConsistency of an accepted proof is the new root.
func TestTranslogHostileConsistency(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 2))
	const N = 600
	h := rfc6962.DefaultHasher
	ref := testonly.New(h)
	var store translog.NodeStore
	var lg translog.Range
	entries := make([][]byte, N)
	for i := range entries {
		entries[i] = entry(r, i)
	}
	ref.AppendData(entries...)
	lg.AppendEntries(entries, store.Visit)
	roots := make([][32]byte, N+1)
	for m := range roots {
		roots[m], _ = translog.TreeRoot(uint64(m), &store)
	}
	rootOf := func(m uint64) [32]byte {
		if m <= N {
			return roots[m]
		}
		return translog.LeafHash(fmt.Appendf(nil, "no root %d", m))
	}
	accepted, rejected := 0, 0
	for range 20000 {
		n := r.Uint64N(N + 1)
		m := r.Uint64N(n + 1)
		theirs, err := ref.ConsistencyProof(m, n)
		if err != nil {
			t.Fatal(err)
		}
		p := mutateProof(r, theirs)
		switch r.IntN(5) {
		case 0:
			m = r.Uint64N(N + 2)
		case 1:
			n = r.Uint64N(N + 2)
		}
		old, root := rootOf(m), rootOf(n)
		if r.IntN(10) == 0 {
			old = rootOf(r.Uint64N(N + 1))
		}
		if m == 0 {
			// transparency-dev takes any old root for size 0; we want
			// the empty tree's, as RFC 9162 has it.
			old = translog.EmptyRoot
		}
		ours := translog.VerifyConsistency(m, n, old, root, hashesOf(t, p))
		td := proof.VerifyConsistency(h, m, n, p, old[:], root[:])
		if (ours == nil) != (td == nil) {
			t.Fatalf("sizes %d to %d, %d hashes: ours %v, transparency-dev %v", m, n, len(p), ours, td)
		}
		if m > 0 {
			tl := tlog.CheckTree(logadapt.ToTlog(hashesOf(t, p)), int64(n), root, int64(m), old)
			if (ours == nil) != (tl == nil) {
				t.Fatalf("sizes %d to %d, %d hashes: ours %v, tlog %v", m, n, len(p), ours, tl)
			}
		}
		if ours == nil {
			accepted++
			if m > 0 {
				got, err := translog.RootFromConsistency(m, n, old, hashesOf(t, p))
				if err != nil || got != root {
					t.Fatalf("sizes %d to %d: RootFromConsistency %x (%v), want %x", m, n, got, err, root)
				}
			}
		} else {
			rejected++
		}
	}
	t.Logf("%d accepted, %d rejected", accepted, rejected)
	if accepted < 1000 || rejected < 1000 {
		t.Fatalf("%d accepted, %d rejected: too few of one", accepted, rejected)
	}
}

// TestSubtreeProofsFromTransparencyDev: the other way to
// TestMTCAgainstTransparencyDev: transparency-dev's inclusion proofs in a
// subtree's own tree, and its consistency proofs from size end, verify as
// our subtree proofs, and tampered ones fail on both sides.
func TestSubtreeProofsFromTransparencyDev(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 3))
	const n = 300
	h := rfc6962.DefaultHasher
	var store translog.NodeStore
	var lg translog.Range
	ref := testonly.New(h)
	entries := make([][]byte, n)
	for i := range entries {
		entries[i] = entry(r, i)
		ref.AppendData(entries[i])
	}
	lg.AppendEntries(entries, store.Visit)
	checked := 0
	for end := uint64(1); end <= n; end += 1 + r.Uint64N(5) {
		for start := uint64(0); start < end; start++ {
			if translog.CheckSubtree(start, end) != nil {
				continue
			}
			own := testonly.New(h)
			own.AppendData(entries[start:end]...)
			sub := [32]byte(own.Hash())
			i := start + r.Uint64N(end-start)
			lh := [32]byte(ref.LeafHash(i))
			theirs, err := own.InclusionProof(i-start, end-start)
			if err != nil {
				t.Fatal(err)
			}
			if err := translog.VerifySubtreeInclusion(i, start, end, lh, hashesOf(t, theirs), sub); err != nil {
				t.Fatalf("leaf %d of [%d, %d): we reject transparency-dev's proof: %v", i, start, end, err)
			}
			got, err := translog.RootFromSubtreeInclusion(i, start, end, lh, hashesOf(t, theirs))
			if err != nil || got != sub {
				t.Fatalf("leaf %d of [%d, %d): RootFromSubtreeInclusion %x (%v)", i, start, end, got, err)
			}
			q := mutateProof(r, theirs)
			ours := translog.VerifySubtreeInclusion(i, start, end, lh, hashesOf(t, q), sub)
			td := proof.VerifyInclusion(h, i-start, end-start, lh[:], q, sub[:])
			if (ours == nil) != (td == nil) {
				t.Fatalf("leaf %d of [%d, %d), tampered: ours %v, transparency-dev %v", i, start, end, ours, td)
			}
			checked++
			if start != 0 {
				continue
			}
			size := end + r.Uint64N(n-end+1)
			root, _ := translog.TreeRoot(size, &store)
			cp, err := ref.ConsistencyProof(end, size)
			if err != nil {
				t.Fatal(err)
			}
			if err := translog.VerifySubtreeConsistency(0, end, size, sub, root, hashesOf(t, cp)); err != nil {
				t.Fatalf("[0, %d) in %d: we reject transparency-dev's proof: %v", end, size, err)
			}
			if got, err := translog.RootFromSubtreeConsistency(0, end, size, sub, hashesOf(t, cp)); err != nil || got != root {
				t.Fatalf("[0, %d) in %d: RootFromSubtreeConsistency %x (%v)", end, size, got, err)
			}
			q = mutateProof(r, cp)
			ours = translog.VerifySubtreeConsistency(0, end, size, sub, root, hashesOf(t, q))
			td = proof.VerifyConsistency(h, end, size, q, sub[:], root[:])
			if (ours == nil) != (td == nil) {
				t.Fatalf("[0, %d) in %d, tampered: ours %v, transparency-dev %v", end, size, ours, td)
			}
		}
	}
	t.Logf("%d subtrees", checked)
}

// TestRFC6962HostileProofs: merkle.RFC6962's Verify, of a Tree and of a
// Mutable's root, judges transparency-dev's proofs, tampered at random,
// as transparency-dev's VerifyInclusion does.
func TestRFC6962HostileProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 4))
	h := rfc6962.DefaultHasher
	for _, n := range []int{1, 2, 3, 5, 8, 13, 64, 65, 100, 257, 1000} {
		d := leaves(n)
		ref := testonly.New(h)
		ref.AppendData(d...)
		m := merkle.RFC6962.NewMutable(d[:n/2])
		for _, l := range d[n/2:] {
			m.Append(l)
		}
		if merkle.RFC6962.Build(d).Root() != m.Root() {
			t.Fatalf("%d leaves: Mutable and Build differ", n)
		}
		root := m.Root()
		for range 400 {
			i := r.IntN(n)
			theirs, err := ref.InclusionProof(uint64(i), uint64(n))
			if err != nil {
				t.Fatal(err)
			}
			q := mutateProof(r, theirs)
			idx, size, leaf := i, n, d[i]
			switch r.IntN(5) {
			case 0:
				idx = r.IntN(n + 2)
			case 1:
				size = 1 + r.IntN(2*n)
			case 2:
				leaf = d[r.IntN(n)]
			}
			p := merkle.Proof{Index: idx, Size: size, Path: hashesOf(t, q)}
			ours := merkle.RFC6962.Verify(root, leaf, p)
			lh := merkle.RFC6962.LeafHash(leaf)
			if err := merkle.RFC6962.VerifyNode(root, lh, p); (err == nil) != (ours == nil) {
				t.Fatalf("%d leaves: Verify %v, VerifyNode %v", n, ours, err)
			}
			td := proof.VerifyInclusion(h, uint64(idx), uint64(size), lh[:], q, root[:])
			if (ours == nil) != (td == nil) {
				t.Fatalf("%d leaves: leaf %d (proof of %d) of %d, %d hashes: ours %v, transparency-dev %v", n, idx, i, size, len(q), ours, td)
			}
		}
		// The Mutable's own proofs, changed leaves and all, verify with
		// transparency-dev after Sets.
		for range 5 {
			j := r.IntN(n)
			d[j] = fmt.Appendf(nil, "set %d", r.Uint32())
			m.Set(j, d[j])
		}
		ref = testonly.New(h)
		ref.AppendData(d...)
		root = m.Root()
		if !bytes.Equal(root[:], ref.Hash()) {
			t.Fatalf("%d leaves after Sets: root differs from transparency-dev's", n)
		}
		for range 20 {
			i := r.IntN(n)
			theirs, _ := ref.InclusionProof(uint64(i), uint64(n))
			if err := merkle.RFC6962.Verify(root, d[i], merkle.Proof{Index: i, Size: n, Path: hashesOf(t, theirs)}); err != nil {
				t.Fatalf("%d leaves, leaf %d: we reject transparency-dev's proof under the Mutable's root: %v", n, i, err)
			}
		}
	}
}

// TestTilePathsTlog: tlog's paths of height-8 tiles parse with
// ParseTilePath to the tile FromTile converts, and ours parse with tlog's
// ParseTilePath to ours; a mangled path is an error to ours when it is to
// tlog.
func TestTilePathsTlog(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 5))
	for range 20000 {
		var n int64
		switch r.IntN(4) {
		case 0:
			n = r.Int64N(1000)
		case 1:
			n = r.Int64N(1 << 30)
		case 2:
			n = r.Int64N(1 << 50)
		default:
			n = r.Int64N(1<<62) >> r.IntN(62)
		}
		w := 256
		if r.IntN(2) == 0 {
			w = 1 + r.IntN(255)
		}
		l := r.IntN(8)
		// A tile of some log: its last node within 2^64 - 1 leaves'
		// (the tiles past it are errors to ours, FromTile's too).
		last := ^uint64(0) >> (8 * l)
		if uint64(w) > last {
			w = int(last)
		}
		if m := (last - uint64(w)) >> 8; uint64(n) > m {
			n = int64(uint64(n) % (m + 1))
		}
		tt := tlog.Tile{H: 8, L: l, N: n, W: w}
		want, err := logadapt.FromTile(tt)
		if err != nil {
			t.Fatal(err)
		}
		c2sp := "tile/" + strings.TrimPrefix(tt.Path(), "tile/8/") // tlog-tiles names no height
		got, err := translog.ParseTilePath(c2sp)
		if err != nil || got != want || got.Path() != c2sp {
			t.Fatalf("%s: ParseTilePath %+v (%v), want %+v", c2sp, got, err, want)
		}
		back, err := tlog.ParseTilePath(toTlogPath(want.Path()))
		if err != nil || back != tt {
			t.Fatalf("%s: tlog parses ours as %+v (%v)", want.Path(), back, err)
		}
		// Mangled: a byte changed, dropped or added.
		s := []byte(c2sp)
		k := r.IntN(len(s))
		switch r.IntN(3) {
		case 0:
			s[k] = "0123456789/.px"[r.IntN(14)]
		case 1:
			s = slices.Delete(s, k, k+1)
		default:
			s = slices.Insert(s, k, "0123456789/.px"[r.IntN(14)])
		}
		ours, oerr := translog.ParseTilePath(string(s))
		theirs, terr := tlog.ParseTilePath(toTlogPath(string(s)))
		if terr == nil && theirs.L >= 0 && theirs.L < 8 && !strings.Contains(string(s), "/data/") &&
			toTlogPath(string(s)) == theirs.Path() {
			// A tile tlog reads at its canonical path: ours reads it the
			// same.
			w, werr := logadapt.FromTile(theirs)
			if (oerr == nil) != (werr == nil) || ours != w {
				t.Fatalf("%q: ours %+v (%v), tlog %+v", s, ours, oerr, theirs)
			}
		}
		if oerr == nil {
			if terr != nil || logadapt.Tile(ours) != theirs {
				t.Fatalf("%q: ours %+v, tlog %+v (%v)", s, ours, theirs, terr)
			}
		}
	}
}

// toTlogPath is a tlog-tiles path as tlog names it: with the height, 8.
func toTlogPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "tile/"); ok {
		return "tile/8/" + rest
	}
	return p
}
