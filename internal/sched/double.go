package sched

import (
	"crypto/sha256"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// HashManyDouble is sha256x.HashManyDouble on plan pl: out[i] =
// SHA-256(SHA-256(msgs[i])). The messages are read once, in place; the
// second hash is a pass over the digests in out, in place, staged for the
// pairs kernels, what those leave through the job queue. No message is
// copied, and every kernel call is bounded work.
func HashManyDouble(pl *plan.Plan, out [][Size]byte, msgs [][]byte) {
	HashMany(pl, out, nil, msgs)
	if len(msgs) > 0 {
		rehashDigests(pl, out[:len(msgs)])
	}
}

// rehashDigests sets each digest in out to its own SHA-256, in place.
func rehashDigests(pl *plan.Plan, out [][Size]byte) {
	n := len(out)
	if pl.Stdlib {
		for i := range out {
			out[i] = sha256.Sum256(out[i][:])
		}
		return
	}
	if n <= 2 && pl.SmallPairs {
		// One or two digests, as the top of a batch: staged on the stack,
		// straight to the one- or two-stream kernel.
		var buf [2 * BlockSize]byte
		for i := range n {
			*(*[Size]byte)(buf[i*BlockSize:]) = out[i]
			padTail(buf[i*BlockSize:][:BlockSize], buf[i*BlockSize:][:Size], nil, 8*Size)
		}
		kernel.HashStaged(pl.Small[n], &out[0], &buf[0], n, 1)
		return
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	done := 0
	if len(pl.Pairs) > 0 {
		// Each chunk of digests is staged before the kernel writes over it,
		// so in place is safe.
		stg := staging{sl: &sc.msgs, digests: out, m: Size, nb: 1}
		done = hashPairs(pl, kernel.Staged, &out[0], nil, nil, &stg, n)
	}
	if done < n {
		b := batch{stages: pl.Stages, sc: sc, init: &kernel.IV}
		if n-done == 1 {
			b.stages = pl.One
		}
		b.rehash(out[done:])
	}
}
