package logadapt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sha256x/sha256x/merkle/translog"
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
