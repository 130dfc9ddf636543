package interop

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/wire"
	"github.com/sha256x/sha256x/bitcoin"
)

// The txids and merkle root of a serialized block of 4,000 transactions
// (two thirds segwit, random scripts and witness stacks: -v logs its
// size), ours
// against btcd's: from the bytes (btcd deserializes, then hashes each
// transaction and the tree), and from btcd's deserialized block (hashing
// only; btcd serializes each transaction again for its txid).
//
//	go test -run '^$' -bench 'BitcoinBlock' -cpu 1 -benchtime 2s -count 5 .
func BenchmarkBitcoinBlock(b *testing.B) {
	r := rand.New(rand.NewPCG(41, 9))
	blk, raw := randomBlock(r, 4000, 0.67)
	b.Logf("%d transactions, %d bytes", len(blk.Transactions()), len(raw))
	b.Run("sha256x", func(b *testing.B) {
		var h bitcoin.Hasher
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			ids, err := h.TxIDs(raw)
			if err != nil {
				b.Fatal(err)
			}
			_ = bitcoin.MerkleRoot(ids)
		}
	})
	b.Run("btcd-bytes", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			blk, err := btcutil.NewBlockFromBytes(raw)
			if err != nil {
				b.Fatal(err)
			}
			_ = blockchain.CalcMerkleRoot(blk.Transactions(), false)
		}
	})
	b.Run("btcd-parsed", func(b *testing.B) {
		mb := blk.MsgBlock()
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			// A fresh btcutil.Block: its transactions cache their hashes.
			_ = blockchain.CalcMerkleRoot(btcutil.NewBlock(mb).Transactions(), false)
		}
	})
}

// The block hashes of mainnet headers 0 to 14,131 (btcd's test data), ours
// in one batch against btcd's BlockHash of each.
//
//	go test -run '^$' -bench 'BitcoinHeaders' -cpu 1 -benchtime 2s -count 5 .
func BenchmarkBitcoinHeaders(b *testing.B) {
	blocks := framedBlocks(b, filepath.Join(btcdDir(b), "blockchain", "testdata", "blk_0_to_14131.dat"), -1)
	headers := make([][]byte, len(blocks))
	hds := make([]wire.BlockHeader, len(blocks))
	for i, blk := range blocks {
		headers[i] = blk[:bitcoin.HeaderSize]
		if err := hds[i].Deserialize(bytes.NewReader(blk)); err != nil {
			b.Fatal(err)
		}
	}
	out := make([][32]byte, len(headers))
	b.Run("sha256x", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := bitcoin.HeaderHashes(out, headers); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("btcd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range hds {
				out[i] = hds[i].BlockHash()
			}
		}
	})
}
