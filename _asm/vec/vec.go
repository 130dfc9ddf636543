// Package vec holds the SHA-256 lane primitives that the lanes and chain
// generators share, for 8 lanes of AVX2 and 16 of AVX-512: the registers,
// loads, stores and adds, Σ and σ, Ch and Maj. Each generator's isa type
// embeds AVX2 or AVX512 and adds what differs between them (the schedule's
// layout, constants).
package vec

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	// Ymm and Zmm are the vector registers by number.
	Ymm = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	Zmm = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

// VPTERNLOGD truth tables.
const (
	Xor3     = 0x96
	ChooseFn = 0xca // dst ? src1 : src2
	MajFn    = 0xe8
)

// AVX2 is 8 lanes in YMM registers; it has no rotate. The state is in
// Y0-Y7, the round temporaries in Y8-Y13, Maj's carried xor in Y14-Y15.
type AVX2 struct{}

func (AVX2) Name() string                 { return "avx2" }
func (AVX2) Lanes() int                   { return 8 }
func (AVX2) VecBytes() int                { return 32 }
func (AVX2) Load(m Mem, x VecPhysical)    { VMOVDQU(m, x) }
func (AVX2) Store(x VecPhysical, m Mem)   { VMOVDQU(x, m) }
func (AVX2) Add(m Op, x, dst VecPhysical) { VPADDD(m, x, dst) }
func (AVX2) State(k int) VecPhysical      { return Ymm[k] }
func (AVX2) Temps() []VecPhysical         { return Ymm[8:14] }

// Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and b ^ c is the previous round's
// a ^ b: two registers carry it, alternating by round.
var majCarry = [2]VecPhysical{Y14, Y15}

// StartMaj sets what Maj carries into round i: b ^ c.
func (AVX2) StartMaj(i int, b, c VecPhysical) { VPXOR(c, b, majCarry[(i+1)%2]) }

// Maj sets dst to Maj(a, b, c) in round i.
func (AVX2) Maj(i int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	ab, bc := majCarry[i%2], majCarry[(i+1)%2]
	VPXOR(b, a, ab)
	VPAND(bc, ab, dst)
	VPXOR(b, dst, dst)
}

// xorRotr xors x>>>r into dst, with two shifts.
func (AVX2) xorRotr(x, dst, t VecPhysical, r int) {
	VPSRLD(U8(r), x, t)
	VPXOR(t, dst, dst)
	VPSLLD(U8(32-r), x, t)
	VPXOR(t, dst, dst)
}

// BigSigma sets dst to x>>>r1 ^ x>>>r2 ^ x>>>r3, using t[0].
func (v AVX2) BigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical) {
	VPSRLD(U8(r1), x, dst)
	VPSLLD(U8(32-r1), x, t[0])
	VPXOR(t[0], dst, dst)
	v.xorRotr(x, dst, t[0], r2)
	v.xorRotr(x, dst, t[0], r3)
}

// SmallSigma sets dst to x>>>r1 ^ x>>>r2 ^ x>>s3, using t[0].
func (v AVX2) SmallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical) {
	VPSRLD(U8(s3), x, dst)
	v.xorRotr(x, dst, t[0], r1)
	v.xorRotr(x, dst, t[0], r2)
}

// Ch sets dst to ((f ^ g) & e) ^ g.
func (AVX2) Ch(e, f, g, dst VecPhysical, _ []VecPhysical) {
	VPXOR(g, f, dst)
	VPAND(e, dst, dst)
	VPXOR(g, dst, dst)
}

// AVX512 is 16 lanes in ZMM registers: VPRORD rotates, VPTERNLOGD for the
// three-way xors, Ch and Maj. The state is in Z0-Z7, the round temporaries
// in Z8-Z15.
type AVX512 struct{}

func (AVX512) Name() string                 { return "avx512" }
func (AVX512) Lanes() int                   { return 16 }
func (AVX512) VecBytes() int                { return 64 }
func (AVX512) Load(m Mem, x VecPhysical)    { VMOVDQU32(m, x) }
func (AVX512) Store(x VecPhysical, m Mem)   { VMOVDQU32(x, m) }
func (AVX512) Add(m Op, x, dst VecPhysical) { VPADDD(m, x, dst) }
func (AVX512) State(k int) VecPhysical      { return Zmm[k] }
func (AVX512) Temps() []VecPhysical         { return Zmm[8:16] }

// Maj sets dst to Maj(a, b, c). VPTERNLOGD's immediate is the truth table of
// (dst, src1, src2) -> bit (dst<<2 | src1<<1 | src2); in Go's operand order:
// imm, src2, src1, dst.
func (AVX512) Maj(_ int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	VMOVDQA64(a, dst)
	VPTERNLOGD(U8(MajFn), c, b, dst)
}

// BigSigma sets dst to x>>>r1 ^ x>>>r2 ^ x>>>r3, using t[0] and t[1].
func (AVX512) BigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical) {
	VPRORD(U8(r1), x, dst)
	VPRORD(U8(r2), x, t[0])
	VPRORD(U8(r3), x, t[1])
	VPTERNLOGD(U8(Xor3), t[1], t[0], dst)
}

// SmallSigma sets dst to x>>>r1 ^ x>>>r2 ^ x>>s3, using t[0] and t[1].
func (AVX512) SmallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical) {
	VPRORD(U8(r1), x, dst)
	VPRORD(U8(r2), x, t[0])
	VPSRLD(U8(s3), x, t[1])
	VPTERNLOGD(U8(Xor3), t[1], t[0], dst)
}

// Ch sets dst to e ? f : g.
func (AVX512) Ch(e, f, g, dst VecPhysical, _ []VecPhysical) {
	VMOVDQA64(e, dst)
	VPTERNLOGD(U8(ChooseFn), g, f, dst)
}

// RoundOps are the operations a round is made of, as a generator's isa
// gives them (its own adds and Maj; Σ and Ch from here).
type RoundOps struct {
	Add      func(m Op, x, dst VecPhysical) // dst = x + m
	BigSigma func(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical)
	Ch       func(e, f, g, dst VecPhysical, t []VecPhysical)
	Maj      func(a, b, c, dst VecPhysical, t []VecPhysical)
}

// Round emits one round on the state registers s (words a..h of this
// round): wk adds W[i]+K[i] to h; t[0] takes each term, t[1:] are scratch.
//
// T1 = h + Σ1(e) + Ch(e,f,g) + K[i] + W[i]; d += T1; h = T1 + Σ0(a) + Maj(a,b,c).
// In the usual order T1 is summed in h and then added to d, so e's chain to
// the next round's e is four operations: a rotate, an xor, two adds. lat2
// orders it for cores where they take two cycles each (Zen 5): every addend
// of e's goes to d as well as h once it is ready, a chain of three, for two
// adds more a round (BENCHMARKS.md, "The lanes on a core of two-cycle vector
// operations").
func Round(o RoundOps, s [8]VecPhysical, wk func(h VecPhysical), t []VecPhysical, lat2 bool) {
	a, b, c, d, e, f, g, h := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	term, scratch := t[0], t[1:]
	wk(h)
	if lat2 {
		o.Add(h, d, d)
		o.Ch(e, f, g, term, scratch)
		o.Add(term, h, h)
		o.Add(term, d, d)
		o.BigSigma(e, term, 6, 11, 25, scratch)
		o.Add(term, h, h)
		o.Add(term, d, d)
		o.Maj(a, b, c, term, scratch)
		o.Add(term, h, h)
		o.BigSigma(a, term, 2, 13, 22, scratch)
		o.Add(term, h, h)
		return
	}
	o.Ch(e, f, g, term, scratch)
	o.Add(term, h, h)
	o.BigSigma(e, term, 6, 11, 25, scratch)
	o.Add(term, h, h)
	o.Add(h, d, d)
	o.BigSigma(a, term, 2, 13, 22, scratch)
	o.Add(term, h, h)
	o.Maj(a, b, c, term, scratch)
	o.Add(term, h, h)
}
