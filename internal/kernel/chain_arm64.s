//go:build !purego

#include "textflag.h"

// The arm64 chain kernels: sha2XNChain advances N chains, lane-major in a
// ChainLanes (words a..h of chain i at 32*i), by n steps on N interleaved
// streams of the ARMv8 SHA-256 instructions. A chain step hashes one block,
// the last digest and constant padding, from the IV, so the digest stays in
// registers from step to step: W[0..7] are the last step's state plus the
// IV, rounds 8-15 take constant W+K, and the schedule skips what the
// padding makes constant (see _asm/chain for the same on amd64).
//
// Registers of stream s: its state abcd, efgh; abcd0, a copy of abcd for
// SHA256H2; wk, W+K of the current group; m0..m3, the message groups
// W[4g..4g+3] at m[g%4], each overwritten by the group four later. Shared:
// V24-V29, the constants at chainArmC (the IV as abcd and efgh; the IV plus
// K[0..3] and K[4..7]; the padding's W[8..11] and W[12..15]). The constants
// of groups 2..15 (W+K for 2 and 3, K after) follow them in chainArmC: with
// one stream they stay in V10-V23 for the whole call; with two or three
// there is no room, and each group's is loaded into V30 on the way.
// The state at a step's end, before the IV is added back, is what the next
// step starts from.

// STEP_START turns the state a step left into the next step's W+K of
// rounds 0-3 (wk) and 4-7 (m2: free until group 2), message groups 0 and 1
// (m0, m1), and restarts the state at the IV.
#define STEP_START(abcd, efgh, wk, m0, m1, m2) \
	VADD	V26.S4, abcd.S4, wk.S4 \
	VADD	V27.S4, efgh.S4, m2.S4 \
	VADD	V24.S4, abcd.S4, m0.S4 \
	VADD	V25.S4, efgh.S4, m1.S4 \
	VMOV	V24.B16, abcd.B16 \
	VMOV	V25.B16, efgh.B16

// ROUNDS is four rounds with W+K in wk.
#define ROUNDS(wk, abcd, efgh, abcd0) \
	VMOV	abcd.B16, abcd0.B16 \
	SHA256H	wk.S4, efgh, abcd \
	SHA256H2	wk.S4, abcd0, efgh

// SCHED4..SCHED7 compute message groups 4..7, in which the padding's
// groups 2 and 3 are constant: G4 = su1(su0(G0, G1), G2, G3) into m0, G5
// into m1; since W[9..12] are zero, su0(G2, G3) is G2, so G6 is su1(G2,
// G4, G5) into m2; G7 into m3.
#define SCHED4(m0, m1) \
	SHA256SU0	m1.S4, m0.S4 \
	SHA256SU1	V29.S4, V28.S4, m0.S4

#define SCHED5(m1, m0) \
	SHA256SU0	V28.S4, m1.S4 \
	SHA256SU1	m0.S4, V29.S4, m1.S4

#define SCHED6(m2, m0, m1) \
	VMOV	V28.B16, m2.B16 \
	SHA256SU1	m1.S4, m0.S4, m2.S4

#define SCHED7(m3, m0, m1, m2) \
	VMOV	V29.B16, m3.B16 \
	SHA256SU0	m0.S4, m3.S4 \
	SHA256SU1	m2.S4, m1.S4, m3.S4

// KGROUP_SCHED is rounds 4g..4g+3 with kv = K[4g..4g+3] and mg = G[g], and
// turns mg into G[g+4] from mg1..mg3 = G[g+1..g+3].
#define KGROUP_SCHED(kv, abcd, efgh, abcd0, wk, mg, mg1, mg2, mg3) \
	VADD	kv.S4, mg.S4, wk.S4 \
	ROUNDS(wk, abcd, efgh, abcd0) \
	SHA256SU0	mg1.S4, mg.S4 \
	SHA256SU1	mg3.S4, mg2.S4, mg.S4

// KGROUP is rounds 4g..4g+3 of the last four groups.
#define KGROUP(kv, abcd, efgh, abcd0, wk, mg) \
	VADD	kv.S4, mg.S4, wk.S4 \
	ROUNDS(wk, abcd, efgh, abcd0)

// ENTER loads a chain's digest from (R0)+off and subtracts the IV: the
// state a step leaves.
#define ENTER(off, abcd, efgh) \
	ADD	$off, R0, R2 \
	VLD1	(R2), [abcd.S4, efgh.S4] \
	VSUB	V24.S4, abcd.S4, abcd.S4 \
	VSUB	V25.S4, efgh.S4, efgh.S4

// LEAVE adds the IV back and stores the digest.
#define LEAVE(off, abcd, efgh) \
	ADD	$off, R0, R2 \
	VADD	V24.S4, abcd.S4, abcd.S4 \
	VADD	V25.S4, efgh.S4, efgh.S4 \
	VST1	[abcd.S4, efgh.S4], (R2)

// NEXTK loads the next group's constants into V30 (two and three streams).
#define NEXTK VLD1.P	16(R3), [V30.S4]

// func sha2X1Chain(ls *ChainLanes, n uint64)
TEXT ·sha2X1Chain(SB), NOSPLIT, $0-16
	MOVD	ls+0(FP), R0
	MOVD	n+8(FP), R1
	CBZ	R1, ret1
	MOVD	$·chainArmC(SB), R3
	VLD1.P	64(R3), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1.P	32(R3), [V28.S4, V29.S4]
	VLD1.P	64(R3), [V10.S4, V11.S4, V12.S4, V13.S4]
	VLD1.P	64(R3), [V14.S4, V15.S4, V16.S4, V17.S4]
	VLD1.P	64(R3), [V18.S4, V19.S4, V20.S4, V21.S4]
	VLD1	(R3), [V22.S4, V23.S4]
	ENTER(0, V0, V1)

loop1:
	// Rounds 0-7: W+K from the last digest; message groups 4 and 5.
	STEP_START(V0, V1, V3, V4, V5, V6)
	ROUNDS(V3, V0, V1, V2)
	SCHED4(V4, V5)
	ROUNDS(V6, V0, V1, V2)
	SCHED5(V5, V4)

	// Rounds 8-15: the padding's W+K, constant; message groups 6 and 7.
	ROUNDS(V10, V0, V1, V2)
	SCHED6(V6, V4, V5)
	ROUNDS(V11, V0, V1, V2)
	SCHED7(V7, V4, V5, V6)

	// Rounds 16-47, and the schedule of groups 8-15.
	KGROUP_SCHED(V12, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V13, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V14, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V15, V0, V1, V2, V3, V7, V4, V5, V6)
	KGROUP_SCHED(V16, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V17, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V18, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V19, V0, V1, V2, V3, V7, V4, V5, V6)

	// Rounds 48-63.
	KGROUP(V20, V0, V1, V2, V3, V4)
	KGROUP(V21, V0, V1, V2, V3, V5)
	KGROUP(V22, V0, V1, V2, V3, V6)
	KGROUP(V23, V0, V1, V2, V3, V7)
	SUBS	$1, R1
	BNE	loop1

	LEAVE(0, V0, V1)
ret1:
	RET

// func sha2X2Chain(ls *ChainLanes, n uint64)
TEXT ·sha2X2Chain(SB), NOSPLIT, $0-16
	MOVD	ls+0(FP), R0
	MOVD	n+8(FP), R1
	CBZ	R1, ret2
	MOVD	$·chainArmC(SB), R3
	VLD1.P	64(R3), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1	(R3), [V28.S4, V29.S4]
	ENTER(0, V0, V1)
	ENTER(32, V8, V9)

loop2:
	// Rounds 0-7: W+K from the last digest; message groups 4 and 5.
	MOVD	$·chainArmC+96(SB), R3
	STEP_START(V0, V1, V3, V4, V5, V6)
	STEP_START(V8, V9, V11, V12, V13, V14)
	ROUNDS(V3, V0, V1, V2)
	ROUNDS(V11, V8, V9, V10)
	SCHED4(V4, V5)
	SCHED4(V12, V13)
	ROUNDS(V6, V0, V1, V2)
	ROUNDS(V14, V8, V9, V10)
	SCHED5(V5, V4)
	SCHED5(V13, V12)

	// Rounds 8-15: the padding's W+K, constant; message groups 6 and 7.
	NEXTK
	ROUNDS(V30, V0, V1, V2)
	ROUNDS(V30, V8, V9, V10)
	SCHED6(V6, V4, V5)
	SCHED6(V14, V12, V13)
	NEXTK
	ROUNDS(V30, V0, V1, V2)
	ROUNDS(V30, V8, V9, V10)
	SCHED7(V7, V4, V5, V6)
	SCHED7(V15, V12, V13, V14)

	// Rounds 16-47, and the schedule of groups 8-15.
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V12, V13, V14, V15)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V13, V14, V15, V12)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V14, V15, V12, V13)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V7, V4, V5, V6)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V15, V12, V13, V14)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V12, V13, V14, V15)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V13, V14, V15, V12)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V14, V15, V12, V13)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V7, V4, V5, V6)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V15, V12, V13, V14)

	// Rounds 48-63.
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V4)
	KGROUP(V30, V8, V9, V10, V11, V12)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V5)
	KGROUP(V30, V8, V9, V10, V11, V13)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V6)
	KGROUP(V30, V8, V9, V10, V11, V14)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V7)
	KGROUP(V30, V8, V9, V10, V11, V15)
	SUBS	$1, R1
	BNE	loop2

	LEAVE(0, V0, V1)
	LEAVE(32, V8, V9)
ret2:
	RET

// func sha2X3Chain(ls *ChainLanes, n uint64)
TEXT ·sha2X3Chain(SB), NOSPLIT, $0-16
	MOVD	ls+0(FP), R0
	MOVD	n+8(FP), R1
	CBZ	R1, ret3
	MOVD	$·chainArmC(SB), R3
	VLD1.P	64(R3), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1	(R3), [V28.S4, V29.S4]
	ENTER(0, V0, V1)
	ENTER(32, V8, V9)
	ENTER(64, V16, V17)

loop3:
	// Rounds 0-7: W+K from the last digest; message groups 4 and 5.
	MOVD	$·chainArmC+96(SB), R3
	STEP_START(V0, V1, V3, V4, V5, V6)
	STEP_START(V8, V9, V11, V12, V13, V14)
	STEP_START(V16, V17, V19, V20, V21, V22)
	ROUNDS(V3, V0, V1, V2)
	ROUNDS(V11, V8, V9, V10)
	ROUNDS(V19, V16, V17, V18)
	SCHED4(V4, V5)
	SCHED4(V12, V13)
	SCHED4(V20, V21)
	ROUNDS(V6, V0, V1, V2)
	ROUNDS(V14, V8, V9, V10)
	ROUNDS(V22, V16, V17, V18)
	SCHED5(V5, V4)
	SCHED5(V13, V12)
	SCHED5(V21, V20)

	// Rounds 8-15: the padding's W+K, constant; message groups 6 and 7.
	NEXTK
	ROUNDS(V30, V0, V1, V2)
	ROUNDS(V30, V8, V9, V10)
	ROUNDS(V30, V16, V17, V18)
	SCHED6(V6, V4, V5)
	SCHED6(V14, V12, V13)
	SCHED6(V22, V20, V21)
	NEXTK
	ROUNDS(V30, V0, V1, V2)
	ROUNDS(V30, V8, V9, V10)
	ROUNDS(V30, V16, V17, V18)
	SCHED7(V7, V4, V5, V6)
	SCHED7(V15, V12, V13, V14)
	SCHED7(V23, V20, V21, V22)

	// Rounds 16-47, and the schedule of groups 8-15.
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V12, V13, V14, V15)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V20, V21, V22, V23)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V13, V14, V15, V12)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V21, V22, V23, V20)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V14, V15, V12, V13)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V22, V23, V20, V21)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V7, V4, V5, V6)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V15, V12, V13, V14)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V23, V20, V21, V22)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V4, V5, V6, V7)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V12, V13, V14, V15)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V20, V21, V22, V23)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V5, V6, V7, V4)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V13, V14, V15, V12)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V21, V22, V23, V20)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V6, V7, V4, V5)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V14, V15, V12, V13)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V22, V23, V20, V21)
	NEXTK
	KGROUP_SCHED(V30, V0, V1, V2, V3, V7, V4, V5, V6)
	KGROUP_SCHED(V30, V8, V9, V10, V11, V15, V12, V13, V14)
	KGROUP_SCHED(V30, V16, V17, V18, V19, V23, V20, V21, V22)

	// Rounds 48-63.
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V4)
	KGROUP(V30, V8, V9, V10, V11, V12)
	KGROUP(V30, V16, V17, V18, V19, V20)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V5)
	KGROUP(V30, V8, V9, V10, V11, V13)
	KGROUP(V30, V16, V17, V18, V19, V21)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V6)
	KGROUP(V30, V8, V9, V10, V11, V14)
	KGROUP(V30, V16, V17, V18, V19, V22)
	NEXTK
	KGROUP(V30, V0, V1, V2, V3, V7)
	KGROUP(V30, V8, V9, V10, V11, V15)
	KGROUP(V30, V16, V17, V18, V19, V23)
	SUBS	$1, R1
	BNE	loop3

	LEAVE(0, V0, V1)
	LEAVE(32, V8, V9)
	LEAVE(64, V16, V17)
ret3:
	RET

// neonX4Chain advances four chains, word-major in a ChainLanes (word k of
// chain i at 16*k+4*i), by n steps on the four 32-bit lanes of NEON
// vectors, for arm64 CPUs without the SHA2 instructions: the state a..h in
// V0-V7, the schedule W[0..15] in V8-V23 (W[t] overwritten by W[t+16]),
// temporaries V24-V27. Each step sets W[8..15] to the padding and the state
// to the IV (chainNeonC), runs the 64 rounds of neon_arm64.s, and
// adds the IV to the state into W[0..7], the next step's message.

#define KP R5
#include "neon_arm64.h"

// func neonX4Chain(ls *ChainLanes, n uint64)
TEXT ·neonX4Chain(SB), NOSPLIT, $0-16
	MOVD	ls+0(FP), R0
	MOVD	n+8(FP), R1
	CBZ	R1, retn
	// The digests: W[0..7] of the first step.
	MOVD	R0, R2
	VLD1.P	64(R2), [V8.S4, V9.S4, V10.S4, V11.S4]
	VLD1	(R2), [V12.S4, V13.S4, V14.S4, V15.S4]

loopn:
	// The state restarts at the IV; W[8..15] are the padding.
	MOVD	$·chainNeonC(SB), R3
	VLD1R.P	4(R3), [V0.S4]
	VLD1R.P	4(R3), [V1.S4]
	VLD1R.P	4(R3), [V2.S4]
	VLD1R.P	4(R3), [V3.S4]
	VLD1R.P	4(R3), [V4.S4]
	VLD1R.P	4(R3), [V5.S4]
	VLD1R.P	4(R3), [V6.S4]
	VLD1R.P	4(R3), [V7.S4]
	VLD1R.P	4(R3), [V16.S4]
	VLD1R.P	4(R3), [V17.S4]
	VLD1R.P	4(R3), [V18.S4]
	VLD1R.P	4(R3), [V19.S4]
	VLD1R.P	4(R3), [V20.S4]
	VLD1R.P	4(R3), [V21.S4]
	VLD1R.P	4(R3), [V22.S4]
	VLD1R	(R3), [V23.S4]

	// Rounds 0-15.
	MOVD	$·K(SB), R5
	ROUND(V0, V1, V2, V3, V4, V5, V6, V7, V8)
	ROUND(V7, V0, V1, V2, V3, V4, V5, V6, V9)
	ROUND(V6, V7, V0, V1, V2, V3, V4, V5, V10)
	ROUND(V5, V6, V7, V0, V1, V2, V3, V4, V11)
	ROUND(V4, V5, V6, V7, V0, V1, V2, V3, V12)
	ROUND(V3, V4, V5, V6, V7, V0, V1, V2, V13)
	ROUND(V2, V3, V4, V5, V6, V7, V0, V1, V14)
	ROUND(V1, V2, V3, V4, V5, V6, V7, V0, V15)
	ROUND(V0, V1, V2, V3, V4, V5, V6, V7, V16)
	ROUND(V7, V0, V1, V2, V3, V4, V5, V6, V17)
	ROUND(V6, V7, V0, V1, V2, V3, V4, V5, V18)
	ROUND(V5, V6, V7, V0, V1, V2, V3, V4, V19)
	ROUND(V4, V5, V6, V7, V0, V1, V2, V3, V20)
	ROUND(V3, V4, V5, V6, V7, V0, V1, V2, V21)
	ROUND(V2, V3, V4, V5, V6, V7, V0, V1, V22)
	ROUND(V1, V2, V3, V4, V5, V6, V7, V0, V23)

	// Rounds 16-63, sixteen at a time: schedule W[t] in place of W[t-16],
	// then the round.
	MOVD	$3, R10
schedn:
	SCHED_ROUND(V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V17, V22)
	SCHED_ROUND(V7, V0, V1, V2, V3, V4, V5, V6, V9, V10, V18, V23)
	SCHED_ROUND(V6, V7, V0, V1, V2, V3, V4, V5, V10, V11, V19, V8)
	SCHED_ROUND(V5, V6, V7, V0, V1, V2, V3, V4, V11, V12, V20, V9)
	SCHED_ROUND(V4, V5, V6, V7, V0, V1, V2, V3, V12, V13, V21, V10)
	SCHED_ROUND(V3, V4, V5, V6, V7, V0, V1, V2, V13, V14, V22, V11)
	SCHED_ROUND(V2, V3, V4, V5, V6, V7, V0, V1, V14, V15, V23, V12)
	SCHED_ROUND(V1, V2, V3, V4, V5, V6, V7, V0, V15, V16, V8, V13)
	SCHED_ROUND(V0, V1, V2, V3, V4, V5, V6, V7, V16, V17, V9, V14)
	SCHED_ROUND(V7, V0, V1, V2, V3, V4, V5, V6, V17, V18, V10, V15)
	SCHED_ROUND(V6, V7, V0, V1, V2, V3, V4, V5, V18, V19, V11, V16)
	SCHED_ROUND(V5, V6, V7, V0, V1, V2, V3, V4, V19, V20, V12, V17)
	SCHED_ROUND(V4, V5, V6, V7, V0, V1, V2, V3, V20, V21, V13, V18)
	SCHED_ROUND(V3, V4, V5, V6, V7, V0, V1, V2, V21, V22, V14, V19)
	SCHED_ROUND(V2, V3, V4, V5, V6, V7, V0, V1, V22, V23, V15, V20)
	SCHED_ROUND(V1, V2, V3, V4, V5, V6, V7, V0, V23, V8, V16, V21)
	SUB	$1, R10
	CBNZ	R10, schedn

	// The digest, the state plus the IV: the next step's W[0..7].
	MOVD	$·chainNeonC(SB), R3
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V0.S4, V8.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V1.S4, V9.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V2.S4, V10.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V3.S4, V11.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V4.S4, V12.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V5.S4, V13.S4
	VLD1R.P	4(R3), [V24.S4]
	VADD	V24.S4, V6.S4, V14.S4
	VLD1R	(R3), [V24.S4]
	VADD	V24.S4, V7.S4, V15.S4
	SUBS	$1, R1
	BNE	loopn

	// Store the digests.
	MOVD	R0, R2
	VST1.P	[V8.S4, V9.S4, V10.S4, V11.S4], 64(R2)
	VST1	[V12.S4, V13.S4, V14.S4, V15.S4], (R2)
retn:
	RET
