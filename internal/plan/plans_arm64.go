//go:build !purego

package plan

import "github.com/sha256x/sha256x/internal/kernel"

// archKernels lists the arm64 kernels, best first.
//
// sha2 runs three interleaved streams while three jobs are left, then two,
// then one: the shape of Intel ISA-L's aarch64 multi-buffer SHA-256
// (SHA256_MB_CE_MAX_LANES 3). sha2 x4 exists and is tested, but nothing
// here can time real arm64 hardware, so the default follows the published
// choice (BENCHMARKS.md, "Other architectures"). Single messages and Sum256
// use one stream.
//
// neon runs four lanes while at least two are busy and leaves the last
// message, and single messages, to the portable kernel: a 4-lane NEON step
// costs more than one scalar block (an estimate, BENCHMARKS.md, "Other
// architectures"), and crypto/sha256 has no assembly of its own on an arm64
// CPU without the SHA2 instructions.
func archKernels() []Kernel {
	sha2 := Kernel{Name: "sha2", Plan: Plan{
		Name: "sha2",
		Stages: []Stage{
			{K: kernel.Sha2X3, Width: 3, MinActive: 3},
			{K: kernel.Sha2X2, Width: 2, MinActive: 2},
			{K: kernel.Sha2X1, Width: 1, MinActive: 1},
		},
		One: []Stage{{K: kernel.Sha2X1, Width: 1, MinActive: 1}},
	}}
	neon := Kernel{Name: "neon", Plan: Plan{
		Name:   "neon+generic",
		Stages: []Stage{{K: kernel.NeonX4, Width: 4, MinActive: 2}, {K: kernel.Generic, Width: 1, MinActive: 1}},
		One:    []Stage{{K: kernel.Generic, Width: 1, MinActive: 1}},
	}}
	return []Kernel{sha2, neon, genericKernel, stdlibKernel}
}

// mixedPlans: on arm64 every plan is a kernel's own.
var mixedPlans []Plan

// bestPlan is the first of sha2 and neon that this CPU runs. Without
// either (an arm64 CPU without ASIMD is not known to exist), crypto/sha256.
func bestPlan() *Plan {
	for _, name := range []string{"sha2", "neon"} {
		if k := Find(name); k.Missing == "" {
			return &k.Plan
		}
	}
	return &Find("stdlib").Plan
}

// routeNames lists the plans bestPlan names, for tests.
func routeNames() []string { return []string{"sha2", "neon"} }

// writeAhead is WriteAhead for plan pl: no route here measured one.
func writeAhead(pl *Plan) int { return 0 }
