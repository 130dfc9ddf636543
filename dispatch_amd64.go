//go:build !purego

package sha256x

import (
	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

const (
	kShani1 kernelID = kArch + iota
	kShani2
	kShani3
	kShani4
	kAVX2
	kAVX512
)

// useVZEROUPPER tells the SHA-NI kernels they may clear upper AVX state.
var useVZEROUPPER = cpuid.CPU.Supports(cpuid.AVX)

func archKernels() []kernel {
	shani := kernel{name: "shani", plan: plan{
		name:   "shani",
		stages: []stage{{k: kShani4, width: 4, minActive: 3}, {k: kShani2, width: 2, minActive: 1}},
		one:    []stage{{k: kShani1, width: 1, minActive: 1}},
	}}
	switch {
	case !cpuid.CPU.Supports(cpuid.SHA):
		shani.missing = "SHA (SHA-NI)"
	case !cpuid.CPU.Supports(cpuid.SSE4):
		shani.missing = "SSE4.1"
	}
	avx2 := kernel{name: "avx2", plan: plan{
		name:   "avx2",
		stages: []stage{{k: kAVX2, width: 8, minActive: 1}},
		one:    []stage{{k: kAVX2, width: 8, minActive: 1}},
	}}
	if !cpu.X86.HasAVX2 {
		avx2.missing = "AVX2"
	}
	avx512 := kernel{name: "avx512", plan: plan{
		name:   "avx512",
		stages: []stage{{k: kAVX512, width: 16, minActive: 1}},
		one:    []stage{{k: kAVX512, width: 16, minActive: 1}},
	}}
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW {
		avx512.missing = "AVX-512 F+BW"
	}
	return []kernel{avx512, shani, avx2, genericKernel, stdlibKernel}
}

// variants lists each kernel function on its own, for tests and benchmarks.
func variants() []variant {
	return []variant{
		{"shani", "x1", stage{k: kShani1, width: 1, minActive: 1}},
		{"shani", "x2", stage{k: kShani2, width: 2, minActive: 1}},
		{"shani", "x3", stage{k: kShani3, width: 3, minActive: 1}},
		{"shani", "x4", stage{k: kShani4, width: 4, minActive: 1}},
		{"avx2", "x8", stage{k: kAVX2, width: 8, minActive: 1}},
		{"avx512", "x16", stage{k: kAVX512, width: 16, minActive: 1}},
	}
}

func bestPlan() *plan {
	if k := find("shani"); k.missing == "" {
		return &k.plan
	}
	return &stdlibKernel.plan
}

func runArch(k kernelID, ls *laneSet, jobs []job) {
	switch k {
	case kShani1:
		shani1(ls, jobs)
	case kShani2:
		shani2(ls, jobs)
	case kShani3:
		shani3(ls, jobs)
	case kShani4:
		shani4(ls, jobs)
	case kAVX2:
		avx2(ls, jobs)
	case kAVX512:
		avx512(ls, jobs)
	}
}
