//go:build !purego

package sha256x

import "github.com/klauspost/cpuid/v2"

const (
	kShani1 kernelID = kArch + iota
	kShani2
	kShani3
	kShani4
)

// useVZEROUPPER tells the SHA-NI kernels they may clear upper AVX state.
//
//lint:ignore U1000 read by the assembly
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
	return []kernel{shani, genericKernel, stdlibKernel}
}

// variants lists each kernel function on its own, for tests and benchmarks.
func variants() []variant {
	return []variant{
		{"shani", "x1", stage{k: kShani1, width: 1, minActive: 1}},
		{"shani", "x2", stage{k: kShani2, width: 2, minActive: 1}},
		{"shani", "x3", stage{k: kShani3, width: 3, minActive: 1}},
		{"shani", "x4", stage{k: kShani4, width: 4, minActive: 1}},
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
	}
}
