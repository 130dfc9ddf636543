package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/sha256x/sha256x/_asm/vec"
)

// avx2 is 8 lanes in YMM registers. Sixteen registers hold the state, the
// round temporaries and Maj's carried xor, so the schedule lives in a
// 16-slot ring on the stack, after the state.
type avx2 struct{ vec.AVX2 }

func (avx2) name() string          { return "avx2" }
func (avx2) lanes() int            { return 8 }
func (avx2) vecBytes() int         { return 32 }
func (avx2) vec(i int) VecPhysical { return vec.Ymm[i] }
func (avx2) kStride() int          { return 32 } // K[i] broadcast to 8 lanes: no embedded broadcast in AVX2
func (avx2) frameBytes() int       { return 16 * 32 }
func (avx2) lat2() bool            { return false }

func (avx2) load(m Mem, x VecPhysical)  { VMOVDQU(m, x) }
func (avx2) store(x VecPhysical, m Mem) { VMOVDQU(x, m) }
func (avx2) add(m Op, x, dst VecPhysical) {
	VPADDD(m, x, dst)
}

func (avx2) unpack(q, hi bool, x, y, dst VecPhysical) {
	switch {
	case !q && !hi:
		VPUNPCKLDQ(y, x, dst)
	case !q && hi:
		VPUNPCKHDQ(y, x, dst)
	case q && !hi:
		VPUNPCKLQDQ(y, x, dst)
	default:
		VPUNPCKHQDQ(y, x, dst)
	}
}

func (avx2) lanes128(hi bool, x, y, dst VecPhysical) {
	if hi {
		VPERM2I128(U8(0x31), y, x, dst)
	} else {
		VPERM2I128(U8(0x20), y, x, dst)
	}
}

func (avx2) bswap(x VecPhysical) { VPSHUFB(flipMask, x, x) }

// Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and b ^ c is the previous round's
// a ^ b: two registers carry it, alternating by round.
var majCarry = [2]VecPhysical{Y14, Y15}

func (avx2) startRounds(b, c VecPhysical) { VPXOR(c, b, majCarry[1]) }

func (avx2) maj(i int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	ab, bc := majCarry[i%2], majCarry[(i+1)%2]
	VPXOR(b, a, ab)
	VPAND(bc, ab, dst)
	VPXOR(b, dst, dst)
}

func (avx2) addK(k Mem, w, dst VecPhysical) { VPADDD(k, w, dst) }

func (avx2) addWK(m Mem, x, t VecPhysical) {
	VPBROADCASTD(m, t)
	VPADDD(t, x, x)
}

func (avx2) ringMem(j int) Mem { return Mem{Base: frame, Disp: 8*32 + 32*(j%16)} }

func (v avx2) wRing(j int) Op { return v.ringMem(j) }

func (v avx2) wGet(j int, t VecPhysical) VecPhysical {
	VMOVDQU(v.ringMem(j), t)
	return t
}

func (v avx2) wPut(j int, x VecPhysical) { VMOVDQU(x, v.ringMem(j)) }

func (avx2) state(k int) VecPhysical { return vec.Ymm[k] }
func (avx2) temps() []VecPhysical    { return vec.Ymm[8:14] }
func (avx2) rows(bank int) []VecPhysical {
	return vec.Ymm[8*bank : 8*bank+8]
}

// avx512 is 16 lanes in ZMM registers: the state in Z0-Z7, round
// temporaries in Z8-Z15, the schedule's 16-word ring in Z16-Z31.
type avx512 struct{ vec.AVX512 }

func (avx512) name() string          { return "avx512" }
func (avx512) lanes() int            { return 16 }
func (avx512) vecBytes() int         { return 64 }
func (avx512) vec(i int) VecPhysical { return vec.Zmm[i] }
func (avx512) kStride() int          { return 4 } // scalar K[i], broadcast by the add
func (avx512) frameBytes() int       { return 0 }
func (avx512) lat2() bool            { return false }

func (avx512) load(m Mem, x VecPhysical)    { VMOVDQU32(m, x) }
func (avx512) store(x VecPhysical, m Mem)   { VMOVDQU32(x, m) }
func (avx512) add(m Op, x, dst VecPhysical) { VPADDD(m, x, dst) }

func (avx512) unpack(q, hi bool, x, y, dst VecPhysical) {
	switch {
	case !q && !hi:
		VPUNPCKLDQ(y, x, dst)
	case !q && hi:
		VPUNPCKHDQ(y, x, dst)
	case q && !hi:
		VPUNPCKLQDQ(y, x, dst)
	default:
		VPUNPCKHQDQ(y, x, dst)
	}
}

func (avx512) lanes128(hi bool, x, y, dst VecPhysical) {
	if hi {
		VSHUFI32X4(U8(0xdd), y, x, dst) // blocks 1, 3 of x, then of y
	} else {
		VSHUFI32X4(U8(0x88), y, x, dst) // blocks 0, 2 of x, then of y
	}
}

func (avx512) bswap(x VecPhysical) { VPSHUFB(flipMask, x, x) }

// VPTERNLOGD's immediate is the truth table of (dst, src1, src2) -> bit
// (dst<<2 | src1<<1 | src2); in Go's operand order: imm, src2, src1, dst.
func (avx512) startRounds(b, c VecPhysical) {}

func (avx512) maj(i int, a, b, c, dst VecPhysical, _ []VecPhysical) {
	VMOVDQA64(a, dst)
	VPTERNLOGD(U8(vec.MajFn), c, b, dst)
}

func (avx512) addK(k Mem, w, dst VecPhysical) { VPADDD_BCST(k, w, dst) }

func (avx512) addWK(m Mem, x, _ VecPhysical) { VPADDD_BCST(m, x, x) }

func (avx512) wRing(j int) Op { return vec.Zmm[16+j%16] }

func (avx512) wGet(j int, _ VecPhysical) VecPhysical { return vec.Zmm[16+j%16] }

func (avx512) wPut(j int, x VecPhysical) {
	if r := vec.Zmm[16+j%16]; x != r {
		VMOVDQA64(x, r)
	}
}

func (avx512) state(k int) VecPhysical { return vec.Zmm[k] }
func (avx512) temps() []VecPhysical    { return vec.Zmm[8:16] }
func (avx512) rows(bank int) []VecPhysical {
	if bank == 0 {
		return vec.Zmm[16:32]
	}
	return vec.Zmm[0:16]
}
