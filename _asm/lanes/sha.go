package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// SHA-NI streams beside the SIMD lanes, in the same loop: while the lanes run
// 16 rounds, each stream hashes one whole block, its instructions interleaved
// with the lanes' rounds, so that the SHA unit and the vector pipes work at
// the same time. The streams are lanes n.. of the kernel; their state lives
// in the frame as ABEF/CDGH between blocks, since the lanes' transpose takes
// every vector register. Only X0-X15 are used here: the lanes' rounds keep
// to Z16-Z31 (avx512 with memRing).

type stream struct {
	i       int // stream number; lane n+i
	a, c    VecPhysical
	m       [4]VecPhysical // the last four message groups
	t       VecPhysical
	bp      GPPhysical // its block, during a block
	lane    Mem
	abef    Mem // state between blocks
	cdgh    Mem
	pending []string // label prefixes of advances awaiting their out-of-line end
}

type streams struct {
	name string
	s    []*stream
}

var shaFlip = X15 // the byte-swap mask, during a block

func shaStreams(v isa, nsha int) *streams {
	ss := &streams{name: v.name() + fmt.Sprintf("shani%d", nsha)}
	regs := []VecPhysical{X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14}
	bps := []GPPhysical{R9, R10}
	for i := 0; i < nsha; i++ {
		r := regs[7*i:]
		slot := Mem{Base: frame, Disp: 8*v.vecBytes() + v.frameBytes() + 32*i}
		ss.s = append(ss.s, &stream{
			i: i, a: r[0], c: r[1], m: [4]VecPhysical{r[2], r[3], r[4], r[5]}, t: r[6], bp: bps[i],
			lane: Mem{Base: lsReg, Disp: lsLanes + laneSize*(v.lanes()+i)},
			abef: slot, cdgh: slot.Offset(16),
		})
	}
	return ss
}

// blocks emits body, the lanes' 16 rounds, with one block of every stream
// woven in (hook r emits the streams' rounds 4r..4r+3), then advances the
// streams a block.
func (ss *streams) blocks(prefix string, body func(hook func(r int))) {
	if len(ss.s) == 0 {
		body(nil)
		return
	}
	MOVOU(flipMask, shaFlip)
	for _, s := range ss.s {
		MOVQ(s.lane.Offset(laneP), s.bp)
		MOVO(s.abef, s.a)
		MOVO(s.cdgh, s.c)
	}
	body(func(r int) {
		for _, s := range ss.s {
			s.group(r)
		}
	})
	for _, s := range ss.s {
		PADDD(s.abef, s.a)
		PADDD(s.cdgh, s.c)
		MOVO(s.a, s.abef)
		MOVO(s.c, s.cdgh)
	}
	ss.advance(prefix)
}

// advance advances each stream a block.
func (ss *streams) advance(prefix string) {
	if len(ss.s) == 0 {
		return
	}
	Comment("Advance each SHA-NI stream a block.")
	for _, s := range ss.s {
		ADDQ(U8(64), s.lane.Offset(laneP))
		DECQ(s.lane.Offset(laneN))
		JEQ(LabelRef(fmt.Sprintf("%s_shaend%d", prefix, s.i)))
		Label(fmt.Sprintf("%s_shanext%d", prefix, s.i))
		s.pending = append(s.pending, prefix)
	}
}

// group emits message group g of the stream's block and its four rounds:
// W[4g..4g+3] = msg2(msg1(G[g-4], G[g-3]) + W[4g-7..4g-4], G[g-1]).
func (s *stream) group(g int) {
	m := func(i int) VecPhysical { return s.m[((i%4)+4)%4] }
	if g < 4 {
		MOVOU(Mem{Base: s.bp, Disp: 16 * g}, m(g))
		PSHUFB(shaFlip, m(g))
	} else {
		SHA256MSG1(m(g-3), m(g))
		MOVO(m(g-1), s.t)
		PALIGNR(U8(4), m(g-2), s.t)
		PADDD(s.t, m(g))
		SHA256MSG2(m(g-1), m(g))
	}
	MOVO(m(g), X0)
	PADDD(kTab.Offset(16*g), X0)
	SHA256RNDS2(X0, s.a, s.c)
	PSHUFD(U8(0x0e), X0, X0)
	SHA256RNDS2(X0, s.c, s.a)
}

// unshuffle leaves the stream's state in X13 = (a, b, c, d), X14 = (e, f, g, h).
func (s *stream) unshuffle() {
	MOVO(s.abef, X1)
	MOVO(s.cdgh, X2)
	PSHUFD(U8(0x1b), X1, X13) // a b e f
	PSHUFD(U8(0xb1), X2, X14) // g h c d
	MOVO(X13, X15)
	PBLENDW(U8(0xf0), X14, X13) // a b c d
	PALIGNR(U8(8), X15, X14)    // e f g h
}

// writeBack emits the return's write-back of each busy stream.
func (ss *streams) writeBack(lbl func(string) string) {
	for _, s := range ss.s {
		skip := lbl(fmt.Sprintf("shawb%d", s.i))
		CMPQ(s.lane.Offset(laneJob), U8(0))
		JEQ(LabelRef(skip))
		s.unshuffle()
		MOVOU(X13, s.lane.Offset(laneH))
		MOVOU(X14, s.lane.Offset(laneH+16))
		Label(skip)
	}
}

// ends emits the out-of-line end of a run of every stream advance.
func (ss *streams) ends() {
	for _, s := range ss.s {
		for _, p := range s.pending {
			s.end(p)
		}
	}
}

func (s *stream) end(prefix string) {
	pre := fmt.Sprintf("%s_sha%d", prefix, s.i)
	back := LabelRef(fmt.Sprintf("%s_shanext%d", prefix, s.i))
	Label(fmt.Sprintf("%s_shaend%d", prefix, s.i))
	Comment(fmt.Sprintf("SHA-NI stream %d is at the end of a run.", s.i))
	MOVQ(s.lane.Offset(laneJob), tmp)
	TESTQ(tmp, tmp)
	JEQ(LabelRef(pre + "take"))
	DECQ(tmp)
	SHLQ(U8(6), tmp)
	LEAQ(Mem{Base: jobsReg, Index: tmp, Scale: 1}, jp)
	MOVQ(s.lane.Offset(laneSeg), tmp2)
	INCQ(tmp2)
	CMPQ(tmp2, U8(3))
	JAE(LabelRef(pre + "done"))
	MOVQ(tmp2, tmp)
	SHLQ(U8(4), tmp)
	ADDQ(jp, tmp)
	CMPQ(Mem{Base: tmp, Disp: jobRuns + 8}, U8(0))
	JEQ(LabelRef(pre + "done"))
	MOVQ(tmp2, s.lane.Offset(laneSeg))
	MOVQ(Mem{Base: tmp, Disp: jobRuns + 8}, tmp2)
	MOVQ(tmp2, s.lane.Offset(laneN))
	MOVQ(Mem{Base: tmp, Disp: jobRuns}, tmp2)
	MOVQ(tmp2, s.lane.Offset(laneP))
	JMP(back)

	Label(pre + "done")
	Comment("Write the digest, big-endian.")
	s.unshuffle()
	MOVOU(flipMask, X15)
	PSHUFB(X15, X13)
	PSHUFB(X15, X14)
	MOVQ(Mem{Base: jp, Disp: jobOut}, tmp)
	MOVOU(X13, Mem{Base: tmp})
	MOVOU(X14, Mem{Base: tmp, Disp: 16})
	DECQ(busy)

	Label(pre + "take")
	Comment("Take the next job, if any, and load its starting state.")
	CMPQ(next, njobs)
	JAE(LabelRef(pre + "idle"))
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
	MOVOU(Mem{Base: tmp}, X1)           // a b c d
	MOVOU(Mem{Base: tmp, Disp: 16}, X2) // e f g h
	PSHUFD(U8(0xb1), X1, X1)            // b a d c
	PSHUFD(U8(0x1b), X2, X2)            // h g f e
	MOVO(X1, X13)
	PALIGNR(U8(8), X2, X1)     // f e b a: ABEF
	PBLENDW(U8(0xf0), X13, X2) // h g d c: CDGH
	MOVO(X1, s.abef)
	MOVO(X2, s.cdgh)
	JMP(back)

	Label(pre + "idle")
	Comment("No job left: the stream idles, hashing the zero block.")
	MOVQ(U32(0), s.lane.Offset(laneJob))
	LEAQ(zeroBlk, tmp)
	MOVQ(tmp, s.lane.Offset(laneP))
	MOVQ(U32(1), s.lane.Offset(laneN))
	JMP(back)
}
