package sha256x

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// runGeneric is the portable kernel, and the model that every assembly kernel
// follows: width lanes take jobs from the queue in order; each step hashes
// one block in every busy lane; a lane whose job ends writes the digest and
// takes the next job; the kernel returns once no job is left and fewer than
// ls.minActive lanes are busy, leaving each busy lane's state in ls.
//
// Go has no SIMD, so each step hashes its lanes one after another (one lane
// alone hashes a whole run a step); widths above 1 exist to test the
// scheduler in pure Go.
func runGeneric(ls *laneSet, jobs []job, width int) {
	var cur [maxLanes]*job // each lane's job, nil when idle
	var p [maxLanes]*byte  // each lane's next block
	next, busy := 0, 0
	start := func(i int) {
		l := &ls.lanes[i]
		if next == len(jobs) {
			cur[i], p[i] = nil, nil
			l.job = 0
			return
		}
		j := &jobs[next]
		next++
		busy++
		cur[i], p[i] = j, j.runs[0].p
		l.h = *j.init
		l.n, l.seg, l.job = j.runs[0].n, 0, uintptr(next)
	}
	for i := range width {
		start(i)
	}
	for busy >= int(ls.minActive) && busy > 0 {
		for i := range width {
			j := cur[i]
			if j == nil {
				continue
			}
			l := &ls.lanes[i]
			k := uintptr(1)
			if width == 1 {
				k = l.n // a lone lane hashes its whole run in one call
			}
			blocksGeneric(&l.h, p[i], k)
			if l.n -= k; l.n > 0 {
				p[i] = (*byte)(unsafe.Add(unsafe.Pointer(p[i]), BlockSize))
				continue
			}
			if l.seg++; l.seg < uintptr(len(j.runs)) && j.runs[l.seg].n != 0 {
				p[i], l.n = j.runs[l.seg].p, j.runs[l.seg].n
				continue
			}
			putDigest(j.out, &l.h)
			busy--
			start(i)
		}
	}
}

// putDigest writes the state h as a big-endian digest.
func putDigest(out *[Size]byte, h *[8]uint32) {
	for i, v := range h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
}

var k256 = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// schedule expands block p into its message schedule w.
func schedule(w *[64]uint32, p *[BlockSize]byte) {
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for i := 16; i < 64; i++ {
		x, y := w[i-2], w[i-15]
		s1 := bits.RotateLeft32(x, -17) ^ bits.RotateLeft32(x, -19) ^ x>>10
		s0 := bits.RotateLeft32(y, -7) ^ bits.RotateLeft32(y, -18) ^ y>>3
		w[i] = s1 + w[i-7] + s0 + w[i-16]
	}
}

// blocksGeneric hashes n blocks from p into h. It loops over the blocks
// itself, as crypto/sha256's Go code does: with a call a block, on a host
// whose both CPUs were busy, 25-40% of the GC stops during a long message
// took over 2 ms (TestPauses, purego), against 3-10% with the loop.
func blocksGeneric(h *[8]uint32, p *byte, n uintptr) {
	blocks := unsafe.Slice((*[BlockSize]byte)(unsafe.Pointer(p)), n)
	for blk := range blocks {
		var w [64]uint32
		schedule(&w, &blocks[blk])
		a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
		// Eight rounds a turn, the variables taking each other's roles, so
		// that no round moves the state along.
		for i := 0; i < 64; i += 8 {
			d, hh = round(a, b, c, d, e, f, g, hh, k256[i]+w[i])
			c, g = round(hh, a, b, c, d, e, f, g, k256[i+1]+w[i+1])
			b, f = round(g, hh, a, b, c, d, e, f, k256[i+2]+w[i+2])
			a, e = round(f, g, hh, a, b, c, d, e, k256[i+3]+w[i+3])
			hh, d = round(e, f, g, hh, a, b, c, d, k256[i+4]+w[i+4])
			g, c = round(d, e, f, g, hh, a, b, c, k256[i+5]+w[i+5])
			f, b = round(c, d, e, f, g, hh, a, b, k256[i+6]+w[i+6])
			e, a = round(b, c, d, e, f, g, hh, a, k256[i+7]+w[i+7])
		}
		h[0] += a
		h[1] += b
		h[2] += c
		h[3] += d
		h[4] += e
		h[5] += f
		h[6] += g
		h[7] += hh
	}
}

// round is one SHA-256 round: it returns the new d and h (which become e and
// a as the roles turn).
func round(a, b, c, d, e, f, g, h, wk uint32) (uint32, uint32) {
	t1 := h + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) + (e&f ^ ^e&g) + wk
	t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) + (a&b ^ a&c ^ b&c)
	return d + t1, t1 + t2
}
