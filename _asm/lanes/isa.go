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

func (avx2) vec(i int) VecPhysical { return vec.Ymm[i] }
func (avx2) kStride() int          { return 32 } // K[i] broadcast to 8 lanes: no embedded broadcast in AVX2
func (avx2) frameBytes() int       { return 16 * 32 }
func (avx2) lat2() bool            { return false }
func (avx2) wave() int             { return 0 }
func (avx2) total() int            { return 8 }
func (avx2) preSchedule() bool     { return false }

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

func (avx2) startRounds(b, c VecPhysical) { vec.AVX2{}.StartMaj(0, b, c) }

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

func (avx2) rows(bank int) []VecPhysical {
	return vec.Ymm[8*bank : 8*bank+8]
}

// avx512 is 16 lanes in ZMM registers: the state in Z0-Z7, round
// temporaries in Z8-Z15, the schedule's 16-word ring in Z16-Z31.
type avx512 struct{ vec.AVX512 }

func (avx512) vec(i int) VecPhysical { return vec.Zmm[i] }
func (avx512) kStride() int          { return 4 } // scalar K[i], broadcast by the add
func (avx512) frameBytes() int       { return 0 }
func (avx512) lat2() bool            { return false }
func (avx512) wave() int             { return 0 }
func (avx512) total() int            { return 16 }
func (avx512) preSchedule() bool     { return false }

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

// Maj carries nothing from round to round.
func (avx512) startRounds(b, c VecPhysical) {}

func (avx512) addK(k Mem, w, dst VecPhysical) { VPADDD_BCST(k, w, dst) }

func (avx512) addWK(m Mem, x, _ VecPhysical) { VPADDD_BCST(m, x, x) }

func (avx512) wRing(j int) Op { return vec.Zmm[16+j%16] }

func (avx512) wGet(j int, _ VecPhysical) VecPhysical { return vec.Zmm[16+j%16] }

func (avx512) wPut(j int, x VecPhysical) {
	if r := vec.Zmm[16+j%16]; x != r {
		VMOVDQA64(x, r)
	}
}

func (avx512) rows(bank int) []VecPhysical {
	if bank == 0 {
		return vec.Zmm[16:32]
	}
	return vec.Zmm[0:16]
}

// avx512Wave is one of the two 16-lane waves of a 32-lane AVX-512 kernel:
// two independent waves whose rounds alternate, so that one wave's work
// fills the pipes while the other's chain of dependent operations waits
// (BENCHMARKS.md, "Two waves of 16 lanes on Zen 5"). The two states take
// Z0-Z15 (wave w: Z8w..Z8w+7) and the round temporaries Z16-Z23 serve both
// waves (the core renames them), so there is no room for the schedules:
// each block's is computed first, all 64 words of both waves, to the stack,
// each word then turned into W+K (compressPre), and the rounds add W+K from
// there.
type avx512Wave struct {
	avx512
	w int
}

func (v avx512Wave) wave() int               { return v.w }
func (avx512Wave) total() int                { return 32 }
func (avx512Wave) frameBytes() int           { return 2 * 2 * 64 * 64 }
func (v avx512Wave) State(k int) VecPhysical { return vec.Zmm[8*v.w+k] }
func (v avx512Wave) Temps() []VecPhysical    { return vec.Zmm[16:24] }
func (avx512Wave) preSchedule() bool         { return true }

// schedRegs are the registers the wave's schedule is computed in while the
// state is loaded: the last four words, then four temporaries.
func (v avx512Wave) schedRegs() []VecPhysical { return vec.Zmm[16+8*v.w : 24+8*v.w] }

// wAt is W[j]'s slot, from a base register pointing at the frame, or at
// a later group of 16 words of it: after the state (8 words of 32 lanes),
// each wave's 64 words of W (then W+K).
func (v avx512Wave) wAt(base Register, j int) Mem {
	return Mem{Base: base, Disp: 8*4*32 + 64*64*v.w + 64*j}
}

func (v avx512Wave) wRing(j int) Op { return v.wAt(frame, j) }

func (v avx512Wave) wGet(j int, t VecPhysical) VecPhysical {
	VMOVDQA64(v.wAt(frame, j), t)
	return t
}

func (v avx512Wave) wPut(j int, x VecPhysical) { VMOVDQA64(x, v.wAt(frame, j)) }
