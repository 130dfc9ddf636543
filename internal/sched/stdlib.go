package sched

import (
	"crypto/sha256"

	"github.com/sha256x/sha256x/internal/kernel"
)

// The stdlib plan is crypto/sha256, one message after another: the choice
// where crypto/sha256 has assembly of its own (s390x, ppc64x, ...) and this
// module has none.

func hashStdlib(out [][Size]byte, prefix []byte, msgs [][]byte) {
	if len(prefix) == 0 {
		for i, m := range msgs {
			out[i] = sha256.Sum256(m)
		}
		return
	}
	r := kernel.GetResumable()
	defer kernel.PutResumable(r)
	r.Reset()
	r.Write(prefix)
	r.Save()
	for i, m := range msgs {
		r.Restore()
		r.Write(m)
		r.Sum(&out[i])
	}
}

// stdlib writes c to s through crypto/sha256, resumed from s's state, and
// if sum is not nil sets it to the digest. What s holds unhashed (perhaps a
// whole block another plan's writes left) is written first.
func (s *Stream) stdlib(c []byte, sum *[Size]byte) {
	r := kernel.GetResumable()
	defer kernel.PutResumable(r)
	h := s.state()
	r.Resume(&h, &s.x, s.len-uint64(s.nx))
	r.Write(s.x[:s.nx])
	r.Write(c)
	if sum != nil {
		r.Sum(sum)
		return
	}
	s.len = r.Suspend(&s.h, &s.x)
	s.nx = int(s.len % BlockSize)
	s.init = true
}
