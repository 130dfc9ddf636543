package sha256x

import (
	"unsafe"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// A Digest is one SHA-256 computation that takes its input piece by piece.
// It implements hash.Hash. WriteMany advances many Digests side by side,
// one lane or stream per Digest: several large files hashed at once
// without holding any of them in memory.
//
// The zero Digest is ready to use.
type Digest struct {
	s sched.Stream // its only field: WriteMany reads a []*Digest as streams
}

// Reset resets d to its initial state.
func (d *Digest) Reset() { d.s.Reset() }

// Size returns Size.
func (d *Digest) Size() int { return Size }

// BlockSize returns BlockSize.
func (d *Digest) BlockSize() int { return BlockSize }

// Write adds p to the input. It never returns an error.
func (d *Digest) Write(p []byte) (int, error) {
	d.s.Write(plan.Active, p)
	return len(p), nil
}

// Sum appends the digest of the input so far to b; d is not changed.
func (d *Digest) Sum(b []byte) []byte {
	s := d.Sum256()
	return append(b, s[:]...)
}

// Sum256 returns the digest of the input so far; d is not changed.
func (d *Digest) Sum256() [Size]byte {
	return d.s.Sum256(plan.Active)
}

// WriteMany writes chunks[i] to ds[i] for every i, hashing the streams side
// by side. Whole blocks of a chunk are read in place; what is left over
// waits in its Digest for the next write. It panics with a message starting
// "sha256x:" if len(ds) < len(chunks), or if a Digest appears twice in
// ds[:len(chunks)] or is nil there (ds past that is not read).
func WriteMany(ds []*Digest, chunks [][]byte) {
	sched.WriteMany(plan.Active, streams(ds), chunks, false)
}

// streams returns ds as the streams they are: a Digest's only field is its
// stream, so a *Digest points at a sched.Stream.
func streams(ds []*Digest) []*sched.Stream {
	return unsafe.Slice((**sched.Stream)(unsafe.Pointer(unsafe.SliceData(ds))), len(ds))
}

// A Digest is its stream and nothing else (see streams).
var _ [0]struct{} = [unsafe.Sizeof(Digest{}) - unsafe.Sizeof(sched.Stream{})]struct{}{}
