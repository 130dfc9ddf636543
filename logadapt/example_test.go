package logadapt_test

import (
	"fmt"

	"github.com/sha256x/sha256x/logadapt"
	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"golang.org/x/mod/sumdb/tlog"
)

// Example_tlog: a log kept in tlog's stored-hash order (as sumdb keeps
// it) grows in batches with translog; tlog proves and checks records from
// the same storage.
func Example_tlog() {
	var lg translog.Range
	var store translog.FlatStore // Hashes[i] is tlog's stored hash i
	batch := make([][]byte, 1000)
	for i := range batch {
		batch[i] = fmt.Appendf(nil, "go.sum line %d", i)
	}
	lg.AppendEntries(batch, store.Visit)

	hr := logadapt.HashReader(&store)
	th, _ := tlog.TreeHash(1000, hr)
	root, _ := lg.Root()
	p, _ := tlog.ProveRecord(1000, 123, hr)
	fmt.Println(th == root, tlog.CheckRecord(p, 1000, th, 123, tlog.RecordHash(batch[123])) == nil)
	// Output: true true
}

// Example_transparencyDev: a log whose storage is keyed by
// transparency-dev's node IDs takes translog's batches through a
// compact.VisitFn, restores its stored compact range, and checks proofs
// with transparency-dev's verifier.
func Example_transparencyDev() {
	nodes := map[compact.NodeID][]byte{} // the log's storage
	visit := logadapt.Visit(func(id compact.NodeID, hash []byte) { nodes[id] = hash })

	cr := logadapt.Factory.NewEmptyRange(0) // a range as the log stored it
	lg, _ := logadapt.FromCompact(cr)
	batch := make([][]byte, 1000)
	for i := range batch {
		batch[i] = fmt.Appendf(nil, "entry %d", i)
	}
	lg.AppendEntries(batch, visit)
	root, _ := lg.Root()

	plan, _ := proof.Inclusion(123, 1000)
	hashes := make([][]byte, len(plan.IDs))
	for i, id := range plan.IDs {
		hashes[i] = nodes[id]
	}
	p, _ := plan.Rehash(hashes, logadapt.Hasher{}.HashChildren)
	leaf := logadapt.Hasher{}.HashLeaf(batch[123])
	fmt.Println(len(nodes), proof.VerifyInclusion(logadapt.Hasher{}, 123, 1000, leaf, p, root[:]) == nil)
	// Output: 1994 true
}
