package kernel

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"sync"
	"unsafe"
)

// The stdlib kernel is crypto/sha256's block function as a one-lane kernel,
// for the CPUs where it has assembly and this package none. crypto/sha256
// exports no block function, so a job resumes a digest from a marshaled
// state, writes its blocks and reads the state back.

// A Resumable is a crypto/sha256 digest that resumes from and suspends to any
// state, and a buffer through which bytes reach it: calling hash.Hash.Write
// with a caller's slices would make them escape, copying through the buffer
// keeps them on the caller's stack.
type Resumable struct {
	h     hash.Hash
	state []byte
	buf   [4096]byte
}

var stdlibPool = sync.Pool{New: func() any { return &Resumable{h: sha256.New()} }}

// GetResumable returns a Resumable from a pool; PutResumable gives it back.
func GetResumable() *Resumable  { return stdlibPool.Get().(*Resumable) }
func PutResumable(s *Resumable) { stdlibPool.Put(s) }

// runStdlib runs the jobs one after another, each to completion, which
// meets the kernel contract for any MinActive.
func runStdlib(ls *LaneSet, jobs []Job) {
	ls.Lanes[0].Job = 0
	s := GetResumable()
	defer PutResumable(s)
	var h [8]uint32
	var x [BlockSize]byte // stays empty: jobs are whole blocks
	for i := range jobs {
		j := &jobs[i]
		s.Resume(j.Init, &x, 0)
		for _, r := range j.Runs {
			if r.N == 0 {
				break
			}
			s.Write(unsafe.Slice(r.P, r.N*BlockSize))
		}
		s.Suspend(&h, &x)
		PutDigest(j.Out, &h)
	}
}

// Reset starts a new message.
func (s *Resumable) Reset() { s.h.Reset() }

// Write adds b to the message.
func (s *Resumable) Write(b []byte) {
	for len(b) > 0 {
		n := copy(s.buf[:], b)
		s.h.Write(s.buf[:n])
		b = b[n:]
	}
}

// Sum sets d to the digest of the message so far.
func (s *Resumable) Sum(d *[Size]byte) {
	s.h.Sum(s.buf[:0])
	copy(d[:], s.buf[:Size])
}

// Save keeps the digest's state, for Restore.
func (s *Resumable) Save() {
	var err error
	s.state, err = s.h.(encoding.BinaryAppender).AppendBinary(s.state[:0])
	if err != nil {
		panic("sha256x: " + err.Error())
	}
}

// Restore sets the digest back to the state Save (or Resume) kept.
func (s *Resumable) Restore() {
	if err := s.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(s.state); err != nil {
		panic("sha256x: " + err.Error())
	}
}

// Resume sets the digest to state h, with the partial block x and n bytes
// written so far.
func (s *Resumable) Resume(h *[8]uint32, x *[BlockSize]byte, n uint64) {
	st := append(s.state[:0], "sha\x03"...)
	for _, v := range h {
		st = binary.BigEndian.AppendUint32(st, v)
	}
	st = append(st, x[:]...)
	st = binary.BigEndian.AppendUint64(st, n)
	s.state = st
	s.Restore()
}

// Suspend reads the digest's state back into h and x and returns the
// number of bytes written.
func (s *Resumable) Suspend(h *[8]uint32, x *[BlockSize]byte) uint64 {
	s.Save()
	st := s.state
	for i := range h {
		h[i] = binary.BigEndian.Uint32(st[4+4*i:])
	}
	copy(x[:], st[4+Size:])
	return binary.BigEndian.Uint64(st[4+Size+BlockSize:])
}
