// Command chain generates chain_amd64.s and its stubs: hash chains, SHA-256
// applied to its own 32-byte output n times, on one or several SHA-NI
// streams (shaniX1Chain..shaniX4Chain) or on the 8 lanes of AVX2 and 16
// lanes of AVX-512 (avx2X8Chain, avx512X16Chain): the chain kernel of each
// line of the kernel list (_asm/abi) that has one.
//
// Every chain step hashes one block: the previous digest (W[0..7]) and the
// constant padding W[8..15] = 0x80000000, 0, .., 0, 256, from the IV. So the
// kernels never load a block: the digest stays in registers from step to
// step, rounds 8..15 take precomputed W+K, and the schedule adds the
// constant share of each W[i] (folded here, at generation time) rather
// than computing it.
//
// Each kernel runs n steps of every lane or stream of a ChainLanes and
// returns; the scheduler bounds n so that a call does about 1024 blocks of
// work, and refills lanes between calls (internal/sched/chain.go).
//
// Usage: go run ./chain -pkg kernel -out FILE.s.tmp -stubs FILE.go.tmp
package main

import (
	"fmt"
	"log"
	"math/bits"

	"github.com/sha256x/sha256x/_asm/abi"
	"github.com/sha256x/sha256x/_asm/vec"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// SHA-256's initial state, and the constant half of a chain step's block.
var (
	iv  = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	pad = [8]uint32{0x80000000, 0, 0, 0, 0, 0, 0, 256} // W[8..15]
)

func rotr(x uint32, n int) uint32 { return bits.RotateLeft32(x, -n) }
func sigma0(x uint32) uint32      { return rotr(x, 7) ^ rotr(x, 18) ^ x>>3 }
func sigma1(x uint32) uint32      { return rotr(x, 17) ^ rotr(x, 19) ^ x>>10 }
func bigSigma0(x uint32) uint32   { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22) }
func bigSigma1(x uint32) uint32   { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25) }

// isConst reports whether schedule word W[j] is the same in every step.
func isConst(j int) bool { return j >= 8 && j < 16 }

// A schedule term of W[i] = σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16].
type term struct {
	j     int // the word it is of
	sigma int // 0: W[j] itself, 1: σ0(W[j]), 2: σ1(W[j])
}

// schedTerms splits W[i] (i >= 16) into the terms that vary from step to
// step and the sum of those that do not.
func schedTerms(i int) (vars []term, c uint32) {
	for _, t := range []term{{i - 16, 0}, {i - 7, 0}, {i - 15, 1}, {i - 2, 2}} {
		if !isConst(t.j) {
			vars = append(vars, t)
			continue
		}
		x := pad[t.j-8]
		switch t.sigma {
		case 1:
			x = sigma0(x)
		case 2:
			x = sigma1(x)
		}
		c += x
	}
	return vars, c
}

// round0 returns what round 0 of a step, which starts from the IV, adds to
// W[0] to make the new a and the new e: everything but W[0] is constant.
func round0() (a, e uint32) {
	ch := iv[4]&iv[5] ^ ^iv[4]&iv[6]
	maj := iv[0]&iv[1] ^ iv[0]&iv[2] ^ iv[1]&iv[2]
	t1 := iv[7] + bigSigma1(iv[4]) + ch + abi.K[0]
	t2 := bigSigma0(iv[0]) + maj
	return t1 + t2, iv[3] + t1
}

// The scalar constants of the lane kernels, one table; the vector kernels
// broadcast them.
const (
	cK     = 0       // K[0..63]
	cIV    = 64      // the IV, words a..h
	cWK    = 72      // W[8+t]+K[8+t], rounds 8..15
	cR0    = 80      // round0's a, then e
	cSched = 82 - 16 // the constant share of W[i], i in 16..63
	nConst = 82 + 48
)

func constants() []uint32 {
	cs := make([]uint32, nConst)
	copy(cs[cK:], abi.K[:])
	copy(cs[cIV:], iv[:])
	for t := range 8 {
		cs[cWK+t] = pad[t] + abi.K[8+t]
	}
	cs[cR0], cs[cR0+1] = round0()
	for i := 16; i < 64; i++ {
		_, cs[cSched+i] = schedTerms(i)
	}
	return cs
}

func main() {
	Package("github.com/sha256x/sha256x/internal/kernel")
	ConstraintExpr("!purego")

	shaniConsts()
	laneTables()
	for _, k := range abi.Of("amd64", "shani") {
		if k.Chain {
			shaniKernel(k)
		}
	}
	for _, v := range []isa{avx2{}, avx512{}} {
		for _, k := range abi.Of("amd64", v.Name()) {
			if !k.Chain {
				continue // another width's chain kernel stands in
			}
			if k.Width != v.Lanes() {
				log.Fatalf("chain: the kernel list gives %s %d lanes, the isa %d", k.Func(), k.Width, v.Lanes())
			}
			switch {
			case k.Chain && k.Lat2:
				laneKernel(k, lat2{v})
			case k.Chain:
				laneKernel(k, v)
			}
		}
	}
	Generate()
	asm, stubs := abi.Outputs()
	abi.Finish(asm, "_asm/chain")
	abi.Finish(stubs, "_asm/chain")
}

var hasAVX = NewDataAddr(Symbol{Name: "·useVZEROUPPER"}, 0)

// ---- SHA-NI streams ----

// The SHA-NI kernels' constants, 16 bytes each.
var (
	shK    Mem // K[4g..4g+3] at 16*g
	shIV   Mem // the IV as ABEF, then CDGH
	shIVPQ Mem // the IV as (a, b, e, f), then (c, d, g, h)
	shIVK  Mem // the same plus K[0,1,4,5], then plus K[2,3,6,7]
	shWK   Mem // W+K of rounds 8-9, 10-11, 12-13, 14-15, 16 bytes apart
	shPad  Mem // W[8..11], then W[12..15]
	shW13  Mem // W[13..15] and a zero
	// shCDGH1 is the starting CDGH of one stream: IV words c and d, and g
	// and h changed so that rounds 0 and 1 take W+K without the IV and K
	// added: the last digest's a and b, less the IV (see startGH).
	shCDGH1 Mem
)

// startGH returns the g and h a step can start from instead of the IV's so
// that rounds 0 and 1 take as W+K the last state's a and b, before the IV
// is added back, rather than W[0]+K[0] = a+IV[0]+K[0] and W[1]+K[1]. Round
// 1's T1 adds h1 = g0 and W[1]+K[1], and g0 is not used after it: g0 takes
// IV[1]+K[1]. Round 0's T1 adds h0 and Ch(e0, f0, g0), and h0 is not used
// elsewhere: h0 takes IV[0]+K[0], less what the new g0 changes Ch by.
func startGH() (g, h uint32) {
	ch := func(e, f, g uint32) uint32 { return e&f ^ ^e&g }
	g = iv[6] + iv[1] + abi.K[1]
	h = iv[7] + iv[0] + abi.K[0] - (ch(iv[4], iv[5], g) - ch(iv[4], iv[5], iv[6]))
	return g, h
}

func shaniConsts() {
	u32s := func(name string, ws ...uint32) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		abi.Words(0, ws...)
		return m
	}
	shK = u32s("chainShaniK", abi.K[:]...)
	shIV = u32s("chainShaniIV", iv[5], iv[4], iv[1], iv[0], iv[7], iv[6], iv[3], iv[2])
	shIVPQ = u32s("chainShaniIVPQ", iv[0], iv[1], iv[4], iv[5], iv[2], iv[3], iv[6], iv[7])
	k := abi.K
	shIVK = u32s("chainShaniIVK", iv[0]+k[0], iv[1]+k[1], iv[4]+k[4], iv[5]+k[5], iv[2]+k[2], iv[3]+k[3], iv[6]+k[6], iv[7]+k[7])
	var wk []uint32
	for t := 8; t < 16; t += 2 {
		wk = append(wk, pad[t-8]+k[t], pad[t-7]+k[t+1], 0, 0)
	}
	shWK = u32s("chainShaniWK", wk...)
	shPad = u32s("chainShaniPad", pad[:]...)
	shW13 = u32s("chainShaniW13", pad[5], pad[6], pad[7], 0)
	g, h := startGH()
	shCDGH1 = u32s("chainShaniCDGH1", h, g, iv[3], iv[2])
}

// A stream is one chain on SHA-NI: its state registers and where its
// message groups and its W+K of rounds 0..7 live (registers with one
// stream, the stack with several).
type stream struct {
	abef, cdgh VecPhysical
	ring       [4]Op // message groups G[g] at ring[g%4]
	tk, uk     Op    // (W+K) of rounds 0,1,4,5 and of 2,3,6,7
}

// group returns where message group G[j] is: the padding's two groups are
// constants.
func (s *stream) group(j int) Op {
	switch j {
	case 2:
		return shPad
	case 3:
		return shPad.Offset(16)
	}
	return s.ring[j%4]
}

func shaniKernel(k abi.Kernel) {
	n, name := k.Width, k.ChainFunc()
	TEXT(name, NOSPLIT, abi.ChainSig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s advances %d chains, lane-major in ls, by n steps on %d interleaved SHA-NI streams.", name, n, n))
	lsReg, cnt, frame := RDI, RSI, R14
	Load(Param("ls"), lsReg)
	Load(Param("n"), cnt)
	t1, t2, t3 := X13, X14, X15
	ivABEF, ivCDGH := X11, X12
	ss := make([]stream, n)
	if n == 1 {
		s := &ss[0]
		s.abef, s.cdgh = X1, X2
		s.ring = [4]Op{X3, X4, X5, X6}
		s.tk, s.uk = X7, X8
	} else {
		locals := AllocLocal(96*n + 16)
		LEAQ(locals.Offset(15), frame)
		ANDQ(I8(-16), frame)
		xs := []VecPhysical{X1, X2, X3, X4, X5, X6, X7, X8}
		for i := range ss {
			s := &ss[i]
			s.abef, s.cdgh = xs[2*i], xs[2*i+1]
			for g := range 4 {
				s.ring[g] = Mem{Base: frame, Disp: 96*i + 16*g}
			}
			s.tk, s.uk = Mem{Base: frame, Disp: 96*i + 64}, Mem{Base: frame, Disp: 96*i + 80}
		}
	}

	Comment("Legacy-SSE SHA instructions run slowly after dirty upper AVX state.")
	CMPB(hasAVX, U8(0))
	JEQ(LabelRef(name + "_init"))
	VZEROUPPER()
	Label(name + "_init")
	TESTQ(cnt, cnt)
	JEQ(LabelRef(name + "_ret"))
	MOVOU(shIV, ivABEF)
	if n == 1 {
		MOVOU(shCDGH1, ivCDGH)
	} else {
		MOVOU(shIV.Offset(16), ivCDGH)
	}

	Comment("Load each chain's digest, words a..h, and turn it into the state a",
		"step leaves before the IV is added back, as ABEF and CDGH: the loop",
		"starts each step from there.")
	for i, s := range ss {
		MOVOU(Mem{Base: lsReg, Disp: 32 * i}, t1)    // a b c d
		MOVOU(Mem{Base: lsReg, Disp: 32*i + 16}, t2) // e f g h
		MOVO(t1, t3)                                 //
		PUNPCKLQDQ(t2, t1)                           // a b e f
		PUNPCKHQDQ(t2, t3)                           // c d g h
		PSUBL(shIVPQ, t1)                            //
		PSUBL(shIVPQ.Offset(16), t3)                 //
		PSHUFD(U8(0x1b), t1, s.abef)                 // f e b a: ABEF
		PSHUFD(U8(0x1b), t3, s.cdgh)                 // h g d c: CDGH
	}

	abi.LoopHead(name + "_loop")
	Comment("The digest of the last step: its a, b, e, f and c, d, g, h plus the",
		"IV, and plus the IV and K for rounds 0-7 (the IV and K added in one go,",
		"so that the next step's first rounds wait for two instructions only);",
		"message groups 0 and 1. The state restarts at the IV.")
	for _, s := range ss {
		digestGroups(s, n, t1, t2, t3)
		MOVO(ivABEF, s.abef)
		MOVO(ivCDGH, s.cdgh)
	}
	// Each message group is computed ahead groups before the rounds that use
	// it, right after the rounds of the group before: one stream, two
	// groups (its step is 132 cycles on Intel Golden Cove against 136 with
	// three: the schedule's instructions, younger than the rounds they
	// follow, yield the ports to them); several streams, three, as the
	// message kernels (_asm/shani, measured on Zen 4).
	ahead := 3
	if n == 1 {
		ahead = 2
	}
	for g := range 16 {
		switch g {
		case 0:
			Comment("Rounds 0-7: W+K from the last digest.")
		case 2:
			Comment("Rounds 8-15: the padding's W+K, constant. Schedule message groups 4-15,",
				fmt.Sprintf("%d groups ahead of the rounds that use them.", ahead))
		case 4:
			Comment("Rounds 16-63.")
		}
		for _, s := range ss {
			shaniRounds(s, g, n == 1)
		}
		if j := g + ahead; j >= 4 && j < 16 {
			for _, s := range ss {
				shaniSchedule(s, j, t1, t2)
			}
		}
	}
	DECQ(cnt)
	JNE(LabelRef(name + "_loop"))

	Comment("Write each chain's digest back, words a..h.")
	for i, s := range ss {
		digestWords(s, t1, t2, t3)
		MOVOU(t1, Mem{Base: lsReg, Disp: 32 * i})
		MOVOU(t3, Mem{Base: lsReg, Disp: 32*i + 16})
	}
	Label(name + "_ret")
	RET()
}

// digestWords leaves stream s's digest in t1 = (a, b, c, d), t3 = (e, f,
// g, h), from the state of the step it finished (before the IV is added).
func digestWords(s stream, t1, t2, t3 VecPhysical) {
	PSHUFD(U8(0x1b), s.abef, t1) // a b e f
	PSHUFD(U8(0x1b), s.cdgh, t2) // c d g h
	PADDD(shIVPQ, t1)
	PADDD(shIVPQ.Offset(16), t2)
	MOVO(t1, t3)
	PUNPCKLQDQ(t2, t1) // a b c d
	PUNPCKHQDQ(t2, t3) // e f g h
}

// digestGroups sets stream s's W+K of rounds 0-7 (tk, uk) and its message
// groups 0 and 1 from the state of the step it finished; with one stream
// (n == 1), also X0 for rounds 0-1.
func digestGroups(s stream, n int, t1, t2, t3 VecPhysical) {
	tk, tkReg := s.tk, t3
	if r, ok := s.tk.(VecPhysical); ok {
		tkReg = r
	}
	if n == 1 {
		// Rounds 0-1 wait for this one instruction only: straight into X0,
		// the IV and K added through the starting state (shCDGH1).
		PSHUFD(U8(0x1b), s.abef, X0)
	}
	PSHUFD(U8(0x1b), s.abef, t1) // a b e f, less the IV
	MOVO(t1, tkReg)
	PADDD(shIVK, tkReg)
	if tkReg != tk {
		MOVO(tkReg, tk)
	}
	PADDD(shIVPQ, t1) // a b e f
	ukReg := t3
	if r, ok := s.uk.(VecPhysical); ok {
		ukReg = r
	}
	PSHUFD(U8(0x1b), s.cdgh, t2) // c d g h, less the IV
	MOVO(t2, ukReg)
	PADDD(shIVK.Offset(16), ukReg)
	if ukReg != s.uk {
		MOVO(ukReg, s.uk)
	}
	PADDD(shIVPQ.Offset(16), t2) // c d g h
	g0, g1 := t3, t3
	if r, ok := s.ring[0].(VecPhysical); ok {
		g0 = r
	}
	MOVO(t1, g0)
	PUNPCKLQDQ(t2, g0) // a b c d
	if g0 != s.ring[0] {
		MOVO(g0, s.ring[0])
	}
	if r, ok := s.ring[1].(VecPhysical); ok {
		g1 = r
	}
	MOVO(t1, g1)
	PUNPCKHQDQ(t2, g1) // e f g h
	if g1 != s.ring[1] {
		MOVO(g1, s.ring[1])
	}
}

// shaniRounds emits rounds 4g..4g+3 of stream s; x0Ready says that X0
// holds W+K of rounds 0-1 already.
func shaniRounds(s stream, g int, x0Ready bool) {
	switch {
	case g == 0 && x0Ready:
	case g == 0:
		MOVO(s.tk, X0)
	case g == 1:
		PSHUFD(U8(0x0e), s.tk, X0)
	case g < 4:
		MOVQ(shWK.Offset(32*(g-2)), X0)
	default:
		MOVO(s.ring[g%4], X0)
		PADDD(shK.Offset(16*g), X0)
	}
	SHA256RNDS2(X0, s.abef, s.cdgh)
	switch {
	case g == 0:
		MOVO(s.uk, X0)
	case g == 1:
		PSHUFD(U8(0x0e), s.uk, X0)
	case g < 4:
		MOVQ(shWK.Offset(32*(g-2)+16), X0)
	default:
		PSHUFD(U8(0x0e), X0, X0)
	}
	SHA256RNDS2(X0, s.cdgh, s.abef)
}

// shaniSchedule computes message group G[g] (g in 4..15) of stream s into
// its ring: G[g] = msg2(msg1(G[g-4], G[g-3]) + W[4g-7..4g-4], G[g-1]), with
// what the padding makes constant skipped: W[9..12] are zero, and
// msg1(G[2], G[3]) is G[2].
func shaniSchedule(s stream, g int, t1, t2 VecPhysical) {
	dst := t1
	if r, ok := s.ring[g%4].(VecPhysical); ok {
		dst = r
	}
	switch g {
	case 6:
		MOVO(shPad, dst) // msg1(G[2], G[3]) = G[2], since W[9..12] are zero
	case 7:
		MOVO(shPad.Offset(16), dst)
		SHA256MSG1(s.group(4), dst)
	default:
		if dst != s.ring[g%4] {
			MOVO(s.ring[g%4], dst)
		}
		SHA256MSG1(s.group(g-3), dst)
	}
	// W[4g-7..4g-4] is G[g-2]'s last three words and G[g-1]'s first. The
	// schedule's only chain runs from G[g-1] to G[g], and sha256msg2 takes
	// 6 cycles on Intel Golden Cove: adding G[g-1]'s word before it made
	// the chain 8 cycles a group, as long as the four rounds that use a
	// group, so any delay held up the rounds (11 cycles a step, measured).
	// That word only adds into the last word of G[g], so it is added after
	// sha256msg2: 7 cycles a group.
	switch g {
	case 4: // W[9..12] are zero
	case 5:
		PADDD(shW13, dst) // W[13..15] = 0, 0, 256
	default:
		MOVO(s.group(g-2), t2)
		PSRLDQ(U8(4), t2)
		PADDD(t2, dst)
	}
	SHA256MSG2(s.group(g-1), dst)
	if g != 4 {
		MOVO(s.group(g-1), t2)
		PSLLDQ(U8(12), t2)
		PADDD(t2, dst)
	}
	if dst != s.ring[g%4] {
		MOVO(dst, s.ring[g%4])
	}
}

// ---- SIMD lanes ----

var (
	laneC  Mem // the scalar constants, for AVX-512's embedded broadcasts
	laneCV Mem // the same, each repeated over 32 bytes, for AVX2
)

func laneTables() {
	cs := constants()
	laneC = GLOBL("chainLaneC", RODATA|NOPTR)
	abi.Words(0, cs...)
	laneCV = GLOBL("chainLaneCV", RODATA|NOPTR)
	abi.Words(0, abi.Splat(8, cs...)...)
}

// isa is what the lane kernels are written against: one implementation per
// register width.
type isa interface {
	Name() string
	Lanes() int
	VecBytes() int
	Load(m Mem, x VecPhysical)
	mov(x, dst VecPhysical)
	Store(x VecPhysical, m Mem)
	Add(a Op, b, dst VecPhysical)     // dst = a + b
	addC(c int, x, dst VecPhysical)   // dst = x + constant c (an index into constants())
	broadcast(c int, dst VecPhysical) // dst = constant c in every lane
	BigSigma(x, dst VecPhysical, r1, r2, r3 int, t []VecPhysical)
	SmallSigma(x, dst VecPhysical, r1, r2, s3 int, t []VecPhysical)
	Ch(e, f, g, dst VecPhysical, t []VecPhysical)
	Maj(i int, a, b, c, dst VecPhysical, t []VecPhysical)
	startRounds(i int, b, c VecPhysical)
	State(k int) VecPhysical // the register of state word k at round 0
	Temps() []VecPhysical
	// w returns a register holding W[j], loading it into t if it lives on
	// the stack; wPut stores a register to W[j]'s place; wDst returns the
	// register to compute W[j] in (t if W[j] lives on the stack).
	w(j int, t VecPhysical) VecPhysical
	wPut(j int, x VecPhysical)
	wDst(j int, t VecPhysical) VecPhysical
	frameBytes() int
	done()
	// lat2 reports whether the rounds are ordered for two-cycle vector
	// operations (abi.Kernel.Lat2).
	lat2() bool
}

// lat2 is an isa whose kernel orders its rounds for cores where vector adds,
// rotates and ternary logic take two cycles (abi.Kernel.Lat2).
type lat2 struct{ isa }

func (lat2) lat2() bool { return true }

// stateAt is the register of state word k in round i: the words move one
// register along per round, by renaming.
func stateAt(v isa, k, i int) VecPhysical { return v.State(((k-i)%8 + 8) % 8) }

func laneKernel(k abi.Kernel, v isa) {
	name := k.ChainFunc()
	n, vb := v.Lanes(), v.VecBytes()
	flags := NOSPLIT
	if v.frameBytes() > 0 {
		flags = 0 // too big a frame for NOSPLIT
	}
	TEXT(name, flags, abi.ChainSig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s advances %d chains, word-major in ls, by n steps on %d SIMD lanes.", name, n, n))
	lsReg, cnt, frame := RDI, RSI, R14
	Load(Param("ls"), lsReg)
	Load(Param("n"), cnt)
	if fb := v.frameBytes(); fb > 0 {
		locals := AllocLocal(fb + vb)
		LEAQ(locals.Offset(vb-1), frame)
		ANDQ(I32(-vb), frame)
	}
	TESTQ(cnt, cnt)
	JEQ(LabelRef(name + "_ret"))
	t := v.Temps()

	Comment("Load the digests, one vector per word, a lane per chain: W[0..7] of",
		"the first step.")
	for k := range 8 {
		x := v.wDst(k, t[0])
		v.Load(Mem{Base: lsReg, Disp: vb * k}, x)
		v.wPut(k, x)
	}

	abi.LoopHead(name + "_loop")
	Comment("Round 0 starts from the IV: everything but W[0] is constant. The",
		"state after it: a and e are W[0] plus constants, b, c, d, f, g, h the IV.")
	w0 := v.w(0, t[0])
	v.addC(cR0, w0, stateAt(v, 0, 1))
	v.addC(cR0+1, w0, stateAt(v, 4, 1))
	for _, k := range []int{1, 2, 3, 5, 6, 7} {
		v.broadcast(cIV+k-1, stateAt(v, k, 1))
	}
	v.startRounds(1, stateAt(v, 1, 1), stateAt(v, 2, 1))
	for i := 1; i < 64; i++ {
		switch i {
		case 1:
			Comment("Rounds 1-7: W from the last digest.")
		case 8:
			Comment("Rounds 8-15: the padding's W+K, constant.")
		case 16:
			Comment("Rounds 16-63: each computes W[i] into W[i-16]'s place from the terms",
				"that vary, the padding's share of the others added as one constant.")
		}
		var wk func(h, tt VecPhysical)
		switch {
		case isConst(i):
			wk = func(h, _ VecPhysical) { v.addC(cWK+i-8, h, h) }
		case i < 16:
			wk = func(h, tt VecPhysical) {
				v.addC(cK+i, v.w(i, tt), tt)
				v.Add(tt, h, h)
			}
		default:
			wi := laneSchedule(v, i)
			wk = func(h, tt VecPhysical) {
				v.addC(cK+i, wi, tt)
				v.Add(tt, h, h)
			}
		}
		laneRound(v, i, wk)
	}
	Comment("The digest: the state plus the IV, W[0..7] of the next step.")
	for k := range 8 {
		x := v.wDst(k, t[0])
		v.addC(cIV+k, stateAt(v, k, 64), x)
		v.wPut(k, x)
	}
	DECQ(cnt)
	JNE(LabelRef(name + "_loop"))

	Comment("Store the digests.")
	for k := range 8 {
		v.Store(v.w(k, t[0]), Mem{Base: lsReg, Disp: vb * k})
	}
	Label(name + "_ret")
	v.done()
	RET()
}

// laneSchedule computes W[i] (i >= 16) and returns the register holding it.
func laneSchedule(v isa, i int) VecPhysical {
	t := v.Temps()
	vars, c := schedTerms(i)
	dst := v.wDst(i, t[0])
	// The varying terms one at a time: the first held, the second summed
	// with it into dst, the rest added to dst, so that few temporaries are
	// live at once.
	var held VecPhysical
	for n, tm := range vars {
		free := t[1:]
		if n == 1 {
			free = t[2:] // t[1] may be held
		}
		x := v.w(tm.j, free[0])
		switch tm.sigma {
		case 1:
			v.SmallSigma(x, free[1], 7, 18, 3, free[2:])
			x = free[1]
		case 2:
			v.SmallSigma(x, free[1], 17, 19, 10, free[2:])
			x = free[1]
		}
		switch n {
		case 0:
			held = x // a plain W (the first varying term always is), in t[1] or its own register
			if x == t[2] {
				v.mov(x, t[1])
				held = t[1]
			}
		case 1:
			v.Add(x, held, dst)
		default:
			v.Add(x, dst, dst)
		}
	}
	if len(vars) < 2 {
		log.Fatalf("W[%d]: fewer than two varying terms", i)
	}
	if c != 0 {
		v.addC(cSched+i, dst, dst)
	}
	v.wPut(i, dst)
	return dst
}

// laneRound emits round i (vec.Round); wk adds W[i]+K[i] to h, using a
// temporary.
func laneRound(v isa, i int, wk func(h, t VecPhysical)) {
	var s [8]VecPhysical
	for k := range s {
		s[k] = stateAt(v, k, i)
	}
	t := v.Temps()
	ops := vec.RoundOps{Add: v.Add, BigSigma: v.BigSigma, Ch: v.Ch,
		Maj: func(a, b, c, dst VecPhysical, t []VecPhysical) { v.Maj(i, a, b, c, dst, t) }}
	vec.Round(ops, s, func(h VecPhysical) { wk(h, t[0]) }, t[1:], v.lat2())
}
