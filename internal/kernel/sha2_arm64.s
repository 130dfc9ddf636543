//go:build !purego

#include "textflag.h"
#include "lanes_arm64.h"

// The SHA2 kernels: sha2XN runs N independent messages on interleaved
// streams of the ARMv8 SHA-256 instructions, one job per stream, round
// group by round group, so that one stream's SHA256H/SHA256H2 latency is
// hidden behind the others'. Each follows runGeneric (generic.go):
// streams take jobs from the queue in order, refill as jobs end, idle
// streams hash sha2Zero, and the kernel returns once no job is left and
// fewer than ls.minActive streams are busy. It runs in segments
// (lanes_arm64.h): the streams' block pointers stay in P0-P3, and the lane
// bookkeeping runs only where some stream's run ends.
//
// Stream s owns V(8s) to V(8s+7): the state (a,b,c,d) and (e,f,g,h), word
// order as in lane.h, so it loads and stores without shuffles; a copy of
// abcd for SHA256H2; W+K of the current group; the four message groups
// W[4g..4g+3], each overwritten by the group four later. With one or two
// streams the round constants stay in V16-V31 for the whole call; with
// three or four there is no room for them, and each group's constants are
// loaded into the last stream's W+K register, which that stream overwrites
// last. At a block's start the state is saved in the lane's h, free until
// the kernel returns, for the final addition.

// The IDLE_RUN zero blocks an idle stream hashes: its state is never used.
GLOBL ·sha2Zero(SB), RODATA|NOPTR, $(64*IDLE_RUN)

// GROUP_SCHED is rounds 4g..4g+3 of one stream, with KV = K[4g..4g+3] and
// mg = W[4g..4g+3], and turns mg into W[4g+16..4g+19] from mg1..mg3, the
// groups g+1..g+3.
#define GROUP_SCHED(KV, abcd, efgh, abcd0, wk, mg, mg1, mg2, mg3) \
	VADD	KV.S4, mg.S4, wk.S4 \
	VMOV	abcd.B16, abcd0.B16 \
	SHA256H	wk.S4, efgh, abcd \
	SHA256H2	wk.S4, abcd0, efgh \
	SHA256SU0	mg1.S4, mg.S4 \
	SHA256SU1	mg3.S4, mg2.S4, mg.S4

// GROUP is rounds 4g..4g+3 of one stream, for the last four groups.
#define GROUP(KV, abcd, efgh, abcd0, wk, mg) \
	VADD	KV.S4, mg.S4, wk.S4 \
	VMOV	abcd.B16, abcd0.B16 \
	SHA256H	wk.S4, efgh, abcd \
	SHA256H2	wk.S4, abcd0, efgh

// BLOCK loads stream RL's next block, at P, into m0..m3, byte-swapping its
// words, and saves the state in the lane's h.
#define BLOCK(RL, P, abcd, efgh, m0, m1, m2, m3) \
	VLD1	(P), [m0.B16, m1.B16, m2.B16, m3.B16] \
	VST1	[abcd.S4, efgh.S4], (RL) \
	VREV32	m0.B16, m0.B16 \
	VREV32	m1.B16, m1.B16 \
	VREV32	m2.B16, m2.B16 \
	VREV32	m3.B16, m3.B16

// FINISH adds the state saved by BLOCK; t0 and t1 are free by then.
#define FINISH(RL, abcd, efgh, t0, t1) \
	VLD1	(RL), [t0.S4, t1.S4] \
	VADD	t0.S4, abcd.S4, abcd.S4 \
	VADD	t1.S4, efgh.S4, efgh.S4

// DIGEST writes a stream's state to its job's digest, big-endian, through
// the free registers t0, t1.
#define DIGEST(abcd, efgh, t0, t1) \
	VREV32	abcd.B16, t0.B16 \
	VREV32	efgh.B16, t1.B16 \
	MOVD	JOB_OUT(JP), RT0 \
	VST1	[t0.B16, t1.B16], (RT0)

// LOAD puts the state at (RT0), words a..h, into a stream.
#define LOAD(abcd, efgh) \
	VLD1	(RT0), [abcd.S4, efgh.S4]

// STORE writes busy stream RL's state back to its lane.h.
#define STORE(RL, abcd, efgh, skip) \
	MOVD	LANE_JOB(RL), RT0 \
	CBZ	RT0, skip \
	VST1	[abcd.S4, efgh.S4], (RL) \
skip:

#define DIGEST0(L) DIGEST(V0, V1, V2, V3)
#define LOAD0(L) LOAD(V0, V1)
#define DIGEST1(L) DIGEST(V8, V9, V10, V11)
#define LOAD1(L) LOAD(V8, V9)
#define DIGEST2(L) DIGEST(V16, V17, V18, V19)
#define LOAD2(L) LOAD(V16, V17)
#define DIGEST3(L) DIGEST(V24, V25, V26, V27)
#define LOAD3(L) LOAD(V24, V25)

// func sha2X1(ls *LaneSet, jobs []Job)
TEXT ·sha2X1(SB), NOSPLIT, $0-32
	MOVD	ls+0(FP), LS
	MOVD	jobs_base+8(FP), JOBS
	MOVD	jobs_len+16(FP), NJOBS
	LANE_ENTER
	LANE_START(LANE0)
	MOVD	$·K(SB), KP
	VLD1.P	64(KP), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1.P	64(KP), [V20.S4, V21.S4, V22.S4, V23.S4]
	VLD1.P	64(KP), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1	(KP), [V28.S4, V29.S4, V30.S4, V31.S4]
	B	segend

seg:
	// A segment: as many steps as the stream nearest the end of its run
	// has blocks left (lanes_arm64.h).
	SEG_FIRST(LANE0)
	SEG_LIMIT
	SEG_TAKE(LANE0)

loop:
	// Load: each stream's next block; save its state.
	BLOCK(LANE0, P0, V0, V1, V4, V5, V6, V7)

	// Rounds 0-47, four at a time in each stream, and the schedule of
	// W[16..63].
	GROUP_SCHED(V16, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V17, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V18, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V19, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V20, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V21, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V22, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V23, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V24, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V25, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V26, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V27, V0, V1, V2, V3, V7, V4, V5, V6)

	// Rounds 48-63.
	GROUP(V28, V0, V1, V2, V3, V4)
	GROUP(V29, V0, V1, V2, V3, V5)
	GROUP(V30, V0, V1, V2, V3, V6)
	GROUP(V31, V0, V1, V2, V3, V7)

	// Add the saved state.
	FINISH(LANE0, V0, V1, V2, V3)

	// Step: each stream's next block.
	ADD	$64, P0
	SUBS	$1, STEPS
	BNE	loop

segend:
	// A stream at the end of its run moves to its job's next run, or
	// finishes its job and takes the next one.
	SEG_CHECK(LANE0, end0, next0)
	LANE_LOOP(seg, return)

return:
	// Store: each busy stream's state back to its lane.h.
	STORE(LANE0, V0, V1, stored0)
	RET

	LANE_END(0, LANE0, P0, end0, next0, done0, take0, idle0, DIGEST0, LOAD0, ·sha2Zero(SB))

// func sha2X2(ls *LaneSet, jobs []Job)
TEXT ·sha2X2(SB), NOSPLIT, $0-32
	MOVD	ls+0(FP), LS
	MOVD	jobs_base+8(FP), JOBS
	MOVD	jobs_len+16(FP), NJOBS
	LANE_ENTER
	LANE_START(LANE0)
	LANE_START(LANE1)
	MOVD	$·K(SB), KP
	VLD1.P	64(KP), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1.P	64(KP), [V20.S4, V21.S4, V22.S4, V23.S4]
	VLD1.P	64(KP), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1	(KP), [V28.S4, V29.S4, V30.S4, V31.S4]
	B	segend

seg:
	// A segment: as many steps as the stream nearest the end of its run
	// has blocks left (lanes_arm64.h).
	SEG_FIRST(LANE0)
	SEG_MIN(LANE1)
	SEG_LIMIT
	SEG_TAKE(LANE0)
	SEG_TAKE(LANE1)

loop:
	// Load: each stream's next block; save its state.
	BLOCK(LANE0, P0, V0, V1, V4, V5, V6, V7)
	BLOCK(LANE1, P1, V8, V9, V12, V13, V14, V15)

	// Rounds 0-47, four at a time in each stream, and the schedule of
	// W[16..63].
	GROUP_SCHED(V16, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V16, V8, V9, V10, V11, V12, V13, V14, V15)
	GROUP_SCHED(V17, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V17, V8, V9, V10, V11, V13, V14, V15, V12)
	GROUP_SCHED(V18, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V18, V8, V9, V10, V11, V14, V15, V12, V13)
	GROUP_SCHED(V19, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V19, V8, V9, V10, V11, V15, V12, V13, V14)
	GROUP_SCHED(V20, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V20, V8, V9, V10, V11, V12, V13, V14, V15)
	GROUP_SCHED(V21, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V21, V8, V9, V10, V11, V13, V14, V15, V12)
	GROUP_SCHED(V22, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V22, V8, V9, V10, V11, V14, V15, V12, V13)
	GROUP_SCHED(V23, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V23, V8, V9, V10, V11, V15, V12, V13, V14)
	GROUP_SCHED(V24, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V24, V8, V9, V10, V11, V12, V13, V14, V15)
	GROUP_SCHED(V25, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V25, V8, V9, V10, V11, V13, V14, V15, V12)
	GROUP_SCHED(V26, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V26, V8, V9, V10, V11, V14, V15, V12, V13)
	GROUP_SCHED(V27, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V27, V8, V9, V10, V11, V15, V12, V13, V14)

	// Rounds 48-63.
	GROUP(V28, V0, V1, V2, V3, V4)
	GROUP(V28, V8, V9, V10, V11, V12)
	GROUP(V29, V0, V1, V2, V3, V5)
	GROUP(V29, V8, V9, V10, V11, V13)
	GROUP(V30, V0, V1, V2, V3, V6)
	GROUP(V30, V8, V9, V10, V11, V14)
	GROUP(V31, V0, V1, V2, V3, V7)
	GROUP(V31, V8, V9, V10, V11, V15)

	// Add the saved state.
	FINISH(LANE0, V0, V1, V2, V3)
	FINISH(LANE1, V8, V9, V10, V11)

	// Step: each stream's next block.
	ADD	$64, P0
	ADD	$64, P1
	SUBS	$1, STEPS
	BNE	loop

segend:
	// A stream at the end of its run moves to its job's next run, or
	// finishes its job and takes the next one.
	SEG_CHECK(LANE0, end0, next0)
	SEG_CHECK(LANE1, end1, next1)
	LANE_LOOP(seg, return)

return:
	// Store: each busy stream's state back to its lane.h.
	STORE(LANE0, V0, V1, stored0)
	STORE(LANE1, V8, V9, stored1)
	RET

	LANE_END(0, LANE0, P0, end0, next0, done0, take0, idle0, DIGEST0, LOAD0, ·sha2Zero(SB))
	LANE_END(1, LANE1, P1, end1, next1, done1, take1, idle1, DIGEST1, LOAD1, ·sha2Zero(SB))

// func sha2X3(ls *LaneSet, jobs []Job)
TEXT ·sha2X3(SB), NOSPLIT, $0-32
	MOVD	ls+0(FP), LS
	MOVD	jobs_base+8(FP), JOBS
	MOVD	jobs_len+16(FP), NJOBS
	LANE_ENTER
	LANE_START(LANE0)
	LANE_START(LANE1)
	LANE_START(LANE2)
	B	segend

seg:
	// A segment: as many steps as the stream nearest the end of its run
	// has blocks left (lanes_arm64.h).
	SEG_FIRST(LANE0)
	SEG_MIN(LANE1)
	SEG_MIN(LANE2)
	SEG_LIMIT
	SEG_TAKE(LANE0)
	SEG_TAKE(LANE1)
	SEG_TAKE(LANE2)

loop:
	// Load: each stream's next block; save its state.
	BLOCK(LANE0, P0, V0, V1, V4, V5, V6, V7)
	BLOCK(LANE1, P1, V8, V9, V12, V13, V14, V15)
	BLOCK(LANE2, P2, V16, V17, V20, V21, V22, V23)
	MOVD	$·K(SB), KP

	// Rounds 0-47, four at a time in each stream, and the schedule of
	// W[16..63], sixteen rounds per iteration.
	MOVD	$3, R10
sched:
	VLD1.P	16(KP), [V19.S4]
	GROUP_SCHED(V19, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V19, V8, V9, V10, V11, V12, V13, V14, V15)
	GROUP_SCHED(V19, V16, V17, V18, V19, V20, V21, V22, V23)
	VLD1.P	16(KP), [V19.S4]
	GROUP_SCHED(V19, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V19, V8, V9, V10, V11, V13, V14, V15, V12)
	GROUP_SCHED(V19, V16, V17, V18, V19, V21, V22, V23, V20)
	VLD1.P	16(KP), [V19.S4]
	GROUP_SCHED(V19, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V19, V8, V9, V10, V11, V14, V15, V12, V13)
	GROUP_SCHED(V19, V16, V17, V18, V19, V22, V23, V20, V21)
	VLD1.P	16(KP), [V19.S4]
	GROUP_SCHED(V19, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V19, V8, V9, V10, V11, V15, V12, V13, V14)
	GROUP_SCHED(V19, V16, V17, V18, V19, V23, V20, V21, V22)
	SUB	$1, R10
	CBNZ	R10, sched

	// Rounds 48-63.
	VLD1.P	16(KP), [V19.S4]
	GROUP(V19, V0, V1, V2, V3, V4)
	GROUP(V19, V8, V9, V10, V11, V12)
	GROUP(V19, V16, V17, V18, V19, V20)
	VLD1.P	16(KP), [V19.S4]
	GROUP(V19, V0, V1, V2, V3, V5)
	GROUP(V19, V8, V9, V10, V11, V13)
	GROUP(V19, V16, V17, V18, V19, V21)
	VLD1.P	16(KP), [V19.S4]
	GROUP(V19, V0, V1, V2, V3, V6)
	GROUP(V19, V8, V9, V10, V11, V14)
	GROUP(V19, V16, V17, V18, V19, V22)
	VLD1.P	16(KP), [V19.S4]
	GROUP(V19, V0, V1, V2, V3, V7)
	GROUP(V19, V8, V9, V10, V11, V15)
	GROUP(V19, V16, V17, V18, V19, V23)

	// Add the saved state.
	FINISH(LANE0, V0, V1, V2, V3)
	FINISH(LANE1, V8, V9, V10, V11)
	FINISH(LANE2, V16, V17, V18, V19)

	// Step: each stream's next block.
	ADD	$64, P0
	ADD	$64, P1
	ADD	$64, P2
	SUBS	$1, STEPS
	BNE	loop

segend:
	// A stream at the end of its run moves to its job's next run, or
	// finishes its job and takes the next one.
	SEG_CHECK(LANE0, end0, next0)
	SEG_CHECK(LANE1, end1, next1)
	SEG_CHECK(LANE2, end2, next2)
	LANE_LOOP(seg, return)

return:
	// Store: each busy stream's state back to its lane.h.
	STORE(LANE0, V0, V1, stored0)
	STORE(LANE1, V8, V9, stored1)
	STORE(LANE2, V16, V17, stored2)
	RET

	LANE_END(0, LANE0, P0, end0, next0, done0, take0, idle0, DIGEST0, LOAD0, ·sha2Zero(SB))
	LANE_END(1, LANE1, P1, end1, next1, done1, take1, idle1, DIGEST1, LOAD1, ·sha2Zero(SB))
	LANE_END(2, LANE2, P2, end2, next2, done2, take2, idle2, DIGEST2, LOAD2, ·sha2Zero(SB))

// func sha2X4(ls *LaneSet, jobs []Job)
TEXT ·sha2X4(SB), NOSPLIT, $0-32
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
	// A segment: as many steps as the stream nearest the end of its run
	// has blocks left (lanes_arm64.h).
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
	// Load: each stream's next block; save its state.
	BLOCK(LANE0, P0, V0, V1, V4, V5, V6, V7)
	BLOCK(LANE1, P1, V8, V9, V12, V13, V14, V15)
	BLOCK(LANE2, P2, V16, V17, V20, V21, V22, V23)
	BLOCK(LANE3, P3, V24, V25, V28, V29, V30, V31)
	MOVD	$·K(SB), KP

	// Rounds 0-47, four at a time in each stream, and the schedule of
	// W[16..63], sixteen rounds per iteration.
	MOVD	$3, R10
sched:
	VLD1.P	16(KP), [V27.S4]
	GROUP_SCHED(V27, V0, V1, V2, V3, V4, V5, V6, V7)
	GROUP_SCHED(V27, V8, V9, V10, V11, V12, V13, V14, V15)
	GROUP_SCHED(V27, V16, V17, V18, V19, V20, V21, V22, V23)
	GROUP_SCHED(V27, V24, V25, V26, V27, V28, V29, V30, V31)
	VLD1.P	16(KP), [V27.S4]
	GROUP_SCHED(V27, V0, V1, V2, V3, V5, V6, V7, V4)
	GROUP_SCHED(V27, V8, V9, V10, V11, V13, V14, V15, V12)
	GROUP_SCHED(V27, V16, V17, V18, V19, V21, V22, V23, V20)
	GROUP_SCHED(V27, V24, V25, V26, V27, V29, V30, V31, V28)
	VLD1.P	16(KP), [V27.S4]
	GROUP_SCHED(V27, V0, V1, V2, V3, V6, V7, V4, V5)
	GROUP_SCHED(V27, V8, V9, V10, V11, V14, V15, V12, V13)
	GROUP_SCHED(V27, V16, V17, V18, V19, V22, V23, V20, V21)
	GROUP_SCHED(V27, V24, V25, V26, V27, V30, V31, V28, V29)
	VLD1.P	16(KP), [V27.S4]
	GROUP_SCHED(V27, V0, V1, V2, V3, V7, V4, V5, V6)
	GROUP_SCHED(V27, V8, V9, V10, V11, V15, V12, V13, V14)
	GROUP_SCHED(V27, V16, V17, V18, V19, V23, V20, V21, V22)
	GROUP_SCHED(V27, V24, V25, V26, V27, V31, V28, V29, V30)
	SUB	$1, R10
	CBNZ	R10, sched

	// Rounds 48-63.
	VLD1.P	16(KP), [V27.S4]
	GROUP(V27, V0, V1, V2, V3, V4)
	GROUP(V27, V8, V9, V10, V11, V12)
	GROUP(V27, V16, V17, V18, V19, V20)
	GROUP(V27, V24, V25, V26, V27, V28)
	VLD1.P	16(KP), [V27.S4]
	GROUP(V27, V0, V1, V2, V3, V5)
	GROUP(V27, V8, V9, V10, V11, V13)
	GROUP(V27, V16, V17, V18, V19, V21)
	GROUP(V27, V24, V25, V26, V27, V29)
	VLD1.P	16(KP), [V27.S4]
	GROUP(V27, V0, V1, V2, V3, V6)
	GROUP(V27, V8, V9, V10, V11, V14)
	GROUP(V27, V16, V17, V18, V19, V22)
	GROUP(V27, V24, V25, V26, V27, V30)
	VLD1.P	16(KP), [V27.S4]
	GROUP(V27, V0, V1, V2, V3, V7)
	GROUP(V27, V8, V9, V10, V11, V15)
	GROUP(V27, V16, V17, V18, V19, V23)
	GROUP(V27, V24, V25, V26, V27, V31)

	// Add the saved state.
	FINISH(LANE0, V0, V1, V2, V3)
	FINISH(LANE1, V8, V9, V10, V11)
	FINISH(LANE2, V16, V17, V18, V19)
	FINISH(LANE3, V24, V25, V26, V27)

	// Step: each stream's next block.
	ADD	$64, P0
	ADD	$64, P1
	ADD	$64, P2
	ADD	$64, P3
	SUBS	$1, STEPS
	BNE	loop

segend:
	// A stream at the end of its run moves to its job's next run, or
	// finishes its job and takes the next one.
	SEG_CHECK(LANE0, end0, next0)
	SEG_CHECK(LANE1, end1, next1)
	SEG_CHECK(LANE2, end2, next2)
	SEG_CHECK(LANE3, end3, next3)
	LANE_LOOP(seg, return)

return:
	// Store: each busy stream's state back to its lane.h.
	STORE(LANE0, V0, V1, stored0)
	STORE(LANE1, V8, V9, stored1)
	STORE(LANE2, V16, V17, stored2)
	STORE(LANE3, V24, V25, stored3)
	RET

	LANE_END(0, LANE0, P0, end0, next0, done0, take0, idle0, DIGEST0, LOAD0, ·sha2Zero(SB))
	LANE_END(1, LANE1, P1, end1, next1, done1, take1, idle1, DIGEST1, LOAD1, ·sha2Zero(SB))
	LANE_END(2, LANE2, P2, end2, next2, done2, take2, idle2, DIGEST2, LOAD2, ·sha2Zero(SB))
	LANE_END(3, LANE3, P3, end3, next3, done3, take3, idle3, DIGEST3, LOAD3, ·sha2Zero(SB))
