package interop

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/chaincfg/chainhash"
	"github.com/btcsuite/btcd/wire"
	"github.com/sha256x/sha256x/bitcoin"
)

// btcdDir is where the module cache holds btcd, whose test data has mainnet
// blocks.
func btcdDir(t testing.TB) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/btcsuite/btcd").Output()
	if err != nil {
		t.Fatalf("go list btcd: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// mainnetBlocks returns the serialized mainnet blocks of btcd's test data:
// two recent segwit blocks (wire/testdata), block 277,647 and blocks 0-4
// (blockchain/testdata, framed by network and length), by name.
func mainnetBlocks(t testing.TB) map[string][]byte {
	dir := btcdDir(t)
	blocks := map[string][]byte{}
	raw, _ := filepath.Glob(filepath.Join(dir, "wire", "testdata", "block-*.blk"))
	for _, f := range raw {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks[filepath.Base(f)] = b
	}
	for _, name := range []string{"277647.dat.bz2", "blk_0_to_4.dat.bz2"} {
		for i, b := range framedBlocks(t, filepath.Join(dir, "blockchain", "testdata", name), -1) {
			blocks[name+"#"+string(rune('0'+i%10))] = b
		}
	}
	if len(blocks) < 4 {
		t.Fatalf("found %d blocks in btcd's test data", len(blocks))
	}
	return blocks
}

// framedBlocks reads the blocks of a file of (network, length, block)
// records, as btcd's blockchain tests do, up to max of them (-1: all).
func framedBlocks(t testing.TB, name string, max int) [][]byte {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".bz2") {
		r = bzip2.NewReader(f)
	}
	var blocks [][]byte
	for max < 0 || len(blocks) < max {
		var hd [8]byte
		if _, err := io.ReadFull(r, hd[:]); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if binary.LittleEndian.Uint32(hd[:]) != uint32(wire.MainNet) {
			break
		}
		b := make([]byte, binary.LittleEndian.Uint32(hd[4:]))
		if _, err := io.ReadFull(r, b); err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// checkBlock compares every hash of a serialized block with btcd's.
//
// A valid block (valid) must also match its header's merkle root and its
// coinbase's commitment; a block of flipped bytes need only hash as btcd
// hashes it.
func checkBlock(t *testing.T, h *bitcoin.Hasher, name string, raw []byte, valid bool) {
	t.Helper()
	blk, err := btcutil.NewBlockFromBytes(raw)
	if err != nil {
		t.Fatalf("%s: btcd: %v", name, err)
	}
	s, err := h.Block(raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	txs := blk.Transactions()
	if len(s.TxIDs) != len(txs) || len(s.WTxIDs) != len(txs) {
		t.Fatalf("%s: %d txids, %d wtxids, btcd %d transactions", name, len(s.TxIDs), len(s.WTxIDs), len(txs))
	}
	if s.Hash != [32]byte(*blk.Hash()) {
		t.Errorf("%s: block hash differs from btcd's", name)
	}
	hasWitness := false
	for i, tx := range txs {
		if s.TxIDs[i] != [32]byte(*tx.Hash()) {
			t.Fatalf("%s: txid %d differs from btcd's", name, i)
		}
		if i > 0 && s.WTxIDs[i] != [32]byte(*tx.WitnessHash()) {
			t.Fatalf("%s: wtxid %d differs from btcd's", name, i)
		}
		hasWitness = hasWitness || tx.HasWitness()
	}
	if root := blockchain.CalcMerkleRoot(txs, false); s.MerkleRoot != [32]byte(root) {
		t.Errorf("%s: merkle root differs from btcd's", name)
	}
	if valid && s.MerkleRoot != [32]byte(blk.MsgBlock().Header.MerkleRoot) {
		t.Errorf("%s: merkle root differs from the header's", name)
	}
	if root := blockchain.CalcMerkleRoot(txs, true); s.WitnessRoot != [32]byte(root) {
		t.Errorf("%s: witness root differs from btcd's", name)
	}
	if bitcoin.MerkleRoot(s.TxIDs) != s.MerkleRoot || bitcoin.WitnessRoot(s.WTxIDs) != s.WitnessRoot {
		t.Errorf("%s: MerkleRoot or WitnessRoot differs from Block's", name)
	}
	c, ok := blockchain.ExtractWitnessCommitment(txs[0])
	if ok != s.HasCommitment || ok && !bytes.Equal(c, s.CoinbaseCommitment[:]) {
		t.Errorf("%s: coinbase commitment (%v) differs from btcd's (%v)", name, s.HasCommitment, ok)
	}
	if valid && hasWitness {
		if err := blockchain.ValidateWitnessCommitment(blk); err != nil {
			t.Fatalf("%s: btcd rejects the block's commitment: %v", name, err)
		}
		if !s.HasReserved || !s.HasCommitment || s.Commitment != s.CoinbaseCommitment {
			t.Errorf("%s: our commitment (%v) does not match the coinbase's (%v)", name, s.HasReserved, s.HasCommitment)
		}
		// btcd's way: SHA-256d(witness root || reserved value).
		wr := blockchain.CalcMerkleRoot(txs, true)
		want := chainhash.DoubleHashB(append(wr[:], txs[0].MsgTx().TxIn[0].Witness[0]...))
		if !bytes.Equal(want, s.Commitment[:]) {
			t.Errorf("%s: commitment differs from btcd's computation", name)
		}
	}
	if testing.Verbose() && name != "random" && name != "flipped" {
		t.Logf("%s: %d transactions, witness %v", name, len(txs), hasWitness)
	}
}

// TestBitcoinMainnetBlocks: btcd's mainnet test blocks, every hash ours
// against btcd's.
func TestBitcoinMainnetBlocks(t *testing.T) {
	var h bitcoin.Hasher
	for name, raw := range mainnetBlocks(t) {
		checkBlock(t, &h, name, raw, true)
	}
}

// TestBitcoinHeaders hashes the headers of mainnet blocks 0 to 14,131 in
// one batch, against btcd's block hashes.
func TestBitcoinHeaders(t *testing.T) {
	blocks := framedBlocks(t, filepath.Join(btcdDir(t), "blockchain", "testdata", "blk_0_to_14131.dat"), -1)
	headers := make([][]byte, len(blocks))
	for i, b := range blocks {
		headers[i] = b[:80]
	}
	out := make([][32]byte, len(headers))
	if err := bitcoin.HeaderHashes(out, headers); err != nil {
		t.Fatal(err)
	}
	var prev [32]byte
	for i, b := range blocks {
		var hd wire.BlockHeader
		if err := hd.Deserialize(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if out[i] != [32]byte(hd.BlockHash()) {
			t.Fatalf("header %d: hash differs from btcd's", i)
		}
		if i > 0 && [32]byte(hd.PrevBlock) != prev {
			t.Fatalf("header %d: not chained to %d", i, i-1)
		}
		prev = out[i]
	}
	t.Logf("%d headers", len(blocks))
	if err := bitcoin.HeaderHashes(out, [][]byte{make([]byte, 79)}); err == nil {
		t.Error("a 79-byte header: no error")
	}
}

// randomTx is a transaction with random inputs, outputs and (if witness)
// witness stacks, sizes from a few bytes to past a block.
func randomTx(r *rand.Rand, witness bool) *wire.MsgTx {
	tx := wire.NewMsgTx(int32(r.Uint32()))
	tx.LockTime = r.Uint32()
	bytesOf := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	size := func() int {
		if r.IntN(50) == 0 {
			return 200 + r.IntN(600)
		}
		return r.IntN(110)
	}
	nin := 1 + r.IntN(4)
	for range nin {
		var op wire.OutPoint
		copy(op.Hash[:], bytesOf(32))
		op.Index = r.Uint32()
		in := wire.NewTxIn(&op, bytesOf(size()), nil)
		in.Sequence = r.Uint32()
		if witness {
			for range r.IntN(4) {
				in.Witness = append(in.Witness, bytesOf(size()))
			}
		}
		tx.AddTxIn(in)
	}
	if witness && !tx.HasWitness() {
		tx.TxIn[0].Witness = wire.TxWitness{bytesOf(72), bytesOf(33)}
	}
	for range r.IntN(5) {
		tx.AddTxOut(wire.NewTxOut(int64(r.Uint64()>>1), bytesOf(size())))
	}
	return tx
}

// randomBlock is a block of n transactions, a share of them segwit, whose
// coinbase commits to its witness root as btcd computes it (when any
// transaction has a witness), serialized by btcd.
func randomBlock(r *rand.Rand, n int, segwitShare float64) (*btcutil.Block, []byte) {
	var mb wire.MsgBlock
	mb.Header.Version = 0x20000000
	mb.Header.Timestamp = mb.Header.Timestamp.Add(0)
	cb := wire.NewMsgTx(2)
	cb.AddTxIn(wire.NewTxIn(&wire.OutPoint{Index: 0xffffffff}, []byte{3, 1, 2, 3}, nil))
	cb.AddTxOut(wire.NewTxOut(625000000, []byte{0x51}))
	mb.AddTransaction(cb)
	any := false
	for range n - 1 {
		w := r.Float64() < segwitShare
		any = any || w
		mb.AddTransaction(randomTx(r, w))
	}
	if any {
		var reserved [32]byte
		for i := range reserved {
			reserved[i] = byte(r.Uint32())
		}
		cb.TxIn[0].Witness = wire.TxWitness{reserved[:]}
		blk := btcutil.NewBlock(&mb)
		wr := blockchain.CalcMerkleRoot(blk.Transactions(), true)
		c := chainhash.DoubleHashB(append(wr[:], reserved[:]...))
		cb.AddTxOut(wire.NewTxOut(0, append([]byte{0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed}, c...)))
	}
	blk := btcutil.NewBlock(&mb)
	mb.Header.MerkleRoot = blockchain.CalcMerkleRoot(blk.Transactions(), false)
	var buf bytes.Buffer
	if err := mb.Serialize(&buf); err != nil {
		panic(err)
	}
	blk, err := btcutil.NewBlockFromBytes(buf.Bytes())
	if err != nil {
		panic(err)
	}
	return blk, buf.Bytes()
}

// TestBitcoinRandomBlocks: blocks btcd builds and serializes, with 1 to
// 3,000 transactions, none to all segwit, hashed by us against btcd; and
// the other way, a commitment we compute put in a coinbase, which btcd
// validates.
func TestBitcoinRandomBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 2))
	var h bitcoin.Hasher
	for _, n := range []int{1, 2, 3, 5, 17, 64, 65, 300, 3000} {
		for _, share := range []float64{0, 0.5, 1} {
			_, raw := randomBlock(r, n, share)
			checkBlock(t, &h, "random", raw, true)
		}
	}
	// Ours into btcd: a block whose commitment and merkle root we compute.
	for _, n := range []int{2, 100, 1000} {
		blk, raw := randomBlock(r, n, 0.7)
		mb := blk.MsgBlock()
		cb := mb.Transactions[0]
		cb.TxOut = cb.TxOut[:1]
		var reserved [32]byte
		reserved[3] = byte(n)
		cb.TxIn[0].Witness = wire.TxWitness{reserved[:]}
		var buf bytes.Buffer
		if err := mb.Serialize(&buf); err != nil {
			t.Fatal(err)
		}
		s, err := h.Block(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		c := bitcoin.WitnessCommitment(s.WitnessRoot, reserved)
		cb.AddTxOut(wire.NewTxOut(0, append([]byte{0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed}, c[:]...)))
		buf.Reset()
		mb.Serialize(&buf)
		s, err = h.Block(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		mb.Header.MerkleRoot = chainhash.Hash(s.MerkleRoot)
		if err := blockchain.ValidateWitnessCommitment(btcutil.NewBlock(mb)); err != nil {
			t.Errorf("%d transactions: btcd rejects our commitment: %v", n, err)
		}
		if blockchain.CalcMerkleRoot(btcutil.NewBlock(mb).Transactions(), false) != mb.Header.MerkleRoot {
			t.Errorf("%d transactions: btcd's merkle root differs from ours", n)
		}
		_ = raw
	}
}

// TestBitcoinMalformed: every truncation of a block, and bytes flipped,
// is an error or a block btcd parses too, never a panic.
func TestBitcoinMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 3))
	_, raw := randomBlock(r, 20, 0.5)
	var h bitcoin.Hasher
	for n := range len(raw) {
		if _, err := h.Block(raw[:n]); !errors.Is(err, bitcoin.ErrMalformed) {
			t.Fatalf("block cut to %d of %d bytes: %v", n, len(raw), err)
		}
	}
	b := bytes.Clone(raw)
	for range 2000 {
		copy(b, raw)
		for range 1 + r.IntN(3) {
			b[80+r.IntN(len(b)-80)] ^= byte(1 + r.IntN(255))
		}
		_, err := h.Block(b)
		var mb wire.MsgBlock
		berr := mb.Deserialize(bytes.NewReader(b))
		if err == nil && berr != nil {
			t.Fatalf("a block btcd rejects (%v) parsed", berr)
		}
		if err == nil {
			checkBlock(t, &h, "flipped", b, false)
		}
	}
}
