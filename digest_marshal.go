package sha256x

import (
	"encoding/binary"
	"errors"
	"hash"
)

// A Digest saves and resumes in crypto/sha256's marshaled form, so that a
// state saved by one package resumes in the other (a resumable upload, say,
// whose state is kept between requests):
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
	return d.AppendBinary(make([]byte, 0, marshaledSize))
}

// AppendBinary appends d's state in crypto/sha256's marshaled form to b. It
// never returns an error.
func (d *Digest) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, marshalMagic...)
	h := d.state() // the zero Digest has not set the IV yet
	for _, v := range h {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	b = append(b, d.x[:d.nx]...)
	var zero [BlockSize]byte
	b = append(b, zero[d.nx:]...)
	b = binary.BigEndian.AppendUint64(b, d.len)
	return b, nil
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
	for i := range d.h {
		d.h[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	// writeMany reloads h from sum, the state big-endian, after every call,
	// including calls that only buffer bytes: the two must agree.
	b = b[copy(d.sum[:], b[:Size]):]
	copy(d.x[:], b[:BlockSize])
	d.len = binary.BigEndian.Uint64(b[BlockSize:])
	d.nx = int(d.len % BlockSize)
	d.init = true
	return nil
}

// Clone returns an independent copy of d, as a hash.Cloner. It never returns
// an error.
func (d *Digest) Clone() (hash.Cloner, error) {
	e := *d
	e.busy = false
	return &e, nil
}
