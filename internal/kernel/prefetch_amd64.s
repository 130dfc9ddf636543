//go:build !purego

#include "textflag.h"

// func PrefetchW(at []unsafe.Pointer)
TEXT ·PrefetchW(SB), NOSPLIT, $0-24
	MOVQ at_base+0(FP), SI
	MOVQ at_len+8(FP), CX
	TESTQ CX, CX
	JZ   done

loop:
	MOVQ (SI), AX
	// PREFETCHW (AX), which the Go assembler does not know: 0F 0D /1.
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08
	ADDQ $8, SI
	DECQ CX
	JNZ  loop

done:
	RET
