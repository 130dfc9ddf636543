//go:build !purego

#include "textflag.h"

// func prefetch(p *uintptr, n int)
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JZ   done

loop:
	MOVQ       (SI), AX
	PREFETCHT0 (AX)
	ADDQ       $8, SI
	DECQ       CX
	JNZ        loop

done:
	RET
