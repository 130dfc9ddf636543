package bitcoin

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

func sha256d(parts ...[]byte) [Size]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	s := h.Sum(nil)
	return sha256.Sum256(s)
}

func varint(b []byte, v int) []byte {
	switch {
	case v < 0xfd:
		return append(b, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(b, 0xfd), uint16(v))
	default:
		return binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(v))
	}
}

// A testTx is a transaction serialized both ways, with its hashes computed
// by crypto/sha256 from the two serializations.
type testTx struct {
	full, base []byte
}

func makeTx(r *rand.Rand, witness bool, scriptLen int, coinbase bool) testTx {
	fill := func(b []byte, n int) []byte {
		for range n {
			b = append(b, byte(r.Uint32()))
		}
		return b
	}
	ver := fill(nil, 4)
	var mid []byte
	nin := 1 + r.IntN(3)
	if coinbase {
		nin = 1
	}
	mid = varint(mid, nin)
	for k := range nin {
		if coinbase && k == 0 {
			mid = append(mid, nullOutpoint...)
		} else {
			mid = fill(mid, 36)
		}
		l := r.IntN(scriptLen + 1)
		mid = fill(varint(mid, l), l)
		mid = fill(mid, 4)
	}
	nout := r.IntN(3)
	mid = varint(mid, nout)
	for range nout {
		mid = fill(mid, 8)
		l := r.IntN(scriptLen + 1)
		mid = fill(varint(mid, l), l)
	}
	lock := fill(nil, 4)
	base := append(append(append([]byte(nil), ver...), mid...), lock...)
	if !witness {
		return testTx{base, base}
	}
	full := append(append(append([]byte(nil), ver...), 0, 1), mid...)
	some := false // an input with witness items: one must have some
	for k := range nin {
		items := r.IntN(3)
		if coinbase && k == 0 {
			full = append(varint(full, 1), 32)
			full = fill(full, 32)
			continue
		}
		if k == nin-1 && !some {
			items = max(items, 1)
		}
		some = some || items > 0
		full = varint(full, items)
		for range items {
			l := r.IntN(scriptLen + 1)
			full = fill(varint(full, l), l)
		}
	}
	return testTx{append(full, lock...), base}
}

func makeBlock(txs []testTx) []byte {
	b := make([]byte, HeaderSize)
	for i := range b {
		b[i] = byte(i)
	}
	b = varint(b, len(txs))
	for _, t := range txs {
		b = append(b, t.full...)
	}
	return b
}

func checkSums(t *testing.T, h *Hasher, block []byte, txs []testTx) {
	t.Helper()
	s, err := h.Block(block)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.TxIDs) != len(txs) {
		t.Fatalf("%d txids, want %d", len(s.TxIDs), len(txs))
	}
	if s.Hash != sha256d(block[:HeaderSize]) {
		t.Error("wrong block hash")
	}
	ids := make([][Size]byte, len(txs))
	wids := make([][Size]byte, len(txs))
	for i, tx := range txs {
		ids[i], wids[i] = sha256d(tx.base), sha256d(tx.full)
		if s.TxIDs[i] != ids[i] {
			t.Fatalf("tx %d of %d: wrong txid", i, len(txs))
		}
		if i > 0 && s.WTxIDs[i] != wids[i] {
			t.Fatalf("tx %d of %d: wrong wtxid", i, len(txs))
		}
	}
	if len(txs) > 0 && s.WTxIDs[0] != ([Size]byte{}) {
		t.Error("coinbase wtxid not zero")
	}
	if s.MerkleRoot != refRoot(ids) {
		t.Error("wrong merkle root")
	}
	if len(wids) > 0 {
		wids[0] = [Size]byte{}
	}
	if s.WitnessRoot != refRoot(wids) {
		t.Error("wrong witness root")
	}
}

// refRoot is Bitcoin's Merkle root computed node by node.
func refRoot(ids [][Size]byte) [Size]byte {
	if len(ids) == 0 {
		return [Size]byte{}
	}
	lv := append([][Size]byte(nil), ids...)
	for len(lv) > 1 {
		if len(lv)%2 == 1 {
			lv = append(lv, lv[len(lv)-1])
		}
		for i := range len(lv) / 2 {
			lv[i] = sha256d(lv[2*i][:], lv[2*i+1][:])
		}
		lv = lv[:len(lv)/2]
	}
	return lv[0]
}

// TestBlocks: blocks of 0 to 3,000 transactions, none to all segwit, short
// to long scripts; the staging buffer fills and flushes, and a segwit
// transaction larger than it is hashed as a stream.
func TestBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 4))
	var h Hasher
	for _, n := range []int{0, 1, 2, 3, 7, 64, 65, 500, 3000} {
		for _, share := range []int{0, 50, 100} {
			for _, sl := range []int{10, 300, 2000} {
				txs := make([]testTx, n)
				for i := range txs {
					txs[i] = makeTx(r, r.IntN(100) < share, sl, i == 0)
				}
				checkSums(t, &h, makeBlock(txs), txs)
			}
		}
	}
	// Segwit transactions larger than the staging buffer, between others.
	txs := []testTx{makeTx(r, true, 10, true), makeTx(r, true, 300, false)}
	big := makeTx(r, true, 0, false)
	pad := make([]byte, 300<<10)
	// a big signature script in the first input of a fresh transaction
	mid := varint(nil, 1)
	mid = append(mid, make([]byte, 36)...)
	mid = append(varint(mid, len(pad)), pad...)
	mid = append(mid, 1, 2, 3, 4, 0)
	big.base = append(append([]byte{1, 0, 0, 0}, mid...), 9, 9, 9, 9)
	big.full = append(append(append([]byte{1, 0, 0, 0, 0, 1}, mid...), 1, 2, 7, 7), 9, 9, 9, 9)
	txs = append(txs, big, makeTx(r, true, 300, false), makeTx(r, false, 300, false))
	checkSums(t, &h, makeBlock(txs), txs)
}

func TestCommitment(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 5))
	txs := []testTx{makeTx(r, true, 10, true), makeTx(r, true, 100, false), makeTx(r, false, 100, false)}
	var h Hasher
	s, err := h.Block(makeBlock(txs))
	if err != nil {
		t.Fatal(err)
	}
	reserved := [Size]byte(txs[0].full[len(txs[0].full)-36 : len(txs[0].full)-4])
	if !s.HasReserved || s.Commitment != sha256d(s.WitnessRoot[:], reserved[:]) {
		t.Errorf("commitment: %v, wrong", s.HasReserved)
	}
	if s.HasCommitment {
		t.Error("a coinbase without a commitment output has one")
	}
}

// TestHoldsNoBlock: once Block returns, the Hasher keeps no slice of the
// block (its coinbase's reserved value among them), so that a block handed
// to it is freed while the Hasher lives on.
func TestHoldsNoBlock(t *testing.T) {
	var h Hasher
	freed := make(chan struct{})
	func() {
		r := rand.New(rand.NewPCG(41, 9))
		block := makeBlock([]testTx{makeTx(r, true, 10, true), makeTx(r, true, 100, false)})
		s, err := h.Block(block)
		if err != nil || !s.HasReserved {
			t.Fatalf("Block: %v, reserved value %v", err, s.HasReserved)
		}
		runtime.SetFinalizer(&block[0], func(*byte) { close(freed) })
	}()
	for range 20 {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(&h)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Error("the block is still held after Block returned")
	runtime.KeepAlive(&h)
}

func TestMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 6))
	txs := []testTx{makeTx(r, true, 10, true), makeTx(r, true, 100, false), makeTx(r, false, 100, false)}
	block := makeBlock(txs)
	var h Hasher
	for n := range len(block) {
		if _, err := h.Block(block[:n]); !errors.Is(err, ErrMalformed) {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
	if _, err := h.Block(append(block, 0)); err == nil {
		t.Error("a trailing byte: no error")
	}
	huge := append(block[:HeaderSize:HeaderSize], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	if _, err := h.Block(huge); err == nil {
		t.Error("2^64-1 transactions: no error")
	}
	// The segwit marker and flag on a transaction without witness: Bitcoin
	// Core and btcd refuse it (a superfluous witness record).
	in := append(make([]byte, 36), 0, 0, 0, 0, 0) // outpoint, empty script, sequence
	out := make([]byte, 9)                        // value, empty script
	for _, c := range []struct {
		name string
		tx   []byte // the version, marker and flag are prepended, the lock time appended
	}{
		{"no inputs", []byte{0, 0}},
		{"one input, no items", slices.Concat([]byte{1}, in, []byte{1}, out, []byte{0})},
		{"two inputs, no items", slices.Concat([]byte{2}, in, in, []byte{1}, out, []byte{0, 0})},
	} {
		b := slices.Concat(block[:HeaderSize:HeaderSize], []byte{1, 2, 0, 0, 0, 0, 1}, c.tx, []byte{0, 0, 0, 0})
		if _, err := h.Block(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", c.name, err)
		}
		// With one empty item it is a valid serialization.
		b = slices.Concat(b[:len(b)-5], []byte{1, 0, 0, 0, 0, 0})
		if c.name == "no inputs" {
			continue
		}
		if _, err := h.Block(b); err != nil {
			t.Errorf("%s, then one empty item: %v", c.name, err)
		}
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	r := rand.New(rand.NewPCG(41, 7))
	txs := make([]testTx, 1000)
	for i := range txs {
		txs[i] = makeTx(r, i%3 != 0, 200, i == 0)
	}
	block := makeBlock(txs)
	var h Hasher
	h.Block(block)
	if a := testing.AllocsPerRun(10, func() { h.Block(block) }); a != 0 {
		t.Errorf("Block: %v allocations", a)
	}
	if a := testing.AllocsPerRun(10, func() { h.TxIDs(block) }); a != 0 {
		t.Errorf("TxIDs: %v allocations", a)
	}
}

// FuzzBlock: any bytes parse to an error or to hashes that crypto/sha256
// agrees with, never a panic.
func FuzzBlock(f *testing.F) {
	r := rand.New(rand.NewPCG(41, 8))
	for _, n := range []int{1, 2, 5} {
		txs := make([]testTx, n)
		for i := range txs {
			txs[i] = makeTx(r, i%2 == 0, 40, i == 0)
		}
		f.Add(makeBlock(txs))
	}
	var h Hasher
	f.Fuzz(func(t *testing.T, block []byte) {
		s, err := h.Block(block)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("an error not ErrMalformed: %v", err)
			}
			return
		}
		txs, err := Parse(nil, block)
		if err != nil || len(txs) != len(s.TxIDs) {
			t.Fatalf("Parse: %v, %d transactions against %d", err, len(txs), len(s.TxIDs))
		}
		for i, tx := range txs {
			var want [Size]byte
			if tx.Witness == 0 {
				want = sha256d(block[tx.Start:tx.End])
			} else {
				want = sha256d(block[tx.Start:tx.Start+4], block[tx.Start+6:tx.Witness], block[tx.End-4:tx.End])
				if i > 0 && s.WTxIDs[i] != sha256d(block[tx.Start:tx.End]) {
					t.Fatalf("tx %d: wrong wtxid", i)
				}
			}
			if s.TxIDs[i] != want {
				t.Fatalf("tx %d: wrong txid", i)
			}
		}
	})
}
