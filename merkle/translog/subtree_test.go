package translog

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
)

// refSubtreeProof is the subtree consistency proof of
// draft-ietf-plants-merkle-tree-certs ("Subtree Consistency Proofs"), the
// recursion of RFC 9162's SUBPROOF with a subtree [start, end) in place
// of the old tree [0, m).
func refSubtreeProof(start, end int, d [][Size]byte, b bool) [][Size]byte {
	n := len(d)
	if start == 0 && end == n {
		if b {
			return nil
		}
		return [][Size]byte{mth(d)}
	}
	k := split(n)
	switch {
	case end <= k:
		return append(refSubtreeProof(start, end, d[:k], b), mth(d[k:]))
	case start >= k:
		return append(refSubtreeProof(start-k, end-k, d[k:], b), mth(d[:k]))
	}
	// start < k < end: a subtree across the split starts at 0.
	return append(refSubtreeProof(0, end-k, d[k:], false), mth(d[:k]))
}

func isSubtree(start, end uint64) bool { return CheckSubtree(start, end) == nil }

// TestSubtreeProofs: every subtree of logs up to 70 leaves (and a sample
// up to 130): its root, its inclusion proofs (RFC 9162's PATH in the
// subtree's own tree) and its consistency proofs (the draft's recursion)
// are what the references say, from every NodeReader, and verify.
func TestSubtreeProofs(t *testing.T) {
	leaves := leafHashesOf(testEntries(130))
	var lg Range
	var store NodeStore
	var flat FlatStore
	lg.Append(leaves, func(level int, index uint64, nodes [][Size]byte) {
		store.Visit(level, index, nodes)
		flat.Visit(level, index, nodes)
	})
	readers := []NodeReader{&store, &flat}
	checked := 0
	for end := 0; end <= 130; end++ {
		for start := 0; start <= end; start++ {
			if !isSubtree(uint64(start), uint64(end)) {
				continue
			}
			sub := leaves[start:end]
			root := mth(sub)
			for _, rd := range readers {
				if got, err := SubtreeRoot(uint64(start), uint64(end), rd); err != nil || got != root {
					t.Fatalf("[%d, %d) (%T): root %x (%v), want %x", start, end, rd, got, err, root)
				}
			}
			for i := start; i < end; i++ {
				if end > 70 && i%5 != 0 {
					continue
				}
				want := refPath(i-start, sub)
				got, err := SubtreeInclusionProof(nil, uint64(i), uint64(start), uint64(end), &flat)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("leaf %d of [%d, %d): proof %x (%v), want %x", i, start, end, got, err, want)
				}
				if err := VerifySubtreeInclusion(uint64(i), uint64(start), uint64(end), leaves[i], got, root); err != nil {
					t.Fatalf("leaf %d of [%d, %d): %v", i, start, end, err)
				}
				checked++
			}
			for size := end; size <= 130; size++ {
				if size > 70 && size%9 != 0 {
					continue
				}
				var want [][Size]byte
				if start < end {
					want = refSubtreeProof(start, end, leaves[:size], true)
				}
				for _, rd := range readers {
					got, err := SubtreeConsistencyProof(nil, uint64(start), uint64(end), uint64(size), rd)
					if err != nil || !slices.Equal(got, want) {
						t.Fatalf("[%d, %d) in %d (%T): proof %x (%v), want %x", start, end, size, rd, got, err, want)
					}
				}
				if start == 0 && end > 0 {
					if got, _ := ConsistencyProof(nil, uint64(end), uint64(size), &flat); !slices.Equal(got, want) {
						t.Fatalf("[0, %d) in %d: not the consistency proof", end, size)
					}
				}
				if err := VerifySubtreeConsistency(uint64(start), uint64(end), uint64(size), root, mth(leaves[:size]), want); err != nil {
					t.Fatalf("[%d, %d) in %d: %v", start, end, size, err)
				}
				if start < end {
					if got, err := RootFromSubtreeConsistency(uint64(start), uint64(end), uint64(size), root, want); err != nil || got != mth(leaves[:size]) {
						t.Fatalf("[%d, %d) in %d: RootFromSubtreeConsistency %x (%v)", start, end, size, got, err)
					}
				}
				checked++
			}
		}
	}
	t.Logf("%d proofs checked", checked)
}

// TestSubtreeProofsReject: every proof above changed by one bit, one hash
// more or less, or checked with another start, roots or leaf, is an error,
// never a panic or an acceptance. (Not another end or size: as in RFC
// 9162, a size and root are trusted together, and one proof can fit two.)
func TestSubtreeProofsReject(t *testing.T) {
	leaves := leafHashesOf(testEntries(40))
	var store NodeStore
	var lg Range
	lg.Append(leaves, store.Visit)
	var junk [Size]byte
	junk[3] = 7
	for end := 1; end <= 40; end++ {
		for start := 0; start < end; start++ {
			if !isSubtree(uint64(start), uint64(end)) {
				continue
			}
			s, e := uint64(start), uint64(end)
			root := mth(leaves[start:end])
			for i := s; i < e; i++ {
				p, err := SubtreeInclusionProof(nil, i, s, e, &store)
				if err != nil {
					t.Fatal(err)
				}
				// bad: err is want (ErrMismatch or ErrMalformed), or any error
				// for want nil.
				bad := func(what string, err, want error) {
					if err == nil || want != nil && !errors.Is(err, want) {
						t.Fatalf("leaf %d of [%d, %d): %s: %v, want %v", i, s, e, what, err, want)
					}
				}
				for k := range p {
					q := slices.Clone(p)
					q[k][k%Size] ^= 1 << (k % 8)
					bad("a flipped bit", VerifySubtreeInclusion(i, s, e, leaves[i], q, root), ErrMismatch)
				}
				bad("a hash more", VerifySubtreeInclusion(i, s, e, leaves[i], append(slices.Clone(p), junk), root), ErrMalformed)
				if len(p) > 0 {
					bad("a hash less", VerifySubtreeInclusion(i, s, e, leaves[i], p[:len(p)-1], root), ErrMalformed)
				}
				bad("another leaf", VerifySubtreeInclusion(i, s, e, junk, p, root), ErrMismatch)
				bad("another root", VerifySubtreeInclusion(i, s, e, leaves[i], p, junk), ErrMismatch)
				bad("index past the end", VerifySubtreeInclusion(e, s, e, leaves[i], p, root), ErrMalformed)
				if s > 0 {
					bad("index before the start", VerifySubtreeInclusion(s-1, s, e, leaves[i], p, root), ErrMalformed)
					bad("start moved", VerifySubtreeInclusion(i, s-1, e, leaves[i], p, root), nil)
				}
			}
			for size := e; size <= 40; size++ {
				p, err := SubtreeConsistencyProof(nil, s, e, size, &store)
				if err != nil {
					t.Fatal(err)
				}
				full := mth(leaves[:size])
				bad := func(what string, err error) {
					if err == nil {
						t.Fatalf("[%d, %d) in %d: %s verifies", s, e, size, what)
					}
				}
				for k := range p {
					q := slices.Clone(p)
					q[k][(k+5)%Size] ^= 1 << (k % 8)
					bad("a flipped bit", VerifySubtreeConsistency(s, e, size, root, full, q))
				}
				bad("a hash more", VerifySubtreeConsistency(s, e, size, root, full, append(slices.Clone(p), junk)))
				if len(p) > 0 {
					bad("a hash less", VerifySubtreeConsistency(s, e, size, root, full, p[:len(p)-1]))
				}
				bad("another subtree root", VerifySubtreeConsistency(s, e, size, junk, full, p))
				bad("another root", VerifySubtreeConsistency(s, e, size, root, junk, p))
				if full != root {
					bad("the roots swapped", VerifySubtreeConsistency(s, e, size, full, root, p))
				}
				bad("end past size", VerifySubtreeConsistency(s, size+1, size, root, full, p))
			}
		}
	}
	// Ranges that are not subtrees, and indexes outside them.
	for _, c := range [][3]uint64{{1, 3, 2}, {2, 5, 3}, {2, 6, 3}, {1, 15, 1}, {5, 3, 4}, {1, 1, 0}, {0, 0, 0}, {1 << 62, 1<<63 + 1, 1 << 62}, {3, ^uint64(0), 3}} {
		s, e, i := c[0], c[1], c[2]
		if _, err := SubtreeInclusionProof(nil, i, s, e, &store); !errors.Is(err, ErrMalformed) {
			t.Errorf("SubtreeInclusionProof(%d, [%d, %d)): no error", i, s, e)
		}
		if err := VerifySubtreeInclusion(i, s, e, junk, nil, junk); !errors.Is(err, ErrMalformed) {
			t.Errorf("VerifySubtreeInclusion(%d, [%d, %d)): no error", i, s, e)
		}
		if s == e {
			continue
		}
		if _, err := SubtreeConsistencyProof(nil, s, e, 40, &store); !errors.Is(err, ErrMalformed) {
			t.Errorf("SubtreeConsistencyProof([%d, %d), 40): no error", s, e)
		}
		if _, err := SubtreeRoot(s, e, &store); !errors.Is(err, ErrMalformed) {
			t.Errorf("SubtreeRoot([%d, %d)): no error", s, e)
		}
		if _, err := RootFromSubtreeConsistency(s, e, ^uint64(0), junk, nil); !errors.Is(err, ErrMalformed) {
			t.Errorf("RootFromSubtreeConsistency([%d, %d)): no error", s, e)
		}
	}
	// The empty subtree: no root follows from it, but it is part of every
	// log that reaches it.
	if _, err := RootFromSubtreeConsistency(3, 3, 5, EmptyRoot, nil); !errors.Is(err, ErrMalformed) {
		t.Error("a root from the empty subtree")
	}
	if err := VerifySubtreeConsistency(3, 3, 5, EmptyRoot, junk, nil); err != nil {
		t.Errorf("the empty subtree: %v", err)
	}
	if err := VerifySubtreeConsistency(3, 3, 2, EmptyRoot, junk, nil); !errors.Is(err, ErrMalformed) {
		t.Error("the empty subtree past the log: no error")
	}
	if err := VerifySubtreeConsistency(3, 3, 5, junk, junk, nil); !errors.Is(err, ErrMismatch) {
		t.Errorf("the empty subtree of another root: %v", err)
	}
	if _, err := SubtreeConsistencyProof(nil, 2, 4, 3, &store); !errors.Is(err, ErrMalformed) {
		t.Error("SubtreeConsistencyProof past the log: no error")
	}
	if _, err := SubtreeConsistencyProof(nil, 0, 40, 41, &store); err == nil {
		t.Error("SubtreeConsistencyProof past the store: no error")
	}
}

// writeProofLine and the tests below reproduce the accumulated vectors of
// the draft's appendix "Subtree Test Vectors" (as transparency-dev/merkle's
// testonly/vectors_test.go checks them): for the log of entries 0x00,
// 0x01, ..., 0x81 (130 one-byte entries), every subtree's root, every
// subtree inclusion and subtree consistency proof, and every covering
// pair, written one a line in a fixed form into one SHA-256.
func writeProofLine(w io.Writer, prefix string, proof [][Size]byte) {
	io.WriteString(w, prefix)
	for _, h := range proof {
		fmt.Fprintf(w, " %x", h)
	}
	io.WriteString(w, "\n")
}

func draftLog(t *testing.T) *NodeStore {
	entries := make([][]byte, 130)
	for i := range entries {
		entries[i] = []byte{byte(i)}
	}
	var store NodeStore
	var lg Range
	lg.AppendEntries(entries, store.Visit)
	return &store
}

func TestDraftSubtreeVectors(t *testing.T) {
	store := draftLog(t)
	roots, incl, cons := sha256.New(), sha256.New(), sha256.New()
	for n := uint64(0); n <= 130; n++ {
		for end := uint64(0); end <= n; end++ {
			for start := uint64(0); start <= end; start++ {
				if !isSubtree(start, end) {
					continue
				}
				p, err := SubtreeConsistencyProof(nil, start, end, n, store)
				if err != nil {
					t.Fatal(err)
				}
				writeProofLine(cons, fmt.Sprintf("[%d, %d) %d", start, end, n), p)
				if n != 130 {
					continue
				}
				root, err := SubtreeRoot(start, end, store)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(roots, "[%d, %d) %x\n", start, end, root)
				for i := start; i < end; i++ {
					p, err := SubtreeInclusionProof(nil, i, start, end, store)
					if err != nil {
						t.Fatal(err)
					}
					writeProofLine(incl, fmt.Sprintf("%d [%d, %d)", i, start, end), p)
				}
			}
		}
	}
	cover := sha256.New()
	for end := uint64(0); end <= 130; end++ {
		for start := uint64(0); start <= end; start++ {
			l, r, err := CoveringSubtrees(start, end)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(cover, "%v %v\n", l, r)
		}
	}
	for _, c := range []struct {
		name string
		h    []byte
		want string
	}{
		{"subtree hash", roots.Sum(nil), "b82806ad4265bb151c1119c0f4db437bb4d1a1f887b3a7fba1cd4ebf552e3e81"},
		{"subtree inclusion proof", incl.Sum(nil), "ac2a8f989e44d99e399db448050ff5f19757df53cfb716aa81015d3955d8163f"},
		{"subtree consistency proof", cons.Sum(nil), "10fa99b37bf9bf9ffa26b412fbd98bd75363256d0b75d61bc4538b9c9c5a0a74"},
		{"subtree covering", cover.Sum(nil), "7fd9c8b926e9d2b5cf831560e8ce295a5ef97ad5c5ede4ea0dea28a8c8fc8bb0"},
	} {
		if got := fmt.Sprintf("%x", c.h); got != c.want {
			t.Errorf("%s vector = %s, want %s", c.name, got, c.want)
		}
	}
}

// TestCoveringSubtrees: the two subtrees are subtrees, adjacent, cover the
// range and end at its end, and begin before it by less than half the
// left one's size.
func TestCoveringSubtrees(t *testing.T) {
	check := func(start, end uint64) {
		l, r, err := CoveringSubtrees(start, end)
		if err != nil {
			t.Fatal(err)
		}
		if !isSubtree(l.Start, l.End) || !isSubtree(r.Start, r.End) || l.End != r.Start || r.End != end || l.Start > start ||
			(end-start > 1 && 2*(start-l.Start) >= l.Len()) {
			t.Fatalf("[%d, %d): %v %v", start, end, l, r)
		}
	}
	for end := uint64(0); end < 300; end++ {
		for start := uint64(0); start <= end; start++ {
			check(start, end)
		}
	}
	for _, c := range [][2]uint64{{0, ^uint64(0)}, {1, ^uint64(0)}, {1<<63 - 1, 1<<63 + 1}, {^uint64(0) - 1, ^uint64(0)}, {12345678901, 1<<40 + 3}} {
		check(c[0], c[1])
	}
	if _, _, err := CoveringSubtrees(5, 4); err == nil {
		t.Error("CoveringSubtrees(5, 4): no error")
	}
}

func TestSubtreeAllocs(t *testing.T) {
	leaves := leafHashesOf(testEntries(1000))
	var ns NodeStore
	var lg Range
	lg.Append(leaves, ns.Visit)
	var rd NodeReader = &ns
	dst := make([][Size]byte, 0, MaxProofHashes)
	sub := mth(leaves[512:712])
	full := mth(leaves)
	if a := testing.AllocsPerRun(100, func() {
		dst, _ = SubtreeInclusionProof(dst[:0], 600, 512, 712, rd)
		if VerifySubtreeInclusion(600, 512, 712, leaves[600], dst, sub) != nil {
			t.Fatal("inclusion")
		}
		dst, _ = SubtreeConsistencyProof(dst[:0], 512, 712, 1000, rd)
		if VerifySubtreeConsistency(512, 712, 1000, sub, full, dst) != nil {
			t.Fatal("consistency")
		}
		if _, err := SubtreeRoot(512, 712, rd); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("subtree proofs: %v allocations", a)
	}
}

// FuzzSubtreeVerify: no range, leaf or proof bytes make the subtree
// verifiers panic, or accept a proof other than the one the log gives.
func FuzzSubtreeVerify(f *testing.F) {
	leaves := leafHashesOf(testEntries(40))
	var store NodeStore
	var lg Range
	lg.Append(leaves, store.Visit)
	p, _ := SubtreeConsistencyProof(nil, 8, 14, 40, &store)
	f.Add(uint64(8), uint64(14), uint64(40), AppendProof(nil, p))
	q, _ := SubtreeInclusionProof(nil, 9, 8, 14, &store)
	f.Add(uint64(9), uint64(8), uint64(14), AppendProof(nil, q))
	f.Add(uint64(0), uint64(0), uint64(0), []byte{})
	f.Add(^uint64(0), uint64(1)<<63, ^uint64(0), make([]byte, 64))
	f.Fuzz(func(t *testing.T, a, b, c uint64, data []byte) {
		proof, err := ParseProof(nil, data)
		if err != nil {
			return
		}
		root := func(s, e uint64) [Size]byte {
			if s <= e && e <= 40 {
				return mth(leaves[s:e])
			}
			return [Size]byte{}
		}
		// (a, b) as the subtree, c as the log's size.
		if VerifySubtreeConsistency(a, b, c, root(a, b), root(0, c), proof) == nil && a < b && c <= 40 {
			if want, _ := SubtreeConsistencyProof(nil, a, b, c, &store); !slices.Equal(proof, want) {
				t.Fatalf("[%d, %d) in %d: a proof that is not the log's verifies", a, b, c)
			}
		}
		RootFromSubtreeConsistency(a, b, c, root(a, b), proof)
		// a as the leaf, (b, c) as the subtree.
		var leaf [Size]byte
		if a < 40 {
			leaf = leaves[a]
		}
		if VerifySubtreeInclusion(a, b, c, leaf, proof, root(b, c)) == nil && c <= 40 {
			if want, _ := SubtreeInclusionProof(nil, a, b, c, &store); !slices.Equal(proof, want) {
				t.Fatalf("leaf %d of [%d, %d): a proof that is not the log's verifies", a, b, c)
			}
		}
		CoveringSubtrees(a, b)
	})
}
