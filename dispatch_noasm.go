//go:build purego || !(amd64 || arm64)

package sha256x

import "runtime"

// Without assembly, the choice is between the portable kernel and
// crypto/sha256, which has assembly of its own on most architectures.

func archKernels() []kernel { return []kernel{genericKernel, stdlibKernel} }

func variants() []variant { return []variant{stdlibVariant} }

func runJob(kernelID, *job) bool { return false }

// pairsCan, runPairs, hashPairs and hashMany64 are never called: no plan
// here has a pairs kernel.
func pairsCan(kernelID, pairsCall) bool { return false }

func runPairs(kernelID, pairsCall, *[Size]byte, *byte, *[]byte, int, int) {
	panic("sha256x: internal error: no pairs kernel")
}

func hashPairs(*[Size]byte, *byte, int) { panic("sha256x: internal error: no pairs kernel") }

func hashMany64(*[Size]byte, *[]byte, int) { panic("sha256x: internal error: no pairs kernel") }

func runArch(k kernelID, ls *laneSet, jobs []job) { panic("sha256x: no assembly kernels" + buildNote) }

// bestPlan: crypto/sha256 where it has assembly for this architecture, else
// whichever of generic and crypto/sha256's own Go code measured faster.
func bestPlan() *plan {
	switch runtime.GOARCH {
	case "386", "amd64", "arm64", "loong64", "ppc64", "ppc64le", "riscv64", "s390x":
		if buildNote == "" {
			return &stdlibKernel.plan
		}
	}
	return &genericKernel.plan
}

// routedPlans lists the mixed plans this CPU can run: none without assembly.
func routedPlans() []*plan { return nil }
