package sha256x

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"sync"
	"unsafe"
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

// runStdlib1 is a one-lane kernel on crypto/sha256's block function, which
// has assembly of its own where this package may have none (its single AVX2
// stream on Haswell-class CPUs, say). crypto/sha256 exports no block
// function, so each job resumes a digest from a marshaled state holding the
// job's starting state and no length, writes the job's blocks (padding
// included, already staged) and reads the state back. Each job runs to
// completion, which meets the kernel contract for any minActive.
func runStdlib1(ls *laneSet, jobs []job) {
	ls.lanes[0].job = 0
	sc := stdlibPool.Get().(*stdlibScratch)
	defer stdlibPool.Put(sc)
	var h [8]uint32
	var x [BlockSize]byte // stays empty: jobs are whole blocks
	for i := range jobs {
		j := &jobs[i]
		sc.resume(j.init, &x, 0)
		for _, r := range j.runs {
			if r.n == 0 {
				break
			}
			sc.write(unsafe.Slice(r.p, r.n*BlockSize))
		}
		sc.suspend(&h, &x)
		putDigest(j.out, &h)
	}
}

// resume sets sc.h to crypto/sha256 in state h, with the partial block x and
// n bytes written so far, through its marshaled form: magic, h, the partial
// block, the length.
func (sc *stdlibScratch) resume(h *[8]uint32, x *[BlockSize]byte, n uint64) {
	st := append(sc.state[:0], "sha\x03"...)
	for _, v := range h {
		st = binary.BigEndian.AppendUint32(st, v)
	}
	st = append(st, x[:]...)
	st = binary.BigEndian.AppendUint64(st, n)
	sc.state = st
	if err := sc.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		panic("sha256x: " + err.Error())
	}
}

// suspend reads sc.h's state back into h and x and returns the number of
// bytes written.
func (sc *stdlibScratch) suspend(h *[8]uint32, x *[BlockSize]byte) uint64 {
	st, err := sc.h.(encoding.BinaryAppender).AppendBinary(sc.state[:0])
	if err != nil {
		panic("sha256x: " + err.Error())
	}
	sc.state = st
	for i := range h {
		h[i] = binary.BigEndian.Uint32(st[4+4*i:])
	}
	copy(x[:], st[4+Size:])
	return binary.BigEndian.Uint64(st[4+Size+BlockSize:])
}
