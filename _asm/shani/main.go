// Command shani generates shani_amd64.s and its stubs: SHA-256 over several
// independent messages at once, one SHA-NI stream per message, the streams
// interleaved round group by round group so that sha256rnds2's latency of one
// stream is hidden behind the others.
//
// Each kernel follows the model in internal/kernel/generic.go (runGeneric):
// lanes take jobs from the queue in order, refill as jobs end, and the
// kernel returns once no job is left and fewer than ls.MinActive lanes are
// busy, or once it has run ls.MaxSteps steps.
//
// Usage: go run ./shani -pkg kernel -out FILE.s.tmp -stubs FILE.go.tmp
package main

import (
	"fmt"
	"github.com/sha256x/sha256x/_asm/abi"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	k256     Mem // the round constants, 16 bytes per group of four rounds
	flipMask Mem // byte-swaps each dword
	zeroBlk  Mem // the idleRun blocks idle streams hash
	hasAVX   Mem // ·useVZEROUPPER
	ivData   Mem // SHA-256's initial state, as ABEF and CDGH
	ivK01    Mem // ivData with K[0] and K[1] folded in (abi.IVK01)
	padWK64  Mem // W[t]+K[t] of the padding block of a 64-byte message
	pad32    Mem // the second half of a 32-byte message's block: its padding
)

func main() {
	Package("github.com/sha256x/sha256x/internal/kernel")
	ConstraintExpr("!purego")

	k256 = GLOBL("shaniK", RODATA|NOPTR)
	abi.Words(0, abi.K[:]...)
	flipMask = GLOBL("shaniFlip", RODATA|NOPTR)
	DATA(0, U64(0x0405060700010203))
	DATA(8, U64(0x0c0d0e0f08090a0b))
	zeroBlk = GLOBL("shaniZero", RODATA|NOPTR)
	abi.Zeros(0, 64*idleRun)
	hasAVX = NewDataAddr(Symbol{Name: "·useVZEROUPPER"}, 0)

	// The IV as loadState leaves it: ABEF = (f, e, b, a), CDGH = (h, g, d, c),
	// low dword first.
	ivData = GLOBL("shaniIV", RODATA|NOPTR)
	ivk := abi.IVK01()
	order := func(ws *[8]uint32) []uint32 {
		return []uint32{ws[5], ws[4], ws[1], ws[0], ws[7], ws[6], ws[3], ws[2]}
	}
	abi.Words(0, order(&abi.IV)...)
	ivK01 = GLOBL("shaniIVK01", RODATA|NOPTR) // the same for abi.IVK01
	abi.Words(0, order(&ivk)...)
	padWK64 = GLOBL("shaniPad64WK", RODATA|NOPTR)
	pw := abi.PadWK(64)
	abi.Words(0, pw[:]...)

	ks := abi.Of("amd64", "shani")
	for _, k := range ks {
		switch {
		case k.Width == 1:
			sequential(k, false)
			if k.Job {
				sequential(k, true)
			}
		default:
			kernel(k)
		}
	}
	pad32 = GLOBL("shaniPad32", RODATA|NOPTR)
	DATA(0, U64(0x80))                // 0x80, then zeros
	DATA(24, U64(0x0001000000000000)) // the length, 256 bits, big-endian
	for _, k := range ks {
		if k.Pairs {
			pairs(k, false, false)
			pairs(k, true, false)
			pairs(k, false, true)
		}
	}
	for _, k := range ks {
		if k.Pairs {
			staged(k)
			staged65(k)
		}
	}
	Generate()
	asm, stubs := abi.Outputs()
	abi.Finish(asm, "_asm/shani")
	abi.Finish(stubs, "_asm/shani")
}

// Registers.
var (
	lsReg   = RDI // *laneSet
	jobsReg = RSI // &jobs[0]
	njobs   = RDX // shaniX1: the end of jobs; the others load len(jobs) where they need it
	next    = RCX // index of the next job to take
	busy    = RBX // busy lanes
	tmp     = RAX
	jp      = R12 // the job being advanced
	tmp2    = R13
	frame   = R14                            // the stack frame, 16-byte aligned for SSE memory operands
	blockP  = []GPPhysical{R8, R9, R10, R11} // each stream's block this step
	steps   = RDX                            // the lane-set kernels: steps left in the segment
	t1, t2  = X13, X14                       // scratch
	// flip holds flipMask in every kernel (see prologue): a byte swap then
	// reads no memory.
	flip = X15
)

// idleRun is the length of an idle stream's run of zero blocks: while a
// stream idles, a segment is at most idleRun steps long.
const idleRun = 16

// stream is one interleaved SHA-NI stream: its state registers, where its
// last four message groups live, and its stack slots. With one or two
// streams the four groups fit in registers (regs); with three or four they
// are a ring on the stack, and prev holds the latest.
type stream struct {
	i          int
	abef, cdgh VecPhysical
	regs       []VecPhysical // the last four message groups, W[4g..4g+3] in regs[g%4]; nil: on the stack
	prev       VecPhysical   // the last message group computed (stack ring only)
	ring       Mem           // the last four message groups, 16 bytes each (stack ring only)
	save       [2]Op         // ABEF and CDGH at the start of the block: registers for one stream, else stack
	lane       Mem           // &ls.lanes[i]
}

// streamFrame is the bytes of stack per stream, 16-byte aligned: the ring,
// the saved state, and a block for a digest to be hashed again (pairs).
const streamFrame = 160

func kernel(k abi.Kernel) {
	n, name := k.Width, k.Func()
	TEXT(name, NOSPLIT, abi.LanesSig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes jobs on %d interleaved SHA-NI streams.", name, n))

	ss := prologue(name, n, true, true)
	left := AllocLocal(8) // steps the call may still run

	Comment("The call runs at most ls.MaxSteps steps (0: no limit).")
	MOVQ(Mem{Base: lsReg, Disp: abi.LsMax}, tmp)
	MOVQ(U64(1<<62), tmp2)
	TESTQ(tmp, tmp)
	CMOVQEQ(tmp2, tmp)
	MOVQ(tmp, left)
	Comment("Every stream starts idle at the end of a run: the segment's end below",
		"hands each one a job.")
	XORQ(next, next)
	XORQ(busy, busy)
	for _, s := range ss {
		MOVQ(U32(0), s.lane.Offset(abi.LaneN))
		MOVQ(U32(0), s.lane.Offset(abi.LaneJob))
	}
	JMP(LabelRef(name + "_segEnd"))

	abi.LoopHead(name + "_loop")
	Comment("A segment is as many steps as the stream nearest the end of its run",
		"has blocks left: within it the streams' block pointers stay in registers",
		"and no stream needs bookkeeping. Each lane's n becomes what is left after",
		"the segment.")
	MOVQ(ss[0].lane.Offset(abi.LaneN), steps)
	for _, s := range ss[1:] {
		MOVQ(s.lane.Offset(abi.LaneN), tmp)
		CMPQ(tmp, steps)
		CMOVQCS(tmp, steps)
	}
	CMPQ(steps, left)
	CMOVQHI(left, steps)
	SUBQ(steps, left)
	for _, s := range ss {
		SUBQ(steps, s.lane.Offset(abi.LaneN))
	}
	Comment("When every stream stands at the batch's shared padding block, its W+K",
		"is known: skip the schedule. The padding block is a run of its own, one",
		"block long, so a stream can reach it only at a segment's start, and the",
		"segment is then one step.")
	MOVQ(Mem{Base: lsReg, Disp: abi.LsPad}, tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(name + "_block"))
	for _, s := range ss {
		CMPQ(tmp, blockP[s.i])
		JNE(LabelRef(name + "_block"))
	}
	padBlock(name, ss)

	abi.LoopHead(name + "_block")
	compress(ss, false)
	Label(name + "_step")
	for _, s := range ss {
		ADDQ(U8(64), blockP[s.i])
	}
	DECQ(steps)
	JNE(LabelRef(name + "_block"))

	Label(name + "_segEnd")
	Comment("A stream at the end of its run moves to the job's next run, or finishes",
		"its job and takes the next one.")
	for _, s := range ss {
		CMPQ(s.lane.Offset(abi.LaneN), U8(0))
		JEQ(LabelRef(fmt.Sprintf("%s_end%d", name, s.i)))
		Label(fmt.Sprintf("%s_next%d", name, s.i))
	}
	CMPQ(busy, Mem{Base: lsReg, Disp: abi.LsMin})
	JB(LabelRef(name + "_return"))
	CMPQ(left, U8(0))
	JNE(LabelRef(name + "_loop"))

	Label(name + "_return")
	Comment("Return: write each busy stream's state back, words a..h. (lane.p is",
		"the kernel's own: the next kernel starts from the job's runs and lane.n.)")
	for _, s := range ss {
		skip := fmt.Sprintf("%s_out%d", name, s.i)
		CMPQ(s.lane.Offset(abi.LaneJob), U8(0))
		JEQ(LabelRef(skip))
		unshuffle(s)
		MOVOU(t1, s.lane.Offset(abi.LaneH))
		MOVOU(t2, s.lane.Offset(abi.LaneH+16))
		Label(skip)
	}
	RET()

	for _, s := range ss {
		advance(name, s)
	}
}

// prologue allocates n streams' registers and, if stack, their stack frame;
// loads the arguments (if laneArgs, those of a lane-set kernel) and clears
// upper AVX state. One stream keeps everything in registers and needs no
// frame but for what a kernel keeps there itself (pairs' SHA-256d blocks).
func prologue(name string, n int, laneArgs, stack bool) []stream {
	xs := []VecPhysical{X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12}
	var locals Mem
	if stack {
		locals = AllocLocal(streamFrame*n + 16)
	}
	ss := make([]stream, n)
	for i := range ss {
		save := Mem{Base: frame, Disp: streamFrame*i + 64}
		ss[i] = stream{
			i:    i,
			abef: xs[2*i], cdgh: xs[2*i+1], prev: xs[8+i],
			ring: Mem{Base: frame, Disp: streamFrame * i},
			save: [2]Op{save, save.Offset(16)},
			lane: Mem{Base: lsReg, Disp: abi.LsLanes + abi.LaneSize*i},
		}
		if n <= 2 {
			// Everything in registers: no load or store per message group.
			ss[i].abef, ss[i].cdgh, ss[i].regs = xs[6*i], xs[6*i+1], xs[6*i+2:6*i+6]
		}
		if n == 1 {
			ss[i].save = [2]Op{X7, X8}
		}
	}
	if laneArgs {
		Load(Param("ls"), lsReg)
		Load(Param("jobs").Base(), jobsReg)
	}
	if stack {
		LEAQ(locals.Offset(15), frame)
		ANDQ(I8(-16), frame)
	}

	// Legacy-SSE SHA instructions run slowly after dirty upper AVX state.
	Comment("Clean upper AVX state first.")
	CMPB(hasAVX, U8(0))
	JEQ(LabelRef(name + "_init"))
	VZEROUPPER()
	Label(name + "_init")
	// The mask in a register saves a load in every byte swap: about two
	// cycles of a one-block message's latency, and four loads a block of
	// every stream (bench/HISTORY.md, "Merkle levels and trees against
	// gohashtree and hashtree").
	MOVOU(flipMask, flip)
	return ss
}

// compress hashes the block at blockP[i] into stream i's state, for every
// stream. With fromIV every state is the IV: nothing is saved, and the final
// addition adds the IV.
//
// Each message group is scheduled three groups ahead of the rounds that use
// it, so that sha256rnds2 never waits for the schedule: its only input chain
// is the state (measured on Zen 4 against one and two groups ahead, rounds
// after the schedule, and W+K kept on the stack: bench/HISTORY.md, "SHA-NI on
// Zen 4: what bounds it"). The assembly says so in a line a function, not the
// whole reason 25 times: the module download is held under 3 MB.
func compress(ss []stream, fromIV bool) {
	Comment("Save the states; load message groups 0-2 ahead.")
	for _, s := range ss {
		if !fromIV {
			MOVO(s.abef, s.save[0])
			MOVO(s.cdgh, s.save[1])
		}
	}
	for g := 0; g < 3; g++ {
		for _, s := range ss {
			schedule(s, g)
		}
	}
	for g := 0; g < 16; g++ {
		switch g {
		case 0:
			Comment("Rounds 0-3; load message group 3.")
		case 1:
			Comment("Rounds 4-51; schedule groups 4-15.")
		case 13:
			Comment("Rounds 52-63.")
		}
		for _, s := range ss {
			rounds(s, g)
		}
		for _, s := range ss {
			if g+3 < 16 {
				schedule(s, g+3)
			}
		}
	}
	for _, s := range ss {
		if fromIV {
			PADDD(ivData, s.abef)
			PADDD(ivData.Offset(16), s.cdgh)
		} else {
			PADDD(s.save[0], s.abef)
			PADDD(s.save[1], s.cdgh)
		}
	}
}

// compressFromIV hashes each stream's first block, at blockP[i], from the
// IV: one stream from ivK01 (compressInline), several through compress.
func compressFromIV(ss []stream) {
	Comment("Each stream's first block from the IV.")
	for _, s := range ss {
		if len(ss) == 1 {
			MOVOU(ivK01, s.abef)
			MOVOU(ivK01.Offset(16), s.cdgh)
		} else {
			MOVOU(ivData, s.abef)
			MOVOU(ivData.Offset(16), s.cdgh)
		}
	}
	if len(ss) == 1 {
		compressInline(ss[0])
	} else {
		compress(ss, true)
	}
}

// writeDigests writes each stream's digest, big-endian, to out[i] at outReg.
func writeDigests(ss []stream, outReg GPPhysical) {
	Comment("Write the digests, big-endian.")
	for _, s := range ss {
		unshuffle(s)
		PSHUFB(flip, t1)
		PSHUFB(flip, t2)
		MOVOU(t1, Mem{Base: outReg, Disp: 32 * s.i})
		MOVOU(t2, Mem{Base: outReg, Disp: 32*s.i + 16})
	}
}

// compressInline is compress for one stream from the IV whose groups are in
// registers, each group scheduled as the rounds reach it, in the order
// Intel's SHA extensions paper gives: the message loads and byte swaps then
// lie on the path to the first rounds instead of before them. It serves the
// one-stream pairs kernels, the top of every tree, where a one-pair level
// measured about 1.5 cycles faster than with compress (bench/HISTORY.md,
// "Merkle levels and trees against gohashtree and hashtree"). The stream starts from ivK01, not the IV: rounds 0 and 1
// take the message words without K, one addition fewer before the first
// sha256rnds2 (about 0.7 cycles), and the final addition adds the IV.
func compressInline(s stream) {
	Comment("Rounds 4g..4g+3 use message group g; group g+1 is finished (msg2) and",
		"group g+3 begun (msg1) between their two sha256rnds2.")
	r := func(i int) VecPhysical { return s.regs[i%4] }
	for g := 0; g < 16; g++ {
		if g < 4 {
			MOVOU(Mem{Base: blockP[s.i], Disp: 16 * g}, r(g))
			PSHUFB(flip, r(g))
		}
		MOVO(r(g), X0)
		if g == 0 {
			Comment("Rounds 0 and 1: W, with K in ivK01.")
			SHA256RNDS2(X0, s.abef, s.cdgh)
			MOVO(r(g), X0)
			PADDD(k256, X0)
		} else {
			PADDD(k256.Offset(16*g), X0)
			SHA256RNDS2(X0, s.abef, s.cdgh)
		}
		if g >= 3 && g <= 14 {
			MOVO(r(g), t1)
			PALIGNR(U8(4), r(g-1), t1)
			PADDD(t1, r(g+1))
			SHA256MSG2(r(g), r(g+1))
		}
		PSHUFD(U8(0x0e), X0, X0)
		SHA256RNDS2(X0, s.cdgh, s.abef)
		if g >= 1 && g <= 12 {
			SHA256MSG1(r(g), r(g-1))
		}
	}
	PADDD(ivData, s.abef)
	PADDD(ivData.Offset(16), s.cdgh)
}

// sequential emits shaniX1, one stream that runs each job to completion in
// turn: a one-lane kernel whose lanes never stay busy, which meets the
// kernel contract for any minActive, with the least work around the block.
// It serves the last lanes of a batch and prefix midstates. With single, it
// emits the entry for a single job instead, the same for one job and no
// lane set: Sum256's path, which should not pay for clearing a lane set it
// does not need.
func sequential(k abi.Kernel, single bool) {
	name := k.Func()
	if single {
		name = k.JobFunc()
		TEXT(name, NOSPLIT, abi.JobSig)
		Pragma("noescape")
		Doc(name + " hashes one job on one SHA-NI stream.")
	} else {
		TEXT(name, NOSPLIT, abi.LanesSig)
		Pragma("noescape")
		Doc(name + " hashes jobs one after another on one SHA-NI stream.")
	}
	ss := prologue(name, 1, !single, false)
	s := ss[0]
	run, runsEnd := R9, R10
	stepsLeft := next // RCX: one stream takes the jobs in order, with no index
	if single {
		Load(Param("j"), jobsReg)
		LEAQ(Mem{Base: jobsReg, Disp: abi.JobSize}, njobs)
	} else {
		MOVQ(U32(0), s.lane.Offset(abi.LaneJob))
		Load(Param("jobs").Len(), njobs)
		SHLQ(U8(6), njobs)
		ADDQ(jobsReg, njobs)
		Comment("The steps the call may still run: ls.MaxSteps (0: no limit).")
		MOVQ(Mem{Base: lsReg, Disp: abi.LsMax}, stepsLeft)
		MOVQ(U64(1<<62), tmp)
		TESTQ(stepsLeft, stepsLeft)
		CMOVQEQ(tmp, stepsLeft)
	}

	abi.LoopHead(name + "_job")
	CMPQ(jobsReg, njobs)
	JAE(LabelRef(name + "_done"))
	MOVQ(Mem{Base: jobsReg, Disp: abi.JobInit}, tmp)
	loadState(s, tmp)
	LEAQ(Mem{Base: jobsReg, Disp: abi.JobRuns}, run)
	LEAQ(Mem{Base: jobsReg, Disp: abi.JobRuns + 3*abi.RunSize}, runsEnd)

	abi.LoopHead(name + "_run")
	MOVQ(Mem{Base: run}, blockP[0])
	MOVQ(Mem{Base: run, Disp: abi.RunN}, tmp2)
	TESTQ(tmp2, tmp2)
	JEQ(LabelRef(name + "_digest"))

	abi.LoopHead(name + "_block")
	if !single {
		TESTQ(stepsLeft, stepsLeft)
		JEQ(LabelRef(name + "_stop"))
		DECQ(stepsLeft)
	}
	Comment("Prefetch 16 blocks ahead: over memory out of the cache one stream ran",
		"at 1.2 GB/s on the hardware prefetchers alone, 2.0 with this (bench/HISTORY.md,",
		"\"Round by round\", one long message). A prefetch never faults, so it may",
		"run past the message.")
	PREFETCHT0(Mem{Base: blockP[0], Disp: 1024})
	compress(ss, false)
	ADDQ(U8(64), blockP[0])
	DECQ(tmp2)
	JNE(LabelRef(name + "_block"))
	ADDQ(U8(abi.RunSize), run)
	CMPQ(run, runsEnd)
	JB(LabelRef(name + "_run"))

	Label(name + "_digest")
	Comment("Write the digest, big-endian.")
	unshuffle(s)
	PSHUFB(flip, t1)
	PSHUFB(flip, t2)
	MOVQ(Mem{Base: jobsReg, Disp: abi.JobOut}, tmp)
	MOVOU(t1, Mem{Base: tmp})
	MOVOU(t2, Mem{Base: tmp, Disp: 16})
	ADDQ(U8(abi.JobSize), jobsReg)
	JMP(LabelRef(name + "_job"))

	Label(name + "_done")
	RET()
	if single {
		return
	}

	Label(name + "_stop")
	Comment("MaxSteps run: the stream is busy, before a block of its run. Write",
		"back its state, the blocks left in the run, the run and the job.")
	unshuffle(s)
	MOVOU(t1, s.lane.Offset(abi.LaneH))
	MOVOU(t2, s.lane.Offset(abi.LaneH+16))
	MOVQ(tmp2, s.lane.Offset(abi.LaneN))
	MOVQ(run, tmp)
	SUBQ(jobsReg, tmp)
	SUBQ(U8(abi.JobRuns), tmp)
	SHRQ(U8(log2(abi.RunSize)), tmp)
	MOVQ(tmp, s.lane.Offset(abi.LaneSeg))
	MOVQ(jobsReg, tmp)
	Load(Param("jobs").Base(), tmp2)
	SUBQ(tmp2, tmp)
	SHRQ(U8(log2(abi.JobSize)), tmp)
	INCQ(tmp)
	MOVQ(tmp, s.lane.Offset(abi.LaneJob))
	RET()
}

// log2 returns the base-2 logarithm of n, a power of two.
func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	if 1<<k != n {
		panic(fmt.Sprint("not a power of two: ", n))
	}
	return k
}

// loadState loads the canonical state (a..h) at ptr into stream s's
// ABEF/CDGH registers.
func loadState(s stream, ptr GPPhysical) {
	MOVOU(Mem{Base: ptr}, s.abef)           // a b c d
	MOVOU(Mem{Base: ptr, Disp: 16}, s.cdgh) // e f g h
	PSHUFD(U8(0xb1), s.abef, s.abef)        // b a d c
	PSHUFD(U8(0x1b), s.cdgh, s.cdgh)        // h g f e
	MOVO(s.abef, t1)
	PALIGNR(U8(8), s.cdgh, s.abef) // f e b a: ABEF
	PBLENDW(U8(0xf0), t1, s.cdgh)  // h g d c: CDGH
}

// padBlock emits the rounds of one block of every stream with W+K taken from
// ls.padWK, then jumps to the step's end.
func padBlock(name string, ss []stream) {
	MOVQ(Mem{Base: lsReg, Disp: abi.LsPadWK}, tmp)
	wkRounds(ss, false)
	JMP(LabelRef(name + "_step"))
}

// wkRounds emits the rounds of one block of every stream with W+K taken
// from the table at tmp, or with rows from the table at each stream's
// blockP, the final addition included. A stream whose message
// groups live in registers saves its state in two of them: the block has no
// schedule, and the next block loads its groups afresh.
func wkRounds(ss []stream, rows bool) {
	save := func(s stream) [2]Op {
		if s.regs != nil {
			return [2]Op{s.regs[0], s.regs[1]}
		}
		return s.save
	}
	for _, s := range ss {
		MOVO(s.abef, save(s)[0])
		MOVO(s.cdgh, save(s)[1])
	}
	// sha256rnds2 reads the low 8 bytes of X0: each half of a group's W+K
	// is an 8-byte load of its own, no shuffle.
	half := func(s stream, g, h int) {
		if rows {
			MOVQ(Mem{Base: blockP[s.i], Disp: 16*g + 8*h}, X0)
		} else if s.i == 0 {
			MOVQ(Mem{Base: tmp, Disp: 16*g + 8*h}, X0)
		}
	}
	for g := 0; g < 16; g++ {
		for _, s := range ss {
			half(s, g, 0)
			SHA256RNDS2(X0, s.abef, s.cdgh)
		}
		for _, s := range ss {
			half(s, g, 1)
			SHA256RNDS2(X0, s.cdgh, s.abef)
		}
	}
	for _, s := range ss {
		PADDD(save(s)[0], s.abef)
		PADDD(save(s)[1], s.cdgh)
	}
}

// schedule computes message group g of stream s, W[4g..4g+3], into its ring.
func schedule(s stream, g int) {
	if s.regs != nil {
		scheduleRegs(s, g)
		return
	}
	slot := func(i int) Mem { return s.ring.Offset(16 * (i % 4)) }
	if g < 4 {
		MOVOU(Mem{Base: blockP[s.i], Disp: 16 * g}, s.prev)
		PSHUFB(flip, s.prev)
		MOVO(s.prev, slot(g))
		return
	}
	// W[4g..4g+3] = msg2(msg1(G[g-4], G[g-3]) + W[4g-7..4g-4], G[g-1])
	MOVO(slot(g-4), t1)
	SHA256MSG1(slot(g-3), t1)
	MOVO(s.prev, t2)
	PALIGNR(U8(4), slot(g-2), t2)
	PADDD(t2, t1)
	SHA256MSG2(s.prev, t1)
	MOVO(t1, slot(g))
	MOVO(t1, s.prev)
}

// scheduleRegs is schedule for a stream whose groups are in registers: group
// g replaces group g-4 in place.
func scheduleRegs(s stream, g int) {
	r := func(i int) VecPhysical { return s.regs[i%4] }
	if g < 4 {
		MOVOU(Mem{Base: blockP[s.i], Disp: 16 * g}, r(g))
		PSHUFB(flip, r(g))
		return
	}
	// W[4g..4g+3] = msg2(msg1(G[g-4], G[g-3]) + W[4g-7..4g-4], G[g-1])
	MOVO(r(g-1), t1)
	PALIGNR(U8(4), r(g-2), t1)
	SHA256MSG1(r(g-3), r(g-4))
	PADDD(t1, r(g-4))
	SHA256MSG2(r(g-1), r(g-4))
}

// rounds emits rounds 4g..4g+3 of stream s, adding K to message group g on
// the way into X0.
func rounds(s stream, g int) {
	if s.regs != nil {
		MOVO(s.regs[g%4], X0)
	} else {
		MOVO(s.ring.Offset(16*(g%4)), X0)
	}
	PADDD(k256.Offset(16*g), X0)
	SHA256RNDS2(X0, s.abef, s.cdgh)
	PSHUFD(U8(0x0e), X0, X0)
	SHA256RNDS2(X0, s.cdgh, s.abef)
}

// unshuffle leaves stream s's state in t1 = (a, b, c, d) and t2 = (e, f, g, h).
// It uses X0, which holds W+K only within a block's rounds.
func unshuffle(s stream) {
	PSHUFD(U8(0x1b), s.abef, t1) // a b e f
	PSHUFD(U8(0xb1), s.cdgh, t2) // g h c d
	MOVO(t1, X0)
	PBLENDW(U8(0xf0), t2, t1) // a b c d
	PALIGNR(U8(8), X0, t2)    // e f g h
}

// advance emits the out-of-line path of stream s at the end of a run, which
// sets the stream's block pointer and lane.n for its next run.
func advance(name string, s stream) {
	pre := fmt.Sprintf("%s_", name)
	back := LabelRef(fmt.Sprintf("%snext%d", pre, s.i))
	take := fmt.Sprintf("%stake%d", pre, s.i)
	done := fmt.Sprintf("%sdone%d", pre, s.i)

	Label(fmt.Sprintf("%send%d", pre, s.i))
	Comment(fmt.Sprintf("Stream %d is at the end of a run.", s.i))
	MOVQ(s.lane.Offset(abi.LaneJob), tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(take))
	DECQ(tmp)
	SHLQ(U8(6), tmp)
	LEAQ(Mem{Base: jobsReg, Index: tmp, Scale: 1}, jp)
	MOVQ(s.lane.Offset(abi.LaneSeg), tmp2)
	INCQ(tmp2)
	CMPQ(tmp2, U8(3))
	JAE(LabelRef(done))
	MOVQ(tmp2, tmp)
	SHLQ(U8(4), tmp)
	ADDQ(jp, tmp)
	CMPQ(Mem{Base: tmp, Disp: abi.JobRuns + abi.RunN}, U8(0))
	JEQ(LabelRef(done))
	MOVQ(tmp2, s.lane.Offset(abi.LaneSeg))
	MOVQ(Mem{Base: tmp, Disp: abi.JobRuns + abi.RunN}, tmp2)
	MOVQ(tmp2, s.lane.Offset(abi.LaneN))
	MOVQ(Mem{Base: tmp, Disp: abi.JobRuns}, blockP[s.i])
	JMP(back)

	Label(done)
	Comment("Write the digest, big-endian.")
	unshuffle(s)
	PSHUFB(flip, t1)
	PSHUFB(flip, t2)
	MOVQ(Mem{Base: jp, Disp: abi.JobOut}, tmp)
	MOVOU(t1, Mem{Base: tmp})
	MOVOU(t2, Mem{Base: tmp, Disp: 16})
	DECQ(busy)

	Label(take)
	Comment("Take the next job, if any; load its state.")
	Load(Param("jobs").Len(), tmp2)
	CMPQ(next, tmp2)
	JAE(LabelRef(fmt.Sprintf("%sidle%d", pre, s.i)))
	MOVQ(next, jp)
	SHLQ(U8(6), jp)
	ADDQ(jobsReg, jp)
	INCQ(next)
	INCQ(busy)
	MOVQ(next, s.lane.Offset(abi.LaneJob))
	MOVQ(U32(0), s.lane.Offset(abi.LaneSeg))
	MOVQ(Mem{Base: jp, Disp: abi.JobRuns}, blockP[s.i])
	MOVQ(Mem{Base: jp, Disp: abi.JobRuns + abi.RunN}, tmp)
	MOVQ(tmp, s.lane.Offset(abi.LaneN))
	MOVQ(Mem{Base: jp, Disp: abi.JobInit}, tmp)
	loadState(s, tmp)
	JMP(back)

	Label(fmt.Sprintf("%sidle%d", pre, s.i))
	Comment("No job left: the stream idles, hashing zero blocks.")
	MOVQ(U32(0), s.lane.Offset(abi.LaneJob))
	LEAQ(zeroBlk, blockP[s.i])
	MOVQ(U32(idleRun), s.lane.Offset(abi.LaneN))
	JMP(back)
}

// pairs emits a kernel for 64-byte messages (Merkle pairs) on n interleaved
// streams, n messages at a time, with no job queue: each message's own block,
// then the padding block of a 64-byte message, whose W+K is a constant table
// and needs no schedule. With headers the messages are the []byte at msgs
// (slice headers, 24 bytes each); otherwise they lie one after another. With
// double each digest is hashed once more (SHA-256d) before it is written.
func pairs(k abi.Kernel, headers, double bool) {
	c := 0 // abi.PairsCalls: Adjacent
	switch {
	case headers:
		c = 1 // Slices
	case double:
		c = 2 // Double
	}
	n, name, sig, doc := k.Width, k.PairsFunc(c), abi.PairsCalls[c].Sig, abi.PairsCalls[c].Doc
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s %s, n a multiple of %d, on %d SHA-NI streams.", name, doc, n, n))
	ss := prologue(name, n, false, n > 2 || double)
	digestBlk := func(s stream) Mem { return Mem{Base: frame, Disp: streamFrame*s.i + 96} }
	outReg, inReg, count := RDI, RSI, RDX
	Load(Param("out"), outReg)
	if headers {
		Load(Param("msgs"), inReg)
	} else {
		Load(Param("in"), inReg)
	}
	Load(Param("n"), count)
	if double {
		Comment("The second half of each digest's block is its padding, constant.")
		MOVOU(pad32, t1)
		MOVOU(pad32.Offset(16), t2)
		for _, s := range ss {
			MOVOU(t1, digestBlk(s).Offset(32))
			MOVOU(t2, digestBlk(s).Offset(48))
		}
	}

	abi.LoopHead(name + "_loop")
	TESTQ(count, count)
	JEQ(LabelRef(name + "_done"))
	for _, s := range ss {
		if headers {
			MOVQ(Mem{Base: inReg, Disp: 24 * s.i}, blockP[s.i])
		} else {
			LEAQ(Mem{Base: inReg, Disp: 64 * s.i}, blockP[s.i])
		}
	}
	compressFromIV(ss)
	Comment("The padding block: W+K from the table.")
	LEAQ(padWK64, tmp)
	wkRounds(ss, false)
	if double {
		Comment("SHA-256 of each digest: the digest, big-endian, is its block's first",
			"half.")
		for _, s := range ss {
			unshuffle(s)
			PSHUFB(flip, t1)
			PSHUFB(flip, t2)
			MOVOU(t1, digestBlk(s))
			MOVOU(t2, digestBlk(s).Offset(16))
			LEAQ(digestBlk(s), blockP[s.i])
			MOVOU(ivData, s.abef)
			MOVOU(ivData.Offset(16), s.cdgh)
		}
		compress(ss, true)
	}
	writeDigests(ss, outReg)
	if headers {
		ADDQ(U32(24*n), inReg)
	} else {
		ADDQ(U32(64*n), inReg)
	}
	nextGroup(name, n, outReg, count)
}

// staged emits a kernel for messages staged whole and padded (Merkle nodes
// other than pairs), nb blocks each, lying one after another, on n
// interleaved streams, n messages at a time, with no job queue.
func staged(k abi.Kernel) {
	n, name := k.Width, k.PairsFunc(3) // abi.PairsCalls: Staged
	TEXT(name, NOSPLIT, abi.PairsCalls[3].Sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets out[i] to the digest of the message staged, padded, in the nb", name),
		fmt.Sprintf("blocks at in[64*nb*i:], n a multiple of %d, on %d SHA-NI streams.", n, n))
	ss := prologue(name, n, false, n > 1)
	outReg, inReg, count, stride, left := RDI, RSI, RDX, RBX, RCX
	Load(Param("out"), outReg)
	Load(Param("in"), inReg)
	Load(Param("n"), count)
	Load(Param("nb"), stride)
	SHLQ(U8(6), stride) // bytes per message

	abi.LoopHead(name + "_loop")
	TESTQ(count, count)
	JEQ(LabelRef(name + "_done"))
	Comment("Each stream starts at the IV, on its message.")
	for _, s := range ss {
		MOVOU(ivData, s.abef)
		MOVOU(ivData.Offset(16), s.cdgh)
		if s.i == 0 {
			MOVQ(inReg, blockP[0])
		} else {
			LEAQ(Mem{Base: blockP[s.i-1], Index: stride, Scale: 1}, blockP[s.i])
		}
	}
	Load(Param("nb"), left)

	abi.LoopHead(name + "_block")
	compress(ss, false)
	for _, s := range ss {
		ADDQ(U8(64), blockP[s.i])
	}
	DECQ(left)
	JNE(LabelRef(name + "_block"))

	writeDigests(ss, outReg)
	Comment("The next n messages start where the last stream's ended.")
	MOVQ(blockP[n-1], inReg)
	nextGroup(name, n, outReg, count)
}

// staged65 emits a kernel for 65-byte messages staged whole and padded in
// two blocks each (RFC 6962's nodes, 0x01 || left || right), lying one after
// another, on n interleaved streams, n messages at a time: the first block
// as staged, the second with W+K from the table row of its first byte, the
// one byte of that block not fixed by the length, so that the second block
// costs rounds alone, as a pair's padding block does.
func staged65(k abi.Kernel) {
	c := 4 // abi.PairsCalls: Staged65
	n, name := k.Width, k.PairsFunc(c)
	TEXT(name, NOSPLIT, abi.PairsCalls[c].Sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s %s, n a multiple of %d, on %d SHA-NI streams.", name, abi.PairsCalls[c].Doc, n, n))
	ss := prologue(name, n, false, n > 2)
	outReg, inReg, count, wk := RDI, RSI, RDX, RBX
	Load(Param("out"), outReg)
	Load(Param("in"), inReg)
	Load(Param("n"), count)
	Load(Param("wk"), wk)

	abi.LoopHead(name + "_loop")
	TESTQ(count, count)
	JEQ(LabelRef(name + "_done"))
	for _, s := range ss {
		LEAQ(Mem{Base: inReg, Disp: 128 * s.i}, blockP[s.i])
	}
	compressFromIV(ss)
	Comment("The second block: each stream's W+K is wk's row for the block's first",
		"byte, 256 bytes a row.")
	for _, s := range ss {
		MOVBQZX(Mem{Base: blockP[s.i], Disp: 64}, blockP[s.i])
		SHLQ(U8(8), blockP[s.i])
		ADDQ(wk, blockP[s.i])
	}
	wkRounds(ss, true)
	writeDigests(ss, outReg)
	ADDQ(U32(128*n), inReg)
	nextGroup(name, n, outReg, count)
}

// nextGroup ends a loop of n messages at a time with no job queue (pairs,
// staged, staged65), its input already advanced: out to the next n digests,
// n fewer left, back to the loop's head; then the return.
func nextGroup(name string, n int, outReg, count GPPhysical) {
	ADDQ(U32(32*n), outReg)
	SUBQ(U8(n), count)
	JMP(LabelRef(name + "_loop"))

	Label(name + "_done")
	RET()
}
