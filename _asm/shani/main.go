// Command shani generates kernel_shani_amd64.s: SHA-256 over several
// independent messages at once, one SHA-NI stream per message, the streams
// interleaved round group by round group so that sha256rnds2's latency of one
// stream is hidden behind the others.
//
// Each kernel follows the model in kernel_generic.go (runGeneric): lanes take
// jobs from the queue in order, refill as jobs end, and the kernel returns
// once no job is left and fewer than ls.minActive lanes are busy.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Layouts shared with lanes.go; TestLayout checks them.
const (
	jobInit  = 0  // job.init
	jobRuns  = 8  // job.runs[i].p at jobRuns+16*i, .n at jobRuns+16*i+8
	jobOut   = 56 // job.out
	jobSize  = 64 // sizeof(job)
	laneH    = 0  // lane.h
	laneP    = 32
	laneN    = 40
	laneSeg  = 48
	laneJob  = 56
	laneSize = 64
	lsMin    = 0  // laneSet.minActive
	lsPad    = 8  // laneSet.pad
	lsPadWK  = 16 // laneSet.padWK
	lsLanes  = 64 // laneSet.lanes
)

var (
	k256     Mem // the round constants, 16 bytes per group of four rounds
	flipMask Mem // byte-swaps each dword
	zeroBlk  Mem // the block idle streams hash
	hasAVX   Mem // ·useVZEROUPPER
)

var roundK = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

func main() {
	Package("github.com/sha256x/sha256x")
	ConstraintExpr("!purego")

	k256 = GLOBL("shaniK", RODATA|NOPTR)
	for i, k := range roundK {
		DATA(4*i, U32(k))
	}
	flipMask = GLOBL("shaniFlip", RODATA|NOPTR)
	DATA(0, U64(0x0405060700010203))
	DATA(8, U64(0x0c0d0e0f08090a0b))
	zeroBlk = GLOBL("shaniZero", RODATA|NOPTR)
	for i := 0; i < 64; i += 8 {
		DATA(i, U64(0))
	}
	hasAVX = NewDataAddr(Symbol{Name: "·useVZEROUPPER"}, 0)

	for _, n := range []int{1, 2, 3, 4} {
		kernel(n)
	}
	Generate()
}

// Registers.
var (
	lsReg   = RDI // *laneSet
	jobsReg = RSI // &jobs[0]
	njobs   = RDX // len(jobs)
	next    = RCX // index of the next job to take
	busy    = RBX // busy lanes
	tmp     = RAX
	jp      = R12 // the job being advanced
	tmp2    = R13
	frame   = R14                            // the stack frame, 16-byte aligned for SSE memory operands
	blockP  = []GPPhysical{R8, R9, R10, R11} // each stream's block this step
	t1, t2  = X13, X14                       // scratch
	t3      = X15
)

// stream is one interleaved SHA-NI stream: its state registers, the register
// holding its latest message group, and its stack slots.
type stream struct {
	i          int
	abef, cdgh VecPhysical
	prev       VecPhysical // the last message group computed
	ring       Mem         // the last four message groups W[4g..4g+3], 16 bytes each
	wk         Mem         // W+K of the last four groups, 16 bytes each
	save       Mem         // state at the start of the block
	lane       Mem         // &ls.lanes[i]
}

const streamFrame = 160 // bytes of stack per stream, 16-byte aligned

func kernel(n int) {
	name := fmt.Sprintf("shani%d", n)
	TEXT(name, NOSPLIT, "func(ls *laneSet, jobs []job)")
	Doc(fmt.Sprintf("%s hashes jobs on %d interleaved SHA-NI streams.", name, n))

	xs := []VecPhysical{X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12}
	locals := AllocLocal(streamFrame*n + 16)
	ss := make([]stream, n)
	for i := range ss {
		ss[i] = stream{
			i:    i,
			abef: xs[2*i], cdgh: xs[2*i+1], prev: xs[8+i],
			ring: Mem{Base: frame, Disp: streamFrame * i},
			wk:   Mem{Base: frame, Disp: streamFrame*i + 64},
			save: Mem{Base: frame, Disp: streamFrame*i + 128},
			lane: Mem{Base: lsReg, Disp: lsLanes + laneSize*i},
		}
	}

	Load(Param("ls"), lsReg)
	Load(Param("jobs").Base(), jobsReg)
	Load(Param("jobs").Len(), njobs)
	LEAQ(locals.Offset(15), frame)
	ANDQ(I8(-16), frame)

	Comment("Legacy-SSE SHA instructions run slowly after dirty upper AVX state.")
	CMPB(hasAVX, U8(0))
	JEQ(LabelRef(name + "_init"))
	VZEROUPPER()
	Label(name + "_init")

	Comment("Every stream starts idle, about to end its last block: the advance",
		"below hands each one a job.")
	XORQ(next, next)
	XORQ(busy, busy)
	LEAQ(zeroBlk, tmp)
	for _, s := range ss {
		MOVQ(tmp, s.lane.Offset(laneP))
		MOVQ(U32(1), s.lane.Offset(laneN))
		MOVQ(U32(0), s.lane.Offset(laneJob))
	}
	JMP(LabelRef(name + "_advance"))

	Label(name + "_loop")
	Comment("When every stream stands at the batch's shared padding block, its W+K",
		"is known: skip the schedule.")
	MOVQ(Mem{Base: lsReg, Disp: lsPad}, tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(name + "_block"))
	for _, s := range ss {
		CMPQ(tmp, s.lane.Offset(laneP))
		JNE(LabelRef(name + "_block"))
	}
	padBlock(name, ss)

	Label(name + "_block")
	Comment("Save each stream's state for the final addition; load the first two",
		"message groups. Message groups are computed two groups ahead of the",
		"rounds that use them, and their W+K stored, so that sha256rnds2 never",
		"waits for the schedule: its only input chain is the state.")
	for _, s := range ss {
		MOVQ(s.lane.Offset(laneP), blockP[s.i])
		MOVO(s.abef, s.save)
		MOVO(s.cdgh, s.save.Offset(16))
	}
	for g := 0; g < 2; g++ {
		for _, s := range ss {
			schedule(s, g)
		}
	}
	for g := 0; g < 16; g++ {
		switch g {
		case 0:
			Comment("Rounds 0-7; load and byte-swap message groups 2 and 3.")
		case 2:
			Comment("Rounds 8-55; schedule message groups 4-15.")
		case 14:
			Comment("Rounds 56-63.")
		}
		for _, s := range ss {
			if g+2 < 16 {
				schedule(s, g+2)
			}
			rounds(s, g)
		}
	}
	for _, s := range ss {
		PADDD(s.save, s.abef)
		PADDD(s.save.Offset(16), s.cdgh)
	}

	Label(name + "_advance")
	Comment("Advance each stream a block; a stream at the end of a run moves to the",
		"job's next run, or finishes its job and takes the next one.")
	for _, s := range ss {
		ADDQ(U8(64), s.lane.Offset(laneP))
		DECQ(s.lane.Offset(laneN))
		JEQ(LabelRef(fmt.Sprintf("%s_end%d", name, s.i)))
		Label(fmt.Sprintf("%s_next%d", name, s.i))
	}
	CMPQ(busy, Mem{Base: lsReg, Disp: lsMin})
	JAE(LabelRef(name + "_loop"))

	Comment("Return: write each busy stream's state back, words a..h.")
	for _, s := range ss {
		skip := fmt.Sprintf("%s_out%d", name, s.i)
		CMPQ(s.lane.Offset(laneJob), U8(0))
		JEQ(LabelRef(skip))
		unshuffle(s)
		MOVOU(t1, s.lane.Offset(laneH))
		MOVOU(t2, s.lane.Offset(laneH+16))
		Label(skip)
	}
	RET()

	for _, s := range ss {
		advance(name, s)
	}
}

// padBlock emits the rounds of one block of every stream with W+K taken from
// ls.padWK, then jumps to the advance.
func padBlock(name string, ss []stream) {
	MOVQ(Mem{Base: lsReg, Disp: lsPadWK}, tmp)
	for _, s := range ss {
		MOVO(s.abef, s.save)
		MOVO(s.cdgh, s.save.Offset(16))
	}
	for g := 0; g < 16; g++ {
		MOVOU(Mem{Base: tmp, Disp: 16 * g}, X0)
		PSHUFD(U8(0x0e), X0, t1)
		for _, s := range ss {
			SHA256RNDS2(X0, s.abef, s.cdgh)
		}
		MOVO(t1, X0)
		for _, s := range ss {
			SHA256RNDS2(X0, s.cdgh, s.abef)
		}
	}
	for _, s := range ss {
		PADDD(s.save, s.abef)
		PADDD(s.save.Offset(16), s.cdgh)
	}
	JMP(LabelRef(name + "_advance"))
}

// schedule computes message group g of stream s, W[4g..4g+3], and its W+K.
func schedule(s stream, g int) {
	slot := func(i int) Mem { return s.ring.Offset(16 * (i % 4)) }
	if g < 4 {
		MOVOU(Mem{Base: blockP[s.i], Disp: 16 * g}, t1)
		PSHUFB(flipMask, t1)
	} else {
		// W[4g..4g+3] = msg2(msg1(G[g-4], G[g-3]) + W[4g-7..4g-4], G[g-1])
		MOVO(slot(g-4), t1)
		SHA256MSG1(slot(g-3), t1)
		MOVO(s.prev, t2)
		PALIGNR(U8(4), slot(g-2), t2)
		PADDD(t2, t1)
		SHA256MSG2(s.prev, t1)
	}
	if g <= 13 {
		MOVO(t1, slot(g))
	}
	MOVO(t1, s.prev)
	PADDD(k256.Offset(16*g), t1)
	MOVO(t1, s.wk.Offset(16*(g%4)))
}

// rounds emits rounds 4g..4g+3 of stream s.
func rounds(s stream, g int) {
	wk := s.wk.Offset(16 * (g % 4))
	MOVO(wk, X0)
	SHA256RNDS2(X0, s.abef, s.cdgh)
	PSHUFD(U8(0x0e), X0, X0)
	SHA256RNDS2(X0, s.cdgh, s.abef)
}

// unshuffle leaves stream s's state in t1 = (a, b, c, d) and t2 = (e, f, g, h).
func unshuffle(s stream) {
	PSHUFD(U8(0x1b), s.abef, t1) // a b e f
	PSHUFD(U8(0xb1), s.cdgh, t2) // g h c d
	MOVO(t1, t3)
	PBLENDW(U8(0xf0), t2, t1) // a b c d
	PALIGNR(U8(8), t3, t2)    // e f g h
}

// advance emits the out-of-line path of stream s at the end of a run.
func advance(name string, s stream) {
	pre := fmt.Sprintf("%s_", name)
	back := LabelRef(fmt.Sprintf("%snext%d", pre, s.i))
	take := fmt.Sprintf("%stake%d", pre, s.i)
	done := fmt.Sprintf("%sdone%d", pre, s.i)

	Label(fmt.Sprintf("%send%d", pre, s.i))
	Comment(fmt.Sprintf("Stream %d is at the end of a run.", s.i))
	MOVQ(s.lane.Offset(laneJob), tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(take))
	DECQ(tmp)
	SHLQ(U8(6), tmp)
	LEAQ(Mem{Base: jobsReg, Index: tmp, Scale: 1}, jp)
	MOVQ(s.lane.Offset(laneSeg), tmp2)
	INCQ(tmp2)
	CMPQ(tmp2, U8(3))
	JAE(LabelRef(done))
	MOVQ(tmp2, tmp)
	SHLQ(U8(4), tmp)
	ADDQ(jp, tmp)
	CMPQ(Mem{Base: tmp, Disp: jobRuns + 8}, U8(0))
	JEQ(LabelRef(done))
	MOVQ(tmp2, s.lane.Offset(laneSeg))
	MOVQ(Mem{Base: tmp, Disp: jobRuns + 8}, tmp2)
	MOVQ(tmp2, s.lane.Offset(laneN))
	MOVQ(Mem{Base: tmp, Disp: jobRuns}, tmp2)
	MOVQ(tmp2, s.lane.Offset(laneP))
	JMP(back)

	Label(done)
	Comment("Write the digest, big-endian.")
	unshuffle(s)
	PSHUFB(flipMask, t1)
	PSHUFB(flipMask, t2)
	MOVQ(Mem{Base: jp, Disp: jobOut}, tmp)
	MOVOU(t1, Mem{Base: tmp})
	MOVOU(t2, Mem{Base: tmp, Disp: 16})
	DECQ(busy)

	Label(take)
	Comment("Take the next job, if any, and load its starting state.")
	CMPQ(next, njobs)
	JAE(LabelRef(fmt.Sprintf("%sidle%d", pre, s.i)))
	MOVQ(next, jp)
	SHLQ(U8(6), jp)
	ADDQ(jobsReg, jp)
	INCQ(next)
	INCQ(busy)
	MOVQ(next, s.lane.Offset(laneJob))
	MOVQ(U32(0), s.lane.Offset(laneSeg))
	MOVQ(Mem{Base: jp, Disp: jobRuns}, tmp)
	MOVQ(tmp, s.lane.Offset(laneP))
	MOVQ(Mem{Base: jp, Disp: jobRuns + 8}, tmp)
	MOVQ(tmp, s.lane.Offset(laneN))
	MOVQ(Mem{Base: jp, Disp: jobInit}, tmp)
	MOVOU(Mem{Base: tmp}, s.abef)           // a b c d
	MOVOU(Mem{Base: tmp, Disp: 16}, s.cdgh) // e f g h
	PSHUFD(U8(0xb1), s.abef, s.abef)        // b a d c
	PSHUFD(U8(0x1b), s.cdgh, s.cdgh)        // h g f e
	MOVO(s.abef, t1)
	PALIGNR(U8(8), s.cdgh, s.abef) // f e b a: ABEF
	PBLENDW(U8(0xf0), t1, s.cdgh)  // h g d c: CDGH
	JMP(back)

	Label(fmt.Sprintf("%sidle%d", pre, s.i))
	Comment("No job left: the stream idles, hashing a zero block.")
	MOVQ(U32(0), s.lane.Offset(laneJob))
	LEAQ(zeroBlk, tmp)
	MOVQ(tmp, s.lane.Offset(laneP))
	MOVQ(U32(1), s.lane.Offset(laneN))
	JMP(back)
}
