//go:build !purego

package sha256x

import "golang.org/x/sys/cpu"

const (
	kNeon4 kernelID = kArch + iota
	kSha2x1
	kSha2x2
	kSha2x3
	kSha2x4
)

// archKernels lists the arm64 kernels, best first.
//
// sha2 runs three interleaved streams while three jobs are left, then two,
// then one: the shape of Intel ISA-L's aarch64 multi-buffer SHA-256, which
// interleaves at most three streams (SHA256_MB_CE_MAX_LANES 3 in
// sha256_mb/aarch64/sha256_mb_mgr_ce.c) and drains through its x2 and x1
// kernels. A Rust multi-buffer library uses four on Apple M; sha2x4 exists
// and is tested, but nothing here can time real arm64 hardware, so the
// default follows the published aarch64 choice. Single messages and
// Sum256 use sha2x1.
//
// neon runs four lanes while at least two are busy and leaves the last
// message, and single messages, to the portable kernel: a 4-lane NEON step
// costs more than one scalar block (an estimate from instruction counts,
// not a measurement), and crypto/sha256 has no assembly of its own on an
// arm64 CPU without the SHA2 instructions.
func archKernels() []kernel {
	sha2 := kernel{name: "sha2", plan: plan{
		name: "sha2",
		stages: []stage{
			{k: kSha2x3, width: 3, minActive: 3},
			{k: kSha2x2, width: 2, minActive: 2},
			{k: kSha2x1, width: 1, minActive: 1},
		},
		one: []stage{{k: kSha2x1, width: 1, minActive: 1}},
	}}
	neon := kernel{name: "neon", plan: plan{
		name:   "neon+generic",
		stages: []stage{{k: kNeon4, width: 4, minActive: 2}, {k: kGeneric, width: 1, minActive: 1}},
		one:    []stage{{k: kGeneric, width: 1, minActive: 1}},
	}}
	switch {
	case !cpu.ARM64.HasASIMD:
		sha2.missing = "ASIMD (NEON)"
	case !cpu.ARM64.HasSHA2:
		sha2.missing = "SHA2 (the ARMv8 SHA-256 instructions)"
	}
	if !cpu.ARM64.HasASIMD {
		neon.missing = "ASIMD (NEON)"
	}
	return []kernel{sha2, neon, genericKernel, stdlibKernel}
}

// variants lists each kernel function on its own, for tests and benchmarks.
func variants() []variant {
	return []variant{
		{"neon", "x4", stage{k: kNeon4, width: 4, minActive: 1}},
		{"sha2", "x1", stage{k: kSha2x1, width: 1, minActive: 1}},
		{"sha2", "x2", stage{k: kSha2x2, width: 2, minActive: 1}},
		{"sha2", "x3", stage{k: kSha2x3, width: 3, minActive: 1}},
		{"sha2", "x4", stage{k: kSha2x4, width: 4, minActive: 1}},
		stdlibVariant,
	}
}

// bestPlan is the first of sha2 and neon that this CPU runs. Without
// either (an arm64 CPU without ASIMD is not known to exist), crypto/sha256.
func bestPlan() *plan {
	for _, name := range []string{"sha2", "neon"} {
		if k := find(name); k.missing == "" {
			return &k.plan
		}
	}
	return &stdlibKernel.plan
}

func runArch(k kernelID, ls *laneSet, jobs []job) {
	switch k {
	case kNeon4:
		neon4(ls, jobs)
	case kSha2x1:
		sha2x1(ls, jobs)
	case kSha2x2:
		sha2x2(ls, jobs)
	case kSha2x3:
		sha2x3(ls, jobs)
	case kSha2x4:
		sha2x4(ls, jobs)
	}
}

// routedPlans lists the mixed plans this CPU can run, for tests and
// benchmarks: on arm64 every plan is a kernel's own.
func routedPlans() []*plan { return nil }

// runJob reports whether kernel k has an entry for a single job: none on
// arm64 yet, so single messages take the lane-set entry of sha2x1.
func runJob(kernelID, *job) bool { return false }

// pairsCan, runPairs, hashPairs and hashMany64 are never called: no plan
// here has a pairs kernel.
func pairsCan(kernelID, pairsCall) bool { return false }

func runPairs(kernelID, pairsCall, *[Size]byte, *byte, *[]byte, int, int) {
	panic("sha256x: internal error: no pairs kernel")
}

func hashPairs(*[Size]byte, *byte, int) { panic("sha256x: internal error: no pairs kernel") }

func hashMany64(*[Size]byte, *[]byte, int) { panic("sha256x: internal error: no pairs kernel") }
