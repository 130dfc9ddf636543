//go:build purego || !(amd64 || arm64)

package plan

import (
	"runtime"

	"github.com/sha256x/sha256x/internal/kernel"
)

// Without assembly, the choice is between the portable kernel and
// crypto/sha256, which has assembly of its own on most architectures.

func archKernels() []Kernel { return []Kernel{genericKernel, stdlibKernel} }

// mixedPlans: none without assembly.
var mixedPlans []Plan

// bestPlan: crypto/sha256 where it has assembly for this architecture, else
// whichever of generic and crypto/sha256's own Go code measured faster
// (BENCHMARKS.md, "Portable kernels").
func bestPlan() *Plan {
	switch runtime.GOARCH {
	case "386", "amd64", "arm64", "loong64", "ppc64", "ppc64le", "riscv64", "s390x":
		if kernel.BuildNote == "" {
			return &Find("stdlib").Plan
		}
	}
	return &Find("generic").Plan
}

// routeNames lists the plans bestPlan names, for tests.
func routeNames() []string { return []string{"stdlib", "generic"} }

// writeAhead is WriteAhead for plan pl: no route here measured one.
func writeAhead(pl *Plan) int { return 0 }
