// Package bitcoin hashes Bitcoin blocks with sha256x's batches: the txids
// and wtxids of a serialized block, each SHA-256d of a transaction, many
// at once; the transaction Merkle root; the witness commitment of BIP 141;
// and block hashes, SHA-256d of 80-byte headers, many at once.
//
// Every hash is in internal byte order, as SHA-256d produces it and blocks
// store it; merkle.Reverse gives the display order that explorers print.
package bitcoin

import (
	"strconv"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

// Size is the size of a hash in bytes.
const Size = sha256x.Size

// stageSize bounds the copy a Hasher makes of segwit transactions, whose
// txids hash pieces not contiguous in the block: each is staged whole into
// a buffer of this size, hashed as a batch when full. A larger transaction
// is hashed alone, as a stream of its three pieces (BENCHMARKS.md,
// "Batches of the packages over the engine: nmt 256 shares, bitcoin 256
// KiB, dirhash 2 MiB").
const stageSize = 256 << 10

// A Hasher hashes blocks, reusing its memory from one block to the next:
// after the first blocks it allocates nothing. The slices it returns are
// its own, valid until its next call. A Hasher is not safe for concurrent
// use; its zero value is ready.
type Hasher struct {
	txs       []Tx
	msgs      [][]byte
	ids, wids [][Size]byte
	stage     []byte
	d         sha256x.Digest
}

// Sums are a block's hashes, in internal byte order.
type Sums struct {
	Hash   [Size]byte   // the block hash: SHA-256d of the header
	TxIDs  [][Size]byte // each transaction's txid
	WTxIDs [][Size]byte // each transaction's wtxid; the coinbase's is zero (BIP 141)
	// MerkleRoot is the root of the txids (merkle.Bitcoin); a valid block's
	// header holds it at bytes 36..68.
	MerkleRoot [Size]byte
	// WitnessRoot is the root of the wtxids, the coinbase's zero.
	WitnessRoot [Size]byte
	// Commitment is WitnessCommitment(WitnessRoot, the witness reserved
	// value), if the coinbase's witness is one item of 32 bytes
	// (HasReserved); CoinbaseCommitment is the one the coinbase's outputs
	// hold, if any (HasCommitment). In a valid block with witness data both
	// are set and equal.
	Commitment, CoinbaseCommitment [Size]byte
	HasReserved, HasCommitment     bool
}

// Block parses a serialized block and returns all its hashes. The slices in
// Sums are the Hasher's own. A malformed block is an error matching
// ErrMalformed, never a panic.
func (h *Hasher) Block(block []byte) (Sums, error) {
	var s Sums
	cb, err := h.parse(block)
	if err != nil {
		return s, err
	}
	s.Hash = headerHash(block)
	s.TxIDs = h.txids(block)
	s.WTxIDs = h.wtxids(block, true)
	s.MerkleRoot = MerkleRoot(s.TxIDs)
	if len(s.WTxIDs) > 0 {
		s.WitnessRoot = merkle.Bitcoin.RootNodes(s.WTxIDs)
	}
	if cb.reservedOK {
		s.Commitment = WitnessCommitment(s.WitnessRoot, [Size]byte(cb.reserved))
		s.HasReserved = true
	}
	if cb.commitmentSeen {
		s.CoinbaseCommitment = [Size]byte(cb.commitment)
		s.HasCommitment = true
	}
	return s, nil
}

// TxIDs parses a serialized block and returns its txids, the Hasher's own
// slice.
func (h *Hasher) TxIDs(block []byte) ([][Size]byte, error) {
	if _, err := h.parse(block); err != nil {
		return nil, err
	}
	return h.txids(block), nil
}

// WTxIDs parses a serialized block and returns its wtxids, the Hasher's own
// slice; the coinbase's is zero, as BIP 141 defines it for the witness
// tree.
func (h *Hasher) WTxIDs(block []byte) ([][Size]byte, error) {
	if _, err := h.parse(block); err != nil {
		return nil, err
	}
	return h.wtxids(block, false), nil
}

// parse parses block into h.txs and returns what its coinbase holds of
// the witness commitment, slices of block, which the Hasher does not keep.
func (h *Hasher) parse(block []byte) (cbInfo, error) {
	var cb cbInfo
	var err error
	h.txs, cb, err = parse(h.txs[:0], block)
	if err != nil {
		return cbInfo{}, err
	}
	n := len(h.txs)
	h.msgs = grow(h.msgs, n)
	h.ids = grow(h.ids, n)
	h.wids = grow(h.wids, n)
	return cb, nil
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// txids hashes the parsed transactions' txids, a batch a HashManyDouble
// call: a transaction without witness in place, a segwit one staged (see
// stageSize).
func (h *Hasher) txids(block []byte) [][Size]byte {
	if h.stage == nil {
		h.stage = make([]byte, stageSize)
	}
	used, from := 0, 0
	for i, t := range h.txs {
		if t.Witness == 0 {
			h.msgs[i] = block[t.Start:t.End]
			continue
		}
		m := t.NonWitnessLen()
		if m > stageSize {
			sha256x.HashManyDouble(h.ids[from:i], h.msgs[from:i])
			h.ids[i] = h.streamTxID(block, t)
			used, from = 0, i+1
			h.msgs[i] = nil
			continue
		}
		if used+m > stageSize {
			sha256x.HashManyDouble(h.ids[from:i], h.msgs[from:i])
			used, from = 0, i
		}
		s := h.stage[used : used+m]
		copy(s, block[t.Start:t.Start+4])
		k := 4 + copy(s[4:], block[t.Start+6:t.Witness])
		copy(s[k:], block[t.End-4:t.End])
		h.msgs[i] = s
		used += m
	}
	sha256x.HashManyDouble(h.ids[from:], h.msgs[from:])
	clear(h.msgs) // hold no block
	return h.ids
}

// streamTxID is the txid of a segwit transaction too long to stage: its
// three pieces written to a stream, the middle one read in place.
func (h *Hasher) streamTxID(block []byte, t Tx) [Size]byte {
	d := &h.d
	d.Reset()
	d.Write(block[t.Start : t.Start+4])
	d.Write(block[t.Start+6 : t.Witness])
	d.Write(block[t.End-4 : t.End])
	s := d.Sum256()
	return sha256x.Sum256(s[:])
}

// wtxids hashes the parsed transactions' wtxids, each in place; the
// coinbase's is zero. A transaction without witness has its txid as wtxid:
// taken from h.ids where haveIDs says txids has just hashed this block's,
// else hashed here with the others.
func (h *Hasher) wtxids(block []byte, haveIDs bool) [][Size]byte {
	n := 0
	for _, t := range h.txs[min(1, len(h.txs)):] {
		if t.Witness != 0 || !haveIDs {
			h.msgs[n] = block[t.Start:t.End]
			n++
		}
	}
	// Packed at the front, then spread from the back: the n-th among 1..i
	// is at i >= n, so none is overwritten before it is read.
	sha256x.HashManyDouble(h.wids[:n], h.msgs[:n])
	for i := len(h.txs) - 1; i >= 1; i-- {
		if h.txs[i].Witness != 0 || !haveIDs {
			h.wids[i] = h.wids[n-1]
			n--
		} else {
			h.wids[i] = h.ids[i]
		}
	}
	if len(h.wids) > 0 {
		h.wids[0] = [Size]byte{}
	}
	clear(h.msgs)
	return h.wids
}

// MerkleRoot is the root of a block's transaction tree over its txids
// (merkle.Bitcoin); the zero hash for none.
func MerkleRoot(txids [][Size]byte) [Size]byte {
	return merkle.Bitcoin.RootNodes(txids)
}

// WitnessRoot is the root of the witness tree over a block's wtxids, the
// coinbase's taken as zero whatever wtxids[0] holds (BIP 141). It zeroes
// wtxids[0] for the call and then restores it: no other goroutine may read
// wtxids meanwhile.
func WitnessRoot(wtxids [][Size]byte) [Size]byte {
	if len(wtxids) <= 1 {
		return [Size]byte{}
	}
	first := wtxids[0]
	wtxids[0] = [Size]byte{}
	r := merkle.Bitcoin.RootNodes(wtxids)
	wtxids[0] = first
	return r
}

// WitnessCommitment is the commitment a coinbase output holds (BIP 141):
// SHA-256d(witness root || witness reserved value).
func WitnessCommitment(witnessRoot, reserved [Size]byte) [Size]byte {
	var b [2 * Size]byte
	copy(b[:], witnessRoot[:])
	copy(b[Size:], reserved[:])
	s := sha256x.Sum256(b[:])
	return sha256x.Sum256(s[:])
}

// headerHash is SHA-256d of a block's first 80 bytes.
func headerHash(block []byte) [Size]byte {
	s := sha256x.Sum256(block[:HeaderSize])
	return sha256x.Sum256(s[:])
}

// HeaderHashes sets out[i] to the block hash of headers[i], SHA-256d of its
// 80 bytes, all in one batch. A header of another length is an error, and
// out is left alone. It panics, as sha256x.HashMany does, if out is
// shorter than headers.
func HeaderHashes(out [][Size]byte, headers [][]byte) error {
	for i, hd := range headers {
		if len(hd) != HeaderSize {
			return &ParseError{Offset: 0, What: "header " + itoa(i) + " of " + itoa(len(hd)) + " bytes, not 80"}
		}
	}
	sha256x.HashManyDouble(out, headers)
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
