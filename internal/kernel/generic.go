package kernel

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// runGeneric is the portable kernel, and the model of the kernel contract
// (the package doc) that every assembly kernel follows: each step hashes
// one block in every busy lane; a lane whose job ends writes the digest and
// takes the next job, before the kernel returns. Go has no SIMD, so each
// step hashes its lanes one after another (one lane alone hashes a whole
// run a step); widths above 1 exist to test the scheduler in pure Go.
func runGeneric(ls *LaneSet, jobs []Job, width int) {
	var cur [MaxLanes]*Job // each lane's job, nil when idle
	var p [MaxLanes]*byte  // each lane's next block
	next, busy := 0, 0
	start := func(i int) {
		l := &ls.Lanes[i]
		if next == len(jobs) {
			cur[i], p[i] = nil, nil
			l.Job = 0
			return
		}
		j := &jobs[next]
		next++
		busy++
		cur[i], p[i] = j, j.Runs[0].P
		l.H = *j.Init
		l.N, l.Seg, l.Job = j.Runs[0].N, 0, uintptr(next)
	}
	for i := range width {
		start(i)
	}
	left := ^uintptr(0) // steps the call may still run
	if ls.MaxSteps != 0 {
		left = ls.MaxSteps
	}
	for busy >= int(ls.MinActive) && busy > 0 && left > 0 {
		step := uintptr(1)
		if width == 1 {
			// A lone lane hashes its whole run in one call.
			if step = ls.Lanes[0].N; step > left {
				step = left
			}
		}
		left -= step
		for i := range width {
			j := cur[i]
			if j == nil {
				continue
			}
			l := &ls.Lanes[i]
			blocksGeneric(&l.H, p[i], step)
			if l.N -= step; l.N > 0 {
				p[i] = (*byte)(unsafe.Add(unsafe.Pointer(p[i]), step*BlockSize))
				continue
			}
			if l.Seg++; l.Seg < uintptr(len(j.Runs)) && j.Runs[l.Seg].N != 0 {
				p[i], l.N = j.Runs[l.Seg].P, j.Runs[l.Seg].N
				continue
			}
			PutDigest(j.Out, &l.H)
			busy--
			start(i)
		}
	}
}

// ScheduleWK sets wk to block p's message schedule plus the round
// constants, W[t]+K[t]: what a kernel reads for the shared padding block
// (LaneSet.PadBlockWK).
func ScheduleWK(wk *[64]uint32, p *[BlockSize]byte) {
	schedule(wk, p)
	for i := range wk {
		wk[i] += K[i]
	}
}

// schedule expands block p into its message schedule w.
func schedule(w *[64]uint32, p *[BlockSize]byte) {
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	expand(w)
}

// expand computes W[16..63] of a message schedule from W[0..15].
func expand(w *[64]uint32) {
	for i := 16; i < 64; i++ {
		x, y := w[i-2], w[i-15]
		s1 := bits.RotateLeft32(x, -17) ^ bits.RotateLeft32(x, -19) ^ x>>10
		s0 := bits.RotateLeft32(y, -7) ^ bits.RotateLeft32(y, -18) ^ y>>3
		w[i] = s1 + w[i-7] + s0 + w[i-16]
	}
}

// blocksGeneric hashes n blocks from p into h. It loops over the blocks
// itself, as crypto/sha256's Go code does: with a call a block, the runtime
// stopped the world slowly on a busy host (bench/HISTORY.md, "A stalled
// runtime: bounded kernel calls").
func blocksGeneric(h *[8]uint32, p *byte, n uintptr) {
	blocks := unsafe.Slice((*[BlockSize]byte)(unsafe.Pointer(p)), n)
	for blk := range blocks {
		var w [64]uint32
		schedule(&w, &blocks[blk])
		compress(h, &w, nil)
	}
}

// compress runs the 64 rounds over schedule w from state h and adds the
// result into h. Rounds 8..15 take their W+K from wk8 where it is not nil
// (the chain kernel's constant half block).
func compress(h *[8]uint32, w *[64]uint32, wk8 *[8]uint32) {
	a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	// Eight rounds a turn, the variables taking each other's roles, so
	// that no round moves the state along.
	for i := 0; i < 64; i += 8 {
		var wk [8]uint32
		if i == 8 && wk8 != nil {
			wk = *wk8
		} else {
			for j := range wk {
				wk[j] = K[i+j] + w[i+j]
			}
		}
		d, hh = round(a, b, c, d, e, f, g, hh, wk[0])
		c, g = round(hh, a, b, c, d, e, f, g, wk[1])
		b, f = round(g, hh, a, b, c, d, e, f, wk[2])
		a, e = round(f, g, hh, a, b, c, d, e, wk[3])
		hh, d = round(e, f, g, hh, a, b, c, d, wk[4])
		g, c = round(d, e, f, g, hh, a, b, c, wk[5])
		f, b = round(c, d, e, f, g, hh, a, b, wk[6])
		e, a = round(b, c, d, e, f, g, hh, a, wk[7])
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

// round is one SHA-256 round: it returns the new d and h (which become e and
// a as the roles turn).
func round(a, b, c, d, e, f, g, h, wk uint32) (uint32, uint32) {
	t1 := h + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) + (e&f ^ ^e&g) + wk
	t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) + (a&b ^ a&c ^ b&c)
	return d + t1, t1 + t2
}
