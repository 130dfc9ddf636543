package interop

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/chaincfg/chainhash"
	"github.com/btcsuite/btcd/wire"
	"github.com/sha256x/sha256x/bitcoin"
)

// stageSize is bitcoin's stageSize (256 KiB): a segwit transaction whose
// non-witness serialization is longer is hashed alone as a stream of its
// pieces, shorter ones are staged into a buffer of this size.
const stageSize = 256 << 10

// segwitTxOfSize is a segwit transaction of one input and one output whose
// stripped serialization (what its txid hashes) is exactly size bytes (at
// least 100), grown by its output's script.
func segwitTxOfSize(r *rand.Rand, size int) *wire.MsgTx {
	tx := wire.NewMsgTx(int32(r.Uint32()))
	tx.LockTime = r.Uint32()
	var op wire.OutPoint
	op.Index = r.Uint32()
	op.Hash[r.IntN(32)] = byte(r.Uint32())
	tx.AddTxIn(wire.NewTxIn(&op, nil, wire.TxWitness{make([]byte, 72), make([]byte, 33)}))
	tx.AddTxOut(wire.NewTxOut(1, nil))
	out := tx.TxOut[0]
	for range 5 {
		d := size - tx.SerializeSizeStripped()
		if d == 0 {
			return tx
		}
		n := max(0, len(out.PkScript)+d)
		script := make([]byte, n)
		for i := range script {
			script[i] = byte(r.Uint32())
		}
		out.PkScript = script
	}
	panic("no transaction of that size")
}

// TestBitcoinStagedAndStreamed: blocks whose segwit transactions' txids
// are hashed from the staging buffer filled to the byte, flushed early, or
// (longer than it) streamed in three pieces, hash as btcd hashes them:
// txids, wtxids, both roots and the commitment (checkBlock). The random
// blocks' transactions are all far shorter than the buffer.
func TestBitcoinStagedAndStreamed(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 20))
	var h bitcoin.Hasher
	for _, sizes := range [][]int{
		{stageSize + 1},
		{stageSize},
		{stageSize - 1, 1000},
		{3*stageSize + 17, 500, stageSize + 1000, 300},
		{stageSize / 2, stageSize / 2, 200, stageSize},
		{stageSize / 2, stageSize/2 - 100}, // the coinbase staged first (112 bytes): 12 past the end
		{1000, stageSize - 1000, stageSize - 999, stageSize + 1, 250},
	} {
		var mb wire.MsgBlock
		mb.Header.Version = 0x20000000
		cb := wire.NewMsgTx(2)
		cb.AddTxIn(wire.NewTxIn(&wire.OutPoint{Index: 0xffffffff}, []byte{3, 1, 2, 3}, nil))
		cb.AddTxOut(wire.NewTxOut(625000000, []byte{0x51}))
		mb.AddTransaction(cb)
		for _, n := range sizes {
			mb.AddTransaction(segwitTxOfSize(r, n))
			mb.AddTransaction(randomTx(r, false))
		}
		var reserved [32]byte
		reserved[0] = byte(len(sizes))
		cb.TxIn[0].Witness = wire.TxWitness{reserved[:]}
		wr := blockchain.CalcMerkleRoot(btcutil.NewBlock(&mb).Transactions(), true)
		c := chainhash.DoubleHashB(append(wr[:], reserved[:]...))
		cb.AddTxOut(wire.NewTxOut(0, append([]byte{0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed}, c...)))
		mb.Header.MerkleRoot = blockchain.CalcMerkleRoot(btcutil.NewBlock(&mb).Transactions(), false)
		var buf bytes.Buffer
		if err := mb.Serialize(&buf); err != nil {
			t.Fatal(err)
		}
		checkBlock(t, &h, "staged", buf.Bytes(), true)
		// TxIDs alone (no Block before it with the same Hasher state).
		ids, err := new(bitcoin.Hasher).TxIDs(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for i, tx := range mb.Transactions {
			if ids[i] != [32]byte(tx.TxHash()) {
				t.Fatalf("sizes %v: TxIDs %d differs from btcd's", sizes, i)
			}
		}
	}
}
