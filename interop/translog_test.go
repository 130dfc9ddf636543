package interop

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/logadapt"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
	"golang.org/x/mod/sumdb/tlog"
)

// entry returns entry i of the test logs: distinct, 8 to about 130 bytes.
func entry(r *rand.Rand, i int) []byte {
	e := fmt.Appendf(make([]byte, 0, 136), "entry %d:", i)
	for k := r.IntN(120); k > 0; k -= 8 {
		v := r.Uint64()
		for j := range min(k, 8) {
			e = append(e, byte(v>>(8*j)))
		}
	}
	return e
}

// tlogStore is a log kept the way tlog keeps it: StoredHashes record by
// record, into one slice.
type tlogStore struct {
	hashes  []tlog.Hash
	records int64
}

func (s *tlogStore) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(s.hashes)) {
			return nil, fmt.Errorf("tlogStore: index %d of %d", x, len(s.hashes))
		}
		out[i] = s.hashes[x]
	}
	return out, nil
}

func (s *tlogStore) append(t testing.TB, data []byte) {
	hs, err := tlog.StoredHashes(s.records, data, s)
	if err != nil {
		t.Fatal(err)
	}
	s.hashes = append(s.hashes, hs...)
	s.records++
}

// batchSizes returns random batch sizes: mostly small, some a few hundred
// or thousand, to cross every alignment.
func batchSizes(r *rand.Rand, maxBig int) func() int {
	return func() int {
		switch r.IntN(10) {
		case 0:
			return 1 + r.IntN(maxBig)
		case 1, 2:
			return 1 + r.IntN(300)
		default:
			return 1 + r.IntN(40)
		}
	}
}

// checkProofs checks inclusion proofs of a few leaves, and consistency
// proofs from a few sizes, of the log of size n, both ways: ours verify
// with transparency-dev's and tlog's verifiers and equal their proofs,
// and their proofs verify with ours. roots[m] is the root at size m.
func checkProofs(t *testing.T, r *rand.Rand, n uint64, ours translog.NodeReader, ref *testonly.Tree, hr tlog.HashReader, roots func(uint64) [32]byte, leafHash func(uint64) [32]byte) {
	t.Helper()
	h := rfc6962.DefaultHasher
	root := roots(n)
	if n > 0 {
		for _, i := range []uint64{0, n - 1, r.Uint64N(n), r.Uint64N(n)} {
			p, err := translog.InclusionProof(nil, i, n, ours)
			if err != nil {
				t.Fatalf("size %d, leaf %d: %v", n, i, err)
			}
			lh := leafHash(i)
			theirs, err := ref.InclusionProof(i, n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(logadapt.Bytes(p), theirs, bytes.Equal) {
				t.Fatalf("size %d, leaf %d: our proof differs from transparency-dev's", n, i)
			}
			if err := proof.VerifyInclusion(h, i, n, lh[:], logadapt.Bytes(p), root[:]); err != nil {
				t.Fatalf("size %d, leaf %d: transparency-dev rejects our proof: %v", n, i, err)
			}
			rp, err := tlog.ProveRecord(int64(n), int64(i), hr)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(logadapt.FromTlog(rp), p) {
				t.Fatalf("size %d, leaf %d: our proof differs from tlog's", n, i)
			}
			if err := tlog.CheckRecord(logadapt.ToTlog(p), int64(n), root, int64(i), lh); err != nil {
				t.Fatalf("size %d, leaf %d: tlog rejects our proof: %v", n, i, err)
			}
			th, err := logadapt.Hashes(theirs)
			if err != nil {
				t.Fatal(err)
			}
			if err := translog.VerifyInclusion(i, n, lh, th, root); err != nil {
				t.Fatalf("size %d, leaf %d: we reject transparency-dev's proof: %v", n, i, err)
			}
			if err := translog.VerifyInclusion(i, n, lh, logadapt.FromTlog(rp), root); err != nil {
				t.Fatalf("size %d, leaf %d: we reject tlog's proof: %v", n, i, err)
			}
			// A wrong leaf, size or hash: both we and they reject it.
			bad := lh
			bad[r.IntN(32)] ^= 1 << r.IntN(8)
			if err := translog.VerifyInclusion(i, n, bad, p, root); !errors.Is(err, translog.ErrMismatch) {
				t.Fatalf("size %d, leaf %d: a wrong leaf: %v", n, i, err)
			}
			if err := tlog.CheckRecord(logadapt.ToTlog(p), int64(n), root, int64(i), bad); err == nil {
				t.Fatalf("size %d, leaf %d: tlog accepts a wrong leaf", n, i)
			}
			if len(p) > 0 {
				q := slices.Clone(p)
				q[r.IntN(len(q))][r.IntN(32)] ^= 1
				if err := translog.VerifyInclusion(i, n, lh, q, root); !errors.Is(err, translog.ErrMismatch) {
					t.Fatalf("size %d, leaf %d: a wrong proof hash: %v", n, i, err)
				}
				if err := translog.VerifyInclusion(i, n, lh, p[:len(p)-1], root); err == nil || !strings.Contains(err.Error(), "hashes, want") {
					t.Fatalf("size %d, leaf %d: a truncated proof: %v", n, i, err)
				}
			}
			if err := translog.VerifyInclusion(n, n, lh, p, root); err == nil {
				t.Fatalf("size %d: leaf %d (index >= size) verifies", n, n)
			}
		}
	}
	pow2 := uint64(1) << bits.Len64(n) >> 1 // the largest power of two <= n, or 0
	for _, m := range []uint64{0, 1, n / 2, max(n, 1) - 1, n, r.Uint64N(n + 1), pow2, pow2 / 2} {
		if m > n {
			continue
		}
		p, err := translog.ConsistencyProof(nil, m, n, ours)
		if err != nil {
			t.Fatalf("sizes %d to %d: %v", m, n, err)
		}
		old := roots(m)
		theirs, err := ref.ConsistencyProof(m, n)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(logadapt.Bytes(p), theirs, bytes.Equal) {
			t.Fatalf("sizes %d to %d: our proof differs from transparency-dev's", m, n)
		}
		if err := proof.VerifyConsistency(h, m, n, logadapt.Bytes(p), old[:], root[:]); err != nil {
			t.Fatalf("sizes %d to %d: transparency-dev rejects our proof: %v", m, n, err)
		}
		th, _ := logadapt.Hashes(theirs)
		if err := translog.VerifyConsistency(m, n, old, root, th); err != nil {
			t.Fatalf("sizes %d to %d: we reject transparency-dev's proof: %v", m, n, err)
		}
		if m > 0 {
			tp, err := tlog.ProveTree(int64(n), int64(m), hr)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(logadapt.FromTlog(tp), p) {
				t.Fatalf("sizes %d to %d: our proof differs from tlog's", m, n)
			}
			if err := tlog.CheckTree(logadapt.ToTlog(p), int64(n), root, int64(m), old); err != nil {
				t.Fatalf("sizes %d to %d: tlog rejects our proof: %v", m, n, err)
			}
			if err := translog.VerifyConsistency(m, n, old, root, logadapt.FromTlog(tp)); err != nil {
				t.Fatalf("sizes %d to %d: we reject tlog's proof: %v", m, n, err)
			}
			got, err := translog.RootFromConsistency(m, n, old, p)
			if err != nil || got != root {
				t.Fatalf("sizes %d to %d: RootFromConsistency = %x, %v; want %x", m, n, got, err, root)
			}
		}
		if m > 0 && m < n {
			q := slices.Clone(p)
			q[r.IntN(len(q))][r.IntN(32)] ^= 1
			if err := translog.VerifyConsistency(m, n, old, root, q); !errors.Is(err, translog.ErrMismatch) {
				t.Fatalf("sizes %d to %d: a wrong proof hash: %v", m, n, err)
			}
			if err := tlog.CheckTree(logadapt.ToTlog(q), int64(n), root, int64(m), old); err == nil {
				t.Fatalf("sizes %d to %d: tlog accepts a wrong proof hash", m, n)
			}
			if err := translog.VerifyConsistency(m, n, old, root, p[:len(p)-1]); err == nil || !strings.Contains(err.Error(), "hashes, want") {
				t.Fatalf("sizes %d to %d: a truncated proof: %v", m, n, err)
			}
			if err := translog.VerifyConsistency(n, m, root, old, p); err == nil {
				t.Fatalf("sizes %d to %d: m > n verifies", n, m)
			}
		}
	}
}

// TestLogEverySize grows one log to 4096 entries and checks every size on
// the way against tlog and transparency-dev/merkle: roots, stored nodes,
// compact ranges, proofs both ways. Three logs of ours grow side by side:
// one entry at a time (a root at every size), in random batches of entries
// (its nodes in a FlatStore, which must equal tlog's stored hashes), and in
// random batches of leaf hashes (its nodes in a NodeStore).
func TestLogEverySize(t *testing.T) {
	const n = 1 << 12
	r := rand.New(rand.NewPCG(20, 1))
	entries := make([][]byte, n)
	leafHashes := make([][32]byte, n)
	for i := range entries {
		entries[i] = entry(r, i)
		leafHashes[i] = tlog.RecordHash(entries[i])
	}
	h := rfc6962.DefaultHasher
	var ts tlogStore
	ref := testonly.New(h)
	tdRange := (&compact.RangeFactory{Hash: h.HashChildren}).NewEmptyRange(0)
	var one, batched, hashed translog.Range
	var flat translog.FlatStore
	var store translog.NodeStore
	visits := 0
	countFlat := func(level int, index uint64, nodes [][32]byte) {
		visits += len(nodes)
		flat.Visit(level, index, nodes)
	}
	next := batchSizes(r, 700)
	roots := make([][32]byte, n+1)
	for size := uint64(0); size <= n; size++ {
		if size > 0 {
			e := entries[size-1]
			ts.append(t, e)
			ref.AppendData(e)
			if err := tdRange.Append(h.HashLeaf(e), nil); err != nil {
				t.Fatal(err)
			}
			one.AppendEntries(entries[size-1:size], nil)
		}
		want, err := tlog.TreeHash(int64(size), &ts)
		if err != nil {
			t.Fatal(err)
		}
		roots[size] = want
		got, err := one.Root()
		if err != nil || got != want {
			t.Fatalf("size %d: root %x (%v), tlog.TreeHash %x", size, got, err, want)
		}
		tdRoot, err := tdRange.GetRootHash(nil)
		if err != nil {
			t.Fatal(err)
		}
		if size > 0 && !bytes.Equal(tdRoot, want[:]) {
			t.Fatalf("size %d: transparency-dev's compact range root %x, tlog's %x", size, tdRoot, want)
		}
		if !slices.EqualFunc(logadapt.Bytes(one.Hashes()), tdRange.Hashes(), bytes.Equal) {
			t.Fatalf("size %d: compact range hashes differ from transparency-dev's", size)
		}

		// The batched logs run ahead; at their batch ends they must hold
		// exactly tlog's stored hashes and the same compact range.
		for batched.End() < size || (batched.End() == size && size < n && r.IntN(4) == 0) {
			k := min(next(), n-int(batched.End()))
			b := batched.End()
			batched.AppendEntries(entries[b:int(b)+k], countFlat)
			hashed.Append(leafHashes[b:int(b)+k], store.Visit)
		}
		if batched.End() == size {
			if got, _ := batched.Root(); got != want {
				t.Fatalf("size %d: batched root %x, tlog.TreeHash %x", size, got, want)
			}
			if got, _ := hashed.Root(); got != want {
				t.Fatalf("size %d: root from leaf hashes %x, tlog.TreeHash %x", size, got, want)
			}
			if !slices.Equal(batched.Hashes(), one.Hashes()) || !slices.Equal(batched.IDs(), one.IDs()) {
				t.Fatalf("size %d: the batched compact range differs", size)
			}
			if len(flat.Hashes) != len(ts.hashes) || visits != len(ts.hashes) {
				t.Fatalf("size %d: %d stored hashes (%d visits), tlog %d", size, len(flat.Hashes), visits, len(ts.hashes))
			}
			for i := range ts.hashes {
				if flat.Hashes[i] != ts.hashes[i] {
					l, x := tlog.SplitStoredHashIndex(int64(i))
					t.Fatalf("size %d: stored hash %d, node (%d, %d), differs from tlog's", size, i, l, x)
				}
			}
		}
		// From stored nodes, at a size below what the stores hold.
		for _, rd := range []translog.NodeReader{&flat, &store, logadapt.NodeReader(&ts)} {
			if got, err := translog.TreeRoot(size, rd); err != nil || got != want {
				t.Fatalf("size %d: TreeRoot %x (%v), want %x", size, got, err, want)
			}
		}
		checkProofs(t, r, size, &store, ref, &ts, func(m uint64) [32]byte { return roots[m] },
			func(i uint64) [32]byte { return leafHashes[i] })
		if size%512 == 3 {
			// The same proofs from tlog's storage, and served to
			// transparency-dev's proof plans.
			checkProofs(t, r, size, logadapt.NodeReader(&ts), ref, logadapt.HashReader(&store),
				func(m uint64) [32]byte { return roots[m] }, func(i uint64) [32]byte { return leafHashes[i] })
			if size > 0 {
				i := r.Uint64N(size)
				nodes, _ := proof.Inclusion(i, size)
				got, err := logadapt.Fetch(nodes, &store)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := ref.InclusionProof(i, size)
				if !slices.EqualFunc(got, want, bytes.Equal) {
					t.Fatalf("size %d, leaf %d: Fetch differs from transparency-dev's proof", size, i)
				}
			}
		}
	}
}

// TestLogRandomSizes grows a log to about 2^20 entries in random batches
// and checks roots and proofs at random sizes on the way against tlog and
// transparency-dev's compact range. tlog.StoredHashes computes each
// record's hashes from our earlier stored ones, which it must then equal:
// by induction every stored node is tlog's, without a second 64 MiB copy.
func TestLogRandomSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	final := uint64(1<<20 - r.IntN(1000))
	checks := []uint64{final}
	for range 6 {
		checks = append(checks, 1+r.Uint64N(final))
	}
	slices.Sort(checks)
	h := rfc6962.DefaultHasher
	tdRange := (&compact.RangeFactory{Hash: h.HashChildren}).NewEmptyRange(0)
	var lg translog.Range
	var flat translog.FlatStore
	hr := logadapt.HashReader(&flat)
	next := batchSizes(r, 5000)
	batch := make([][]byte, 0, 5000)
	for lg.End() < final {
		k := uint64(next())
		if lg.End() < checks[0] {
			k = min(k, checks[0]-lg.End())
		}
		k = min(k, final-lg.End())
		batch = batch[:0]
		for i := range k {
			batch = append(batch, entry(r, int(lg.End()+i)))
		}
		old := lg.End()
		lg.AppendEntries(batch, flat.Visit)
		for i, e := range batch {
			x := old + uint64(i)
			hs, err := tlog.StoredHashes(int64(x), e, hr)
			if err != nil {
				t.Fatal(err)
			}
			at := translog.StoredIndex(0, x)
			for j, hh := range hs {
				if flat.Hashes[at+uint64(j)] != hh {
					t.Fatalf("record %d: stored hash %d differs from tlog.StoredHashes", x, j)
				}
			}
			if err := tdRange.Append(h.HashLeaf(e), nil); err != nil {
				t.Fatal(err)
			}
		}
		if lg.End() != checks[0] {
			continue
		}
		size := lg.End()
		checks = checks[1:]
		got, _ := lg.Root()
		want, err := tlog.TreeHash(int64(size), hr)
		if err != nil || got != want {
			t.Fatalf("size %d: root %x, tlog.TreeHash %x (%v)", size, got, want, err)
		}
		td, _ := tdRange.GetRootHash(nil)
		if !bytes.Equal(td, got[:]) {
			t.Fatalf("size %d: root %x, transparency-dev's compact range %x", size, got, td)
		}
		for range 4 {
			i, m := r.Uint64N(size), 1+r.Uint64N(size)
			p, err := translog.InclusionProof(nil, i, size, &flat)
			if err != nil {
				t.Fatal(err)
			}
			lh := flat.Hashes[translog.StoredIndex(0, i)]
			if err := proof.VerifyInclusion(h, i, size, lh[:], logadapt.Bytes(p), got[:]); err != nil {
				t.Fatalf("size %d, leaf %d: transparency-dev rejects our proof: %v", size, i, err)
			}
			if err := tlog.CheckRecord(logadapt.ToTlog(p), int64(size), got, int64(i), lh); err != nil {
				t.Fatalf("size %d, leaf %d: tlog rejects our proof: %v", size, i, err)
			}
			oldRoot, _ := translog.TreeRoot(m, &flat)
			cp, err := translog.ConsistencyProof(nil, m, size, &flat)
			if err != nil {
				t.Fatal(err)
			}
			if err := proof.VerifyConsistency(h, m, size, logadapt.Bytes(cp), oldRoot[:], got[:]); err != nil {
				t.Fatalf("sizes %d to %d: transparency-dev rejects our proof: %v", m, size, err)
			}
			if err := tlog.CheckTree(logadapt.ToTlog(cp), int64(size), got, int64(m), oldRoot); err != nil {
				t.Fatalf("sizes %d to %d: tlog rejects our proof: %v", m, size, err)
			}
			tp, err := tlog.ProveTree(int64(size), int64(m), hr)
			if err != nil {
				t.Fatal(err)
			}
			if err := translog.VerifyConsistency(m, size, oldRoot, got, logadapt.FromTlog(tp)); err != nil {
				t.Fatalf("sizes %d to %d: we reject tlog's proof: %v", m, size, err)
			}
		}
	}
}

// TestRangesAnywhere: ranges that begin past 0, grown in batches, merged
// with AppendRange, against transparency-dev's compact ranges grown leaf
// by leaf and merged with its AppendRange: the same hashes, and the same
// nodes handed to the visitors.
func TestRangesAnywhere(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	h := rfc6962.DefaultHasher
	f := &compact.RangeFactory{Hash: h.HashChildren}
	type visited map[compact.NodeID]string
	for range 300 {
		a := r.Uint64N(3000)
		b := a + r.Uint64N(700)
		c := b + r.Uint64N(700)
		if r.IntN(8) == 0 {
			a, b, c = a<<40, a<<40+b, a<<40+c // far from 0
		}
		leaf := func(i uint64) [32]byte { return translog.LeafHash(fmt.Appendf(nil, "leaf %d", i)) }
		grow := func(lo, hi uint64) (*translog.Range, *compact.Range, visited, visited) {
			ours, err := translog.NewRange(lo, lo, nil)
			if err != nil {
				t.Fatal(err)
			}
			theirs := f.NewEmptyRange(lo)
			ov, tv := visited{}, visited{}
			for i := lo; i < hi; {
				k := min(uint64(1+r.IntN(90)), hi-i)
				hs := make([][32]byte, k)
				for j := range hs {
					hs[j] = leaf(i + uint64(j))
					hh := hs[j]
					if err := theirs.Append(hh[:], func(id compact.NodeID, hash []byte) { tv[id] = string(hash) }); err != nil {
						t.Fatal(err)
					}
				}
				ours.Append(hs, logadapt.Visit(func(id compact.NodeID, hash []byte) {
					if _, ok := ov[id]; ok {
						t.Fatalf("node %v visited twice", id)
					}
					ov[id] = string(hash)
				}))
				i += k
			}
			return ours, theirs, ov, tv
		}
		o1, t1, ov1, tv1 := grow(a, b)
		o2, t2, ov2, tv2 := grow(b, c)
		for _, pair := range [][2]visited{{ov1, tv1}, {ov2, tv2}} {
			if fmt.Sprint(pair[0]) != fmt.Sprint(pair[1]) {
				t.Fatalf("[%d, %d, %d): visited nodes differ from transparency-dev's", a, b, c)
			}
		}
		if !slices.EqualFunc(logadapt.Bytes(o1.Hashes()), t1.Hashes(), bytes.Equal) ||
			!slices.EqualFunc(logadapt.Bytes(o2.Hashes()), t2.Hashes(), bytes.Equal) {
			t.Fatalf("[%d, %d) or [%d, %d): compact hashes differ from transparency-dev's", a, b, b, c)
		}
		mv, tmv := visited{}, visited{}
		if err := o1.AppendRange(o2, logadapt.Visit(func(id compact.NodeID, hash []byte) { mv[id] = string(hash) })); err != nil {
			t.Fatal(err)
		}
		if err := t1.AppendRange(t2, func(id compact.NodeID, hash []byte) { tmv[id] = string(hash) }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(mv) != fmt.Sprint(tmv) {
			t.Fatalf("[%d, %d) + [%d, %d): merge visits differ from transparency-dev's", a, b, b, c)
		}
		if !slices.EqualFunc(logadapt.Bytes(o1.Hashes()), t1.Hashes(), bytes.Equal) {
			t.Fatalf("[%d, %d) + [%d, %d): merged hashes differ from transparency-dev's", a, b, b, c)
		}
		// Through the adapters, both ways.
		back, err := logadapt.FromCompact(t1)
		if err != nil || !slices.Equal(back.Hashes(), o1.Hashes()) || back.Begin() != a || back.End() != c {
			t.Fatalf("FromCompact: %v", err)
		}
		cr, err := logadapt.CompactRange(f, o1)
		if err != nil || !cr.Equal(t1) {
			t.Fatalf("CompactRange: %v", err)
		}
		if a == 0 {
			got, _ := o1.Root()
			want, _ := t1.GetRootHash(nil)
			if !bytes.Equal(got[:], want) {
				t.Fatalf("[0, %d): root differs", c)
			}
		} else if _, err := o1.Root(); err == nil {
			t.Fatalf("[%d, %d): a root of a range past 0", a, c)
		}
	}
}

// TestTiles grows a log at random and checks every tile of every growth
// step against tlog.NewTiles and tlog.ReadTileData over tlog's own stored
// hashes; on the way, a TileLog picked up again from its edge (ours, and
// tlog's partial tiles) carries on the same; at the end tlog's
// TileHashReader authenticates our tiles against the tree hash.
func TestTiles(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 4))
	var ts tlogStore
	var lg translog.TileLog
	next := batchSizes(r, 20000)
	published := map[tlog.Tile][]byte{}
	var size uint64
	steps := 0
	for size < 1<<17+5000 {
		k := next()
		batch := make([][]byte, k)
		for i := range batch {
			batch[i] = entry(r, int(size)+i)
			ts.append(t, batch[i])
		}
		got := lg.Append(batch, nil)
		old := size
		size += uint64(k)
		steps++
		want := tlog.NewTiles(8, int64(old), int64(size))
		if len(got) != len(want) {
			t.Fatalf("growth %d to %d: %d tiles, tlog.NewTiles %d", old, size, len(got), len(want))
		}
		if nt := translog.NewTiles(nil, old, size); !slices.Equal(nt, tilesOf(got)) {
			t.Fatalf("growth %d to %d: NewTiles differs from Append's tiles", old, size)
		}
		for i, td := range got {
			if logadapt.Tile(td.Tile) != want[i] {
				t.Fatalf("growth %d to %d: tile %d is %v, tlog %v", old, size, i, td.Tile, want[i])
			}
			data, err := tlog.ReadTileData(want[i], &ts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(td.Data, data) {
				t.Fatalf("growth %d to %d: tile %s differs from tlog.ReadTileData", old, size, want[i].Path())
			}
			if p := td.Path(); "tile/8/"+strings.TrimPrefix(p, "tile/") != want[i].Path() {
				t.Fatalf("path %s, tlog %s", p, want[i].Path())
			}
			published[want[i]] = bytes.Clone(td.Data)
		}
		th, _ := tlog.TreeHash(int64(size), &ts)
		if lg.Root() != th {
			t.Fatalf("size %d: TileLog root differs from tlog.TreeHash", size)
		}
		if steps%7 == 0 {
			// Pick the log up again from its partial tiles, read with tlog.
			edge := make([][]byte, 0)
			for l := 0; size>>(8*l) > 0; l++ {
				n := int64(size >> (8 * l))
				var d []byte
				if w := int(n % 256); w > 0 {
					var err error
					d, err = tlog.ReadTileData(tlog.Tile{H: 8, L: l, N: n / 256, W: w}, &ts)
					if err != nil {
						t.Fatal(err)
					}
				}
				edge = append(edge, d)
			}
			if fmt.Sprint(edge) != fmt.Sprint(lg.Edge()) {
				t.Fatalf("size %d: Edge differs from tlog's partial tiles", size)
			}
			again, err := translog.NewTileLog(size, edge)
			if err != nil {
				t.Fatal(err)
			}
			if again.Root() != th {
				t.Fatalf("size %d: the root of a TileLog from its edge differs", size)
			}
			lg = *again
		}
	}
	// tlog's own client reads our tiles, checking each against the tree
	// hash, and proves records and trees from them.
	th, _ := tlog.TreeHash(int64(size), &ts)
	tr := tlog.TileHashReader(tlog.Tree{N: int64(size), Hash: th}, tileReader(published))
	for range 50 {
		i := r.Int64N(int64(size))
		p, err := tlog.ProveRecord(int64(size), i, tr)
		if err != nil {
			t.Fatalf("size %d, record %d: tlog reading our tiles: %v", size, i, err)
		}
		if err := tlog.CheckRecord(p, int64(size), th, i, ts.hashes[tlog.StoredHashIndex(0, i)]); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d growth steps to %d entries", steps, size)
}

func tilesOf(td []translog.TileData) []translog.Tile {
	t := make([]translog.Tile, len(td))
	for i := range td {
		t[i] = td[i].Tile
	}
	return t
}

type tileReader map[tlog.Tile][]byte

func (tileReader) Height() int { return 8 }

func (m tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		d, ok := m[t]
		if !ok {
			return nil, fmt.Errorf("tile %s not published", t.Path())
		}
		out[i] = d
	}
	return out, nil
}

func (tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// TestHasher: logadapt.Hasher is rfc6962.DefaultHasher, and
// transparency-dev's compact ranges and verifiers work with it.
func TestHasher(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 5))
	ref, ours := rfc6962.DefaultHasher, logadapt.Hasher{}
	if !bytes.Equal(ref.EmptyRoot(), ours.EmptyRoot()) || ours.Size() != ref.Size() {
		t.Fatal("EmptyRoot or Size differ")
	}
	tr := testonly.New(ours)
	rr := testonly.New(ref)
	for i := range 300 {
		e := entry(r, i)
		if !bytes.Equal(ref.HashLeaf(e), ours.HashLeaf(e)) {
			t.Fatalf("HashLeaf of entry %d differs", i)
		}
		tr.AppendData(e)
		rr.AppendData(e)
		if !bytes.Equal(tr.Hash(), rr.Hash()) {
			t.Fatalf("size %d: roots differ", i+1)
		}
		a, b := e[:min(len(e), 32)], e[min(len(e), 5):]
		if !bytes.Equal(ref.HashChildren(a, b), ours.HashChildren(a, b)) {
			t.Fatalf("HashChildren of %d and %d bytes differs", len(a), len(b))
		}
	}
	cr := logadapt.Factory.NewEmptyRange(0)
	for i := range 300 {
		cr.Append(ours.HashLeaf(entry(r, i)), nil)
	}
	root, _ := cr.GetRootHash(nil)
	p, _ := tr.InclusionProof(7, 300)
	if err := proof.VerifyInclusion(ours, 7, 300, tr.LeafHash(7), p, tr.Hash()); err != nil {
		t.Fatal(err)
	}
	if len(root) != 32 {
		t.Fatal("root length")
	}
	if _, err := logadapt.Hashes([][]byte{make([]byte, 31)}); err == nil {
		t.Fatal("a 31-byte hash converted")
	}
	if _, err := logadapt.FromTile(tlog.Tile{H: 4, L: 0, N: 0, W: 16}); err == nil {
		t.Fatal("a tile of height 4 converted")
	}
}
