package sha256x

import (
	"encoding/binary"
	"errors"
	"hash"

	"github.com/sha256x/sha256x/internal/plan"
)

// A Digest saves and resumes in crypto/sha256's marshaled form, so that a
// state saved by one package resumes in the other:
//
//	"sha\x03"  magic (SHA-256; crypto/sha256's SHA-224 is "sha\x02")
//	h[0..7]    the state after the whole blocks so far, big-endian words
//	x          the bytes not yet a whole block, zero-padded to 64
//	len        the bytes written, big-endian uint64
const (
	marshalMagic  = "sha\x03"
	marshaledSize = len(marshalMagic) + 8*4 + BlockSize + 8
)

var (
	errStateMagic = errors.New("sha256x: invalid hash state identifier")
	errStateSize  = errors.New("sha256x: invalid hash state size")
)

// New returns a new Digest as a hash.Hash, in place of crypto/sha256.New.
// Like crypto/sha256's, it also implements encoding.BinaryMarshaler,
// encoding.BinaryAppender, encoding.BinaryUnmarshaler and hash.Cloner.
func New() hash.Hash {
	return new(Digest)
}

// MarshalBinary returns d's state in crypto/sha256's marshaled form. It never
// returns an error.
func (d *Digest) MarshalBinary() ([]byte, error) {
	b := make([]byte, marshaledSize)
	d.marshal((*[marshaledSize]byte)(b))
	return b, nil
}

// AppendBinary appends d's state in crypto/sha256's marshaled form to b. It
// never returns an error.
func (d *Digest) AppendBinary(b []byte) ([]byte, error) {
	var st [marshaledSize]byte
	d.marshal(&st)
	return append(b, st[:]...), nil
}

// marshal writes d's state in crypto/sha256's marshaled form to st. Apart
// from MarshalBinary and AppendBinary, so that those inline and a caller's
// buffer can stay on its stack.
//
//go:noinline
func (d *Digest) marshal(st *[marshaledSize]byte) {
	h, x, n := d.s.State(plan.Active)
	b := append(st[:0], marshalMagic...)
	for _, v := range h {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	b = append(b, x...)
	clear(st[len(b) : len(b)+BlockSize-len(x)])
	binary.BigEndian.PutUint64(st[marshaledSize-8:], n)
}

// UnmarshalBinary sets d to the state b holds, marshaled by MarshalBinary or
// by crypto/sha256's SHA-256 digest. A state of another magic (crypto/sha256's
// SHA-224, say) or of the wrong size is an error, and leaves d as it was.
func (d *Digest) UnmarshalBinary(b []byte) error {
	if len(b) < len(marshalMagic) || string(b[:len(marshalMagic)]) != marshalMagic {
		return errStateMagic
	}
	if len(b) != marshaledSize {
		return errStateSize
	}
	b = b[len(marshalMagic):]
	var h [8]uint32
	for i := range h {
		h[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	d.s.SetState(&h, (*[BlockSize]byte)(b[Size:]), binary.BigEndian.Uint64(b[Size+BlockSize:]))
	return nil
}

// Clone returns an independent copy of d, as a hash.Cloner. It never returns
// an error.
func (d *Digest) Clone() (hash.Cloner, error) {
	return &Digest{s: d.s.Clone()}, nil
}
