#include "textflag.h"

// func addChain(n int)
TEXT ·addChain(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX
	MOVQ $1, BX
	XORQ AX, AX

add_loop:
	ADDQ BX, AX
	ADDQ AX, BX
	ADDQ BX, AX
	ADDQ AX, BX
	DECQ CX
	JNZ  add_loop
	RET

// func rnds2Chain(n int)
TEXT ·rnds2Chain(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	PCMPEQL X0, X0
	PCMPEQL X1, X1
	PXOR    X2, X2

chain_loop:
	SHA256RNDS2 X0, X1, X2
	SHA256RNDS2 X0, X2, X1
	SHA256RNDS2 X0, X1, X2
	SHA256RNDS2 X0, X2, X1
	DECQ        CX
	JNZ         chain_loop
	RET

// func rnds2Streams2(n int)
TEXT ·rnds2Streams2(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	PCMPEQL X0, X0
	PXOR    X1, X1
	PXOR    X2, X2
	PXOR    X3, X3
	PXOR    X4, X4

streams2_loop:
	SHA256RNDS2 X0, X1, X2
	SHA256RNDS2 X0, X3, X4
	SHA256RNDS2 X0, X2, X1
	SHA256RNDS2 X0, X4, X3
	DECQ        CX
	JNZ         streams2_loop
	RET

// func rnds2Streams4(n int)
TEXT ·rnds2Streams4(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	PCMPEQL X0, X0
	PXOR    X1, X1
	PXOR    X2, X2
	PXOR    X3, X3
	PXOR    X4, X4
	PXOR    X5, X5
	PXOR    X6, X6
	PXOR    X7, X7
	PXOR    X8, X8

streams4_loop:
	SHA256RNDS2 X0, X1, X2
	SHA256RNDS2 X0, X3, X4
	SHA256RNDS2 X0, X5, X6
	SHA256RNDS2 X0, X7, X8
	DECQ        CX
	JNZ         streams4_loop
	RET

// AVX2 work on Y8-Y11 (upper halves dirty) with and without two legacy-SSE
// SHA256RNDS2 of an independent stream among it.

// func mixedClean(n int)
TEXT ·mixedClean(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	VPXOR   Y8, Y8, Y8
	VPXOR   Y9, Y9, Y9
	VPXOR   Y10, Y10, Y10
	VPXOR   Y11, Y11, Y11

clean_loop:
	VPADDD Y12, Y8, Y8
	VPXOR  Y13, Y9, Y9
	VPADDD Y12, Y10, Y10
	VPXOR  Y13, Y11, Y11
	VPADDD Y12, Y8, Y8
	VPXOR  Y13, Y9, Y9
	VPADDD Y12, Y10, Y10
	VPXOR  Y13, Y11, Y11
	DECQ   CX
	JNZ    clean_loop
	VZEROUPPER
	RET

// func mixedDirty(n int)
TEXT ·mixedDirty(SB), NOSPLIT, $0-8
	MOVQ    n+0(FP), CX
	VPXOR   Y8, Y8, Y8
	VPXOR   Y9, Y9, Y9
	VPXOR   Y10, Y10, Y10
	VPXOR   Y11, Y11, Y11
	PXOR    X0, X0
	PXOR    X1, X1
	PXOR    X2, X2

dirty_loop:
	VPADDD      Y12, Y8, Y8
	VPXOR       Y13, Y9, Y9
	SHA256RNDS2 X0, X1, X2
	VPADDD      Y12, Y10, Y10
	VPXOR       Y13, Y11, Y11
	VPADDD      Y12, Y8, Y8
	VPXOR       Y13, Y9, Y9
	SHA256RNDS2 X0, X2, X1
	VPADDD      Y12, Y10, Y10
	VPXOR       Y13, Y11, Y11
	DECQ        CX
	JNZ         dirty_loop
	VZEROUPPER
	RET
