package interop

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/chaincfg/chainhash"
	"github.com/btcsuite/btcd/wire"
	"github.com/sha256x/sha256x/bitcoin"
	"github.com/sha256x/sha256x/merkle"
)

// TestBitcoinParseTxLoc: Parse's places of the transactions are btcd's
// TxLoc, btcd deserializes each of our slices to the transaction it
// parsed, and the txid's parts (the non-witness serialization) are btcd's
// stripped serialization; TxIDs and WTxIDs are Block's.
func TestBitcoinParseTxLoc(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 10))
	blocks := mainnetBlocks(t)
	for _, n := range []int{1, 2, 3, 7, 64, 300} {
		for _, share := range []float64{0, 0.5, 1} {
			_, raw := randomBlock(r, n, share)
			blocks["random"+string(rune('a'+len(blocks)%26))+string(rune('0'+n%10))] = raw
		}
	}
	var h bitcoin.Hasher
	var txs []bitcoin.Tx
	for name, raw := range blocks {
		blk, err := btcutil.NewBlockFromBytes(raw)
		if err != nil {
			t.Fatal(err)
		}
		locs, err := blk.TxLoc()
		if err != nil {
			t.Fatal(err)
		}
		txs, err = bitcoin.Parse(txs[:0], raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(txs) != len(locs) {
			t.Fatalf("%s: %d transactions, btcd %d", name, len(txs), len(locs))
		}
		for i, tx := range txs {
			bt := blk.Transactions()[i]
			if tx.Start != locs[i].TxStart || tx.End != locs[i].TxStart+locs[i].TxLen {
				t.Fatalf("%s: tx %d at [%d, %d), btcd's TxLoc [%d, +%d)", name, i, tx.Start, tx.End, locs[i].TxStart, locs[i].TxLen)
			}
			var mt wire.MsgTx
			if err := mt.Deserialize(bytes.NewReader(raw[tx.Start:tx.End])); err != nil {
				t.Fatalf("%s: tx %d: btcd cannot read our slice: %v", name, i, err)
			}
			if mt.TxHash() != *bt.Hash() || mt.WitnessHash() != *bt.WitnessHash() {
				t.Fatalf("%s: tx %d: btcd reads our slice as another transaction", name, i)
			}
			if (tx.Witness != 0) != bt.HasWitness() {
				t.Fatalf("%s: tx %d: witness at %d, btcd's HasWitness %v", name, i, tx.Witness, bt.HasWitness())
			}
			if tx.NonWitnessLen() != bt.MsgTx().SerializeSizeStripped() {
				t.Fatalf("%s: tx %d: NonWitnessLen %d, btcd's stripped size %d", name, i, tx.NonWitnessLen(), bt.MsgTx().SerializeSizeStripped())
			}
			if tx.Witness != 0 {
				var stripped bytes.Buffer
				bt.MsgTx().SerializeNoWitness(&stripped)
				parts := append(append(append([]byte(nil), raw[tx.Start:tx.Start+4]...), raw[tx.Start+6:tx.Witness]...), raw[tx.End-4:tx.End]...)
				if !bytes.Equal(parts, stripped.Bytes()) {
					t.Fatalf("%s: tx %d: the txid's parts differ from btcd's stripped serialization", name, i)
				}
			}
		}
		s, err := h.Block(raw)
		if err != nil {
			t.Fatal(err)
		}
		ids, wids := append([][32]byte(nil), s.TxIDs...), append([][32]byte(nil), s.WTxIDs...)
		got, err := h.TxIDs(raw)
		if err != nil || len(got) != len(ids) {
			t.Fatalf("%s: TxIDs: %v", name, err)
		}
		for i := range got {
			if got[i] != ids[i] {
				t.Fatalf("%s: TxIDs %d differs from Block's", name, i)
			}
		}
		got, err = h.WTxIDs(raw)
		if err != nil || len(got) != len(wids) {
			t.Fatalf("%s: WTxIDs: %v", name, err)
		}
		for i := range got {
			if got[i] != wids[i] {
				t.Fatalf("%s: WTxIDs %d differs from Block's", name, i)
			}
		}
	}
	if _, err := bitcoin.Parse(nil, make([]byte, 79)); !errors.Is(err, bitcoin.ErrMalformed) {
		t.Fatalf("a 79-byte block: %v", err)
	}
}

// btcdPath is the proof of leaf i read off btcd's BuildMerkleTreeStore:
// each level's sibling, the node itself where the sibling is missing (an
// odd last node, paired with itself).
func btcdPath(store []*chainhash.Hash, i int) [][32]byte {
	var path [][32]byte
	width := (len(store) + 1) / 2
	off := 0
	for width > 1 {
		s := store[off+(i^1)]
		if s == nil {
			s = store[off+i]
		}
		path = append(path, [32]byte(*s))
		off += width
		width /= 2
		i /= 2
	}
	return path
}

// btcdVerify walks a path from a txid with btcd's hashing: the reference
// for merkle.Bitcoin proofs.
func btcdVerify(root, leaf [32]byte, i int, path [][32]byte) bool {
	h := chainhash.Hash(leaf)
	for _, s := range path {
		sib := chainhash.Hash(s)
		if i&1 == 0 {
			h = chainhash.DoubleHashH(append(h[:], sib[:]...))
		} else {
			h = chainhash.DoubleHashH(append(sib[:], h[:]...))
		}
		i >>= 1
	}
	return i == 0 && h == chainhash.Hash(root)
}

// TestBitcoinTreeStore: merkle.Bitcoin's levels are btcd's
// BuildMerkleTreeStore, txids and wtxids; our proofs verify walked with
// btcd's hashing, proofs read off btcd's store verify with VerifyNode,
// and tampered ones fail on both sides.
func TestBitcoinTreeStore(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 11))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 9, 16, 17, 31, 33, 100, 255, 257, 1000} {
		blk, _ := randomBlock(r, n, 0.5)
		txs := blk.Transactions()
		for _, witness := range []bool{false, true} {
			store := blockchain.BuildMerkleTreeStore(txs, witness)
			leaves := make([][32]byte, n)
			for i := range leaves {
				leaves[i] = [32]byte(*store[i])
			}
			tree := merkle.Bitcoin.BuildNodes(leaves)
			root := tree.Root()
			if root != [32]byte(*store[len(store)-1]) {
				t.Fatalf("%d txs (witness %v): root differs from btcd's", n, witness)
			}
			off, width := 0, (len(store)+1)/2
			for d, lv := range tree.Levels() {
				for k := range width {
					switch {
					case k < len(lv) && (store[off+k] == nil || lv[k] != [32]byte(*store[off+k])):
						t.Fatalf("%d txs: level %d node %d differs from btcd's", n, d, k)
					case k >= len(lv) && store[off+k] != nil:
						t.Fatalf("%d txs: level %d has %d nodes, btcd's more", n, d, len(lv))
					}
				}
				off += width
				width = max(width/2, 1)
			}
			for range 20 {
				i := r.IntN(n)
				p := tree.Proof(i)
				if !btcdVerify(root, leaves[i], i, p.Path) {
					t.Fatalf("%d txs: our proof of %d fails btcd's hashing", n, i)
				}
				theirs := btcdPath(store, i)
				if len(theirs) != len(p.Path) {
					t.Fatalf("%d txs, leaf %d: %d hashes, btcd's store %d", n, i, len(p.Path), len(theirs))
				}
				for k := range theirs {
					if theirs[k] != p.Path[k] {
						t.Fatalf("%d txs, leaf %d: hash %d differs from btcd's store", n, i, k)
					}
				}
				if err := merkle.Bitcoin.VerifyNode(root, leaves[i], merkle.Proof{Index: i, Size: n, Path: theirs}); err != nil {
					t.Fatalf("%d txs, leaf %d: we reject the proof of btcd's store: %v", n, i, err)
				}
				if len(theirs) > 0 {
					bad := append([][32]byte(nil), theirs...)
					bad[r.IntN(len(bad))][r.IntN(32)] ^= 1 << r.IntN(8)
					if err := merkle.Bitcoin.VerifyNode(root, leaves[i], merkle.Proof{Index: i, Size: n, Path: bad}); !errors.Is(err, merkle.ErrMismatch) || btcdVerify(root, leaves[i], i, bad) {
						t.Fatalf("%d txs, leaf %d: a flipped hash: ours %v", n, i, err)
					}
				}
				if n > 1 {
					j := (i + 1 + r.IntN(n-1)) % n
					if leaves[j] != leaves[i] {
						if err := merkle.Bitcoin.VerifyNode(root, leaves[j], merkle.Proof{Index: i, Size: n, Path: theirs}); err == nil || btcdVerify(root, leaves[j], i, theirs) {
							t.Fatalf("%d txs: leaf %d with leaf %d's proof verifies", n, j, i)
						}
					}
				}
			}
		}
	}
}

// TestBitcoinMalformedReverse: the other way to TestBitcoinMalformed: a
// block with bytes flipped that btcd reads to its last byte, we read too,
// with btcd's transactions in btcd's places.
func TestBitcoinMalformedReverse(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 12))
	var h bitcoin.Hasher
	both := 0
	for _, n := range []int{1, 2, 5, 20} {
		_, raw := randomBlock(r, n, 0.5)
		b := bytes.Clone(raw)
		for range 3000 {
			copy(b, raw)
			for range 1 + r.IntN(2) {
				b[80+r.IntN(len(b)-80)] ^= byte(1 + r.IntN(255))
			}
			rd := bytes.NewReader(b)
			var mb wire.MsgBlock
			if mb.Deserialize(rd) != nil || rd.Len() != 0 {
				continue
			}
			both++
			if _, err := h.Block(b); err != nil {
				t.Fatalf("a block btcd reads to its end: %v", err)
			}
			blk := btcutil.NewBlock(&mb)
			locs, err := blk.TxLoc()
			if err != nil {
				continue // btcd's TxLoc re-reads by its own limits
			}
			txs, err := bitcoin.Parse(nil, b)
			if err != nil || len(txs) != len(locs) {
				t.Fatalf("Parse: %d transactions (%v), btcd %d", len(txs), err, len(locs))
			}
			for i := range txs {
				if txs[i].Start != locs[i].TxStart || txs[i].End != locs[i].TxStart+locs[i].TxLen {
					t.Fatalf("tx %d: [%d, %d), btcd [%d, +%d)", i, txs[i].Start, txs[i].End, locs[i].TxStart, locs[i].TxLen)
				}
			}
		}
	}
	t.Logf("%d flipped blocks btcd reads", both)
}

// TestBitcoinHostileBlocks: hand-made blocks of one transaction that sit
// on a rule of the serialization (the segwit marker and flag without
// witness, an unknown flag, CompactSizes truncated, non-canonical or of
// 2^64 - 1): we read each exactly when btcd reads it to its last byte.
func TestBitcoinHostileBlocks(t *testing.T) {
	in := append(make([]byte, 36), 0, 0, 0, 0, 0) // outpoint, empty script, sequence
	out := make([]byte, 9)                        // value, empty script
	ver, lock := []byte{2, 0, 0, 0}, []byte{0, 0, 0, 0}
	seg := []byte{0, 1} // the marker and flag
	for _, c := range []struct {
		name string
		tx   []byte
	}{
		{"legacy", slices.Concat(ver, []byte{1}, in, []byte{1}, out, lock)},
		{"segwit, one empty item", slices.Concat(ver, seg, []byte{1}, in, []byte{1}, out, []byte{1, 0}, lock)},
		{"segwit, no items", slices.Concat(ver, seg, []byte{1}, in, []byte{1}, out, []byte{0}, lock)},
		{"segwit, two inputs, no items", slices.Concat(ver, seg, []byte{2}, in, in, []byte{1}, out, []byte{0, 0}, lock)},
		{"segwit, two inputs, the second with an item", slices.Concat(ver, seg, []byte{2}, in, in, []byte{1}, out, []byte{0, 1, 1, 7}, lock)},
		{"segwit, no inputs", slices.Concat(ver, seg, []byte{0, 0}, lock)},
		{"segwit, no inputs, an output", slices.Concat(ver, seg, []byte{0, 1}, out, lock)},
		{"flag 2", slices.Concat(ver, []byte{0, 2, 1}, in, []byte{1}, out, []byte{1, 0}, lock)},
		{"no inputs, no flag", slices.Concat(ver, []byte{0, 0}, lock)},
		{"a non-canonical output count", slices.Concat(ver, []byte{1}, in, []byte{0xfd, 1, 0}, out, lock)},
		{"an output count of 2^64 - 1", slices.Concat(ver, []byte{1}, in, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, out, lock)},
		{"a witness item count of 2^64 - 1", slices.Concat(ver, seg, []byte{1}, in, []byte{1}, out, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, lock)},
		{"a truncated script length", slices.Concat(ver, []byte{1}, in[:36], []byte{0xfe, 1})},
	} {
		b := slices.Concat(make([]byte, 80), []byte{1}, c.tx)
		_, err := bitcoin.Parse(nil, b)
		rd := bytes.NewReader(b)
		var mb wire.MsgBlock
		berr := mb.Deserialize(rd)
		if berr == nil && rd.Len() != 0 {
			berr = errors.New("bytes past the block")
		}
		if (err == nil) != (berr == nil) {
			t.Errorf("%s: Parse %v, btcd %v", c.name, err, berr)
		}
		if err != nil && !errors.Is(err, bitcoin.ErrMalformed) {
			t.Errorf("%s: %v, not ErrMalformed", c.name, err)
		}
	}
}
