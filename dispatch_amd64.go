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
//
//lint:ignore U1000 read by kernel_shani_amd64.s
var useVZEROUPPER = cpuid.CPU.Supports(cpuid.AVX)

func archKernels() []kernel {
	shani := kernel{name: "shani", plan: plan{
		name:   "shani",
		stages: []stage{{k: kShani4, width: 4, minActive: 3}, {k: kShani2, width: 2, minActive: 1}},
		one:    []stage{{k: kShani1, width: 1, minActive: 1}},
		pairs:  shaniPairs,
	}}
	switch {
	case !cpuid.CPU.Supports(cpuid.SHA):
		shani.missing = "SHA (SHA-NI)"
	case !cpuid.CPU.Supports(cpuid.SSE4):
		shani.missing = "SSE4.1"
	}
	avx2 := kernel{name: "avx2", plan: plan{
		name:         "avx2",
		stages:       []stage{{k: kAVX2, width: 8, minActive: 1}},
		one:          []stage{{k: kAVX2, width: 8, minActive: 1}},
		pairs:        avx2Pairs8,
		pairsPartial: partialAlways,
	}}
	if !cpu.X86.HasAVX2 {
		avx2.missing = "AVX2"
	}
	avx512 := kernel{name: "avx512", plan: plan{
		name:         "avx512",
		stages:       []stage{{k: kAVX512, width: 16, minActive: 1}},
		one:          []stage{{k: kAVX512, width: 16, minActive: 1}},
		pairs:        avx512Pairs16,
		pairsPartial: partialAlways,
	}}
	// The kernel's lane bookkeeping uses AVX2 instructions (every AVX-512
	// CPU has them).
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW || !cpu.X86.HasAVX2 {
		avx512.missing = "AVX-512 F+BW and AVX2"
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
		stdlibVariant,
	}
}

// Plans that mix kernels: wide lanes while enough are busy, then SHA-NI
// streams for the batch's last messages; one message on one SHA-NI stream.
// minActive of the wide stage is where its speed per busy lane falls below
// the next stage's: on Zen 4 16 busy AVX-512 lanes hash at about the speed
// of 2 SHA-NI streams (BENCHMARKS.md), so below 14 busy the streams are
// faster. (Not tuned by a sweep: no row measured here routes to these.)
var mixedPlans = []plan{
	{
		name: "avx512+shani",
		stages: []stage{
			{k: kAVX512, width: 16, minActive: 14},
			{k: kShani4, width: 4, minActive: 3},
			{k: kShani2, width: 2, minActive: 1},
		},
		one:   []stage{{k: kShani1, width: 1, minActive: 1}},
		pairs: avx512Shani,
	},
	{
		// Without SHA-NI, the best single stream is crypto/sha256's own (its
		// AVX2 code): 8 AVX2 lanes hash one long message at 0.45x its speed,
		// 8 busy lanes 3.0-4.1x (BENCHMARKS.md, "AVX2 without SHA-NI"). So
		// single messages go to it, and a batch's last lanes once fewer than
		// 3 are busy (8 lanes' per-lane speed, about 213 MB/s, times 2 busy
		// is below one stream's 512 MB/s on Zen 4).
		name: "avx2+stdlib",
		stages: []stage{
			{k: kAVX2, width: 8, minActive: 3},
			{k: kStdlib1, width: 1, minActive: 1},
		},
		one:          []stage{{k: kStdlib1, width: 1, minActive: 1}},
		pairs:        avx2Pairs8,
		pairsPartial: partialMins(3, 5, 3, 3),
	},
	{
		// The same for AVX-512 without SHA-NI (Skylake-SP and kin).
		name: "avx512+stdlib",
		stages: []stage{
			{k: kAVX512, width: 16, minActive: 7},
			{k: kStdlib1, width: 1, minActive: 1},
		},
		one:          []stage{{k: kStdlib1, width: 1, minActive: 1}},
		pairs:        avx512Pairs16,
		pairsPartial: partialMins(4, 4, 3, 5),
	},
	{
		// For Intel server cores with SHA-NI: two SHA-NI streams hash about
		// as fast as 11 busy AVX-512 lanes, so the wide lanes hand over below
		// 11 busy; one stream finishes (BENCHMARKS.md, "Intel Xeon"). Two
		// busy streams already reach the SHA unit's bound there, and an idle
		// one wastes its share: an odd number of jobs starts on three
		// streams, so that none is left to run alone.
		name: "avx512+shani2",
		stages: []stage{
			{k: kAVX512, width: 16, minActive: 11},
			{k: kShani3, width: 3, minActive: 3, odd: true},
			{k: kShani2, width: 2, minActive: 2},
			{k: kShani1, width: 1, minActive: 1},
		},
		one:          []stage{{k: kShani1, width: 1, minActive: 1}},
		pairs:        avx512Shani3,
		pairsPartial: partialMins(9, 10, 9, 11),
	},
}

// A route is one row of the dispatch table: the CPUs it matches and the plan
// (a kernel's or a mixed one) they run.
type route struct {
	vendor           cpuid.Vendor
	family           int    // -1: any
	modelLo, modelHi int    // model range, inclusive
	plan             string // taken only if this CPU can run every kernel in it
}

const anyFamily = -1

// routes is the dispatch table, first match wins; a CPU no row matches, or
// whose row names a plan it cannot run, falls through to the next rows and
// then to the first kernel it can run of avx512, shani, avx2.
var routes = []route{
	// AMD Zen 4 (family 19h, models 10h-1Fh, 60h-7Fh, A0h-AFh), measured on
	// this project's machine: shani leads or ties every shape; avx512+shani
	// trails it by 5-20%, avx512 alone by up to 47% (BENCHMARKS.md, "Zen 4").
	{cpuid.AMD, 0x19, 0x10, 0x1f, "shani"},
	{cpuid.AMD, 0x19, 0x60, 0x7f, "shani"},
	{cpuid.AMD, 0x19, 0xa0, 0xaf, "shani"},
	// AMD Zen 5 (family 1Ah): not measured here; full-width AVX-512, where
	// public measurements put 16-lane AVX-512 ahead of SHA-NI streams
	// (tape-sha256 picks its AVX-512 kernel there).
	{cpuid.AMD, 0x1a, 0, 0xff, "avx512+shani"},
	// Other AMD with SHA-NI (Zen 1-3): not measured here; public
	// measurements put 8-lane AVX2 behind SHA-NI streams on Zen 3.
	{cpuid.AMD, anyFamily, 0, 0xff, "shani"},
	// Intel with AVX-512 and SHA-NI (server cores), measured on an Intel
	// Xeon (family 6, model 167, under KVM): 16 AVX-512 lanes lead every
	// batch shape, and two SHA-NI streams finish a batch faster than one
	// (tape-leaves 1.86x against 1.71x crypto/sha256), as fast as three or
	// four (BENCHMARKS.md, "Intel Xeon"). Without SHA-NI (Skylake-SP; not
	// measured here) the last lanes and single messages go to crypto/sha256.
	{cpuid.Intel, anyFamily, 0, 0xff, "avx512+shani2"},
	{cpuid.Intel, anyFamily, 0, 0xff, "avx512+stdlib"},
	// Everything else: SHA-NI streams where present, else 8-lane AVX2 with
	// crypto/sha256's single stream for the rest (Haswell-class), else the
	// generic kernel: without SHA-NI and AVX2,
	// crypto/sha256 runs its own Go code, which the generic kernel beats by
	// 4-10% (BENCHMARKS.md, "Portable kernels").
}

func bestPlan() *plan {
	c := &cpuid.CPU
	for _, r := range routes {
		if c.VendorID == r.vendor && (r.family == anyFamily || c.Family == r.family) &&
			r.modelLo <= c.Model && c.Model <= r.modelHi {
			if pl := runnable(r.plan); pl != nil {
				return pl
			}
		}
	}
	for _, name := range []string{"shani", "avx2+stdlib"} {
		if pl := runnable(name); pl != nil {
			return pl
		}
	}
	return &genericKernel.plan
}

// runnable returns the plan of that name, a kernel's or a mixed one, if this
// CPU can run all of it.
func runnable(name string) *plan {
	if k := find(name); k != nil {
		if k.missing != "" {
			return nil
		}
		return &k.plan
	}
	for i := range mixedPlans {
		pl := &mixedPlans[i]
		if pl.name != name {
			continue
		}
		for _, st := range append(pl.stages[:len(pl.stages):len(pl.stages)], pl.one...) {
			if kernelOf(st.k).missing != "" {
				return nil
			}
		}
		return pl
	}
	return nil
}

// kernelOf returns the kernel a kernel function belongs to.
func kernelOf(k kernelID) *kernel {
	for _, v := range variants() {
		if v.st.k == k {
			return find(v.kernel)
		}
	}
	panic("sha256x: internal error: kernel function without a kernel")
}

// routedPlans lists the mixed plans this CPU can run, for tests and
// benchmarks.
func routedPlans() []*plan {
	var ps []*plan
	for i := range mixedPlans {
		if pl := runnable(mixedPlans[i].name); pl != nil {
			ps = append(ps, pl)
		}
	}
	return ps
}

// The pairs kernels of the plans: AVX2 or AVX-512 lanes where they lead,
// then SHA-NI streams.
//
// The plans' pairsPartial, partialMins(contig, headers, double, staged), say
// from what size the lanes take a last partial group as a whole one, where
// that measured faster than the stages after them (BENCHMARKS.md, "Partial
// groups of pairs"): any size on the lanes alone, which would run it anyway;
// on the plans that end on crypto/sha256, from where their stages after the
// lanes lost on the Intel Xeon (its crypto/sha256 runs on SHA-NI, faster than
// on the CPUs these plans are for); on the Intel plan, from where its SHA-NI
// streams lost. The Zen plans are unmeasured and take none.
var (
	shaniPairs = []stage{{k: kShani4, width: 4}, {k: kShani2, width: 2}, {k: kShani1, width: 1}}

	avx2Pairs8    = []stage{{k: kAVX2, width: 8}}
	avx512Pairs16 = []stage{{k: kAVX512, width: 16}}

	avx512Shani = []stage{{k: kAVX512, width: 16}, {k: kShani2, width: 2}, {k: kShani1, width: 1}}
	// The Intel plan's: an odd count left after the wide lanes goes in
	// threes and pairs, none left alone (see avx512+shani2).
	avx512Shani3 = []stage{{k: kAVX512, width: 16}, {k: kShani3, width: 3, odd: true}, {k: kShani2, width: 2}, {k: kShani1, width: 1}}
)

// pairsCan reports whether kernel k's pairs kernel reads what c says: on
// amd64 every one does.
func pairsCan(kernelID, pairsCall) bool { return true }

// runPairs hashes n messages on the pairs kernel of kernel k (see pairsCall).
func runPairs(k kernelID, c pairsCall, out *[Size]byte, in *byte, msgs *[]byte, n, nb int) {
	switch k {
	case kAVX512:
		switch c {
		case pairsContig:
			avx512Pairs(out, in, n)
		case pairsHeaders:
			avx512Many64(out, msgs, n)
		case pairsDouble:
			avx512Pairs2(out, in, n)
		case pairsStaged:
			avx512Staged(out, in, n, nb)
		}
	case kAVX2:
		switch c {
		case pairsContig:
			avx2Pairs(out, in, n)
		case pairsHeaders:
			avx2Many64(out, msgs, n)
		case pairsDouble:
			avx2Pairs2(out, in, n)
		case pairsStaged:
			avx2Staged(out, in, n, nb)
		}
	case kShani4:
		switch c {
		case pairsContig:
			shaniPairs4(out, in, n)
		case pairsHeaders:
			shaniMany64x4(out, msgs, n)
		case pairsDouble:
			shaniPairs4Double(out, in, n)
		case pairsStaged:
			shaniStaged4(out, in, n, nb)
		}
	case kShani3:
		switch c {
		case pairsContig:
			shaniPairs3(out, in, n)
		case pairsHeaders:
			shaniMany64x3(out, msgs, n)
		case pairsDouble:
			shaniPairs3Double(out, in, n)
		case pairsStaged:
			shaniStaged3(out, in, n, nb)
		}
	case kShani2:
		switch c {
		case pairsContig:
			shaniPairs2(out, in, n)
		case pairsHeaders:
			shaniMany64x2(out, msgs, n)
		case pairsDouble:
			shaniPairs2Double(out, in, n)
		case pairsStaged:
			shaniStaged2(out, in, n, nb)
		}
	case kShani1:
		switch c {
		case pairsContig:
			shaniPairs1(out, in, n)
		case pairsHeaders:
			shaniMany64x1(out, msgs, n)
		case pairsDouble:
			shaniPairs1Double(out, in, n)
		case pairsStaged:
			shaniStaged1(out, in, n, nb)
		}
	}
}

// runJob hashes one job on kernel k's entry for a single job, and reports
// whether k has one.
func runJob(k kernelID, j *job) bool {
	if k == kShani1 {
		shaniJob(j)
		return true
	}
	return false
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

// hashPairs hashes n = 1 or 2 contiguous 64-byte messages on the last pairs
// kernels of a plan with smallPairs: SHA-NI x1 and x2 (asserted by
// TestSmallPairs).
func hashPairs(out *[Size]byte, in *byte, n int) {
	if n == 1 {
		shaniPairs1(out, in, 1)
	} else {
		shaniPairs2(out, in, 2)
	}
}

// hashMany64 is hashPairs for n = 1 or 2 64-byte messages anywhere.
func hashMany64(out *[Size]byte, msgs *[]byte, n int) {
	if n == 1 {
		shaniPairs1(out, &(*msgs)[0], 1)
	} else {
		shaniMany64x2(out, msgs, 2)
	}
}
