package main

import "github.com/klauspost/cpuid/v2"

func hasSHA() bool { return cpuid.CPU.Supports(cpuid.SHA, cpuid.SSSE3, cpuid.SSE4) }

func zmmAlone(n int, k *[4]uint32)    // 512 EVEX operations on Z16-Z23
func rnds2Alone(n int, k *[4]uint32)  // 64 SHA256RNDS2 on two streams
func zmmRnds2(n int, k *[4]uint32)    // both, interleaved
func blocksAlone(n int, k *[4]uint32) // two SHA-NI blocks with their schedule
func zmmBlocks(n int, k *[4]uint32)   // 512 EVEX operations and two blocks, interleaved

// 32n 512-bit operations of one kind: one dependent chain, or 8 independent ones.
func zaddChain(n int)
func zrorChain(n int)
func zternChain(n int)
func zaddIndep(n int)
func zrorIndep(n int)
func zternIndep(n int)
func zmovAddChain(n int)
func zrorTernIndep(n int)
func zrorAddIndep(n int)
func zmovIndep(n int)

// 32n 256-bit operations of one kind (the AVX2 lane kernel's): one
// dependent chain, or 8 independent ones.
func yaddChain(n int)
func yxorChain(n int)
func yshrChain(n int)
func yaddIndep(n int)
func yxorIndep(n int)
func yshrIndep(n int)
