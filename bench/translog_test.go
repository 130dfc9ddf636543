package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/tlog"
)

// The log benchmarks (issue 20): a log of logEntries entries of 100 bytes,
// grown in batches of logBatch as Tessera integrates them, every new node
// stored, by sha256x's translog, transparency-dev/merkle's compact.Range
// with its RFC 6962 hasher, and tlog.StoredHashes; all the tiles of that
// log; proofs from its stored nodes. Compare with benchstat -col /impl
// (translog.sh).
const (
	logEntries = 1 << 20
	logBatch   = 256
	entrySize  = 100
)

var logData = sync.OnceValue(func() [][]byte {
	return logEntriesOf(logEntries)
})

// logEntriesOf returns n distinct pseudo-random entries of entrySize
// bytes, each its own slice of one buffer, as a batch read from the
// network would be.
func logEntriesOf(n int) [][]byte {
	r := rand.New(rand.NewPCG(uint64(n), 20))
	buf := make([]byte, n*entrySize)
	for i := 0; i < len(buf); i += 8 {
		v := r.Uint64()
		for k := 0; k < 8 && i+k < len(buf); k++ {
			buf[i+k] = byte(v >> (8 * k))
		}
	}
	e := make([][]byte, n)
	for i := range e {
		e[i] = buf[i*entrySize : (i+1)*entrySize : (i+1)*entrySize]
	}
	return e
}

// levelStore is where every implementation stores its nodes: one slice a
// level, allocated once for the whole log, so that storing is a copy.
type levelStore [][][32]byte

func newLevelStore(n int) levelStore {
	s := make(levelStore, 0, 21)
	for m := n; m > 0; m /= 2 {
		s = append(s, make([][32]byte, m))
	}
	return s
}

// visit is translog's Visitor: a level's run at a time.
func (s levelStore) visit(level int, index uint64, nodes [][32]byte) {
	copy(s[level][index:], nodes)
}

// visitNode is compact.Range's VisitFn: one node at a time.
func (s levelStore) visitNode(id compact.NodeID, hash []byte) {
	copy(s[id.Level][id.Index][:], hash)
}

// ReadNodes makes a levelStore a translog.NodeReader.
func (s levelStore) ReadNodes(ids []translog.NodeID, out [][32]byte) error {
	for i, id := range ids {
		if id.Level >= len(s) || id.Index >= uint64(len(s[id.Level])) {
			return fmt.Errorf("node %v not stored", id)
		}
		out[i] = s[id.Level][id.Index]
	}
	return nil
}

// flatStore is tlog's storage: every stored hash in one slice, with room
// for the whole log.
type flatStore struct{ hashes []tlog.Hash }

func (s *flatStore) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		out[i] = s.hashes[x]
	}
	return out, nil
}

// A logImpl grows a log of entries from empty, storing every node, and
// returns its root.
type logImpl struct {
	name string
	grow func(entries [][]byte) [32]byte
}

func logImpls(n int) []logImpl {
	store := newLevelStore(n)
	var r translog.Range
	h := rfc6962.DefaultHasher
	f := &compact.RangeFactory{Hash: h.HashChildren}
	flat := &flatStore{hashes: make([]tlog.Hash, 0, 2*n)}
	return []logImpl{
		{"sha256x", func(entries [][]byte) [32]byte {
			r = translog.Range{}
			for i := 0; i < len(entries); i += logBatch {
				r.AppendEntries(entries[i:min(i+logBatch, len(entries))], store.visit)
			}
			root, _ := r.Root()
			return root
		}},
		{"sha256x-novisitor", func(entries [][]byte) [32]byte {
			// No node stored: the hashing alone, as a loop over
			// HashManyPrefixed and HashLevel batch by batch.
			r = translog.Range{}
			for i := 0; i < len(entries); i += logBatch {
				r.AppendEntries(entries[i:min(i+logBatch, len(entries))], nil)
			}
			root, _ := r.Root()
			return root
		}},
		{"transparency-dev", func(entries [][]byte) [32]byte {
			cr := f.NewEmptyRange(0)
			for i := 0; i < len(entries); i += logBatch {
				for _, e := range entries[i:min(i+logBatch, len(entries))] {
					if err := cr.Append(h.HashLeaf(e), store.visitNode); err != nil {
						panic(err)
					}
				}
			}
			root, _ := cr.GetRootHash(nil)
			return [32]byte(root)
		}},
		{"tlog", func(entries [][]byte) [32]byte {
			flat.hashes = flat.hashes[:0]
			for i, e := range entries {
				hs, err := tlog.StoredHashes(int64(i), e, flat)
				if err != nil {
					panic(err)
				}
				flat.hashes = append(flat.hashes, hs...)
			}
			root, _ := tlog.TreeHash(int64(len(entries)), flat)
			return root
		}},
	}
}

// BenchmarkLogGrow: a log grown to 2^20 entries of 100 bytes in batches of
// 256, every node stored.
func BenchmarkLogGrow(b *testing.B) {
	entries := logData()
	for _, im := range logImpls(len(entries)) {
		b.Run("entries=1M/impl="+im.name, func(b *testing.B) {
			// One run untimed: the first touch of a 64 MiB store's pages
			// costs more in this VM than the run itself, and would fall
			// on whichever implementation ran first.
			im.grow(entries)
			b.ReportAllocs()
			for b.Loop() {
				im.grow(entries)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(entries)), "ns/entry")
		})
	}
}

// A tileImpl returns every tile of the log of entries, as (tile, data).
type tileImpl struct {
	name  string
	tiles func(entries [][]byte, emit func(t tlog.Tile, data []byte))
}

func tileImpls(n int) []tileImpl {
	flat := &flatStore{hashes: make([]tlog.Hash, 0, 2*n)}
	var lg translog.TileLog
	return []tileImpl{
		{"sha256x", func(entries [][]byte, emit func(tlog.Tile, []byte)) {
			lg.Reset() // as a long-lived log, its memory reused
			for _, td := range lg.Append(entries, nil) {
				emit(tlog.Tile{H: 8, L: td.L, N: int64(td.N), W: td.W}, td.Data)
			}
		}},
		{"tlog", func(entries [][]byte, emit func(tlog.Tile, []byte)) {
			flat.hashes = flat.hashes[:0]
			for i, e := range entries {
				hs, err := tlog.StoredHashes(int64(i), e, flat)
				if err != nil {
					panic(err)
				}
				flat.hashes = append(flat.hashes, hs...)
			}
			for _, t := range tlog.NewTiles(8, 0, int64(len(entries))) {
				data, err := tlog.ReadTileData(t, flat)
				if err != nil {
					panic(err)
				}
				emit(t, data)
			}
		}},
	}
}

// BenchmarkTiles: every tile of a 2^20-entry log, from its entries.
func BenchmarkTiles(b *testing.B) {
	entries := logData()
	tiles := 0
	for _, im := range tileImpls(len(entries)) {
		b.Run("entries=1M/impl="+im.name, func(b *testing.B) {
			im.tiles(entries, func(tlog.Tile, []byte) {}) // untimed, as in BenchmarkLogGrow
			b.ReportAllocs()
			for b.Loop() {
				tiles = 0
				im.tiles(entries, func(tlog.Tile, []byte) { tiles++ })
			}
			b.ReportMetric(float64(tiles), "tiles")
		})
	}
}

// proofLog is a 2^20-entry log's stored nodes, and sizes to prove between.
var proofLog = sync.OnceValues(func() (levelStore, [][2]uint64) {
	entries := logData()
	store := newLevelStore(len(entries))
	var r translog.Range
	r.AppendEntries(entries, store.visit)
	rnd := rand.New(rand.NewPCG(20, 20))
	pairs := make([][2]uint64, 256)
	for i := range pairs {
		n := 1 + rnd.Uint64N(logEntries)
		pairs[i] = [2]uint64{1 + rnd.Uint64N(n), n}
	}
	return store, pairs
})

// A proofImpl makes the consistency proof (or, with incl, the inclusion
// proof of leaf m-1) between sizes m and n of a log from its stored nodes.
type proofImpl struct {
	name  string
	proof func(m, n uint64, incl bool) [][32]byte
}

func proofImpls(store levelStore) []proofImpl {
	var rd translog.NodeReader = store // boxed once, not once a proof
	h := rfc6962.DefaultHasher
	dst := make([][32]byte, 0, translog.MaxProofHashes)
	bs := make([][]byte, 0, 2*translog.MaxProofHashes)
	hr := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			l, n := tlog.SplitStoredHashIndex(x)
			out[i] = store[l][n]
		}
		return out, nil
	})
	conv := func(p [][]byte) [][32]byte {
		dst = dst[:0]
		for _, x := range p {
			dst = append(dst, [32]byte(x))
		}
		return dst
	}
	return []proofImpl{
		{"sha256x", func(m, n uint64, incl bool) [][32]byte {
			var err error
			if incl {
				dst, err = translog.InclusionProof(dst[:0], m-1, n, rd)
			} else {
				dst, err = translog.ConsistencyProof(dst[:0], m, n, rd)
			}
			if err != nil {
				panic(err)
			}
			return dst
		}},
		{"transparency-dev", func(m, n uint64, incl bool) [][32]byte {
			var nodes proof.Nodes
			var err error
			if incl {
				nodes, err = proof.Inclusion(m-1, n)
			} else {
				nodes, err = proof.Consistency(m, n)
			}
			if err != nil {
				panic(err)
			}
			bs = bs[:0]
			for _, id := range nodes.IDs {
				bs = append(bs, store[id.Level][id.Index][:])
			}
			p, err := nodes.Rehash(bs, h.HashChildren)
			if err != nil {
				panic(err)
			}
			return conv(p)
		}},
		{"tlog", func(m, n uint64, incl bool) [][32]byte {
			var p []tlog.Hash
			var err error
			if incl {
				p, err = tlog.ProveRecord(int64(n), int64(m-1), hr)
			} else {
				p, err = tlog.ProveTree(int64(n), int64(m), hr)
			}
			if err != nil {
				panic(err)
			}
			dst = dst[:0]
			for _, x := range p {
				dst = append(dst, x)
			}
			return dst
		}},
	}
}

// BenchmarkLogProof: consistency and inclusion proofs between random sizes
// of a 2^20-entry log, from its stored nodes; an op is one proof, a
// different pair of sizes each time.
func BenchmarkLogProof(b *testing.B) {
	store, pairs := proofLog()
	for _, kind := range []string{"consistency", "inclusion"} {
		for _, im := range proofImpls(store) {
			b.Run("proof="+kind+"/impl="+im.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					p := pairs[i%len(pairs)]
					im.proof(p[0], p[1], kind == "inclusion")
					i++
				}
			})
		}
	}
}

// BenchmarkLogVerify: checking those consistency proofs against the two
// roots, by translog, transparency-dev and tlog.
func BenchmarkLogVerify(b *testing.B) {
	store, pairs := proofLog()
	type item struct {
		m, n     uint64
		old, new [32]byte
		p        [][32]byte
		pb       [][]byte
		pt       tlog.TreeProof
	}
	items := make([]item, len(pairs))
	for i, pr := range pairs {
		it := item{m: pr[0], n: pr[1]}
		it.old, _ = translog.TreeRoot(it.m, store)
		it.new, _ = translog.TreeRoot(it.n, store)
		it.p, _ = translog.ConsistencyProof(nil, it.m, it.n, store)
		for _, h := range it.p {
			it.pb = append(it.pb, bytes.Clone(h[:]))
			it.pt = append(it.pt, h)
		}
		items[i] = it
	}
	h := rfc6962.DefaultHasher
	impls := []struct {
		name   string
		verify func(it *item) error
	}{
		{"sha256x", func(it *item) error { return translog.VerifyConsistency(it.m, it.n, it.old, it.new, it.p) }},
		{"transparency-dev", func(it *item) error {
			return proof.VerifyConsistency(h, it.m, it.n, it.pb, it.old[:], it.new[:])
		}},
		{"tlog", func(it *item) error { return tlog.CheckTree(it.pt, int64(it.n), it.new, int64(it.m), it.old) }},
	}
	for _, im := range impls {
		b.Run("proof=consistency/impl="+im.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := im.verify(&items[i%len(items)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// TestLogImpls: every implementation of the log benchmarks gives the same
// root, stored nodes, tiles and proofs, on logs of every size to 300 and a
// few larger.
func TestLogImpls(t *testing.T) {
	sizes := []int{1000, 4096, 5000}
	for n := 1; n <= 300; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		entries := logEntriesOf(n)
		var want [32]byte
		for i, im := range logImpls(n) {
			got := im.grow(entries)
			if i == 0 {
				want = got
			} else if got != want {
				t.Fatalf("%d entries: %s root %x, sha256x %x", n, im.name, got, want)
			}
		}
		var ref []string
		for i, im := range tileImpls(n) {
			var got []string
			im.tiles(entries, func(t tlog.Tile, data []byte) { got = append(got, fmt.Sprintf("%s %x", t.Path(), data)) })
			if i == 0 {
				ref = got
			} else if !slices.Equal(got, ref) {
				t.Fatalf("%d entries: %s tiles differ from sha256x's", n, im.name)
			}
		}
		store := newLevelStore(n)
		var r translog.Range
		r.AppendEntries(entries, store.visit)
		for _, incl := range []bool{false, true} {
			for m := uint64(1); m <= uint64(n); m += 1 + uint64(n/40) {
				var ref [][32]byte
				for i, im := range proofImpls(store) {
					got := slices.Clone(im.proof(m, uint64(n), incl))
					if i == 0 {
						ref = got
					} else if !slices.Equal(got, ref) {
						t.Fatalf("%d entries, m %d, inclusion %v: %s's proof differs from sha256x's", n, m, incl, im.name)
					}
				}
			}
		}
	}
}
