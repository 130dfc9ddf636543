// Shared by the arm64 kernels (neon_arm64.s, sha2_arm64.s): the kernel
// ABI's layouts (layout_arm64.h, generated from the Go types) and the lane
// bookkeeping, which follows runGeneric (generic.go) step for step.

#include "layout_arm64.h"

// General registers, the same in every kernel. R18 (platform), R26-R30
// (closure, assembler temporary, g, frame pointer, link) stay untouched.
#define LS R0	// *LaneSet
#define JOBS R1	// &jobs[0]
#define NJOBS R2	// len(jobs)
#define NEXT R3	// index of the next job to take
#define BUSY R4	// lanes with a job
#define KP R5	// the round constants of the next round (group)
#define JP R6	// the job of the lane being advanced
#define RT0 R7
#define RT1 R8
#define RT2 R9
#define LANE0 R19	// &ls.lanes[0]
#define LANE1 R20
#define LANE2 R21
#define LANE3 R22
#define BUDGET R23	// the steps the call may still run

// LANE_ENTER, once LS, JOBS and NJOBS hold the arguments, sets up the lane
// addresses and the steps the call may run (ls.MaxSteps; 0: no limit); no
// job is taken yet, no lane is busy.
#define LANE_ENTER \
	MOVD	ZR, NEXT \
	MOVD	ZR, BUSY \
	MOVD	LS_MAX(LS), BUDGET \
	CMP	$0, BUDGET \
	CSINV	NE, BUDGET, ZR, BUDGET \
	ADD	$(LS_LANES+0*LANE_SIZE), LS, LANE0 \
	ADD	$(LS_LANES+1*LANE_SIZE), LS, LANE1 \
	ADD	$(LS_LANES+2*LANE_SIZE), LS, LANE2 \
	ADD	$(LS_LANES+3*LANE_SIZE), LS, LANE3

// Within a segment each lane's next block is in a register of its own, and
// one count says how many steps the segment has left.
#define P0 R11
#define P1 R12
#define P2 R13
#define P3 R14
#define STEPS R15
// IDLE_RUN is the blocks in an idle lane's run (a kernel's zero blocks): an
// idle lane cuts no segment shorter than that.
#define IDLE_RUN 16

// LANE_START makes lane RL idle at the end of a run: the first segment's end
// hands it a job.
#define LANE_START(RL) \
	MOVD	ZR, LANE_N(RL) \
	MOVD	ZR, LANE_JOB(RL)

// A segment is as many steps as the lane nearest the end of its run has
// blocks left, so that no lane needs bookkeeping within it: SEG_FIRST and
// SEG_MIN leave the least of the lanes' lane.n in STEPS, and SEG_TAKE takes
// it from each lane's lane.n, which is then what is left after the segment.
#define SEG_FIRST(RL) \
	MOVD	LANE_N(RL), STEPS
#define SEG_MIN(RL) \
	MOVD	LANE_N(RL), RT0 \
	CMP	RT0, STEPS \
	CSEL	HI, RT0, STEPS, STEPS
// SEG_LIMIT cuts the segment to the steps the call may still run, and
// counts them off.
#define SEG_LIMIT \
	CMP	BUDGET, STEPS \
	CSEL	HI, BUDGET, STEPS, STEPS \
	SUB	STEPS, BUDGET
#define SEG_TAKE(RL) \
	MOVD	LANE_N(RL), RT0 \
	SUB	STEPS, RT0 \
	MOVD	RT0, LANE_N(RL)

// SEG_CHECK, where a segment ends, leaves for lane RL's out-of-line path
// (LANE_END) if the lane is at the end of its run; that comes back to next.
#define SEG_CHECK(RL, end, next) \
	MOVD	LANE_N(RL), RT0 \
	CBZ	RT0, end \
next:

// LANE_LOOP goes back to loop while at least ls.minActive lanes, and at
// least one, are busy, and the call may run more steps; else on to ret.
#define LANE_LOOP(loop, ret) \
	CBZ	BUSY, ret \
	CBZ	BUDGET, ret \
	MOVD	LS_MIN(LS), RT0 \
	CMP	RT0, BUSY \
	BHS	loop \
	B	ret

// LANE_END is the out-of-line path of lane RL, whose next block is in P, at
// the end of a run: the lane moves to its job's next run; or its job is
// done, DIGEST(L) writes the digest to JOB_OUT(JP), and it takes the next
// job, LOAD(L) loading the job's starting state from (RT0); or, with no job
// left, it idles on the IDLE_RUN zero blocks at ZERO.
#define LANE_END(L, RL, P, end, next, done, take, idle, DIGEST, LOAD, ZERO) \
end: \
	MOVD	LANE_JOB(RL), RT0 \
	CBZ	RT0, take \
	SUB	$1, RT0 \
	ADD	RT0<<6, JOBS, JP \
	MOVD	LANE_SEG(RL), RT1 \
	ADD	$1, RT1 \
	CMP	$3, RT1 \
	BHS	done \
	ADD	RT1<<4, JP, RT0 \
	MOVD	JOB_RUN_N(RT0), RT2 \
	CBZ	RT2, done \
	MOVD	RT1, LANE_SEG(RL) \
	MOVD	RT2, LANE_N(RL) \
	MOVD	JOB_RUN_P(RT0), P \
	B	next \
done: \
	DIGEST(L) \
	SUB	$1, BUSY \
take: \
	CMP	NJOBS, NEXT \
	BHS	idle \
	ADD	NEXT<<6, JOBS, JP \
	ADD	$1, NEXT \
	ADD	$1, BUSY \
	MOVD	NEXT, LANE_JOB(RL) \
	MOVD	ZR, LANE_SEG(RL) \
	MOVD	JOB_RUN_P(JP), P \
	MOVD	JOB_RUN_N(JP), RT0 \
	MOVD	RT0, LANE_N(RL) \
	MOVD	JOB_INIT(JP), RT0 \
	LOAD(L) \
	B	next \
idle: \
	MOVD	ZR, LANE_JOB(RL) \
	MOVD	$ZERO, P \
	MOVD	$IDLE_RUN, RT0 \
	MOVD	RT0, LANE_N(RL) \
	B	next
