// Command lanes generates kernel_avx2_amd64.s and kernel_avx512_amd64.s:
// SHA-256 over 8 (AVX2) or 16 (AVX-512) independent messages at once, one
// message per 32-bit lane of a vector register.
//
// The compression function, the message schedule, the transposes and byte
// swaps are written once, against the small lane abstraction isa, and
// instantiated per register width:
//
//	avx2    YMM, 8 lanes: rotates from shifts, the schedule in a stack ring
//	avx512  ZMM, 16 lanes: VPRORD rotates, VPTERNLOGD for Ch, Maj and
//	        three-way xors, the schedule in registers
//
// Each kernel follows the model in internal/kernel/generic.go (runGeneric): lanes take
// jobs from the queue in order, refill as jobs end, idle lanes hash static
// zero blocks, and the kernel returns once no job is left and fewer than
// ls.minActive lanes are busy, writing each busy lane's state back. The
// lanes' bookkeeping runs only where some lane's run ends: in between (a
// segment) every lane steps a block by one shared offset, three scalar
// instructions a step.
//
// Usage: go run ./lanes -isa avx2|avx512 -pkg kernel -out FILE.s.tmp -stubs FILE.go.tmp
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/sha256x/sha256x/_asm/abi"
	"github.com/sha256x/sha256x/_asm/vec"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// General-purpose registers. R15 is left alone: the dynamic linker's.
var (
	lsReg   = RDI // *laneSet
	jobsReg = RSI // &jobs[0]
	busy    = RBX // busy lanes
	tmp     = RAX
	tmp2    = R13
	jp      = R12 // the job being advanced
	laneReg = R9  // &ls.lanes[i] while advancing lane i
	laneIdx = R10 // i
	colReg  = R11 // &st[0][i]: lane i's column of the state
	kp      = R8  // the round constants (or pad's W+K) of the current 16 rounds
	off     = RCX // bytes stepped so far (lanes keep their place relative to it)
	ended   = EDX // at a segment's end: the lanes whose runs end there
	left    = jp  // in a segment: the off at which it ends
	frame   = R14 // the stack frame, aligned to the vector size
)

// isa is the lane abstraction: the vector operations the compression
// function is written with, one implementation per register width. Operands
// named x are registers; m may be a register or memory.
type isa interface {
	Name() string
	Lanes() int
	VecBytes() int
	vec(i int) VecPhysical

	// load loads a vector from memory; store stores one.
	Load(m Mem, x VecPhysical)
	Store(x VecPhysical, m Mem)
	Add(m Op, x, dst VecPhysical) // dst = x + m
	// unpack interleaves 32-bit (q false) or 64-bit (q true) elements of
	// the low (hi false) or high halves of each 128-bit block of x and y.
	unpack(q, hi bool, x, y, dst VecPhysical)
	// lanes128 sets dst to the even (hi false) or odd 128-bit blocks of x,
	// followed by those of y.
	lanes128(hi bool, x, y, dst VecPhysical)
	// bswap byte-swaps every 32-bit element of x.
	bswap(x VecPhysical)

	// BigSigma sets dst to x>>>r1 ^ x>>>r2 ^ x>>>r3; SmallSigma to
	// x>>>r1 ^ x>>>r2 ^ x>>r3. They may use the temporaries t.
	BigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical)
	SmallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical)
	// Ch sets dst to Ch(e, f, g); maj to Maj(a, b, c) in round i.
	Ch(e, f, g, dst VecPhysical, t []VecPhysical)
	Maj(i int, a, b, c, dst VecPhysical, t []VecPhysical)
	// startRounds prepares what maj carries from round to round.
	startRounds(b, c VecPhysical)

	// addK sets dst to w + K[i]; k is K[i]'s address in the table kTab.
	addK(k Mem, w, dst VecPhysical)
	kStride() int // bytes per round in the K table
	// addWK adds a scalar W[i]+K[i], the same for all lanes, to x.
	addWK(m Mem, x VecPhysical, t VecPhysical)

	// wRing returns where W[j mod 16] lives: a register or a stack slot.
	wRing(j int) Op
	// wGet returns a register holding W[j mod 16], loading it into t if
	// it lives in memory; wPut stores x back to W[j]'s slot.
	wGet(j int, t VecPhysical) VecPhysical
	wPut(j int, x VecPhysical)

	// state returns the register of state word k (0 = a) at round 0.
	State(k int) VecPhysical
	// temps returns the scratch registers of the rounds.
	Temps() []VecPhysical
	// rows returns the registers a transpose reads (bank 0) and its
	// ping-pong bank (bank 1).
	rows(bank int) []VecPhysical
	// frameBytes is the stack the kernel needs beyond the state.
	frameBytes() int
	// lat2 reports whether the rounds are ordered for two-cycle vector
	// operations (abi.Kernel.Lat2).
	lat2() bool
	// wave is which wave of lanes() lanes this is, of a kernel of total()
	// lanes whose waves' rounds alternate (avx512Wave); a one-wave kernel's
	// is 0 of lanes().
	wave() int
	total() int
	// preSchedule reports whether the kernel computes a block's whole
	// schedule before its rounds (compressPre; avx512Wave).
	preSchedule() bool
}

// lat2 is an isa whose kernels order their rounds for cores where vector
// adds, rotates and ternary logic take two cycles (abi.Kernel.Lat2).
type lat2 struct{ isa }

func (lat2) lat2() bool { return true }

// lat2Ahead is how many words ahead of its round a Lat2 kernel computes the
// message schedule, so that the schedule's independent work stands ready
// beside the rounds' chain.
const lat2Ahead = 4

// idleRun is the length of an idle lane's run of zero blocks: a segment
// while any lane idles is at most idleRun steps long, and an idle lane with a
// run of one block would end every segment after one step.
const idleRun = 16

var (
	ivTab    Mem // SHA-256's initial state, word k broadcast to every lane of vector k
	padWK64  Mem // W[t]+K[t] of the padding block of a 64-byte message
	pad32W   Mem // W[8..15] of a 32-byte message's block, broadcast
	kTab     Mem // the round constants, laid out as isa.addK wants
	flipMask Mem // byte-swaps each dword, repeated over a vector
	zeroBlk  Mem // the idleRun blocks idle lanes hash
)

func main() {
	which := flag.String("isa", "avx512", "avx2 or avx512")
	roll := flag.Bool("roll", true, "loop over rounds 16..63 and the padding block's rounds instead of unrolling them")
	flag.Parse()
	var v isa
	switch *which {
	case "avx2":
		v = avx2{}
	case "avx512":
		v = avx512{}
	default:
		log.Fatalf("unknown -isa %q", *which)
	}

	Package("github.com/sha256x/sha256x/internal/kernel")
	ConstraintExpr("!purego")
	ks := abi.Of("amd64", v.Name())
	// waves gives each kernel its waves of lanes, and its rounds' order: a
	// Lat2 kernel's isa says so to round and schedRounds.
	waves := func(k abi.Kernel) []isa {
		var ws []isa
		switch {
		case k.Width == v.Lanes():
			ws = []isa{v}
		case k.Width == 32 && v.Name() == "avx512":
			ws = []isa{avx512Wave{w: 0}, avx512Wave{w: 1}}
		default:
			log.Fatalf("lanes: the kernel list gives %s %d lanes, the isa %d", k.Func(), k.Width, v.Lanes())
		}
		if k.Lat2 {
			for i := range ws {
				ws[i] = lat2{ws[i]}
			}
		}
		return ws
	}

	tag := v.Name()
	kTab = GLOBL(tag+"K", RODATA|NOPTR)
	abi.Words(0, abi.Splat(v.kStride()/4, abi.K[:]...)...)
	flipMask = GLOBL(tag+"Flip", RODATA|NOPTR)
	for i := 0; i < v.VecBytes(); i += 16 {
		DATA(i, U64(0x0405060700010203))
		DATA(i+8, U64(0x0c0d0e0f08090a0b))
	}
	zeroBlk = GLOBL(tag+"Zero", RODATA|NOPTR)
	abi.Zeros(0, 64*idleRun)

	ivTab = GLOBL(tag+"IV", RODATA|NOPTR)
	abi.Words(0, abi.Splat(v.Lanes(), abi.IV[:]...)...)
	padWK64 = GLOBL(tag+"Pad64WK", RODATA|NOPTR)
	pw := abi.PadWK(64)
	abi.Words(0, pw[:]...)

	for _, k := range ks {
		if !k.PairsOnly {
			kernel(k, waves(k), *roll)
		}
	}
	pad32W = GLOBL(tag+"Pad32W", RODATA|NOPTR)
	abi.Words(0, abi.Splat(v.Lanes(), 0x80000000, 0, 0, 0, 0, 0, 0, 256)...)
	for _, k := range ks {
		if k.Pairs {
			for _, m := range []pairsMode{contiguous, headers, double, staged} {
				if k.HasCall(int(m)) {
					pairs(k, waves(k), *roll, m)
				}
			}
		}
	}
	loadTest(ks[0], v)
	Generate()
	asm, stubs := abi.Outputs()
	abi.Finish(asm, "_asm/lanes")
	abi.Finish(stubs, "_asm/lanes")
}

// The stack frame, from frame (aligned to the vector size): the state,
// word-major (st[k] holds word k of every lane of every wave), then whatever
// the isa needs.
func stMem(v isa, k int) Mem {
	return Mem{Base: frame, Disp: stStride(v)*k + v.VecBytes()*v.wave()}
}

// stStride is the bytes between two words of the state in the frame: a
// word of every lane of the kernel.
func stStride(v isa) int { return 4 * v.total() }

func kernel(k abi.Kernel, ws []isa, roll bool) {
	v := ws[0]
	name := k.Func()
	n := v.total()
	vb := v.VecBytes()
	sw := stStride(v)
	TEXT(name, 0, abi.LanesSig) // too big a frame for NOSPLIT
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes jobs on %d SIMD lanes.", name, n))
	locals := AllocLocal(8*sw + v.frameBytes() + 4*n + 24 + vb)
	lbl := func(s string) string { return name + "_" + s }

	Load(Param("ls"), lsReg)
	Load(Param("jobs").Base(), jobsReg)
	LEAQ(locals.Offset(vb-1), frame)
	ANDQ(I32(-vb), frame)
	Load(Param("jobs").Len(), tmp)
	MOVQ(tmp, njobsMem(v))
	Comment("The call ends at off = 64 * ls.MaxSteps (MaxSteps 0: no end).")
	MOVQ(Mem{Base: lsReg, Disp: abi.LsMax}, tmp)
	SHLQ(U8(6), tmp)
	MOVQ(U64(1<<62), tmp2)
	TESTQ(tmp, tmp)
	CMOVQEQ(tmp2, tmp)
	MOVQ(tmp, endMem(v))

	Comment("Lanes keep their place relative to off, the bytes the kernel has",
		"stepped so far: a lane's block is at lane.p + off, and its run ends",
		"when off reaches the lane's end in the frame (lane.n is written back",
		"at return). Every lane starts idle at the end of its run: the advance",
		"below hands each one a job.")
	MOVQ(U32(0), nextMem(v))
	XORQ(busy, busy)
	XORQ(off, off)
	if v.Lanes() == 16 {
		VPXORD(v.vec(0), v.vec(0), v.vec(0))
	} else {
		VPXOR(v.vec(0), v.vec(0), v.vec(0))
	}
	for o := 0; o < 4*n; o += vb {
		v.Store(v.vec(0), endsMem(v).Offset(o))
	}
	for i := 0; i < n; i++ {
		MOVQ(U32(0), Mem{Base: lsReg, Disp: abi.LsLanes + abi.LaneSize*i + abi.LaneJob})
	}
	JMP(LabelRef(lbl("advance")))

	abi.LoopHead(lbl("segment"))
	Comment("A segment: the steps until off reaches left, the end of the",
		"shortest run. Only at its start can every busy lane stand at the",
		"batch's shared padding block (a run of one block), whose W+K is known",
		"(ls.padWK): then skip loading and the schedule. Idle lanes (in the",
		"zero blocks) may hash anything.")
	MOVQ(Mem{Base: lsReg, Disp: abi.LsPad}, tmp2)
	for i := 0; i < n; i++ {
		ok := lbl(fmt.Sprintf("padok%d", i))
		l := Mem{Base: lsReg, Disp: abi.LsLanes + abi.LaneSize*i}
		MOVQ(l.Offset(abi.LaneP), tmp)
		ADDQ(off, tmp)
		CMPQ(tmp, tmp2)
		JEQ(LabelRef(ok))
		CMPQ(l.Offset(abi.LaneJob), U8(0))
		JNE(LabelRef(lbl("full")))
		Label(ok)
	}
	LEAQ(Mem{Base: off, Disp: 64}, left)
	MOVQ(Mem{Base: lsReg, Disp: abi.LsPadWK}, kp)
	for _, w := range ws {
		loadState(w)
	}
	Comment("Rounds 0-63 of the padding block, W+K from ls.padWK.")
	padRounds(ws, name, roll)
	JMP(LabelRef(lbl("sum")))

	abi.LoopHead(lbl("full"))
	Comment("Load each lane's block, transpose to one vector per message word,",
		"byte-swap.")
	loadWaves(ws, func(w isa) func(i, half int) Mem {
		first := w.Lanes() * w.wave()
		return atPtr(w, func(i int) Mem {
			return Mem{Base: lsReg, Disp: abi.LsLanes + abi.LaneSize*(first+i) + abi.LaneP}
		}, off)
	})
	for _, w := range ws {
		loadState(w)
	}
	compressW(ws, lbl, roll)

	Label(lbl("sum"))
	Comment("Add the block's result to the state and store it.")
	for _, w := range ws {
		for k := 0; k < 8; k++ {
			w.Add(stMem(w, k), w.State(k), w.State(k))
			w.Store(w.State(k), stMem(w, k))
		}
	}
	Comment("Next step of the segment: no lane's run ends before it.")
	ADDQ(U8(64), off)
	CMPQ(off, left)
	JNE(LabelRef(lbl("full")))

	Label(lbl("advance"))
	Comment("End of a segment: each lane whose run ends here (its end equals",
		"off: a vector compare of the ends) moves to the job's next run, or",
		"finishes its job and takes the next one.")
	endMask(v)
	JMP(LabelRef(lbl("advnext")))
	Label(lbl("adv"))
	BSFL(ended, laneIdx.As32())
	BTRL(laneIdx.As32(), ended)
	MOVQ(laneIdx, laneReg)
	SHLQ(U8(6), laneReg)
	LEAQ(Mem{Base: lsReg, Index: laneReg, Scale: 1, Disp: abi.LsLanes}, laneReg)
	JMP(LabelRef(lbl("end")))
	Label(lbl("advnext"))
	TESTL(ended, ended)
	JNZ(LabelRef(lbl("adv")))
	Comment("The next segment ends where the first run left ends, or where the",
		"call ends: then return, as when fewer than ls.MinActive lanes are busy.")
	minEnd(v)
	CMPQ(left, endMem(v))
	CMOVQHI(endMem(v), left)
	CMPQ(busy, Mem{Base: lsReg, Disp: abi.LsMin})
	JB(LabelRef(lbl("return")))
	CMPQ(off, endMem(v))
	JB(LabelRef(lbl("segment")))
	Label(lbl("return"))

	Comment("Return: write each busy lane's state back, words a..h, and its",
		"blocks left in the run.")
	LEAQ(Mem{Base: lsReg, Disp: abi.LsLanes}, laneReg)
	MOVQ(frame, colReg)
	Label(lbl("wb"))
	CMPQ(Mem{Base: laneReg, Disp: abi.LaneJob}, U8(0))
	JEQ(LabelRef(lbl("wbnext")))
	for k := 0; k < 8; k++ {
		MOVL(Mem{Base: colReg, Disp: sw * k}, tmp.As32())
		MOVL(tmp.As32(), Mem{Base: laneReg, Disp: abi.LaneH + 4*k})
	}
	MOVL(Mem{Base: colReg, Disp: 8*sw + v.frameBytes()}, tmp.As32())
	SUBQ(off, tmp)
	SHRQ(U8(6), tmp)
	MOVQ(tmp, Mem{Base: laneReg, Disp: abi.LaneN})
	Label(lbl("wbnext"))
	ADDQ(U8(abi.LaneSize), laneReg)
	ADDQ(U8(4), colReg)
	LEAQ(Mem{Base: frame, Disp: 4 * n}, tmp)
	CMPQ(colReg, tmp)
	JNE(LabelRef(lbl("wb")))
	VZEROUPPER()
	RET()

	advance(v, lbl)
}

// nextMem and njobsMem hold, in the lane kernel's frame, the index of the
// next job to take and len(jobs): they are read only when a lane takes a
// job, and one of their registers keeps off.
func nextMem(v isa) Mem  { return endsMem(v).Offset(4 * v.total()) }
func njobsMem(v isa) Mem { return endsMem(v).Offset(4*v.total() + 8) }

// endMem holds, in the lane kernel's frame, the off at which the call ends
// (ls.MaxSteps steps).
func endMem(v isa) Mem { return endsMem(v).Offset(4*v.total() + 16) }

// kMem is K[i]'s address for the rounds: kp points at the constants of the
// current group of 16 rounds.
func kMem(v isa, i int) Mem { return Mem{Base: kp, Disp: v.kStride() * (i % 16)} }

// loadState loads the wave's state from the frame into its state registers.
func loadState(v isa) {
	Comment("Load the state: one vector per word a..h, a lane per element.")
	for k := 0; k < 8; k++ {
		v.Load(stMem(v, k), v.State(k))
	}
}

// stateAt returns the register of state word k (0 = a) in round i: the
// words move one register along per round, by renaming.
func stateAt(v isa, k, i int) VecPhysical { return v.State(((k-i)%8 + 8) % 8) }

// round emits round i (vec.Round); addWK adds W[i]+K[i] to h, using the
// temporary t.
func round(v isa, i int, addWK func(h, t VecPhysical)) {
	var s [8]VecPhysical
	for k := range s {
		s[k] = stateAt(v, k, i)
	}
	t := v.Temps()
	ops := vec.RoundOps{Add: v.Add, BigSigma: v.BigSigma, Ch: v.Ch,
		Maj: func(a, b, c, dst VecPhysical, t []VecPhysical) { v.Maj(i, a, b, c, dst, t) }}
	vec.Round(ops, s, func(h VecPhysical) { addWK(h, t[1]) }, t[1:], v.lat2())
}

// schedRounds emits rounds i0..i0+15 (i0 >= 16), each computing its own W[i]:
// W[i] = σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16].
//
// A Lat2 kernel computes W[i+lat2Ahead] in round i instead (rounds 0-15 the
// first few), into a slot whose word its round has used: the loop's last
// pass computes lat2Ahead words no round uses.
//
// With two waves, each round of one wave is followed by the same round of
// the other.
func schedRounds(ws []isa, i0 int) {
	for i := i0; i < i0+16; i++ {
		for _, v := range ws {
			var w VecPhysical
			if v.lat2() {
				schedWord(v, i+lat2Ahead)
				w = v.wGet(i, v.Temps()[0])
			} else {
				w = schedWord(v, i)
			}
			round(v, i, func(h VecPhysical, tt VecPhysical) {
				v.addK(kMem(v, i), w, tt)
				v.Add(tt, h, h)
			})
		}
	}
}

// schedWord computes W[i] into W[i-16]'s place and returns its register:
// W[i] = σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16].
func schedWord(v isa, i int) VecPhysical {
	t := v.Temps()
	x := v.wGet(i-15, t[0])
	s0 := t[1]
	v.SmallSigma(x, s0, 7, 18, 3, t[2:])
	w := v.wGet(i-16, t[0])
	v.Add(s0, w, w)
	v.Add(v.wRing(i-7), w, w)
	x = v.wGet(i-2, t[1])
	v.SmallSigma(x, t[2], 17, 19, 10, t[3:])
	v.Add(t[2], w, w)
	v.wPut(i, w)
	return w
}

// padRounds emits the 64 rounds of the shared padding block, W+K from kp,
// each round of every wave in turn.
func padRounds(ws []isa, name string, roll bool) {
	body := func() {
		for _, v := range ws {
			v.startRounds(v.State(1), v.State(2))
		}
		for i := 0; i < 16; i++ {
			for _, v := range ws {
				round(v, i, func(h, t VecPhysical) { v.addWK(Mem{Base: kp, Disp: 4 * i}, h, t) })
			}
		}
	}
	if !roll {
		for g := 0; g < 4; g++ {
			body()
			ADDQ(U8(64), kp)
		}
		return
	}
	LEAQ(Mem{Base: kp, Disp: 256}, tmp)
	abi.LoopHead(name + "_padrounds")
	body()
	ADDQ(U8(64), kp)
	CMPQ(kp, tmp)
	JNE(LabelRef(name + "_padrounds"))
}

// atPtr is loadW's row for a block whose address is stored at ptr(i), plus
// index if not nil: it loads the address into tmp.
func atPtr(v isa, ptr func(i int) Mem, index Register) func(i, half int) Mem {
	return func(i, half int) Mem {
		MOVQ(ptr(i), tmp)
		m := Mem{Base: tmp, Disp: half * v.VecBytes()}
		if index != nil {
			m.Index, m.Scale = index, 1
		}
		return m
	}
}

// loadWaves runs loadW for each wave, row(w) giving wave w's rows: each
// wave's transpose takes every register.
func loadWaves(ws []isa, row func(w isa) func(i, half int) Mem) {
	for _, w := range ws {
		loadW(w, row(w))
	}
}

// loadW loads lane i's 64-byte block, a vector at a time at row(i, half),
// for each lane i, transposes the blocks into W[0..15], one vector per
// message word, and byte-swaps them, leaving them where isa.wRing says.
func loadW(v isa, row func(i, half int) Mem) {
	n := v.Lanes()
	a, b := v.rows(0), v.rows(1)
	// Each lane's block is 64/vecBytes rows of the matrix of lanes by words;
	// the matrix is transposed one square of vecBytes/4 words at a time.
	for half := 0; half < 64/v.VecBytes(); half++ {
		Comment(fmt.Sprintf("Load words %d-%d of each lane's block.", half*n, half*n+n-1))
		if _, inRegs := v.wRing(0).(VecPhysical); inRegs {
			// AVX-512: the ring is the first bank, so load into the second,
			// and complete the words in the order the rounds take them.
			for i := 0; i < n; i++ {
				v.Load(row(i, half), b[i])
			}
			transposeInOrder(v, b, a)
			continue
		}
		for i := 0; i < n; i++ {
			v.Load(row(i, half), a[i])
		}
		out := transpose(v, a, b)
		Comment("Byte-swap; store to the schedule's ring.")
		for j := 0; j < n; j++ {
			v.bswap(out[j])
			v.wPut(half*n+j, out[j])
		}
	}
}

// transpose transposes the n x n matrix of dwords in rows (row i = lane i),
// using the bank tmp, and returns the registers holding its columns: the
// network's stages in order, each writing the other bank.
func transpose(v isa, rows, tmpBank []VecPhysical) []VecPhysical {
	Comment(fmt.Sprintf("Transpose %dx%d.", v.Lanes(), v.Lanes()))
	banks := [2][]VecPhysical{rows, tmpBank}
	stages := transposeNet(v, rows)
	for s, stage := range stages[1:] {
		for _, t := range stage {
			t.reg = banks[(s+1)%2][t.idx]
			t.op(t.x.reg, t.y.reg, t.reg)
		}
	}
	return banks[(len(stages)-1)%2]
}

// A tnode is one value of the transpose network: a loaded row, or the
// output of one shuffle of two earlier values.
type tnode struct {
	op   func(x, y, dst VecPhysical) // nil for a row
	x, y *tnode
	idx  int // its place in its stage: row idx, or word idx of the last stage
	uses int // consumers not yet emitted
	reg  VecPhysical
	done bool
}

// transposeNet returns the transpose of the n x n matrix of dwords in rows
// (row i = lane i) as a network of shuffles, stage by stage, each stage's
// values in the order they are made: stage 0 is the rows, and the value
// with idx t in the last stage holds word t of every row.
func transposeNet(v isa, rows []VecPhysical) [][]*tnode {
	n := v.Lanes()
	src := make([]*tnode, n)
	for i := range src {
		src[i] = &tnode{reg: rows[i], idx: i, done: true}
	}
	stages := [][]*tnode{src}
	var made []*tnode
	shuffle := func(op func(x, y, dst VecPhysical), x, y *tnode, idx int) *tnode {
		x.uses++
		y.uses++
		t := &tnode{op: op, x: x, y: y, idx: idx}
		made = append(made, t)
		return t
	}
	next := func() {
		stages = append(stages, made)
		made = nil
	}
	// Stage 1: within each 128-bit block, interleave the dwords of row
	// pairs: (r0, r1) -> (a0 b0 a1 b1), (a2 b2 a3 b3).
	dst := make([]*tnode, n)
	for j := 0; j < n; j += 2 {
		for k, hi := range []bool{false, true} {
			dst[j+k] = shuffle(func(x, y, d VecPhysical) { v.unpack(false, hi, x, y, d) }, src[j], src[j+1], j+k)
		}
	}
	next()
	// Stage 2: interleave qwords of pairs two apart: value 4g+m holds, in
	// 128-bit block L, word 4L+m of rows 4g..4g+3.
	src, dst = dst, make([]*tnode, n)
	for g := 0; g < n; g += 4 {
		for k, p := range [][3]int{{0, 0, 2}, {1, 0, 2}, {2, 1, 3}, {3, 1, 3}} {
			hi := k%2 == 1
			dst[g+p[0]] = shuffle(func(x, y, d VecPhysical) { v.unpack(true, hi, x, y, d) }, src[g+p[1]], src[g+p[2]], g+p[0])
		}
	}
	next()
	// Stages over 128-bit blocks: pairs (j, j+d) for d = 4, 8, .. take
	// their even and odd blocks, until value t holds word t of every row.
	for d := 4; d < n; d *= 2 {
		src, dst = dst, make([]*tnode, n)
		for j := 0; j < n; j++ {
			if j&d != 0 {
				continue
			}
			dst[j] = shuffle(func(x, y, r VecPhysical) { v.lanes128(false, x, y, r) }, src[j], src[j+d], j)
			dst[j+d] = shuffle(func(x, y, r VecPhysical) { v.lanes128(true, x, y, r) }, src[j], src[j+d], j+d)
		}
		next()
	}
	return stages
}

// transposeInOrder is transpose for a ring in registers (AVX-512's), with
// the rows in regs and the registers others free, emitted word by word: W[0]
// first (15 of the 64 shuffles of 16 lanes), then W[1] (one more), and so on,
// each byte-swapped into its ring register as soon as it is complete.
// Emitted stage by stage (transpose), no word is complete before the last
// stage, and round 0 waits for all of them: this order runs the 16-lane
// kernel 4.7% faster (bench/HISTORY.md, "Lane kernels: bookkeeping where runs
// end, the transpose in word order").
func transposeInOrder(v isa, regs, others []VecPhysical) {
	n := v.Lanes()
	stages := transposeNet(v, regs)
	src := make([]*tnode, n)
	for _, t := range stages[len(stages)-1] {
		src[t.idx] = t
	}
	holder := map[VecPhysical]*tnode{} // what each live register holds
	for _, t := range stages[0] {
		holder[t.reg] = t
	}

	// Registers: the rows' to start with; W[t] ends in its ring register.
	ring := make([]VecPhysical, n)
	for t := range ring {
		ring[t] = v.wRing(t).(VecPhysical)
	}
	free := append([]VecPhysical{}, others...)
	isFree := func(r VecPhysical) bool {
		for _, f := range free {
			if f == r {
				return true
			}
		}
		return false
	}
	take := func(r VecPhysical) {
		for i, f := range free {
			if f == r {
				free = append(free[:i], free[i+1:]...)
				return
			}
		}
		panic("transposeInOrder: register not free")
	}
	release := func(t *tnode) {
		if t.uses--; t.uses == 0 {
			free = append(free, t.reg)
			delete(holder, t.reg)
		}
	}
	// alloc picks a register for a value that W[next..] must not find in
	// its way: the free register whose ring word comes last, or a non-ring
	// one.
	alloc := func(next int) VecPhysical {
		best, score := VecPhysical(nil), -1
		for _, r := range free {
			sc := n // not a ring register
			for t, rr := range ring {
				if rr == r {
					sc = t
				}
			}
			if sc > score {
				best, score = r, sc
			}
		}
		if best == nil {
			panic("transposeInOrder: out of registers")
		}
		take(best)
		return best
	}
	var emit func(t *tnode, next int, want VecPhysical)
	emit = func(t *tnode, next int, want VecPhysical) {
		if t.done {
			return
		}
		emit(t.x, next, nil)
		emit(t.y, next, nil)
		release(t.x)
		release(t.y)
		if want != nil {
			if !isFree(want) {
				// Move the value in the way to another register (a move
				// the core eliminates).
				other := holder[want]
				r := alloc(next + 1)
				VMOVDQA64(want, r)
				other.reg = r
				holder[r] = other
				delete(holder, want)
				free = append(free, want)
			}
			take(want)
			t.reg = want
		} else {
			t.reg = alloc(next)
		}
		holder[t.reg] = t
		t.op(t.x.reg, t.y.reg, t.reg)
		t.done = true
	}
	Comment("Transpose 16x16 into the ring.")
	for t := 0; t < n; t++ {
		emit(src[t], t, ring[t])
		v.bswap(ring[t])
	}
}

// advance emits the out-of-line path of lane laneIdx (at laneReg) at the end
// of a run.
func advance(v isa, lbl func(string) string) {
	back := LabelRef(lbl("advnext"))
	Label(lbl("end"))
	Comment("The lane is at the end of a run.")
	MOVQ(Mem{Base: laneReg, Disp: abi.LaneJob}, tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(lbl("take")))
	DECQ(tmp)
	SHLQ(U8(6), tmp)
	LEAQ(Mem{Base: jobsReg, Index: tmp, Scale: 1}, jp)
	MOVQ(Mem{Base: laneReg, Disp: abi.LaneSeg}, tmp2)
	INCQ(tmp2)
	CMPQ(tmp2, U8(3))
	JAE(LabelRef(lbl("done")))
	MOVQ(tmp2, tmp)
	SHLQ(U8(4), tmp)
	ADDQ(jp, tmp)
	CMPQ(Mem{Base: tmp, Disp: abi.JobRuns + abi.RunN}, U8(0))
	JEQ(LabelRef(lbl("done")))
	MOVQ(tmp2, Mem{Base: laneReg, Disp: abi.LaneSeg})
	setRun(v, Mem{Base: tmp, Disp: abi.JobRuns})
	JMP(back)

	Label(lbl("done"))
	Comment("Write the digest, big-endian, from the lane's column of the state.")
	MOVQ(Mem{Base: jp, Disp: abi.JobOut}, tmp)
	LEAQ(Mem{Base: frame, Index: laneIdx, Scale: 4}, colReg)
	for k := 0; k < 8; k++ {
		MOVL(Mem{Base: colReg, Disp: stStride(v) * k}, tmp2.As32())
		BSWAPL(tmp2.As32())
		MOVL(tmp2.As32(), Mem{Base: tmp, Disp: 4 * k})
	}
	DECQ(busy)

	Label(lbl("take"))
	Comment("Take the next job, if any, and load its starting state into the",
		"lane's column.")
	MOVQ(nextMem(v), tmp2)
	CMPQ(tmp2, njobsMem(v))
	JAE(LabelRef(lbl("idle")))
	MOVQ(tmp2, jp)
	SHLQ(U8(6), jp)
	ADDQ(jobsReg, jp)
	INCQ(tmp2)
	MOVQ(tmp2, nextMem(v))
	INCQ(busy)
	MOVQ(tmp2, Mem{Base: laneReg, Disp: abi.LaneJob})
	MOVQ(U32(0), Mem{Base: laneReg, Disp: abi.LaneSeg})
	setRun(v, Mem{Base: jp, Disp: abi.JobRuns})
	MOVQ(Mem{Base: jp, Disp: abi.JobInit}, tmp)
	LEAQ(Mem{Base: frame, Index: laneIdx, Scale: 4}, colReg)
	for k := 0; k < 8; k++ {
		MOVL(Mem{Base: tmp, Disp: 4 * k}, tmp2.As32())
		MOVL(tmp2.As32(), Mem{Base: colReg, Disp: stStride(v) * k})
	}
	JMP(back)

	Label(lbl("idle"))
	Comment("No job left: the lane idles, hashing the zero blocks, and comes",
		"back here once it has stepped through them.")
	MOVQ(U32(0), Mem{Base: laneReg, Disp: abi.LaneJob})
	LEAQ(zeroBlk, tmp2)
	SUBQ(off, tmp2)
	MOVQ(tmp2, Mem{Base: laneReg, Disp: abi.LaneP})
	LEAQ(Mem{Base: off, Disp: 64 * idleRun}, tmp2)
	MOVL(tmp2.As32(), laneEnd(v))
	JMP(back)
}

// setRun points the lane laneIdx (at laneReg) at the run r (a job's
// runs[i]) as offsets from off, using tmp2.
func setRun(v isa, r Mem) {
	MOVQ(r, tmp2)
	SUBQ(off, tmp2)
	MOVQ(tmp2, Mem{Base: laneReg, Disp: abi.LaneP})
	MOVQ(r.Offset(abi.RunN), tmp2)
	SHLQ(U8(6), tmp2)
	ADDQ(off, tmp2)
	MOVL(tmp2.As32(), laneEnd(v))
}

// endsMem is the frame's array of the lanes' run ends, a uint32 per lane: off
// at a run's end. It does not wrap within the contract (kernel.MaxLaneSteps
// and kernel.MaxLaneRun): a call's steps and a run's blocks, 64 bytes each,
// stay below 2^32 together.
func endsMem(v isa) Mem { return Mem{Base: frame, Disp: 8*stStride(v) + v.frameBytes()} }

// laneEnd is lane laneIdx's run end.
func laneEnd(v isa) Mem {
	return Mem{Base: frame, Index: laneIdx, Scale: 4, Disp: 8*stStride(v) + v.frameBytes()}
}

// endMask sets ended to the mask of lanes whose run ends at off.
func endMask(v isa) {
	x, o := v.vec(0), v.vec(1)
	v.Load(endsMem(v), x)
	if v.total() == 32 {
		Comment("Two waves: the second's 16 ends give the mask's high half.")
		VPBROADCASTD(off.As32(), o)
		VPCMPEQD(o, x, K1)
		VPCMPEQD(endsMem(v).Offset(64), o, K2)
		KMOVW(K1, ended)
		KMOVW(K2, tmp.As32())
		SHLL(U8(16), tmp.As32())
		ORL(tmp.As32(), ended)
		return
	}
	if v.Lanes() == 16 {
		VPBROADCASTD(off.As32(), o)
		VPCMPEQD(o, x, K1)
		KMOVW(K1, ended)
		return
	}
	VMOVQ(off, o.AsX())
	VPBROADCASTD(o.AsX(), o)
	VPCMPEQD(o, x, x)
	VMOVMSKPS(x, ended)
}

// minEnd sets left to the least of the lanes' run ends.
func minEnd(v isa) {
	x, y := v.vec(0).AsY(), v.vec(1).AsY()
	xx, yx := v.vec(0).AsX(), v.vec(1).AsX()
	if v.Lanes() == 16 {
		VMOVDQU32(endsMem(v), v.vec(0))
		if v.total() == 32 {
			VPMINUD(endsMem(v).Offset(64), v.vec(0), v.vec(0))
		}
		VEXTRACTI64X4(U8(1), v.vec(0), y)
		VPMINUD(y, x, x)
	} else {
		VMOVDQU(endsMem(v), x)
	}
	VEXTRACTI128(U8(1), x, yx)
	VPMINUD(yx, xx, xx)
	VPSHUFD(U8(0x4e), xx, yx)
	VPMINUD(yx, xx, xx)
	VPSHUFD(U8(0xb1), xx, yx)
	VPMINUD(yx, xx, xx)
	VMOVD(xx, left.As32())
}

// loadTest emits a test-only entry point that runs the kernel's block load,
// transpose and byte swap (loadW) on the blocks at p[i] and stores W[t] to
// w[t].
func loadTest(k abi.Kernel, v isa) {
	n := v.Lanes()
	vb := v.VecBytes()
	name := k.Func() + "LoadW"
	TEXT(name, 0, fmt.Sprintf("func(p *[%d]*byte, w *[16][%d]uint32)", n, n))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s runs %s's block load, transpose and byte swap, for tests.", name, k.Func()))
	locals := AllocLocal(8*vb + v.frameBytes() + vb)
	Load(Param("p"), RSI)
	Load(Param("w"), RDI)
	LEAQ(locals.Offset(vb-1), frame)
	ANDQ(I32(-vb), frame)
	loadW(v, atPtr(v, func(i int) Mem { return Mem{Base: RSI, Disp: 8 * i} }, nil))
	t := v.Temps()[0]
	for j := 0; j < 16; j++ {
		x := v.wGet(j, t)
		v.Store(x, Mem{Base: RDI, Disp: vb * j})
	}
	VZEROUPPER()
	RET()
}

// A pairsMode is what a pairs kernel reads, in the order of abi.PairsCalls.
type pairsMode int

const (
	contiguous pairsMode = iota // 64-byte messages one after another
	headers                     // the 64-byte messages of a [][]byte
	double                      // as contiguous, then SHA-256 of each digest (SHA-256d)
	staged                      // messages of nb whole blocks (padded), one after another
)

// pairs emits a kernel for n messages of one length, lanes() at a time,
// with no job queue. In the first three modes each message is 64 bytes: two
// blocks, its own and the padding block of a 64-byte message, whose W+K is
// a constant table. In staged mode each message is nb blocks, padded by
// the caller.
func pairs(k abi.Kernel, ws []isa, roll bool, mode pairsMode) {
	v := ws[0]
	n := v.total()
	vb := v.VecBytes()
	sw := stStride(v)
	name, sig, doc := k.PairsFunc(int(mode)), abi.PairsCalls[mode].Sig, abi.PairsCalls[mode].Doc
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s %s, n a multiple of %d.", name, doc, n))
	outReg, inReg, nReg, strideReg, blkReg := RDI, RSI, RDX, RBX, RCX
	locals := AllocLocal(8*sw + v.frameBytes() + vb)
	Load(Param("out"), outReg)
	if mode == headers {
		Load(Param("msgs"), inReg)
	} else {
		Load(Param("in"), inReg)
	}
	Load(Param("n"), nReg)
	if mode == staged {
		Load(Param("nb"), strideReg)
		SHLQ(U8(6), strideReg)
	}
	LEAQ(locals.Offset(vb-1), frame)
	ANDQ(I32(-vb), frame)
	lbl := func(s string) string { return name + "_" + s }

	abi.LoopHead(lbl("loop"))
	TESTQ(nReg, nReg)
	JEQ(LabelRef(lbl("done")))
	if mode == staged {
		Comment("The state starts at the IV, kept on the stack while a block loads",
			"(the transpose needs the state's registers).")
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.Load(ivTab.Offset(vb*k), w.State(0))
				w.Store(w.State(0), stMem(w, k))
			}
		}
		XORQ(blkReg, blkReg)
		abi.LoopHead(lbl("block"))
	}
	Comment(fmt.Sprintf("Load %d blocks, a vector per message word.", n))
	loadWaves(ws, func(w isa) func(i, half int) Mem {
		first := w.Lanes() * w.wave()
		switch mode {
		case headers:
			return atPtr(w, func(i int) Mem { return Mem{Base: inReg, Disp: 24 * (first + i)} }, nil)
		case staged:
			// Lane i's block is at in + blk + i*stride.
			return func(i, half int) Mem {
				if first+i == 0 {
					LEAQ(Mem{Base: inReg, Index: blkReg, Scale: 1}, tmp)
				} else {
					ADDQ(strideReg, tmp)
				}
				return Mem{Base: tmp, Disp: half * vb}
			}
		default:
			return func(i, half int) Mem { return Mem{Base: inReg, Disp: 64*(first+i) + half*vb} }
		}
	})
	Comment("Load the state.")
	for _, w := range ws {
		for k := 0; k < 8; k++ {
			if mode == staged {
				w.Load(stMem(w, k), w.State(k))
			} else {
				w.Load(ivTab.Offset(vb*k), w.State(k))
			}
		}
	}
	compressW(ws, lbl, roll)
	switch mode {
	case staged:
		Comment("Add the state at the block's start; next block.")
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.Add(stMem(w, k), w.State(k), w.State(k))
				w.Store(w.State(k), stMem(w, k))
			}
		}
		ADDQ(U8(64), blkReg)
		CMPQ(blkReg, strideReg)
		JNE(LabelRef(lbl("block")))
	default:
		Comment("Add the IV; keep the state for the padding block.")
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.Add(ivTab.Offset(vb*k), w.State(k), w.State(k))
				w.Store(w.State(k), stMem(w, k))
			}
		}
		Comment("Rounds 0-63 of the padding block, W+K constant.")
		LEAQ(padWK64, kp)
		padRounds(ws, name, roll)
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.Add(stMem(w, k), w.State(k), w.State(k))
			}
		}
	}
	if mode == double {
		Comment("SHA-256 of the digest: its words are the state's, W[0..7]; W[8..15]",
			"are its padding, constants.")
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.wPut(k, w.State(k))
			}
			for k := 8; k < 16; k++ {
				x := w.Temps()[0]
				w.Load(pad32W.Offset(vb*(k-8)), x)
				w.wPut(k, x)
			}
			for k := 0; k < 8; k++ {
				w.Load(ivTab.Offset(vb*k), w.State(k))
			}
		}
		compressW(ws, func(s string) string { return lbl("d" + s) }, roll)
		for _, w := range ws {
			for k := 0; k < 8; k++ {
				w.Add(ivTab.Offset(vb*k), w.State(k), w.State(k))
			}
		}
	}
	Comment("Byte-swap and store the state.")
	for _, w := range ws {
		for k := 0; k < 8; k++ {
			w.bswap(w.State(k))
			w.Store(w.State(k), stMem(w, k))
		}
	}
	for i := 0; i < n; i++ {
		for k := 0; k < 8; k++ {
			MOVL(Mem{Base: frame, Disp: sw*k + 4*i}, tmp.As32())
			MOVL(tmp.As32(), Mem{Base: outReg, Disp: 32*i + 4*k})
		}
	}
	Comment("Next messages.")
	switch mode {
	case headers:
		ADDQ(U32(24*n), inReg)
	case staged:
		for i := 0; i < n; i++ {
			ADDQ(strideReg, inReg)
		}
	default:
		ADDQ(U32(64*n), inReg)
	}
	ADDQ(U32(32*n), outReg)
	SUBQ(U8(n), nReg)
	JMP(LabelRef(lbl("loop")))

	Label(lbl("done"))
	VZEROUPPER()
	RET()
}

// compressW emits the 64 rounds of a block whose W[0..15] are in place,
// into the state registers (without the final addition); with roll, rounds
// 16-63 are a loop.
func compressW(ws []isa, lbl func(string) string, roll bool) {
	v := ws[0]
	if v.preSchedule() {
		compressPre(ws, lbl)
		return
	}
	Comment("Rounds 0-15: W from the block.")
	LEAQ(kTab, kp)
	for _, v := range ws {
		v.startRounds(v.State(1), v.State(2))
	}
	for i := 0; i < 16; i++ {
		for _, v := range ws {
			if v.lat2() && i+lat2Ahead >= 16 {
				schedWord(v, i+lat2Ahead)
			}
			w := v.wGet(i, v.Temps()[0])
			round(v, i, func(h VecPhysical, t VecPhysical) {
				v.addK(kMem(v, i), w, t)
				v.Add(t, h, h)
			})
		}
	}
	Comment("Rounds 16-63: W[i] into W[i-16]'s place.")
	if !roll {
		for g := 1; g < 4; g++ {
			ADDQ(U32(16*v.kStride()), kp)
			schedRounds(ws, 16*g)
		}
		return
	}
	ADDQ(U32(16*v.kStride()), kp)
	abi.LoopHead(lbl("rounds"))
	schedRounds(ws, 16)
	ADDQ(U32(16*v.kStride()), kp)
	LEAQ(kTab.Offset(64*v.kStride()), tmp)
	CMPQ(kp, tmp)
	JNE(LabelRef(lbl("rounds")))
}

// wp is compressPre's base register: the frame, advanced by a group of 16
// words at a time.
var wp = R9

// compressPre emits the 64 rounds of a block whose W[0..15] are in place,
// for waves whose schedule lives on the stack (avx512Wave): first the whole
// schedule, each wave's in its own registers, since its chain W[i-2] ->
// W[i] is short and independent of the rounds, turning each word W[i-16]
// into W[i-16]+K[i-16] in place once W[i] no longer needs it; then the
// rounds of the waves in turn, W+K added from the stack. Both are loops
// over 16 words or rounds.
func compressPre(ws []isa, lbl func(string) string) {
	type pre interface {
		schedRegs() []VecPhysical
		wAt(base Register, j int) Mem
	}
	wave := func(v isa) pre {
		if l, ok := v.(lat2); ok {
			v = l.isa
		}
		return v.(pre)
	}
	// kBack is K[i-16]'s address, kp pointing at K[i-i%16].
	kBack := func(v isa, i int) Mem { return kMem(v, i).Offset(-16 * v.kStride()) }
	Comment("W[16..63]: W[i] = σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16];",
		"then W[i-16] += K[i-16]. Words 14 and 15 start in registers.")
	LEAQ(kTab.Offset(16*4), kp)
	for _, v := range ws {
		p := wave(v)
		VMOVDQA64(p.wAt(frame, 14), p.schedRegs()[2])
		VMOVDQA64(p.wAt(frame, 15), p.schedRegs()[3])
	}
	LEAQ(Mem{Base: frame, Disp: 16 * 64}, wp)
	abi.LoopHead(lbl("sched"))
	for r := 0; r < 16; r++ {
		for _, v := range ws {
			p := wave(v)
			regs := p.schedRegs()
			x, t := regs[r%4], regs[4:]
			VMOVDQA64(p.wAt(wp, r-15), t[0])
			v.SmallSigma(t[0], t[1], 7, 18, 3, t[2:])
			VMOVDQA64(p.wAt(wp, r-16), x)
			v.addK(kBack(v, r), x, t[0])
			VMOVDQA64(t[0], p.wAt(wp, r-16))
			v.Add(t[1], x, x)
			v.Add(p.wAt(wp, r-7), x, x)
			v.SmallSigma(regs[(r+2)%4], t[1], 17, 19, 10, t[2:])
			v.Add(t[1], x, x)
			VMOVDQA64(x, p.wAt(wp, r))
		}
	}
	ADDQ(U32(16*64), wp)
	ADDQ(U32(16*4), kp)
	LEAQ(Mem{Base: frame, Disp: 64 * 64}, tmp)
	CMPQ(wp, tmp)
	JNE(LabelRef(lbl("sched")))
	Comment("W[48..63] += K[48..63].")
	for r := 0; r < 16; r++ {
		for _, v := range ws {
			p := wave(v)
			t := p.schedRegs()[4+r%4]
			VMOVDQA64(p.wAt(wp, r-16), t)
			v.addK(kBack(v, r), t, t)
			VMOVDQA64(t, p.wAt(wp, r-16))
		}
	}

	Comment("Rounds 0-63, each wave's in turn, W+K from the stack.")
	MOVQ(frame, wp)
	for _, v := range ws {
		v.startRounds(v.State(1), v.State(2))
	}
	abi.LoopHead(lbl("rounds"))
	for i := 0; i < 16; i++ {
		for _, v := range ws {
			p := wave(v)
			round(v, i, func(h, _ VecPhysical) { v.Add(p.wAt(wp, i), h, h) })
		}
	}
	ADDQ(U32(16*64), wp)
	LEAQ(Mem{Base: frame, Disp: 64 * 64}, tmp)
	CMPQ(wp, tmp)
	JNE(LabelRef(lbl("rounds")))
}
