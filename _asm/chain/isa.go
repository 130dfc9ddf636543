package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	ymm = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	zmm = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

// avx2 is 8 lanes in YMM registers: the state in Y0-Y7, temporaries in
// Y8-Y13, Maj's carried xor in Y14-Y15, the schedule in a 16-slot ring on
// the stack (R14).
type avx2 struct{}

func (avx2) name() string    { return "avx2" }
func (avx2) lanes() int      { return 8 }
func (avx2) vecBytes() int   { return 32 }
func (avx2) frameBytes() int { return 16 * 32 }

func (avx2) load(m Mem, x VecPhysical)      { VMOVDQU(m, x) }
func (avx2) store(x VecPhysical, m Mem)     { VMOVDQU(x, m) }
func (avx2) mov(x, dst VecPhysical)         { VMOVDQA(x, dst) }
func (avx2) add(a Op, b, dst VecPhysical)   { VPADDD(a, b, dst) }
func (avx2) addC(c int, x, dst VecPhysical) { VPADDD(laneCV.Offset(32*c), x, dst) }
func (avx2) broadcast(c int, dst VecPhysical) {
	VMOVDQU(laneCV.Offset(32*c), dst)
}

// xorRotr xors x>>>r into dst, with two shifts (AVX2 has no rotate).
func (avx2) xorRotr(x, dst, t VecPhysical, r int) {
	VPSRLD(U8(r), x, t)
	VPXOR(t, dst, dst)
	VPSLLD(U8(32-r), x, t)
	VPXOR(t, dst, dst)
}

func (v avx2) bigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical) {
	VPSRLD(U8(r1), x, dst)
	VPSLLD(U8(32-r1), x, t[0])
	VPXOR(t[0], dst, dst)
	v.xorRotr(x, dst, t[0], r2)
	v.xorRotr(x, dst, t[0], r3)
}

func (v avx2) smallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical) {
	VPSRLD(U8(s3), x, dst)
	v.xorRotr(x, dst, t[0], r1)
	v.xorRotr(x, dst, t[0], r2)
}

// ch: ((f ^ g) & e) ^ g.
func (avx2) ch(e, f, g, dst VecPhysical, _ []VecPhysical) {
	VPXOR(g, f, dst)
	VPAND(e, dst, dst)
	VPXOR(g, dst, dst)
}

// Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and b ^ c is the previous round's
// a ^ b: two registers carry it, alternating by round.
var majCarry = [2]VecPhysical{Y14, Y15}

func (avx2) startRounds(i int, b, c VecPhysical) { VPXOR(c, b, majCarry[(i+1)%2]) }

func (avx2) maj(i int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	ab, bc := majCarry[i%2], majCarry[(i+1)%2]
	VPXOR(b, a, ab)
	VPAND(bc, ab, dst)
	VPXOR(b, dst, dst)
}

func (avx2) state(k int) VecPhysical { return ymm[k] }
func (avx2) temps() []VecPhysical    { return ymm[8:14] }

func (avx2) ring(j int) Mem { return Mem{Base: R14, Disp: 32 * (j % 16)} }

func (v avx2) w(j int, t VecPhysical) VecPhysical {
	VMOVDQA(v.ring(j), t)
	return t
}
func (v avx2) wPut(j int, x VecPhysical)           { VMOVDQA(x, v.ring(j)) }
func (avx2) wDst(_ int, t VecPhysical) VecPhysical { return t }
func (avx2) done()                                 { VZEROUPPER() }

// avx512 is 16 lanes in ZMM registers: the state in Z0-Z7, temporaries in
// Z8-Z15, the schedule's 16-word ring in Z16-Z31.
type avx512 struct{}

func (avx512) name() string    { return "avx512" }
func (avx512) lanes() int      { return 16 }
func (avx512) vecBytes() int   { return 64 }
func (avx512) frameBytes() int { return 0 }

func (avx512) load(m Mem, x VecPhysical)      { VMOVDQU32(m, x) }
func (avx512) store(x VecPhysical, m Mem)     { VMOVDQU32(x, m) }
func (avx512) mov(x, dst VecPhysical)         { VMOVDQA64(x, dst) }
func (avx512) add(a Op, b, dst VecPhysical)   { VPADDD(a, b, dst) }
func (avx512) addC(c int, x, dst VecPhysical) { VPADDD_BCST(laneC.Offset(4*c), x, dst) }
func (avx512) broadcast(c int, dst VecPhysical) {
	VPBROADCASTD(laneC.Offset(4*c), dst)
}

// VPTERNLOGD's immediate is the truth table of (dst, src1, src2) -> bit
// (dst<<2 | src1<<1 | src2); in Go's operand order: imm, src2, src1, dst.
const (
	xor3     = 0x96
	chooseFn = 0xca // dst ? src1 : src2
	majFn    = 0xe8
)

func (avx512) bigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical) {
	VPRORD(U8(r1), x, dst)
	VPRORD(U8(r2), x, t[0])
	VPRORD(U8(r3), x, t[1])
	VPTERNLOGD(U8(xor3), t[1], t[0], dst)
}

func (avx512) smallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical) {
	VPRORD(U8(r1), x, dst)
	VPRORD(U8(r2), x, t[0])
	VPSRLD(U8(s3), x, t[1])
	VPTERNLOGD(U8(xor3), t[1], t[0], dst)
}

func (avx512) ch(e, f, g, dst VecPhysical, _ []VecPhysical) {
	VMOVDQA64(e, dst)
	VPTERNLOGD(U8(chooseFn), g, f, dst)
}

func (avx512) startRounds(int, VecPhysical, VecPhysical) {}

func (avx512) maj(i int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	VMOVDQA64(a, dst)
	VPTERNLOGD(U8(majFn), c, b, dst)
}

func (avx512) state(k int) VecPhysical { return zmm[k] }
func (avx512) temps() []VecPhysical    { return zmm[8:16] }

func (avx512) w(j int, _ VecPhysical) VecPhysical    { return zmm[16+j%16] }
func (avx512) wPut(int, VecPhysical)                 {}
func (avx512) wDst(j int, _ VecPhysical) VecPhysical { return zmm[16+j%16] }
func (avx512) done()                                 { VZEROUPPER() }
