package bitcoin

import (
	"math/rand/v2"
	"testing"
)

// TestHasherSequences hashes, with one Hasher, blocks that shrink and
// grow, segwit then not then mixed, and checks every hash against
// crypto/sha256; a malformed block between them must not leave state that
// the next one trusts.
func TestHasherSequences(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	var h Hasher
	steps := 300
	if testing.Short() {
		steps = 80
	}
	for step := range steps {
		n := []int{0, 1, 2, 3, 5, 8, 17, 64, 65, 200}[r.IntN(10)]
		share := []int{0, 100, 50}[r.IntN(3)]
		sl := []int{0, 5, 40, 300}[r.IntN(4)]
		txs := make([]testTx, n)
		for i := range txs {
			txs[i] = makeTx(r, r.IntN(100) < share, sl, i == 0)
		}
		block := makeBlock(txs)
		if r.IntN(8) == 0 {
			// a malformed block first: cut short
			if _, err := h.Block(block[:len(block)-1]); err == nil && n > 0 {
				t.Fatalf("step %d: a block cut short parsed", step)
			}
		}
		switch r.IntN(3) {
		case 0:
			checkSums(t, &h, block, txs)
		case 1:
			ids, err := h.TxIDs(block)
			if err != nil {
				t.Fatal(err)
			}
			for i, tx := range txs {
				if ids[i] != sha256d(tx.base) {
					t.Fatalf("step %d: TxIDs: tx %d of %d wrong", step, i, n)
				}
			}
		case 2:
			wids, err := h.WTxIDs(block)
			if err != nil {
				t.Fatal(err)
			}
			for i, tx := range txs {
				if i > 0 && wids[i] != sha256d(tx.full) {
					t.Fatalf("step %d: WTxIDs: tx %d of %d wrong", step, i, n)
				}
			}
		}
		if t.Failed() {
			t.Fatalf("step %d", step)
		}
	}
}

// TestWTxIDsAfterAnotherBlock: WTxIDs of a block right after Block of
// another (or first, on a fresh Hasher) must not take its transactions'
// txids from the block hashed before.
func TestWTxIDsAfterAnotherBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 66))
	mk := func(n int) ([]testTx, []byte) {
		txs := make([]testTx, n)
		for i := range txs {
			txs[i] = makeTx(r, i%2 == 0, 40, i == 0) // every other one without witness
		}
		return txs, makeBlock(txs)
	}
	a, ablock := mk(6)
	b, bblock := mk(6)
	var h Hasher
	for k, c := range []struct {
		txs   []testTx
		block []byte
	}{{b, bblock}, {a, ablock}, {b, bblock}} {
		if k == 1 {
			checkSums(t, &h, ablock, a) // the Hasher's txids are a's now
			continue
		}
		wids, err := h.WTxIDs(c.block)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(c.txs); i++ {
			if wids[i] != sha256d(c.txs[i].full) {
				t.Errorf("call %d: wtxid %d (witness %v) wrong", k, i, c.txs[i].full[4] == 0)
			}
		}
	}
}
