package translog_test

import (
	"errors"
	"fmt"

	"github.com/sha256x/sha256x/merkle/translog"
)

// A checkpoint is what a log publishes (and, in a real log, signs): its
// size and root.
type checkpoint struct {
	size uint64
	root [32]byte
}

// Example is a log and a monitor. The log appends entries in batches of
// 1000, stores every node, publishes a checkpoint after each batch, and
// serves consistency and inclusion proofs as bytes. The monitor trusts the
// first checkpoint it saw, and takes each later one only with a proof that
// it extends the last; a client checks that its entry is in the log.
func Example() {
	var lg translog.Range
	var store translog.NodeStore // the log's storage: every node
	var published []checkpoint
	for b := range 4 {
		batch := make([][]byte, 1000)
		for i := range batch {
			batch[i] = fmt.Appendf(nil, "entry %d", 1000*b+i)
		}
		lg.AppendEntries(batch, store.Visit)
		root, _ := lg.Root()
		published = append(published, checkpoint{lg.End(), root})
	}

	// The log's proof server: proofs as bytes, from stored nodes, for any
	// size it has published.
	serveConsistency := func(m, n uint64) []byte {
		p, err := translog.ConsistencyProof(nil, m, n, &store)
		if err != nil {
			panic(err)
		}
		return translog.AppendProof(nil, p)
	}
	serveInclusion := func(index, size uint64) []byte {
		p, err := translog.InclusionProof(nil, index, size, &store)
		if err != nil {
			panic(err)
		}
		return translog.AppendProof(nil, p)
	}

	// The monitor.
	trusted := published[0]
	for _, cp := range published[1:] {
		p, err := translog.ParseProof(nil, serveConsistency(trusted.size, cp.size))
		if err == nil {
			err = translog.VerifyConsistency(trusted.size, cp.size, trusted.root, cp.root, p)
		}
		fmt.Printf("size %d extends size %d (%d hashes): %v\n", cp.size, trusted.size, len(p), err == nil)
		if err == nil {
			trusted = cp
		}
	}
	// A forged checkpoint: its root is not the log's at that size.
	forged := checkpoint{3500, published[2].root}
	p, _ := translog.ParseProof(nil, serveConsistency(trusted.size-1000, forged.size))
	err := translog.VerifyConsistency(trusted.size-1000, forged.size, published[2].root, forged.root, p)
	fmt.Println("forged size 3500:", errors.Is(err, translog.ErrMismatch))

	// A client: is "entry 1234" in the log the monitor trusts?
	p, _ = translog.ParseProof(nil, serveInclusion(1234, trusted.size))
	leaf := translog.LeafHash([]byte("entry 1234"))
	fmt.Println("entry 1234:", translog.VerifyInclusion(1234, trusted.size, leaf, p, trusted.root) == nil)
	fmt.Println("entry 1234 as leaf 1235:", translog.VerifyInclusion(1235, trusted.size, leaf, p, trusted.root) == nil)
	// Output:
	// size 2000 extends size 1000 (9 hashes): true
	// size 3000 extends size 2000 (9 hashes): true
	// size 4000 extends size 3000 (10 hashes): true
	// forged size 3500: true
	// entry 1234: true
	// entry 1234 as leaf 1235: false
}

// ExampleTileLog grows a log that publishes C2SP tlog-tiles: each Append
// returns the tiles to write, full and partial.
func ExampleTileLog() {
	var lg translog.TileLog
	for _, k := range []int{300, 100, 65536 - 400} {
		batch := make([][]byte, k)
		for i := range batch {
			batch[i] = fmt.Appendf(nil, "entry %d", lg.Size()+uint64(i))
		}
		tiles := lg.Append(batch, nil)
		fmt.Printf("size %d:", lg.Size())
		if len(tiles) > 4 {
			fmt.Printf(" %d tiles, the last %s %s", len(tiles), tiles[len(tiles)-2].Path(), tiles[len(tiles)-1].Path())
		} else {
			for _, t := range tiles {
				fmt.Printf(" %s (%d bytes)", t.Path(), len(t.Data))
			}
		}
		fmt.Println()
	}
	// A server starting again needs only the partial tiles of the edge.
	again, _ := translog.NewTileLog(lg.Size(), lg.Edge())
	fmt.Println(again.Root() == lg.Root())
	// Output:
	// size 300: tile/0/000 (8192 bytes) tile/0/001.p/44 (1408 bytes) tile/1/000.p/1 (32 bytes)
	// size 400: tile/0/001.p/144 (4608 bytes)
	// size 65536: 257 tiles, the last tile/1/000 tile/2/000.p/1
	// true
}

// ExampleRange_AppendRange hashes two halves of a batch apart (on two
// goroutines, say) and merges them.
func ExampleRange_AppendRange() {
	leaves := make([][32]byte, 1000)
	for i := range leaves {
		leaves[i] = translog.LeafHash(fmt.Appendf(nil, "entry %d", i))
	}
	var left translog.Range
	right, _ := translog.NewRange(600, 600, nil)
	left.Append(leaves[:600], nil)
	right.Append(leaves[600:], nil)
	if err := left.AppendRange(right, nil); err != nil {
		panic(err)
	}
	var whole translog.Range
	whole.Append(leaves, nil)
	a, _ := left.Root()
	b, _ := whole.Root()
	fmt.Println(left.End(), a == b)
	// Output: 1000 true
}
