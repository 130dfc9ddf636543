// Package abi holds what every kernel generator shares with the sha256x
// package: the layouts of job, lane and laneSet (lanes.go; TestLayout checks
// them there) and SHA-256's round constants.
package abi

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// Byte offsets and sizes.
const (
	JobInit  = 0  // job.init
	JobRuns  = 8  // job.runs[i].p at JobRuns+16*i, .n at JobRuns+16*i+8
	JobOut   = 56 // job.out
	JobSize  = 64 // sizeof(job)
	LaneH    = 0  // lane.h
	LaneP    = 32 // lane.p
	LaneN    = 40 // lane.n
	LaneSeg  = 48 // lane.seg
	LaneJob  = 56 // lane.job
	LaneSize = 64 // sizeof(lane)
	LsMin    = 0  // laneSet.minActive
	LsPad    = 8  // laneSet.pad
	LsPadWK  = 16 // laneSet.padWK
	LsLanes  = 64 // laneSet.lanes
)

// K is SHA-256's round constants.
var K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// IV is SHA-256's initial state.
var IV = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// PadWK returns W[t]+K[t] for the padding block of a message of n bytes,
// n a multiple of 64: the block is 0x80, zeros, and the length in bits.
func PadWK(n int) [64]uint32 {
	var w [64]uint32
	w[0] = 0x80000000
	w[14], w[15] = uint32(uint64(8*n)>>32), uint32(8*n)
	rotr := func(x uint32, r uint) uint32 { return x>>r | x<<(32-r) }
	for t := 16; t < 64; t++ {
		s0 := rotr(w[t-15], 7) ^ rotr(w[t-15], 18) ^ w[t-15]>>3
		s1 := rotr(w[t-2], 17) ^ rotr(w[t-2], 19) ^ w[t-2]>>10
		w[t] = w[t-16] + s0 + w[t-7] + s1
	}
	for t := range w {
		w[t] += K[t]
	}
	return w
}

// IVK01 returns the IV with K[0] and K[1] folded in: rounds 0 and 1 from it,
// given W[0] and W[1] alone, compute what rounds 0 and 1 from the IV compute
// given W[0]+K[0] and W[1]+K[1], so a kernel starting a message at the IV
// need not add K before its first two rounds. h enters round 0 only through
// T1, so it takes K[0]; g is round 1's h and takes K[1], but it is also an
// input of round 0's Ch(e, f, g), whose change h makes up for. (The final
// addition still adds the IV itself.)
func IVK01() [8]uint32 {
	e, f, g, h := IV[4], IV[5], IV[6], IV[7]
	ch := func(e, f, g uint32) uint32 { return e&f ^ ^e&g }
	g1 := g + K[1]
	s := IV
	s[6], s[7] = g1, h+K[0]+ch(e, f, g)-ch(e, f, g1)
	return s
}

// LoopHead emits the label of a hot loop's head at a 64-byte boundary (the
// assembler pads with NOPs before it), so that a kernel's speed does not
// depend on where the linker happens to place it: the SHA-NI x3 kernel ran
// 6% apart between two builds that differed only in unrelated Go code
// (BENCHMARKS.md, "Loop heads at 64 bytes").
func LoopHead(label string) {
	build.Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []operand.Op{operand.Imm(64)}})
	build.Label(label)
}
