package bitcoin

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// A Tx is where one transaction lies in a serialized block.
type Tx struct {
	// Start and End bound the whole transaction, witness included:
	// block[Start:End] is what the wtxid hashes.
	Start, End int
	// Witness is where the witness data starts, 0 for a transaction
	// without the segwit marker. For a segwit transaction, the txid hashes
	// block[Start:Start+4] || block[Start+6:Witness] || block[End-4:End];
	// otherwise block[Start:End].
	Witness int
}

// NonWitnessLen is the length of the transaction's serialization without
// witness data, which its txid hashes.
func (t Tx) NonWitnessLen() int {
	if t.Witness == 0 {
		return t.End - t.Start
	}
	return t.Witness - t.Start - 2 + 4
}

// A ParseError says where and why a block is malformed.
type ParseError struct {
	Offset int    // the byte of the block where parsing stopped
	What   string // what was expected there
}

func (e *ParseError) Error() string {
	return "bitcoin: malformed block at byte " + strconv.Itoa(e.Offset) + ": " + e.What
}

// ErrMalformed matches every ParseError with errors.Is.
var ErrMalformed = errors.New("bitcoin: malformed block")

// Is makes errors.Is(err, ErrMalformed) true.
func (e *ParseError) Is(target error) bool { return target == ErrMalformed }

// A reader walks a block; the first error stops it and sticks.
type reader struct {
	b   []byte
	off int
	err *ParseError
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = &ParseError{Offset: r.off, What: what}
	}
}

// skip moves past n bytes, if there are that many.
func (r *reader) skip(n uint64, what string) {
	if r.err != nil {
		return
	}
	if n > uint64(len(r.b)-r.off) {
		r.fail(what + " runs past the end")
		return
	}
	r.off += int(n)
}

// varint reads a CompactSize, rejecting non-canonical encodings as Bitcoin
// Core does.
func (r *reader) varint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail(what + ": no bytes left")
		return 0
	}
	b := r.b[r.off:]
	var v, min uint64
	n := 1
	switch b[0] {
	case 0xfd:
		n, min = 3, 0xfd
	case 0xfe:
		n, min = 5, 0x10000
	case 0xff:
		n, min = 9, 0x100000000
	default:
		v = uint64(b[0])
	}
	if n > len(b) {
		r.fail(what + ": truncated CompactSize")
		return 0
	}
	switch n {
	case 3:
		v = uint64(binary.LittleEndian.Uint16(b[1:]))
	case 5:
		v = uint64(binary.LittleEndian.Uint32(b[1:]))
	case 9:
		v = binary.LittleEndian.Uint64(b[1:])
	}
	if v < min {
		r.fail(what + ": non-canonical CompactSize")
		return 0
	}
	r.off += n
	return v
}

// HeaderSize is the size of a block header.
const HeaderSize = 80

// maxItem bounds a script or witness item's length, as btcd's
// MaxMessagePayload (32 MB) bounds every length it reads.
const maxItem = 32 << 20

// nullOutpoint is the previous outpoint of a coinbase's one input.
const nullOutpoint = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff"

// cbInfo is what a block's coinbase says about its witness commitment.
type cbInfo struct {
	reserved, commitment       []byte // the witness reserved value, the commitment; nil if none
	reservedOK, commitmentSeen bool
}

// Parse appends to txs the place of every transaction of the serialized
// block and returns the extended slice. A block that does not parse to its
// last byte, or with a segwit marker on a transaction without witness
// (which Bitcoin Core refuses), is an error, a *ParseError that matches
// ErrMalformed.
func Parse(txs []Tx, block []byte) ([]Tx, error) {
	txs, _, err := parse(txs, block)
	return txs, err
}

func parse(txs []Tx, block []byte) ([]Tx, cbInfo, error) {
	var cb cbInfo
	r := reader{b: block}
	r.skip(HeaderSize, "the header")
	n := r.varint("the transaction count")
	// Each transaction is at least 10 bytes.
	if r.err == nil && n > uint64(len(block)-r.off)/10 {
		r.fail("a transaction count of " + strconv.FormatUint(n, 10) + " in " + strconv.Itoa(len(block)-r.off) + " bytes")
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		t := Tx{Start: r.off}
		r.skip(4, "the version")
		nin := r.varint("the input count")
		segwit := false
		if r.err == nil && nin == 0 {
			// The segwit marker (0x00, read as no inputs) and flag 0x01.
			if r.off >= len(block) || block[r.off] != 1 {
				r.fail("the segwit flag (0x01)")
				break
			}
			r.off++
			segwit = true
			nin = r.varint("the input count")
		}
		coinbase := false // tx 0 with one input of the null outpoint
		for j := range nin {
			if r.err != nil {
				break
			}
			r.skip(36, "the previous outpoint")
			if i == 0 && j == 0 && nin == 1 && r.err == nil {
				coinbase = string(block[r.off-36:r.off]) == nullOutpoint
			}
			r.skip(r.script("the signature script"), "the signature script")
			r.skip(4, "the sequence")
		}
		nout := r.varint("the output count")
		for range nout {
			if r.err != nil {
				break
			}
			r.skip(8, "the value")
			ls := r.script("the public key script")
			r.skip(ls, "the public key script")
			if coinbase && r.err == nil && ls >= 38 {
				// The last output that matches is the commitment (BIP 141).
				if s := block[r.off-int(ls) : r.off]; string(s[:6]) == "\x6a\x24\xaa\x21\xa9\xed" {
					cb.commitment, cb.commitmentSeen = s[6:38], true
				}
			}
		}
		if segwit {
			t.Witness = r.off
			some := false // an input with witness items
			for range nin {
				if r.err != nil {
					break
				}
				items := r.varint("the witness item count")
				some = some || items > 0
				if coinbase && items == 1 && r.err == nil {
					l := r.script("the witness item")
					r.skip(l, "the witness item")
					if l == 32 && r.err == nil {
						cb.reserved, cb.reservedOK = block[r.off-32:r.off], true
					}
					continue
				}
				for range items {
					if r.err != nil {
						break
					}
					r.skip(r.script("the witness item"), "the witness item")
				}
			}
			// Bitcoin Core and btcd refuse it ("superfluous witness
			// record").
			if r.err == nil && !some {
				r.fail("a segwit flag with no witness")
			}
		}
		r.skip(4, "the lock time")
		t.End = r.off
		if r.err == nil {
			txs = append(txs, t)
		}
	}
	if r.err == nil && r.off != len(block) {
		r.fail(strconv.Itoa(len(block)-r.off) + " bytes past the last transaction")
	}
	if r.err != nil {
		return txs, cb, r.err
	}
	return txs, cb, nil
}

// script reads a length of a script or witness item.
func (r *reader) script(what string) uint64 {
	l := r.varint(what + "'s length")
	if l > maxItem {
		r.fail(what + " longer than 32 MB")
		return 0
	}
	return l
}
