package logadapt

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/tlog"
)

// tlogStore is a log kept as tlog keeps it: tlog.StoredHashes record by
// record, into one slice; the reference HashReader.
type tlogStore struct{ hashes []tlog.Hash }

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

// within runs f, and fails t if it has not returned within d (f then goes
// on in the background).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v", what, d)
	}
}

// TestHashReaderLastIndex: stored hash index math.MaxInt64 is leaf 2^62,
// the last node tlog can name; tlog.ReadTileData asks for it when a tile
// server is sent tile/8/0/x018/x014/x398/x509/x481/984.p/1. A store that
// does not hold it answers with an error, as tlog's own stores do; the
// HashReader looped forever (tlog.SplitStoredHashIndex overflows there).
func TestHashReaderLastIndex(t *testing.T) {
	tile, err := tlog.ParseTilePath("tile/8/0/x018/x014/x398/x509/x481/984.p/1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tlog.ReadTileData(tile, &tlogStore{}); err == nil {
		t.Fatal("tlog's store: no error")
	}
	var ids []translog.NodeID
	rec := nodeReaderFunc(func(got []translog.NodeID, out [][32]byte) error {
		ids = append(ids, got...)
		return nil
	})
	within(t, 10*time.Second, "ReadTileData", func() {
		if _, err := tlog.ReadTileData(tile, HashReader(&translog.FlatStore{})); err == nil {
			t.Error("an empty FlatStore: no error")
		}
		if _, err := HashReader(rec).ReadHashes([]int64{math.MaxInt64}); err != nil {
			t.Error(err)
		}
	})
	if want := (translog.NodeID{Level: 0, Index: 1 << 62}); len(ids) != 1 || ids[0] != want {
		t.Errorf("index MaxInt64 read as %v, want %v", ids, want)
	}
}

type nodeReaderFunc func([]translog.NodeID, [][32]byte) error

func (f nodeReaderFunc) ReadNodes(ids []translog.NodeID, out [][32]byte) error { return f(ids, out) }

// TestHashReaderIndexes: the HashReader reads, for every stored hash index,
// the node that tlog.SplitStoredHashIndex names, which is the node whose
// translog.StoredIndex it is: small indexes, random ones of every
// magnitude, and those around the top of int64.
func TestHashReaderIndexes(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	var xs []int64
	for x := range int64(2000) {
		xs = append(xs, x)
	}
	for range 20000 {
		xs = append(xs, r.Int64N(int64(1)<<(1+r.IntN(62))))
	}
	for d := range int64(200) {
		xs = append(xs, math.MaxInt64-1-d)
	}
	var got []translog.NodeID
	hr := HashReader(nodeReaderFunc(func(ids []translog.NodeID, out [][32]byte) error {
		got = append(got[:0], ids...)
		return nil
	}))
	within(t, time.Minute, "ReadHashes", func() {
		if _, err := hr.ReadHashes(xs); err != nil {
			t.Error(err)
		}
	})
	for i, x := range xs {
		l, n := tlog.SplitStoredHashIndex(x)
		if want := (translog.NodeID{Level: l, Index: uint64(n)}); got[i] != want {
			t.Fatalf("index %d: node %v, want %v", x, got[i], want)
		}
		if translog.StoredIndex(got[i].Level, got[i].Index) != uint64(x) {
			t.Fatalf("index %d: node %v is stored at %d", x, got[i], translog.StoredIndex(got[i].Level, got[i].Index))
		}
	}
	t.Logf("%d indexes", len(xs))
}

// indexHashes is a tlog.HashReader of a log too large to store: stored
// hash i is SHA-256 of i's eight bytes.
type indexHashes struct{}

func (indexHashes) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 {
			return nil, fmt.Errorf("indexHashes: index %d", x)
		}
		out[i] = sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(x)))
	}
	return out, nil
}

// TestNodeReaderLargeLogs: roots and proofs read through NodeReader are
// tlog's, read from the same stored hashes, for logs of more than 2^61
// leaves, up to 2^62 - 1, the largest tlog computes (its maxpow2 loops
// forever past it). NodeReader refused every node past leaf 2^61 - 1, whose
// stored hash indexes are below 2^63, as having none in an int64.
func TestNodeReaderLargeLogs(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	nr := NodeReader(indexHashes{})
	sizes := []int64{1<<61 - 1, 1 << 61, 1<<61 + 1, 3 << 60, 1<<62 - 2, 1<<62 - 1}
	for range 20 {
		sizes = append(sizes, 1<<61+r.Int64N(1<<61))
	}
	for _, n := range sizes {
		want, err := tlog.TreeHash(n, indexHashes{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := translog.TreeRoot(uint64(n), nr); err != nil || got != want {
			t.Fatalf("size %d: TreeRoot = %x, %v; tlog.TreeHash = %x", n, got, err, want[:])
		}
		for _, i := range []int64{0, 1 << 61, n - 1, r.Int64N(n)} {
			if i >= n {
				continue
			}
			want, err := tlog.ProveRecord(n, i, indexHashes{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := translog.InclusionProof(nil, uint64(i), uint64(n), nr)
			if err != nil || !slices.Equal(got, FromTlog(want)) {
				t.Fatalf("size %d, leaf %d: InclusionProof: %v", n, i, err)
			}
		}
		for _, m := range []int64{1, 1 << 61, n - 1, 1 + r.Int64N(n)} {
			if m > n {
				continue
			}
			want, err := tlog.ProveTree(n, m, indexHashes{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := translog.ConsistencyProof(nil, uint64(m), uint64(n), nr)
			if err != nil || !slices.Equal(got, FromTlog(want)) {
				t.Fatalf("sizes %d to %d: ConsistencyProof: %v", m, n, err)
			}
		}
	}
	// Nodes past leaf 2^62, stored hash index 2^63 - 1, have none: an
	// error, and no read.
	out := make([][32]byte, 1)
	for _, id := range []translog.NodeID{node(0, 1<<62+1), node(1, 1<<61), node(62, 1), node(63, 0), node(64, 0), node(-1, 0), node(0, math.MaxUint64)} {
		if err := NodeReader(failReader{t}).ReadNodes([]translog.NodeID{id}, out); err == nil {
			t.Errorf("node %v: no error", id)
		}
	}
	for _, id := range []translog.NodeID{node(0, 1<<62), node(0, 1<<62-1), node(62, 0), node(61, 1), node(1, 1<<61-1)} {
		if err := nr.ReadNodes([]translog.NodeID{id}, out); err != nil {
			t.Errorf("node %v: %v", id, err)
		}
	}
}

func node(level int, index uint64) translog.NodeID {
	return translog.NodeID{Level: level, Index: index}
}

type failReader struct{ t *testing.T }

func (f failReader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	f.t.Errorf("ReadHashes(%d)", indexes)
	return nil, errors.New("failReader")
}

// TestFromTile: FromTile converts the tiles of height 8 that tlog parses
// exactly when translog parses the same tile's path, into the tile it
// parses, and Tile converts it back; tile levels 8 and up (tree levels 64
// and up, of no log) were converted into translog tiles whose own paths
// translog.ParseTilePath refuses.
func TestFromTile(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	var paths []string
	for _, l := range []string{"data", "0", "1", "7", "8", "9", "63", "64"} {
		paths = append(paths, "tile/8/"+l+"/000", "tile/8/"+l+"/x001/234.p/5", "tile/4/"+l+"/000")
	}
	for range 20000 {
		tt := tlog.Tile{H: 8, L: r.IntN(12) - 1, N: r.Int64N(int64(1) << r.IntN(63)), W: 1 + r.IntN(256)}
		if r.IntN(8) == 0 {
			tt.H = 1 + r.IntN(10)
			tt.W = 1 + r.IntN(1<<tt.H)
		}
		paths = append(paths, tt.Path())
	}
	converted := 0
	for _, p := range paths {
		tt, err := tlog.ParseTilePath(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := FromTile(tt)
		var want translog.Tile
		var wantErr error = errors.New("not of height 8")
		if tt.H == 8 {
			want, wantErr = translog.ParseTilePath("tile/" + strings.TrimPrefix(p, "tile/8/"))
		}
		if (err == nil) != (wantErr == nil) || got != want {
			t.Fatalf("%s: FromTile = %+v, %v; translog.ParseTilePath: %+v, %v", p, got, err, want, wantErr)
		}
		if err == nil {
			if back := Tile(got); back != tt {
				t.Fatalf("%s: Tile(FromTile) = %+v", p, back)
			}
			converted++
		}
	}
	t.Logf("%d paths, %d converted", len(paths), converted)
}

type visited struct {
	id   compact.NodeID
	hash []byte
}

// TestVisit: Visit hands over the nodes that compact.Range.Append and
// AppendRange hand their visitor, with the same hashes, for ranges that
// begin anywhere and grow in batches, and each node after its children;
// the hashes are the visitor's own. The order differs from compact's, as
// Visit's doc says: level by level, not leaf by leaf.
func TestVisit(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 4))
	ref := &compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
	reordered, nodes := 0, 0
	for it := range 200 {
		begin := r.Uint64N(5000)
		if it%3 == 0 {
			begin = 0
		}
		theirs := ref.NewEmptyRange(begin)
		ours, err := FromCompact(Factory.NewEmptyRange(begin))
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + r.IntN(5) {
			var want, got []visited
			if r.IntN(3) == 0 {
				// A range beside this one, merged in.
				k := uint64(1 + r.IntN(300))
				other := ref.NewEmptyRange(theirs.End())
				for i := range k {
					other.Append(rfc6962.DefaultHasher.HashLeaf([]byte{byte(i)}), nil)
				}
				o, err := FromCompact(other)
				if err != nil {
					t.Fatal(err)
				}
				if err := theirs.AppendRange(other, func(id compact.NodeID, h []byte) { want = append(want, visited{id, h}) }); err != nil {
					t.Fatal(err)
				}
				if err := ours.AppendRange(o, Visit(func(id compact.NodeID, h []byte) { got = append(got, visited{id, h}) })); err != nil {
					t.Fatal(err)
				}
			} else {
				entries := make([][]byte, r.IntN(300))
				for i := range entries {
					entries[i] = fmt.Appendf(nil, "entry %d %d", it, r.Uint64())
					theirs.Append(rfc6962.DefaultHasher.HashLeaf(entries[i]), func(id compact.NodeID, h []byte) { want = append(want, visited{id, h}) })
				}
				ours.AppendEntries(entries, Visit(func(id compact.NodeID, h []byte) { got = append(got, visited{id, h}) }))
			}
			// A child visited in the same batch comes first.
			at := map[compact.NodeID]int{}
			for i, v := range got {
				at[v.id] = i
			}
			for i, v := range got {
				if v.id.Level == 0 {
					continue
				}
				for _, c := range []compact.NodeID{compact.NewNodeID(v.id.Level-1, 2*v.id.Index), compact.NewNodeID(v.id.Level-1, 2*v.id.Index+1)} {
					if j, ok := at[c]; ok && j > i {
						t.Fatalf("node %+v before its child %+v", v.id, c)
					}
				}
			}
			if !slices.EqualFunc(got, want, func(a, b visited) bool { return a.id == b.id && bytes.Equal(a.hash, b.hash) }) {
				byID := func(a, b visited) int {
					return cmp.Or(cmp.Compare(a.id.Level, b.id.Level), cmp.Compare(a.id.Index, b.id.Index))
				}
				slices.SortFunc(got, byID)
				slices.SortFunc(want, byID)
				if !slices.EqualFunc(got, want, func(a, b visited) bool { return a.id == b.id && bytes.Equal(a.hash, b.hash) }) {
					t.Fatalf("range from %d: visited %d nodes, compact %d, or other ones", begin, len(got), len(want))
				}
				reordered++
			}
			// The hashes are the visitor's: changing one changes no other,
			// nor the range.
			for _, v := range got {
				v.hash[0] ^= 0xff
			}
			if cr, err := CompactRange(ref, ours); err != nil || !cr.Equal(theirs) {
				t.Fatalf("range from %d: not compact's after the visitor changed its hashes: %v", begin, err)
			}
			nodes += len(got)
		}
	}
	if reordered == 0 {
		t.Error("no batch visited in another order than compact's")
	}
	t.Logf("%d nodes; %d batches in another order than compact's", nodes, reordered)
}

// TestPanics: the programmer errors the adapter's conversions document,
// each a panic with sha256x's prefix, not a wrapped index or a nil
// dereference.
func TestPanics(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Tile of an index past int64", func() { Tile(translog.Tile{L: 0, N: 1 << 63, W: 256}) }},
		{"CompactID of level -1", func() { CompactID(translog.NodeID{Level: -1}) }},
		{"CompactID of level 64", func() { CompactID(translog.NodeID{Level: 64}) }},
		{"FromCompact of nil", func() { FromCompact(nil) }},
	} {
		func() {
			defer func() {
				if e, ok := recover().(string); !ok || !strings.HasPrefix(e, "sha256x: logadapt: ") {
					t.Errorf("%s: panicked with %v, want a sha256x: logadapt: message", c.name, e)
				}
			}()
			c.f()
		}()
	}
	if got := Tile(translog.Tile{L: 0, N: 1<<56 - 1, W: 255}); got.N != 1<<56-1 {
		t.Errorf("Tile of the largest log's last tile: N %d", got.N)
	}
}
