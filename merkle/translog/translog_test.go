package translog

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/merkle"
)

// The references here are merkle.RFC6962, which builds whole trees, and
// RFC 9162's recursive definitions of the proofs, written out as the RFC
// states them. The interop module checks the same against
// golang.org/x/mod/sumdb/tlog and transparency-dev/merkle.

func testEntries(n int) [][]byte {
	r := rand.New(rand.NewPCG(uint64(n), 9162))
	e := make([][]byte, n)
	for i := range e {
		e[i] = fmt.Appendf(nil, "entry %d", i)
		for range r.IntN(90) {
			e[i] = append(e[i], byte(r.Uint32()))
		}
	}
	return e
}

func leafHashesOf(entries [][]byte) [][Size]byte {
	h := make([][Size]byte, len(entries))
	LeafHashes(h, entries)
	return h
}

// mth is the Merkle Tree Hash of RFC 9162 2.1.1, by merkle.RFC6962,
// memoized per subrange: the recursive references ask for the same often.
func mth(d [][Size]byte) [Size]byte {
	if len(d) == 0 {
		return merkle.RFC6962.RootNodes(d)
	}
	k := mthKey{&d[0], len(d)}
	if h, ok := mthMemo[k]; ok {
		return h
	}
	h := merkle.RFC6962.RootNodes(d)
	mthMemo[k] = h
	return h
}

type mthKey struct {
	first *[Size]byte
	n     int
}

var mthMemo = map[mthKey][Size]byte{}

// split is the largest power of two below n > 1.
func split(n int) int { return 1 << (bits.Len(uint(n-1)) - 1) }

// refPath is PATH(m, D[n]) of RFC 9162 2.1.3.1.
func refPath(m int, d [][Size]byte) [][Size]byte {
	n := len(d)
	if n == 1 {
		return nil
	}
	k := split(n)
	if m < k {
		return append(refPath(m, d[:k]), mth(d[k:]))
	}
	return append(refPath(m-k, d[k:]), mth(d[:k]))
}

// refSubproof is SUBPROOF(m, D[n], b) of RFC 9162 2.1.4.1.
func refSubproof(m int, d [][Size]byte, b bool) [][Size]byte {
	n := len(d)
	if m == n {
		if b {
			return nil
		}
		return [][Size]byte{mth(d)}
	}
	k := split(n)
	if m <= k {
		return append(refSubproof(m, d[:k], b), mth(d[k:]))
	}
	return append(refSubproof(m-k, d[k:], false), mth(d[:k]))
}

// grow appends leaves to r in batches of the sizes next returns.
func grow(r *Range, leaves [][Size]byte, next func() int, visit Visitor) {
	for len(leaves) > 0 {
		k := min(next(), len(leaves))
		r.Append(leaves[:k], visit)
		leaves = leaves[k:]
	}
}

func batchesOf(kind string, r *rand.Rand) func() int {
	switch kind {
	case "one":
		return func() int { return 1 }
	case "all":
		return func() int { return 1 << 30 }
	case "256":
		return func() int { return 256 }
	default:
		return func() int { return 1 + r.IntN(1+r.IntN(600)) }
	}
}

func TestRangeRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	sizes := []int{chunkLeaves - 1, chunkLeaves, chunkLeaves + 1, 3*chunkLeaves + 77}
	for n := 0; n <= 300; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		entries := testEntries(n)
		leaves := leafHashesOf(entries)
		want := mth(leaves)
		for _, kind := range []string{"one", "all", "256", "random"} {
			var lg Range
			grow(&lg, leaves, batchesOf(kind, r), nil)
			got, err := lg.Root()
			if err != nil || got != want {
				t.Fatalf("%d leaves in batches %s: root %x (%v), want %x", n, kind, got, err, want)
			}
			if !slices.Equal(lg.IDs(), rangeIDs(0, uint64(n), nil)) {
				t.Fatalf("%d leaves in batches %s: IDs %v", n, kind, lg.IDs())
			}
			var byEntry Range
			next := batchesOf(kind, r)
			for e := entries; len(e) > 0; {
				k := min(next(), len(e))
				byEntry.AppendEntries(e[:k], nil)
				e = e[k:]
			}
			if !slices.Equal(byEntry.Hashes(), lg.Hashes()) {
				t.Fatalf("%d entries in batches %s: AppendEntries differs from Append", n, kind)
			}
		}
	}
}

// perfect returns the root of every complete subtree of leaves, by level.
func perfect(leaves [][Size]byte) [][][Size]byte {
	var lv [][][Size]byte
	for l := 0; 1<<l <= len(leaves); l++ {
		var nodes [][Size]byte
		for i := 0; (i+1)<<l <= len(leaves); i++ {
			nodes = append(nodes, mth(leaves[i<<l:(i+1)<<l]))
		}
		lv = append(lv, nodes)
	}
	return lv
}

// TestVisitor: every complete subtree's root is handed over exactly once,
// level runs in order, and the stores keep them where they belong.
func TestVisitor(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 255, 256, 257, 1000, chunkLeaves + 300} {
		leaves := leafHashesOf(testEntries(n))
		want := perfect(leaves)
		for _, kind := range []string{"one", "all", "random"} {
			var lg Range
			var store NodeStore
			var flat FlatStore
			seen := map[NodeID]int{}
			grow(&lg, leaves, batchesOf(kind, r), func(level int, index uint64, nodes [][Size]byte) {
				for k := range nodes {
					seen[NodeID{level, index + uint64(k)}]++
				}
				store.Visit(level, index, nodes)
				flat.Visit(level, index, nodes)
			})
			total := 0
			for l, nodes := range want {
				total += len(nodes)
				if !slices.Equal(store.Level(l), nodes) {
					t.Fatalf("%d leaves, batches %s: level %d differs", n, kind, l)
				}
				for i, h := range nodes {
					if seen[NodeID{l, uint64(i)}] != 1 {
						t.Fatalf("%d leaves, batches %s: node (%d, %d) visited %d times", n, kind, l, i, seen[NodeID{l, uint64(i)}])
					}
					if flat.Hashes[StoredIndex(l, uint64(i))] != h {
						t.Fatalf("%d leaves, batches %s: FlatStore node (%d, %d)", n, kind, l, i)
					}
				}
			}
			if len(seen) != total || uint64(len(flat.Hashes)) != StoredCount(uint64(n)) || uint64(total) != StoredCount(uint64(n)) {
				t.Fatalf("%d leaves: %d nodes visited, %d stored flat, %d complete subtrees, StoredCount %d",
					n, len(seen), len(flat.Hashes), total, StoredCount(uint64(n)))
			}
		}
	}
}

// TestStoredIndex: the stored-hash order is each leaf, then the nodes it
// completes, lowest first, with no gaps.
func TestStoredIndex(t *testing.T) {
	x := uint64(0)
	for n := uint64(0); n < 5000; n++ {
		if StoredIndex(0, n) != x {
			t.Fatalf("leaf %d stored at %d, want %d", n, StoredIndex(0, n), x)
		}
		x++
		for l := 1; (n+1)%(1<<l) == 0; l++ {
			if got := StoredIndex(l, (n+1)>>l-1); got != x {
				t.Fatalf("node (%d, %d) stored at %d, want %d", l, (n+1)>>l-1, got, x)
			}
			x++
		}
		if StoredCount(n+1) != x {
			t.Fatalf("StoredCount(%d) = %d, want %d", n+1, StoredCount(n+1), x)
		}
	}
}

// TestRangeAnywhere: ranges that begin anywhere hold the roots of their
// perfect subtrees, and merge into the range of them all.
func TestRangeAnywhere(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	leaves := leafHashesOf(testEntries(3000))
	lv := perfect(leaves)
	for range 400 {
		a := r.IntN(1200)
		b := a + r.IntN(900)
		c := b + r.IntN(900)
		ranges := [2]*Range{}
		for j, span := range [2][2]int{{a, b}, {b, c}} {
			lg, err := NewRange(uint64(span[0]), uint64(span[0]), nil)
			if err != nil {
				t.Fatal(err)
			}
			grow(lg, leaves[span[0]:span[1]], batchesOf("random", r), nil)
			ids := rangeIDs(uint64(span[0]), uint64(span[1]), nil)
			if !slices.Equal(lg.IDs(), ids) {
				t.Fatalf("[%d, %d): IDs %v, want %v", span[0], span[1], lg.IDs(), ids)
			}
			for k, id := range ids {
				if lg.Hashes()[k] != lv[id.Level][id.Index] {
					t.Fatalf("[%d, %d): node %v differs", span[0], span[1], id)
				}
			}
			if span[0] > 0 {
				if _, err := lg.Root(); err == nil {
					t.Fatalf("[%d, %d): a root", span[0], span[1])
				}
			}
			ranges[j] = lg
		}
		before := ranges[1].Clone()
		var created []NodeID
		if err := ranges[0].AppendRange(ranges[1], func(level int, index uint64, nodes [][Size]byte) {
			for k := range nodes {
				id := NodeID{level, index + uint64(k)}
				if nodes[k] != lv[level][id.Index] {
					t.Fatalf("merge created node %v wrong", id)
				}
				created = append(created, id)
			}
		}); err != nil {
			t.Fatal(err)
		}
		merged := ranges[0]
		if !slices.Equal(merged.IDs(), rangeIDs(uint64(a), uint64(c), nil)) || merged.Begin() != uint64(a) || merged.End() != uint64(c) {
			t.Fatalf("[%d, %d) + [%d, %d): IDs %v", a, b, b, c, merged.IDs())
		}
		for k, id := range merged.IDs() {
			if merged.Hashes()[k] != lv[id.Level][id.Index] {
				t.Fatalf("[%d, %d) + [%d, %d): node %v differs", a, b, b, c, id)
			}
		}
		if !slices.Equal(before.Hashes(), ranges[1].Hashes()) {
			t.Fatal("AppendRange changed its argument")
		}
		if a == 0 {
			if got, _ := merged.Root(); got != mth(leaves[:c]) {
				t.Fatalf("[0, %d): merged root differs", c)
			}
		}
		if err := merged.AppendRange(before, nil); err == nil && b != c {
			t.Fatalf("[%d, %d) + [%d, %d): a range that does not adjoin merged", a, c, b, c)
		}
		// Restored from its hashes, a range goes on the same.
		re, err := NewRange(merged.Begin(), merged.End(), merged.Hashes())
		if err != nil {
			t.Fatal(err)
		}
		more := leaves[c : c+r.IntN(len(leaves)-c+1)]
		re.Append(more, nil)
		merged.Append(more, nil)
		if !slices.Equal(re.Hashes(), merged.Hashes()) {
			t.Fatal("a restored range grows differently")
		}
	}
}

func TestProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 1000, 1025} {
		entries := testEntries(n)
		leaves := leafHashesOf(entries)
		var lg Range
		var store NodeStore
		var flat FlatStore
		grow(&lg, leaves, batchesOf("random", r), func(level int, index uint64, nodes [][Size]byte) {
			store.Visit(level, index, nodes)
			flat.Visit(level, index, nodes)
		})
		tree := merkle.RFC6962.Build(entries)
		readers := []NodeReader{&store, &flat, TreeNodes(tree)}
		roots := make([][Size]byte, n+1)
		for m := range roots {
			roots[m] = mth(leaves[:m])
		}
		// Every size up to n: the stores hold more than each needs.
		for size := 1; size <= n; size++ {
			if n > 70 && size%13 != 0 && size != n {
				continue
			}
			for i := 0; i < size; i++ {
				if size > 70 && i%7 != 0 && i != size-1 {
					continue
				}
				want := refPath(i, leaves[:size])
				for _, rd := range readers {
					got, err := InclusionProof(nil, uint64(i), uint64(size), rd)
					if err != nil || !slices.Equal(got, want) {
						t.Fatalf("size %d, leaf %d (%T): proof %x (%v), want %x", size, i, rd, got, err, want)
					}
				}
				if size == n && !slices.Equal(tree.Proof(i).Path, want) {
					t.Fatalf("size %d, leaf %d: merkle.Tree.Proof differs from RFC 9162's PATH", size, i)
				}
				if err := VerifyInclusion(uint64(i), uint64(size), leaves[i], want, roots[size]); err != nil {
					t.Fatalf("size %d, leaf %d: %v", size, i, err)
				}
			}
			for m := 0; m <= size; m++ {
				if size > 70 && m%5 != 0 && m != size-1 {
					continue
				}
				var want [][Size]byte
				if m > 0 {
					want = refSubproof(m, leaves[:size], true)
				}
				for _, rd := range readers {
					got, err := ConsistencyProof(nil, uint64(m), uint64(size), rd)
					if err != nil || !slices.Equal(got, want) {
						t.Fatalf("sizes %d to %d (%T): proof %x (%v), want %x", m, size, rd, got, err, want)
					}
				}
				if err := VerifyConsistency(uint64(m), uint64(size), roots[m], roots[size], want); err != nil {
					t.Fatalf("sizes %d to %d: %v", m, size, err)
				}
				if m > 0 {
					if got, err := RootFromConsistency(uint64(m), uint64(size), roots[m], want); err != nil || got != roots[size] {
						t.Fatalf("sizes %d to %d: RootFromConsistency %x (%v)", m, size, got, err)
					}
				}
			}
			if got, err := TreeRoot(uint64(size), &flat); err != nil || got != roots[size] {
				t.Fatalf("size %d: TreeRoot %x (%v)", size, got, err)
			}
		}
	}
}

// TestVerifyErrors: malformed proofs and sizes are errors that say what is
// wrong; a well-formed wrong proof wraps ErrMismatch.
func TestVerifyErrors(t *testing.T) {
	leaves := leafHashesOf(testEntries(100))
	var store NodeStore
	var lg Range
	lg.Append(leaves, store.Visit)
	root := mth(leaves)
	old := mth(leaves[:37])
	incl, _ := InclusionProof(nil, 5, 100, &store)
	cons, _ := ConsistencyProof(nil, 37, 100, &store)
	pow, _ := ConsistencyProof(nil, 32, 100, &store)
	flip := func(p [][Size]byte, i int) [][Size]byte {
		q := slices.Clone(p)
		q[i][0] ^= 1
		return q
	}
	tests := []struct {
		name string
		err  error
		want string // in the message; "" means ErrMismatch
	}{
		{"inclusion ok", VerifyInclusion(5, 100, leaves[5], incl, root), "ok"},
		{"inclusion index = size", VerifyInclusion(100, 100, leaves[5], incl, root), "leaf 100 in a log of 100"},
		{"inclusion empty log", VerifyInclusion(0, 0, leaves[5], nil, EmptyRoot), "leaf 0 in a log of 0"},
		{"inclusion truncated", VerifyInclusion(5, 100, leaves[5], incl[:len(incl)-1], root), "has 6 hashes, want 7"},
		{"inclusion too long", VerifyInclusion(5, 100, leaves[5], append(slices.Clone(incl), root), root), "has 8 hashes, want 7"},
		{"inclusion wrong leaf", VerifyInclusion(5, 100, leaves[6], incl, root), ""},
		{"inclusion wrong index", VerifyInclusion(4, 100, leaves[5], incl, root), ""},
		{"inclusion wrong hash", VerifyInclusion(5, 100, leaves[5], flip(incl, 3), root), ""},
		{"inclusion wrong root", VerifyInclusion(5, 100, leaves[5], incl, old), ""},
		{"inclusion other shape", VerifyInclusion(5, 64, leaves[5], incl, root), "has 7 hashes, want 6"},
		{"consistency ok", VerifyConsistency(37, 100, old, root, cons), "ok"},
		{"consistency power of two", VerifyConsistency(32, 100, mth(leaves[:32]), root, pow), "ok"},
		{"consistency m > n", VerifyConsistency(100, 37, root, old, cons), "from size 100 to a smaller size 37"},
		{"consistency truncated", VerifyConsistency(37, 100, old, root, cons[:len(cons)-1]), "hashes, want"},
		{"consistency empty proof", VerifyConsistency(37, 100, old, root, nil), "has 0 hashes, want"},
		{"consistency wrong old root", VerifyConsistency(37, 100, root, root, cons), ""},
		{"consistency wrong new root", VerifyConsistency(37, 100, old, old, cons), ""},
		{"consistency wrong hash", VerifyConsistency(37, 100, old, root, flip(cons, 0)), ""},
		{"consistency last hash", VerifyConsistency(37, 100, old, root, flip(cons, len(cons)-1)), ""},
		{"consistency other old size", VerifyConsistency(38, 100, old, root, cons), "has 8 hashes, want 7"},
		{"consistency other old size, same shape", VerifyConsistency(39, 100, old, root, cons), ""},
		{"consistency equal sizes", VerifyConsistency(100, 100, root, root, nil), "ok"},
		{"consistency equal sizes, a proof", VerifyConsistency(100, 100, root, root, cons), "between equal sizes 100 has"},
		{"consistency equal sizes, two roots", VerifyConsistency(100, 100, root, old, nil), ""},
		{"consistency from empty", VerifyConsistency(0, 100, EmptyRoot, root, nil), "ok"},
		{"consistency from empty, a proof", VerifyConsistency(0, 100, EmptyRoot, root, cons), "from the empty log has"},
		{"consistency from empty, a root", VerifyConsistency(0, 100, old, root, nil), ""},
		{"consistency empty to empty", VerifyConsistency(0, 0, EmptyRoot, EmptyRoot, nil), "ok"},
		{"consistency empty to empty, a root", VerifyConsistency(0, 0, EmptyRoot, root, nil), ""},
	}
	for _, tt := range tests {
		switch {
		case tt.want == "ok":
			if tt.err != nil {
				t.Errorf("%s: %v", tt.name, tt.err)
			}
		case tt.want == "":
			if !errors.Is(tt.err, ErrMismatch) || !errors.Is(tt.err, merkle.ErrMismatch) || errors.Is(tt.err, ErrMalformed) {
				t.Errorf("%s: %v, want ErrMismatch (merkle.ErrMismatch)", tt.name, tt.err)
			}
		default:
			if !errors.Is(tt.err, merkle.ErrMalformed) || !strings.Contains(tt.err.Error(), tt.want) || errors.Is(tt.err, ErrMismatch) {
				t.Errorf("%s: %v, want ErrMalformed (merkle.ErrMalformed) saying %q", tt.name, tt.err, tt.want)
			}
		}
	}
	if _, err := RootFromConsistency(0, 5, EmptyRoot, nil); !errors.Is(err, ErrMalformed) {
		t.Error("RootFromConsistency from the empty log: no error")
	}
	if _, err := InclusionProof(nil, 7, 7, &store); !errors.Is(err, ErrMalformed) {
		t.Error("InclusionProof of leaf 7 of 7: no error")
	}
	if _, err := ConsistencyProof(nil, 8, 7, &store); err == nil {
		t.Error("ConsistencyProof from 8 to 7: no error")
	}
	if _, err := ConsistencyProof(nil, 8, 200, &store); err == nil || !strings.Contains(err.Error(), "not stored") {
		t.Errorf("ConsistencyProof past the store: %v", err)
	}
	if _, err := TreeRoot(101, &store); err == nil {
		t.Error("TreeRoot past the store: no error")
	}
	for _, rd := range []NodeReader{&store, &FlatStore{}, TreeNodes(merkle.RFC6962.Build(nil))} {
		if err := rd.ReadNodes([]NodeID{{70, 0}, {-1, 0}}, make([][Size]byte, 2)); err == nil {
			t.Errorf("%T: no error for nodes (70, 0), (-1, 0)", rd)
		}
		if err := rd.ReadNodes([]NodeID{{0, 0}}, nil); err == nil {
			t.Errorf("%T: no error for a short out", rd)
		}
	}
	if _, err := NewRange(5, 4, nil); err == nil {
		t.Error("NewRange(5, 4): no error")
	}
	if _, err := NewRange(0, 7, make([][Size]byte, 2)); err == nil || !strings.Contains(err.Error(), "has 3 nodes, not 2") {
		t.Errorf("NewRange(0, 7) of 2 hashes: %v", err)
	}
	var a Range
	b, _ := NewRange(3, 3, nil)
	if err := a.AppendRange(b, nil); err == nil {
		t.Error("AppendRange of a range that does not adjoin: no error")
	}
}

func TestParseProof(t *testing.T) {
	h := [][Size]byte{LeafHash(nil), LeafHash([]byte{1})}
	b := AppendProof(nil, h)
	tests := []struct {
		data []byte
		want [][Size]byte
		err  string
	}{
		{nil, nil, ""},
		{b, h, ""},
		{b[:63], nil, "63 bytes is not a whole number"},
		{b[:33], nil, "33 bytes"},
		{b[:1], nil, "1 bytes"},
		{make([]byte, Size*MaxProofHashes), make([][Size]byte, MaxProofHashes), ""},
		{make([]byte, Size*(MaxProofHashes+1)), nil, "66 hashes, more than any proof"},
	}
	for _, tt := range tests {
		got, err := ParseProof(nil, tt.data)
		if tt.err != "" {
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%d bytes: %v, want ErrMalformed saying %q", len(tt.data), err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%d bytes: %x, %v", len(tt.data), got, err)
		}
	}
}

// zeroReader reads any node as the zero hash: for plans of huge trees.
type zeroReader struct{}

func (zeroReader) ReadNodes(ids []NodeID, out [][Size]byte) error {
	for i, id := range ids {
		if id.Level < 0 || id.Level > 63 {
			return fmt.Errorf("level %d", id.Level)
		}
		out[i] = [Size]byte{}
	}
	return nil
}

// TestHugeTrees: proofs in trees of up to 2^64 - 1 leaves have the lengths
// the verifiers want, and at most MaxProofHashes.
func TestHugeTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	var rd NodeReader = zeroReader{}
	for range 3000 {
		n := r.Uint64() >> r.IntN(64)
		switch r.IntN(4) {
		case 0:
			n = ^uint64(0) - r.Uint64N(3)
		case 1:
			n = 1<<r.IntN(64) + r.Uint64N(3) - 1
		}
		n = max(n, 1)
		m, i := 1+r.Uint64N(n), r.Uint64N(n)
		p, err := InclusionProof(nil, i, n, rd)
		if err != nil || len(p) > MaxProofHashes {
			t.Fatalf("leaf %d of %d: %d hashes, %v", i, n, len(p), err)
		}
		if _, err := RootFromInclusion(i, n, [Size]byte{}, p); err != nil {
			t.Fatalf("leaf %d of %d: %v", i, n, err)
		}
		c, err := ConsistencyProof(nil, m, n, rd)
		if err != nil || len(c) > MaxProofHashes {
			t.Fatalf("sizes %d to %d: %d hashes, %v", m, n, len(c), err)
		}
		// All-zero nodes make a well-formed proof of a wrong old root:
		// a mismatch, not a length error (unless m is a power of two,
		// where the old root is the proof's seed).
		if _, err := RootFromConsistency(m, n, [Size]byte{1}, c); m < n && m&(m-1) != 0 && !errors.Is(err, ErrMismatch) {
			t.Fatalf("sizes %d to %d: %v", m, n, err)
		}
	}
}

func TestTileLog(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 6))
	leaves := leafHashesOf(testEntries(1<<16 + 3000))
	var store NodeStore
	var full Range
	full.Append(leaves, store.Visit)
	var lg TileLog
	size := 0
	for size < len(leaves) {
		k := min(batchesOf("random", r)()*(1+r.IntN(4)), len(leaves)-size)
		if r.IntN(20) == 0 {
			k = min(20000, len(leaves)-size)
		}
		old := uint64(size)
		var visited int
		got := lg.AppendHashes(leaves[size:size+k], func(level int, index uint64, nodes [][Size]byte) { visited += len(nodes) })
		size += k
		if uint64(visited) != StoredCount(uint64(size))-StoredCount(old) {
			t.Fatalf("growth %d to %d: %d nodes visited", old, size, visited)
		}
		want := NewTiles(nil, old, uint64(size))
		if len(got) != len(want) {
			t.Fatalf("growth %d to %d: %d tiles, want %d", old, size, len(got), len(want))
		}
		for i, td := range got {
			if td.Tile != want[i] || len(td.Data) != td.W*Size {
				t.Fatalf("growth %d to %d: tile %v (%d bytes), want %v", old, size, td.Tile, len(td.Data), want[i])
			}
			lvl := store.Level(TileHeight * td.L)
			if string(td.Data) != string(bytesOf(lvl[td.N*TileWidth:td.N*TileWidth+uint64(td.W)])) {
				t.Fatalf("growth %d to %d: tile %s's data differs", old, size, td.Path())
			}
		}
		if lg.Root() != mth(leaves[:size]) || lg.Size() != uint64(size) {
			t.Fatalf("size %d: TileLog root differs", size)
		}
		if r.IntN(5) == 0 {
			edge := lg.Edge()
			for l := range edge {
				edge[l] = slices.Clone(edge[l])
			}
			again, err := NewTileLog(uint64(size), edge)
			if err != nil {
				t.Fatal(err)
			}
			rg := again.Range()
			if again.Root() != lg.Root() || !slices.Equal(rg.IDs(), lg.r.IDs()) || !slices.Equal(rg.Hashes(), lg.r.Hashes()) {
				t.Fatalf("size %d: a TileLog from its edge differs", size)
			}
			lg = *again
		}
	}
	if _, err := NewTileLog(300, [][]byte{make([]byte, 44*Size)}); err == nil || !strings.Contains(err.Error(), "has 2 tile levels, not 1") {
		t.Errorf("NewTileLog of 300 with one level: %v", err)
	}
	if _, err := NewTileLog(300, [][]byte{make([]byte, 43*Size), make([]byte, Size)}); err == nil || !strings.Contains(err.Error(), "has 44 hashes") {
		t.Errorf("NewTileLog of 300 with 43 hashes at level 0: %v", err)
	}
	if _, err := NewTileLog(300, [][]byte{make([]byte, 44*Size-1), make([]byte, Size)}); err == nil {
		t.Error("NewTileLog with a partial hash: no error")
	}
	if lg, err := NewTileLog(0, nil); err != nil || lg.Root() != EmptyRoot {
		t.Errorf("NewTileLog(0, nil): %v", err)
	}
	// A reset log grows again as a new one.
	lg.Reset()
	var fresh TileLog
	a := lg.AppendHashes(leaves[:1000], nil)
	b := fresh.AppendHashes(leaves[:1000], nil)
	if len(a) != len(b) || lg.Root() != fresh.Root() || lg.Size() != 1000 {
		t.Fatal("a reset TileLog differs from a new one")
	}
	for i := range a {
		if a[i].Tile != b[i].Tile || string(a[i].Data) != string(b[i].Data) {
			t.Fatalf("a reset TileLog's tile %v differs", a[i].Tile)
		}
	}
}

// TestTileLogHuge grows logs of all-equal leaves near 2^64 - 1 leaves,
// where a level's nodes are all one hash, so tiles and root are known
// without the tree.
func TestTileLogHuge(t *testing.T) {
	var perfect [64][Size]byte // the root of 2^l equal leaves
	perfect[0] = LeafHash([]byte("leaf"))
	for l := 1; l < 64; l++ {
		perfect[l] = NodeHash(perfect[l-1], perfect[l-1])
	}
	root := func(n uint64) [Size]byte {
		var h [Size]byte
		for l, first := 0, true; l < 64; l++ {
			if n>>l&1 == 1 {
				if first {
					h, first = perfect[l], false
				} else {
					h = NodeHash(perfect[l], h)
				}
			}
		}
		return h
	}
	const max = math.MaxUint64
	for _, c := range []struct{ size, k uint64 }{
		{max - 600, 300}, {max - 300, 1}, {max - 256, 1}, {max - 255, 1}, {max - 200, 1}, {max - 200, 200},
		{max - 1, 1}, {max - 257, 257}, {max - 5000, 5000}, {1<<63 - 3, 600},
	} {
		edge := make([][]byte, tileLevels(c.size))
		for l := range edge {
			for range (c.size >> (TileHeight * l)) % TileWidth {
				edge[l] = append(edge[l], perfect[TileHeight*l][:]...)
			}
		}
		lg, err := NewTileLog(c.size, edge)
		if err != nil {
			t.Fatal(err)
		}
		var got []TileData
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("growth %d to %d: panic %v", c.size, c.size+c.k, r)
				}
			}()
			got = lg.AppendHashes(slices.Repeat([][Size]byte{perfect[0]}, int(c.k)), nil)
		}()
		want := NewTiles(nil, c.size, c.size+c.k)
		if len(got) != len(want) {
			t.Errorf("growth %d to %d: %d tiles, want %d", c.size, c.size+c.k, len(got), len(want))
			continue
		}
		for i, td := range got {
			if td.Tile != want[i] || string(td.Data) != strings.Repeat(string(perfect[TileHeight*td.L][:]), td.W) {
				t.Errorf("growth %d to %d: tile %v, want %v with its data", c.size, c.size+c.k, td.Tile, want[i])
			}
		}
		if lg.Size() != c.size+c.k || lg.Root() != root(c.size+c.k) {
			t.Errorf("growth %d to %d: wrong size or root", c.size, c.size+c.k)
		}
		if again, err := NewTileLog(lg.Size(), lg.Edge()); err != nil || again.Root() != lg.Root() {
			t.Errorf("size %d: a TileLog from its edge differs (%v)", lg.Size(), err)
		}
	}
}

func TestNewTiles(t *testing.T) {
	// Brute force: a tile is written when a node of its level is new, and
	// its width is its level's nodes in the tile.
	ref := func(old, size uint64) []Tile {
		var ts []Tile
		for l := 0; size>>(8*l) > 0; l++ {
			for n := uint64(0); n<<8 < size>>(8*l); n++ {
				hi := min((n+1)<<8, size>>(8*l))
				if hi > old>>(8*l) {
					ts = append(ts, Tile{l, n, int(hi - n<<8)})
				}
			}
		}
		return ts
	}
	r := rand.New(rand.NewPCG(1, 7))
	for range 3000 {
		a := r.Uint64N(1 << (1 + r.IntN(19)))
		b := a + r.Uint64N(1<<(1+r.IntN(19)))
		if got, want := NewTiles(nil, a, b), ref(a, b); !slices.Equal(got, want) {
			t.Fatalf("%d to %d: %v, want %v", a, b, got, want)
		}
	}
	if got := NewTiles(nil, 5, 5); len(got) != 0 {
		t.Fatalf("no growth: %v", got)
	}
}

func TestTilePath(t *testing.T) {
	tests := []struct {
		t    Tile
		path string
	}{
		{Tile{0, 0, 256}, "tile/0/000"},
		{Tile{0, 0, 1}, "tile/0/000.p/1"},
		{Tile{1, 1234067, 256}, "tile/1/x001/x234/067"},
		{Tile{2, 1234067, 5}, "tile/2/x001/x234/067.p/5"},
		{Tile{0, 1000, 255}, "tile/0/x001/000.p/255"},
		// The last tiles of a log of 2^64 - 1 leaves.
		{Tile{0, 1<<56 - 1, 255}, "tile/0/x072/x057/x594/x037/x927/935.p/255"},
		{Tile{0, 1<<56 - 2, 256}, "tile/0/x072/x057/x594/x037/x927/934"},
		{Tile{6, 255, 255}, "tile/6/255.p/255"},
		{Tile{7, 0, 255}, "tile/7/000.p/255"},
	}
	for _, tt := range tests {
		if got := tt.t.Path(); got != tt.path {
			t.Errorf("%v: %s, want %s", tt.t, got, tt.path)
		}
		if got, err := ParseTilePath(tt.path); err != nil || got != tt.t {
			t.Errorf("ParseTilePath(%s) = %v, %v", tt.path, got, err)
		}
	}
	for _, bad := range []string{
		"", "tile/", "tile/0", "tile/0/", "tile/8/000", "tile/00/000", "tile/0/00", "tile/0/0000",
		"tile/0/001/002", "tile/0/x001", "tile/0/x000/001", "tile/0/000.p/0", "tile/0/000.p/256",
		"tile/0/000.p/01", "tile/0/000.p/", "tile/0/000.p", "tile/entries/000", "tile/0/x018/x446/x744/x073/x709/x551/616",
		"tile/0/x001/x002/x003/x004/x005/x006/x007/008", "tiles/0/000", "tile/0/-01", "tile/0/000/",
		// Tiles of no log: past the last node of 2^64 - 1 leaves.
		"tile/0/x072/x057/x594/x037/x927/935", "tile/0/x072/x057/x594/x037/x927/936.p/1",
		"tile/6/256.p/1", "tile/7/000", "tile/7/001.p/1", "tile/7/x018/x446/x744/x073/x709/x551/615",
	} {
		if got, err := ParseTilePath(bad); err == nil {
			t.Errorf("ParseTilePath(%q) = %v, no error", bad, got)
		}
	}
	// Path writes any index; every tile the largest log has parses back.
	if got, want := (Tile{7, ^uint64(0), 256}).Path(), "tile/7/x018/x446/x744/x073/x709/x551/615"; got != want {
		t.Errorf("Path of the largest index: %s, want %s", got, want)
	}
	for _, tile := range NewTiles(nil, ^uint64(0)-600, ^uint64(0)) {
		if got, err := ParseTilePath(tile.Path()); err != nil || got != tile {
			t.Errorf("ParseTilePath(%s) of a tile of the largest log = %v, %v", tile.Path(), got, err)
		}
	}
}

func TestAllocs(t *testing.T) {
	entries := testEntries(4 * 256)
	leaves := leafHashesOf(entries)
	var lg Range
	store := levelSink(make([][][Size]byte, 20))
	lg.AppendEntries(entries[:256], store.visit)
	i := 0
	if a := testing.AllocsPerRun(100, func() {
		lg.AppendEntries(entries[i%4*256:(i%4+1)*256], store.visit)
		lg.Append(leaves[i%4*256:(i%4+1)*256], store.visit)
		i++
	}); a != 0 {
		t.Errorf("Range.AppendEntries and Append: %v allocations a batch", a)
	}
	var tl TileLog
	tl.Append(entries, nil)
	tl.Append(entries, nil)
	if a := testing.AllocsPerRun(100, func() { tl.Append(entries[:256], nil) }); a != 0 {
		t.Errorf("TileLog.Append: %v allocations a batch", a)
	}
	var ns NodeStore
	var full Range
	full.Append(leaves, ns.Visit)
	var rd NodeReader = &ns
	dst := make([][Size]byte, 0, MaxProofHashes)
	root := mth(leaves)
	old := mth(leaves[:333])
	if a := testing.AllocsPerRun(100, func() {
		dst, _ = InclusionProof(dst[:0], 333, uint64(len(leaves)), rd)
		if VerifyInclusion(333, uint64(len(leaves)), leaves[333], dst, root) != nil {
			t.Fatal("inclusion")
		}
		dst, _ = ConsistencyProof(dst[:0], 333, uint64(len(leaves)), rd)
		if VerifyConsistency(333, uint64(len(leaves)), old, root, dst) != nil {
			t.Fatal("consistency")
		}
		if _, err := TreeRoot(777, rd); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("proofs: %v allocations", a)
	}
}

// levelSink stores nodes without growing once warm: the allocation test's
// visitor.
type levelSink [][][Size]byte

func (s levelSink) visit(level int, index uint64, nodes [][Size]byte) {
	end := int(index) + len(nodes)
	if cap(s[level]) < end {
		s[level] = make([][Size]byte, end, 4*end)
	}
	s[level] = s[level][:max(len(s[level]), end)]
	copy(s[level][index:], nodes)
}

// FuzzVerify: no sizes, leaf or proof bytes make the verifiers panic or
// accept a proof the references would not.
func FuzzVerify(f *testing.F) {
	leaves := leafHashesOf(testEntries(40))
	var store NodeStore
	var lg Range
	lg.Append(leaves, store.Visit)
	p, _ := ConsistencyProof(nil, 13, 40, &store)
	f.Add(uint64(13), uint64(40), AppendProof(nil, p))
	q, _ := InclusionProof(nil, 13, 40, &store)
	f.Add(uint64(13), uint64(40), AppendProof(nil, q))
	f.Add(uint64(0), uint64(0), []byte{})
	f.Add(^uint64(0), ^uint64(0)-1, make([]byte, 65))
	f.Fuzz(func(t *testing.T, m, n uint64, data []byte) {
		proof, err := ParseProof(nil, data)
		if err != nil {
			return
		}
		var root [Size]byte
		if n <= 40 {
			root = mth(leaves[:n])
		}
		var old [Size]byte
		if m <= 40 {
			old = mth(leaves[:m])
		}
		// Every refusal is a mismatch or malformed, never both.
		one := func(err error) {
			if err != nil && errors.Is(err, ErrMismatch) == errors.Is(err, ErrMalformed) {
				t.Fatalf("sizes %d, %d: %v, want ErrMismatch or ErrMalformed", m, n, err)
			}
		}
		cerr := VerifyConsistency(m, n, old, root, proof)
		one(cerr)
		if cerr == nil && m <= n && n <= 40 && m > 0 && m < n {
			if want := refSubproof(int(m), leaves[:n], true); !slices.Equal(proof, want) {
				t.Fatalf("sizes %d to %d: a proof that is not RFC 9162's verifies", m, n)
			}
		}
		var leaf [Size]byte
		if m < 40 {
			leaf = leaves[m]
		}
		ierr := VerifyInclusion(m, n, leaf, proof, root)
		one(ierr)
		if ierr == nil && n <= 40 && m < n {
			if want := refPath(int(m), leaves[:n]); !slices.Equal(proof, want) {
				t.Fatalf("leaf %d of %d: a proof that is not RFC 9162's verifies", m, n)
			}
		}
	})
}

// TestPanics: the programmer errors, each with a message that starts
// "sha256x: translog: ".
func TestPanics(t *testing.T) {
	for _, c := range []struct {
		name, msg string
		f         func()
	}{
		{"store gap", "sha256x: translog: NodeStore visited with node ", func() {
			var s NodeStore
			s.Visit(0, 1, make([][Size]byte, 1))
		}},
		{"store negative level", "sha256x: translog: NodeStore visited with node ", func() {
			var s NodeStore
			s.Visit(-1, 0, make([][Size]byte, 1))
		}},
		{"flat store negative level", "sha256x: translog: FlatStore visited with node ", func() {
			var s FlatStore
			s.Visit(-1, 0, make([][Size]byte, 1))
		}},
		{"flat store gap", "sha256x: translog: FlatStore visited with node ", func() {
			// Leaves 4 to 7 of a log whose leaves 0 to 3 are not stored:
			// the store would read them (and node (2, 0)) as zero hashes.
			r, err := NewRange(4, 4, nil)
			if err != nil {
				t.Fatal(err)
			}
			var s FlatStore
			r.Append(make([][Size]byte, 4), s.Visit)
		}},
		{"flat store leaf before the nodes the earlier leaves complete", "sha256x: translog: FlatStore visited with node ", func() {
			// Leaves 0 to 3 are stored, but not node (2, 0), which [2, 4)
			// lacks until merged: leaf 4 would leave a zero-hash hole.
			var s FlatStore
			left, _ := NewRange(0, 0, nil)
			left.Append(make([][Size]byte, 2), s.Visit)
			right, _ := NewRange(2, 2, nil)
			right.Append(make([][Size]byte, 2), s.Visit)
			right.Append(make([][Size]byte, 1), s.Visit)
		}},
		{"flat store node before its leaves", "sha256x: translog: FlatStore visited with node ", func() {
			var s FlatStore
			s.Visit(0, 0, make([][Size]byte, 2))
			s.Visit(1, 0, make([][Size]byte, 2))
		}},
		{"flat store far away", "sha256x: translog: FlatStore visited with node ", func() {
			r, err := NewRange(1<<62, 1<<62, nil)
			if err != nil {
				t.Fatal(err)
			}
			var s FlatStore
			r.Append(make([][Size]byte, 1), s.Visit)
		}},
		{"past 2^64 - 1 leaves", "sha256x: translog: a log grown past 2^64 - 1 leaves", func() {
			r, err := NewRange(math.MaxUint64, math.MaxUint64, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.Append(make([][Size]byte, 1), nil)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r, ok := recover().(string); !ok || !strings.HasPrefix(r, c.msg) {
					t.Errorf("panic %q, want one that starts %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
}

// FuzzTilePath: a path ParseTilePath accepts is the Path of the tile it
// returns, and every tile's Path parses back to it if a log has the tile,
// and is an error if not.
func FuzzTilePath(f *testing.F) {
	f.Add("tile/1/x001/x234/067.p/5", uint8(7), ^uint64(0), uint8(0))
	f.Add("tile/0/000", uint8(0), uint64(1000), uint8(255))
	f.Fuzz(func(t *testing.T, path string, l uint8, n uint64, w uint8) {
		if tl, err := ParseTilePath(path); err == nil && (tl.Path() != path || tl.L > 7 || tl.W < 1 || tl.W > TileWidth) {
			t.Fatalf("%q parses as %+v, whose path is %q", path, tl, tl.Path())
		}
		tl := Tile{int(l % 8), n, 1 + int(w)}
		got, err := ParseTilePath(tl.Path())
		if ok := tl.inLog(); ok && (err != nil || got != tl) || !ok && err == nil {
			t.Fatalf("%+v (of a log: %v): %q parses as %+v, %v", tl, ok, tl.Path(), got, err)
		}
	})
}

// FuzzTileLog: a TileLog picked up from the right edge of a log of any
// size has its root, grows to the reference's root and tiles, and gives
// back its edge; an edge of the wrong shape is an error.
func FuzzTileLog(f *testing.F) {
	leaves := leafHashesOf(testEntries(1<<16 + 600))
	var store NodeStore
	var full Range
	full.Append(leaves, store.Visit)
	f.Add(uint64(300), uint16(700), uint8(0))
	f.Add(^uint64(0)-3, uint16(3), uint8(0))
	f.Add(uint64(1)<<40+77, uint16(300), uint8(3))
	f.Fuzz(func(t *testing.T, size uint64, k uint16, bad uint8) {
		known := size <= uint64(len(leaves)-int(k))
		edge := make([][]byte, tileLevels(size))
		for l := range edge {
			n := size >> (TileHeight * l)
			edge[l] = make([]byte, n%TileWidth*Size)
			for i := range edge[l] {
				edge[l][i] = byte(i*7 + l)
			}
			if known {
				edge[l] = bytesOf(store.Level(TileHeight * l)[n-n%TileWidth : n])
			}
		}
		if bad != 0 && len(edge) > 0 {
			edge[int(bad)%len(edge)] = append(edge[int(bad)%len(edge)], make([]byte, 1+int(bad)%Size)...)
			_, err := NewTileLog(size, edge)
			_, err2 := NewTileLog(size, edge[1:])
			if err == nil || err2 == nil {
				t.Fatalf("size %d: an edge of the wrong shape: %v, %v", size, err, err2)
			}
			return
		}
		lg, err := NewTileLog(size, edge)
		if err != nil || !slices.EqualFunc(lg.Edge(), edge, bytes.Equal) || known && lg.Root() != merkle.RFC6962.RootNodes(leaves[:size]) {
			t.Fatalf("size %d: %v, or its edge or root differs", size, err)
		}
		if size+uint64(k) < size {
			return
		}
		add := make([][Size]byte, k)
		if known {
			copy(add, leaves[size:])
		}
		tiles := lg.AppendHashes(add, nil)
		want := NewTiles(nil, size, size+uint64(k))
		for i, td := range tiles {
			lvl := store.Level(TileHeight * td.L)
			if i >= len(want) || td.Tile != want[i] || len(td.Data) != td.W*Size ||
				known && !bytes.Equal(td.Data, bytesOf(lvl[td.N*TileWidth:td.N*TileWidth+uint64(td.W)])) {
				t.Fatalf("size %d + %d: tile %d, %v, differs from %v", size, k, i, td.Tile, want)
			}
		}
		if len(tiles) != len(want) || known && lg.Root() != merkle.RFC6962.RootNodes(leaves[:size+uint64(k)]) {
			t.Fatalf("size %d + %d: %d tiles, want %d, or the root differs", size, k, len(tiles), len(want))
		}
		if again, err := NewTileLog(lg.Size(), lg.Edge()); err != nil || again.Root() != lg.Root() {
			t.Fatalf("size %d + %d: a TileLog from its edge: %v", size, k, err)
		}
	})
}
