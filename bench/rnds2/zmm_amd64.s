#include "textflag.h"

// The latency and throughput of the three 512-bit operations a lane round is
// made of (VPADDD, VPRORD, VPTERNLOGD): a chain of 8 dependent ones a loop
// step, and 8 independent ones on Z16-Z23 a step, 4 steps an iteration.

#define SETZ \
	MOVQ n+0(FP), CX; VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17; VPXORD Z18, Z18, Z18; \
	VPXORD Z19, Z19, Z19; VPXORD Z20, Z20, Z20; VPXORD Z21, Z21, Z21; VPXORD Z22, Z22, Z22; \
	VPXORD Z23, Z23, Z23; VPXORD Z24, Z24, Z24

#define ADD8 \
	VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16; \
	VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16; VPADDD Z24, Z16, Z16

#define ROR8 \
	VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16; \
	VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16; VPRORD $7, Z16, Z16

#define TERN8 \
	VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16; \
	VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z16

#define ADDX8 \
	VPADDD Z24, Z16, Z16; VPADDD Z24, Z17, Z17; VPADDD Z24, Z18, Z18; VPADDD Z24, Z19, Z19; \
	VPADDD Z24, Z20, Z20; VPADDD Z24, Z21, Z21; VPADDD Z24, Z22, Z22; VPADDD Z24, Z23, Z23

#define RORX8 \
	VPRORD $7, Z16, Z16; VPRORD $7, Z17, Z17; VPRORD $7, Z18, Z18; VPRORD $7, Z19, Z19; \
	VPRORD $7, Z20, Z20; VPRORD $7, Z21, Z21; VPRORD $7, Z22, Z22; VPRORD $7, Z23, Z23

#define TERNX8 \
	VPTERNLOGD $0x96, Z24, Z24, Z16; VPTERNLOGD $0x96, Z24, Z24, Z17; VPTERNLOGD $0x96, Z24, Z24, Z18; VPTERNLOGD $0x96, Z24, Z24, Z19; \
	VPTERNLOGD $0x96, Z24, Z24, Z20; VPTERNLOGD $0x96, Z24, Z24, Z21; VPTERNLOGD $0x96, Z24, Z24, Z22; VPTERNLOGD $0x96, Z24, Z24, Z23

#define LOOP(name, body) \
	SETZ; \
name: \
	body; body; body; body; \
	DECQ CX; JNZ name; \
	VZEROUPPER; RET

// func zaddChain(n int)
TEXT ·zaddChain(SB), NOSPLIT, $0-8
	LOOP(zadd_loop, ADD8)

// func zrorChain(n int)
TEXT ·zrorChain(SB), NOSPLIT, $0-8
	LOOP(zror_loop, ROR8)

// func zternChain(n int)
TEXT ·zternChain(SB), NOSPLIT, $0-8
	LOOP(ztern_loop, TERN8)

// func zaddIndep(n int)
TEXT ·zaddIndep(SB), NOSPLIT, $0-8
	LOOP(zaddx_loop, ADDX8)

// func zrorIndep(n int)
TEXT ·zrorIndep(SB), NOSPLIT, $0-8
	LOOP(zrorx_loop, RORX8)

// func zternIndep(n int)
TEXT ·zternIndep(SB), NOSPLIT, $0-8
	LOOP(zternx_loop, TERNX8)

// MOVADD8 is 4 register copies, each feeding an add: a chain of 8, whose
// cost over 4 adds' is what a copy adds to a dependent chain.
#define MOVADD8 \
	VMOVDQA64 Z16, Z17; VPADDD Z24, Z17, Z16; VMOVDQA64 Z16, Z17; VPADDD Z24, Z17, Z16; \
	VMOVDQA64 Z16, Z17; VPADDD Z24, Z17, Z16; VMOVDQA64 Z16, Z17; VPADDD Z24, Z17, Z16

// RORTERNX8 is 4 rotates and 4 ternary logic operations, independent:
// whether the two kinds share ports.
#define RORTERNX8 \
	VPRORD $7, Z16, Z16; VPTERNLOGD $0x96, Z24, Z24, Z17; VPRORD $7, Z18, Z18; VPTERNLOGD $0x96, Z24, Z24, Z19; \
	VPRORD $7, Z20, Z20; VPTERNLOGD $0x96, Z24, Z24, Z21; VPRORD $7, Z22, Z22; VPTERNLOGD $0x96, Z24, Z24, Z23

#define RORADDX8 \
	VPRORD $7, Z16, Z16; VPADDD Z24, Z17, Z17; VPRORD $7, Z18, Z18; VPADDD Z24, Z19, Z19; \
	VPRORD $7, Z20, Z20; VPADDD Z24, Z21, Z21; VPRORD $7, Z22, Z22; VPADDD Z24, Z23, Z23

// MOVX8 is 8 independent copies.
#define MOVX8 \
	VMOVDQA64 Z24, Z16; VMOVDQA64 Z24, Z17; VMOVDQA64 Z24, Z18; VMOVDQA64 Z24, Z19; \
	VMOVDQA64 Z24, Z20; VMOVDQA64 Z24, Z21; VMOVDQA64 Z24, Z22; VMOVDQA64 Z24, Z23

// func zmovAddChain(n int)
TEXT ·zmovAddChain(SB), NOSPLIT, $0-8
	LOOP(zmovadd_loop, MOVADD8)

// func zrorTernIndep(n int)
TEXT ·zrorTernIndep(SB), NOSPLIT, $0-8
	LOOP(zrortern_loop, RORTERNX8)

// func zrorAddIndep(n int)
TEXT ·zrorAddIndep(SB), NOSPLIT, $0-8
	LOOP(zroradd_loop, RORADDX8)

// func zmovIndep(n int)
TEXT ·zmovIndep(SB), NOSPLIT, $0-8
	LOOP(zmov_loop, MOVX8)

// The 256-bit operations of the AVX2 lane kernel (VPADDD, VPXOR, VPSRLD): a
// chain of 8 dependent ones a loop step, and 8 independent ones on Y0-Y7.

#define SETY \
	MOVQ n+0(FP), CX; VPXOR Y0, Y0, Y0; VPXOR Y1, Y1, Y1; VPXOR Y2, Y2, Y2; \
	VPXOR Y3, Y3, Y3; VPXOR Y4, Y4, Y4; VPXOR Y5, Y5, Y5; VPXOR Y6, Y6, Y6; \
	VPXOR Y7, Y7, Y7; VPXOR Y8, Y8, Y8

#define YLOOP(name, body) \
	SETY; \
name: \
	body; body; body; body; \
	DECQ CX; JNZ name; \
	VZEROUPPER; RET

#define YADD8 \
	VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0; \
	VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0; VPADDD Y8, Y0, Y0

#define YXOR8 \
	VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0; \
	VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0; VPXOR Y8, Y0, Y0

#define YSHR8 \
	VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0; \
	VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0; VPSRLD $7, Y0, Y0

#define YADDX8 \
	VPADDD Y8, Y0, Y0; VPADDD Y8, Y1, Y1; VPADDD Y8, Y2, Y2; VPADDD Y8, Y3, Y3; \
	VPADDD Y8, Y4, Y4; VPADDD Y8, Y5, Y5; VPADDD Y8, Y6, Y6; VPADDD Y8, Y7, Y7

#define YXORX8 \
	VPXOR Y8, Y0, Y0; VPXOR Y8, Y1, Y1; VPXOR Y8, Y2, Y2; VPXOR Y8, Y3, Y3; \
	VPXOR Y8, Y4, Y4; VPXOR Y8, Y5, Y5; VPXOR Y8, Y6, Y6; VPXOR Y8, Y7, Y7

#define YSHRX8 \
	VPSRLD $7, Y0, Y0; VPSRLD $7, Y1, Y1; VPSRLD $7, Y2, Y2; VPSRLD $7, Y3, Y3; \
	VPSRLD $7, Y4, Y4; VPSRLD $7, Y5, Y5; VPSRLD $7, Y6, Y6; VPSRLD $7, Y7, Y7

// func yaddChain(n int)
TEXT ·yaddChain(SB), NOSPLIT, $0-8
	YLOOP(yadd_loop, YADD8)

// func yxorChain(n int)
TEXT ·yxorChain(SB), NOSPLIT, $0-8
	YLOOP(yxor_loop, YXOR8)

// func yshrChain(n int)
TEXT ·yshrChain(SB), NOSPLIT, $0-8
	YLOOP(yshr_loop, YSHR8)

// func yaddIndep(n int)
TEXT ·yaddIndep(SB), NOSPLIT, $0-8
	YLOOP(yaddx_loop, YADDX8)

// func yxorIndep(n int)
TEXT ·yxorIndep(SB), NOSPLIT, $0-8
	YLOOP(yxorx_loop, YXORX8)

// func yshrIndep(n int)
TEXT ·yshrIndep(SB), NOSPLIT, $0-8
	YLOOP(yshrx_loop, YSHRX8)
