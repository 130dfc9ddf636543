//go:build !purego

#include "textflag.h"
#include "lanes_arm64.h"

// The NEON kernel: four lanes, one message per 32-bit lane of each vector
// register, for arm64 CPUs without the SHA2 instructions. It follows
// runGeneric (generic.go): lanes take jobs from the queue in order,
// refill as jobs end, idle lanes hash neonZero, and the kernel returns once
// no job is left and fewer than ls.minActive lanes are busy, in segments as
// the SHA2 kernels (lanes_arm64.h).
//
// Vector registers: the state a..h in V0-V7 at every block boundary (lane
// i of each register is lane i's word); the message schedule W[0..15] in
// V8-V23, in the order the 4x4 transposes leave it, W[t] overwritten by
// W[t+16]; temporaries V24-V27.

// The IDLE_RUN zero blocks an idle lane hashes: its state is never used.
GLOBL ·neonZero(SB), RODATA|NOPTR, $(64*IDLE_RUN)

// W[t] for t in 0..15: word t of each lane's block, then W[t+16], ...
#define W0 V8
#define W1 V12
#define W2 V16
#define W3 V20
#define W4 V9
#define W5 V13
#define W6 V17
#define W7 V21
#define W8 V10
#define W9 V14
#define W10 V18
#define W11 V22
#define W12 V11
#define W13 V15
#define W14 V19
#define W15 V23

#include "neon_arm64.h"

// TRANSPOSE turns rows r0..r3, four words of lanes 0..3, into columns: r0
// gets word 0 of every lane, r1 word 1, r2 word 2, r3 word 3.
#define TRANSPOSE(r0, r1, r2, r3) \
	VTRN1	r1.S4, r0.S4, V24.S4 \
	VTRN2	r1.S4, r0.S4, V25.S4 \
	VTRN1	r3.S4, r2.S4, V26.S4 \
	VTRN2	r3.S4, r2.S4, V27.S4 \
	VTRN1	V26.D2, V24.D2, r0.D2 \
	VTRN2	V26.D2, V24.D2, r2.D2 \
	VTRN1	V27.D2, V25.D2, r1.D2 \
	VTRN2	V27.D2, V25.D2, r3.D2

// GATHER copies lane L's state, words a..h, into V24 and V25.
#define GATHER(L) \
	VMOV	V0.S[L], V24.S[0] \
	VMOV	V1.S[L], V24.S[1] \
	VMOV	V2.S[L], V24.S[2] \
	VMOV	V3.S[L], V24.S[3] \
	VMOV	V4.S[L], V25.S[0] \
	VMOV	V5.S[L], V25.S[1] \
	VMOV	V6.S[L], V25.S[2] \
	VMOV	V7.S[L], V25.S[3]

// DIGEST writes lane L's state to its job's digest, big-endian.
#define DIGEST(L) \
	GATHER(L) \
	VREV32	V24.B16, V24.B16 \
	VREV32	V25.B16, V25.B16 \
	MOVD	JOB_OUT(JP), RT0 \
	VST1	[V24.B16, V25.B16], (RT0)

// LOAD puts the state at (RT0), words a..h, into lane L.
#define LOAD(L) \
	VLD1	(RT0), [V24.S4, V25.S4] \
	VMOV	V24.S[0], V0.S[L] \
	VMOV	V24.S[1], V1.S[L] \
	VMOV	V24.S[2], V2.S[L] \
	VMOV	V24.S[3], V3.S[L] \
	VMOV	V25.S[0], V4.S[L] \
	VMOV	V25.S[1], V5.S[L] \
	VMOV	V25.S[2], V6.S[L] \
	VMOV	V25.S[3], V7.S[L]

// STORE writes busy lane L's state back to its lane.h, words a..h.
#define STORE(L, RL, skip) \
	MOVD	LANE_JOB(RL), RT0 \
	CBZ	RT0, skip \
	GATHER(L) \
	VST1	[V24.S4, V25.S4], (RL) \
skip:

// func neonX4(ls *LaneSet, jobs []Job)
TEXT ·neonX4(SB), NOSPLIT, $128-32
	MOVD	ls+0(FP), LS
	MOVD	jobs_base+8(FP), JOBS
	MOVD	jobs_len+16(FP), NJOBS
	LANE_ENTER
	LANE_START(LANE0)
	LANE_START(LANE1)
	LANE_START(LANE2)
	LANE_START(LANE3)
	B	segend

seg:
	// A segment: as many steps as the lane nearest the end of its run has
	// blocks left (lanes_arm64.h).
	SEG_FIRST(LANE0)
	SEG_MIN(LANE1)
	SEG_MIN(LANE2)
	SEG_MIN(LANE3)
	SEG_LIMIT
	SEG_TAKE(LANE0)
	SEG_TAKE(LANE1)
	SEG_TAKE(LANE2)
	SEG_TAKE(LANE3)

loop:
	// Load: each lane's next 64 bytes, lane i into V(8+4i)..V(11+4i);
	// byte-swap the words; transpose each group of four words so that W[t]
	// holds word t of every lane.
	VLD1	(P0), [V8.B16, V9.B16, V10.B16, V11.B16]
	VLD1	(P1), [V12.B16, V13.B16, V14.B16, V15.B16]
	VLD1	(P2), [V16.B16, V17.B16, V18.B16, V19.B16]
	VLD1	(P3), [V20.B16, V21.B16, V22.B16, V23.B16]
	VREV32	V8.B16, V8.B16
	VREV32	V9.B16, V9.B16
	VREV32	V10.B16, V10.B16
	VREV32	V11.B16, V11.B16
	VREV32	V12.B16, V12.B16
	VREV32	V13.B16, V13.B16
	VREV32	V14.B16, V14.B16
	VREV32	V15.B16, V15.B16
	VREV32	V16.B16, V16.B16
	VREV32	V17.B16, V17.B16
	VREV32	V18.B16, V18.B16
	VREV32	V19.B16, V19.B16
	VREV32	V20.B16, V20.B16
	VREV32	V21.B16, V21.B16
	VREV32	V22.B16, V22.B16
	VREV32	V23.B16, V23.B16
	TRANSPOSE(V8, V12, V16, V20)
	TRANSPOSE(V9, V13, V17, V21)
	TRANSPOSE(V10, V14, V18, V22)
	TRANSPOSE(V11, V15, V19, V23)

	// Save the state for the final addition.
	MOVD	$save-128(SP), RT0
	VST1.P	[V0.S4, V1.S4, V2.S4, V3.S4], 64(RT0)
	VST1	[V4.S4, V5.S4, V6.S4, V7.S4], (RT0)

	// Rounds 0-15 on the block's own words.
	MOVD	$·K(SB), KP
	ROUND(V0, V1, V2, V3, V4, V5, V6, V7, W0)
	ROUND(V7, V0, V1, V2, V3, V4, V5, V6, W1)
	ROUND(V6, V7, V0, V1, V2, V3, V4, V5, W2)
	ROUND(V5, V6, V7, V0, V1, V2, V3, V4, W3)
	ROUND(V4, V5, V6, V7, V0, V1, V2, V3, W4)
	ROUND(V3, V4, V5, V6, V7, V0, V1, V2, W5)
	ROUND(V2, V3, V4, V5, V6, V7, V0, V1, W6)
	ROUND(V1, V2, V3, V4, V5, V6, V7, V0, W7)
	ROUND(V0, V1, V2, V3, V4, V5, V6, V7, W8)
	ROUND(V7, V0, V1, V2, V3, V4, V5, V6, W9)
	ROUND(V6, V7, V0, V1, V2, V3, V4, V5, W10)
	ROUND(V5, V6, V7, V0, V1, V2, V3, V4, W11)
	ROUND(V4, V5, V6, V7, V0, V1, V2, V3, W12)
	ROUND(V3, V4, V5, V6, V7, V0, V1, V2, W13)
	ROUND(V2, V3, V4, V5, V6, V7, V0, V1, W14)
	ROUND(V1, V2, V3, V4, V5, V6, V7, V0, W15)

	// Rounds 16-63, sixteen at a time: schedule W[t] in place of W[t-16],
	// then the round.
	MOVD	$3, R10
sched:
	SCHED_ROUND(V0, V1, V2, V3, V4, V5, V6, V7, W0, W1, W9, W14)
	SCHED_ROUND(V7, V0, V1, V2, V3, V4, V5, V6, W1, W2, W10, W15)
	SCHED_ROUND(V6, V7, V0, V1, V2, V3, V4, V5, W2, W3, W11, W0)
	SCHED_ROUND(V5, V6, V7, V0, V1, V2, V3, V4, W3, W4, W12, W1)
	SCHED_ROUND(V4, V5, V6, V7, V0, V1, V2, V3, W4, W5, W13, W2)
	SCHED_ROUND(V3, V4, V5, V6, V7, V0, V1, V2, W5, W6, W14, W3)
	SCHED_ROUND(V2, V3, V4, V5, V6, V7, V0, V1, W6, W7, W15, W4)
	SCHED_ROUND(V1, V2, V3, V4, V5, V6, V7, V0, W7, W8, W0, W5)
	SCHED_ROUND(V0, V1, V2, V3, V4, V5, V6, V7, W8, W9, W1, W6)
	SCHED_ROUND(V7, V0, V1, V2, V3, V4, V5, V6, W9, W10, W2, W7)
	SCHED_ROUND(V6, V7, V0, V1, V2, V3, V4, V5, W10, W11, W3, W8)
	SCHED_ROUND(V5, V6, V7, V0, V1, V2, V3, V4, W11, W12, W4, W9)
	SCHED_ROUND(V4, V5, V6, V7, V0, V1, V2, V3, W12, W13, W5, W10)
	SCHED_ROUND(V3, V4, V5, V6, V7, V0, V1, V2, W13, W14, W6, W11)
	SCHED_ROUND(V2, V3, V4, V5, V6, V7, V0, V1, W14, W15, W7, W12)
	SCHED_ROUND(V1, V2, V3, V4, V5, V6, V7, V0, W15, W0, W8, W13)
	SUB	$1, R10
	CBNZ	R10, sched

	// Add the saved state.
	MOVD	$save-128(SP), RT0
	VLD1.P	64(RT0), [V24.S4, V25.S4, V26.S4, V27.S4]
	VADD	V24.S4, V0.S4, V0.S4
	VADD	V25.S4, V1.S4, V1.S4
	VADD	V26.S4, V2.S4, V2.S4
	VADD	V27.S4, V3.S4, V3.S4
	VLD1	(RT0), [V24.S4, V25.S4, V26.S4, V27.S4]
	VADD	V24.S4, V4.S4, V4.S4
	VADD	V25.S4, V5.S4, V5.S4
	VADD	V26.S4, V6.S4, V6.S4
	VADD	V27.S4, V7.S4, V7.S4

	// Step: each lane's next block.
	ADD	$64, P0
	ADD	$64, P1
	ADD	$64, P2
	ADD	$64, P3
	SUBS	$1, STEPS
	BNE	loop

segend:
	// A lane at the end of its run moves to its job's next run, or
	// finishes its job and takes the next one.
	SEG_CHECK(LANE0, end0, next0)
	SEG_CHECK(LANE1, end1, next1)
	SEG_CHECK(LANE2, end2, next2)
	SEG_CHECK(LANE3, end3, next3)
	LANE_LOOP(seg, return)

return:
	// Store: each busy lane's state back to its lane.h, words a..h.
	STORE(0, LANE0, stored0)
	STORE(1, LANE1, stored1)
	STORE(2, LANE2, stored2)
	STORE(3, LANE3, stored3)
	RET

	LANE_END(0, LANE0, P0, end0, next0, done0, take0, idle0, DIGEST, LOAD, ·neonZero(SB))
	LANE_END(1, LANE1, P1, end1, next1, done1, take1, idle1, DIGEST, LOAD, ·neonZero(SB))
	LANE_END(2, LANE2, P2, end2, next2, done2, take2, idle2, DIGEST, LOAD, ·neonZero(SB))
	LANE_END(3, LANE3, P3, end3, next3, done3, take3, idle3, DIGEST, LOAD, ·neonZero(SB))
