package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/sha256x/sha256x/_asm/vec"
)

// avx2 is 8 lanes in YMM registers: the state in Y0-Y7, temporaries in
// Y8-Y13, Maj's carried xor in Y14-Y15, the schedule in a 16-slot ring on
// the stack (R14).
type avx2 struct{ vec.AVX2 }

func (avx2) frameBytes() int { return 16 * 32 }

func (avx2) mov(x, dst VecPhysical)         { VMOVDQA(x, dst) }
func (avx2) addC(c int, x, dst VecPhysical) { VPADDD(laneCV.Offset(32*c), x, dst) }
func (avx2) broadcast(c int, dst VecPhysical) {
	VMOVDQU(laneCV.Offset(32*c), dst)
}

func (avx2) startRounds(i int, b, c VecPhysical) { vec.AVX2{}.StartMaj(i, b, c) }

func (avx2) ring(j int) Mem { return Mem{Base: R14, Disp: 32 * (j % 16)} }

func (v avx2) w(j int, t VecPhysical) VecPhysical {
	VMOVDQA(v.ring(j), t)
	return t
}
func (v avx2) wPut(j int, x VecPhysical)           { VMOVDQA(x, v.ring(j)) }
func (avx2) wDst(_ int, t VecPhysical) VecPhysical { return t }
func (avx2) done()                                 { VZEROUPPER() }
func (avx2) lat2() bool                            { return false }

// avx512 is 16 lanes in ZMM registers: the state in Z0-Z7, temporaries in
// Z8-Z15, the schedule's 16-word ring in Z16-Z31.
type avx512 struct{ vec.AVX512 }

func (avx512) frameBytes() int { return 0 }

func (avx512) mov(x, dst VecPhysical)         { VMOVDQA64(x, dst) }
func (avx512) addC(c int, x, dst VecPhysical) { VPADDD_BCST(laneC.Offset(4*c), x, dst) }
func (avx512) broadcast(c int, dst VecPhysical) {
	VPBROADCASTD(laneC.Offset(4*c), dst)
}

// Maj carries nothing from round to round.
func (avx512) startRounds(int, VecPhysical, VecPhysical) {}

func (avx512) w(j int, _ VecPhysical) VecPhysical    { return vec.Zmm[16+j%16] }
func (avx512) wPut(int, VecPhysical)                 {}
func (avx512) wDst(j int, _ VecPhysical) VecPhysical { return vec.Zmm[16+j%16] }
func (avx512) done()                                 { VZEROUPPER() }
func (avx512) lat2() bool                            { return false }
