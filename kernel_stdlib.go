package sha256x

import (
	"crypto/sha256"
	"encoding"
	"hash"
	"sync"
)

// The stdlib kernel is crypto/sha256, one message after another. It is the
// choice where crypto/sha256 has assembly of its own (s390x, ppc64x, ...) and
// this package has none.

// stdlibScratch is what a prefixed batch needs: a digest to resume from the
// prefix's state, and a buffer through which message bytes reach it. Calling
// hash.Hash.Write with the caller's slices would make them escape; copying
// through the buffer keeps them on the caller's stack.
type stdlibScratch struct {
	h     hash.Hash
	state []byte
	buf   [4096]byte
}

var stdlibPool = sync.Pool{New: func() any { return &stdlibScratch{h: sha256.New()} }}

func hashStdlib(out [][Size]byte, prefix []byte, msgs [][]byte) {
	if len(prefix) == 0 {
		for i, m := range msgs {
			out[i] = sha256.Sum256(m)
		}
		return
	}
	sc := stdlibPool.Get().(*stdlibScratch)
	defer stdlibPool.Put(sc)
	sc.h.Reset()
	sc.write(prefix)
	var err error
	sc.state, err = sc.h.(encoding.BinaryAppender).AppendBinary(sc.state[:0])
	if err != nil {
		panic("sha256x: " + err.Error())
	}
	for i, m := range msgs {
		if err := sc.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(sc.state); err != nil {
			panic("sha256x: " + err.Error())
		}
		sc.write(m)
		sc.h.Sum(sc.buf[:0])
		copy(out[i][:], sc.buf[:Size])
	}
}

func (sc *stdlibScratch) write(b []byte) {
	for len(b) > 0 {
		n := copy(sc.buf[:], b)
		sc.h.Write(sc.buf[:n])
		b = b[n:]
	}
}
