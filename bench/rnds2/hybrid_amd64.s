#include "textflag.h"

// Lanes and streams in one loop, measured: EVEX work on Z16-Z31 (which
// leaves X0-X15's upper halves clean, so legacy-SSE SHA instructions pay no
// transition) beside two SHA-NI streams, first their SHA256RNDS2 alone, then
// whole blocks with their message schedule.

// ZOPS8 is 8 independent 512-bit operations on Z16-Z23.
#define ZOPS8 \
	VPADDD Z24, Z16, Z16; VPRORD $7, Z17, Z17; VPADDD Z24, Z18, Z18; VPTERNLOGD $0x96, Z24, Z24, Z19; \
	VPADDD Z24, Z20, Z20; VPRORD $7, Z21, Z21; VPADDD Z24, Z22, Z22; VPTERNLOGD $0x96, Z24, Z24, Z23

// R4 is four SHA256RNDS2, two on each of two streams (X1/X2, X3/X4).
#define R4 \
	SHA256RNDS2 X0, X1, X2; SHA256RNDS2 X0, X3, X4; SHA256RNDS2 X0, X2, X1; SHA256RNDS2 X0, X4, X3

// QUAD is four rounds of one stream (state a1/a2) on message group m0 and
// the schedule step that replaces m0 with the group four ahead, as a SHA-NI
// kernel does them: W+K from m0 and a constant at (SI), MSG1, PALIGNR,
// PADDD, MSG2.
#define QUAD(m0, m1, m2, m3, a1, a2, t) \
	MOVO m0, X0; PADDD (SI), X0; SHA256RNDS2 X0, a1, a2; PSHUFD $0x0e, X0, X0; SHA256RNDS2 X0, a2, a1; \
	SHA256MSG1 m1, m0; MOVO m3, t; PALIGNR $4, m2, t; PADDD t, m0; SHA256MSG2 m3, m0

#define SETUP \
	MOVQ n+0(FP), CX; MOVQ k+8(FP), SI; VZEROUPPER; \
	VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17; VPXORD Z18, Z18, Z18; VPXORD Z19, Z19, Z19; \
	VPXORD Z20, Z20, Z20; VPXORD Z21, Z21, Z21; VPXORD Z22, Z22, Z22; VPXORD Z23, Z23, Z23; VPXORD Z24, Z24, Z24; \
	PXOR X0, X0; PXOR X1, X1; PXOR X2, X2; PXOR X3, X3; PXOR X4, X4; PXOR X5, X5; PXOR X6, X6; PXOR X7, X7; \
	PXOR X8, X8; PXOR X9, X9; PXOR X10, X10; PXOR X11, X11; PXOR X12, X12

// ZOPS64 is 64 of them; ZR is 32 of them and four SHA256RNDS2.
#define ZOPS64 ZOPS8; ZOPS8; ZOPS8; ZOPS8; ZOPS8; ZOPS8; ZOPS8; ZOPS8
#define ZR ZOPS8; ZOPS8; ZOPS8; ZOPS8; R4

// QUADS is one quad of each stream for each of the four rotations of their
// message groups: a quarter of a block on each. ZQUADS is the same with 16
// lane operations before each quad.
#define QUADS \
	QUAD(X5, X6, X7, X8, X1, X2, X13); QUAD(X9, X10, X11, X12, X3, X4, X14); \
	QUAD(X6, X7, X8, X5, X1, X2, X13); QUAD(X10, X11, X12, X9, X3, X4, X14); \
	QUAD(X7, X8, X5, X6, X1, X2, X13); QUAD(X11, X12, X9, X10, X3, X4, X14); \
	QUAD(X8, X5, X6, X7, X1, X2, X13); QUAD(X12, X9, X10, X11, X3, X4, X14)
#define ZQUADS \
	ZOPS8; ZOPS8; QUAD(X5, X6, X7, X8, X1, X2, X13); ZOPS8; ZOPS8; QUAD(X9, X10, X11, X12, X3, X4, X14); \
	ZOPS8; ZOPS8; QUAD(X6, X7, X8, X5, X1, X2, X13); ZOPS8; ZOPS8; QUAD(X10, X11, X12, X9, X3, X4, X14); \
	ZOPS8; ZOPS8; QUAD(X7, X8, X5, X6, X1, X2, X13); ZOPS8; ZOPS8; QUAD(X11, X12, X9, X10, X3, X4, X14); \
	ZOPS8; ZOPS8; QUAD(X8, X5, X6, X7, X1, X2, X13); ZOPS8; ZOPS8; QUAD(X12, X9, X10, X11, X3, X4, X14)

// func zmmAlone(n int, k *[4]uint32)
TEXT ·zmmAlone(SB), NOSPLIT, $0-16
	SETUP

zmmAlone_loop:
	ZOPS64; ZOPS64; ZOPS64; ZOPS64; ZOPS64; ZOPS64; ZOPS64; ZOPS64
	DECQ CX
	JNZ  zmmAlone_loop
	VZEROUPPER
	RET

// func rnds2Alone(n int, k *[4]uint32)
TEXT ·rnds2Alone(SB), NOSPLIT, $0-16
	SETUP

rnds2Alone_loop:
	R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4; R4
	DECQ CX
	JNZ  rnds2Alone_loop
	VZEROUPPER
	RET

// func zmmRnds2(n int, k *[4]uint32)
TEXT ·zmmRnds2(SB), NOSPLIT, $0-16
	SETUP

zmmRnds2_loop:
	ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR; ZR
	DECQ CX
	JNZ  zmmRnds2_loop
	VZEROUPPER
	RET

// func blocksAlone(n int, k *[4]uint32)
TEXT ·blocksAlone(SB), NOSPLIT, $0-16
	SETUP

blocksAlone_loop:
	QUADS; QUADS; QUADS; QUADS
	DECQ CX
	JNZ  blocksAlone_loop
	VZEROUPPER
	RET

// func zmmBlocks(n int, k *[4]uint32)
TEXT ·zmmBlocks(SB), NOSPLIT, $0-16
	SETUP

zmmBlocks_loop:
	ZQUADS; ZQUADS; ZQUADS; ZQUADS
	DECQ CX
	JNZ  zmmBlocks_loop
	VZEROUPPER
	RET
