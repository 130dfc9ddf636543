//go:build !purego

package plan

import "github.com/sha256x/sha256x/internal/kernel"

// archKernels lists the amd64 kernels, best first when forced by name.
func archKernels() []Kernel {
	// Four streams while four are busy, then three for an odd count (three
	// busy streams on x4 hash at 0.75x x3's speed), then two
	// (BENCHMARKS.md, "AMD Zen 4: shani").
	shani := Kernel{Name: "shani", Plan: Plan{
		Name:   "shani",
		Stages: shaniStages,
		One:    []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:  shaniPairs,
	}}
	avx2 := Kernel{Name: "avx2", Plan: Plan{
		Name:         "avx2",
		Stages:       []Stage{{K: kernel.Avx2X8, Width: 8, MinActive: 1}},
		One:          []Stage{{K: kernel.Avx2X8, Width: 8, MinActive: 1}},
		Pairs:        avx2Pairs8,
		PairsPartial: PartialAlways,
	}}
	avx512 := Kernel{Name: "avx512", Plan: Plan{
		Name:         "avx512",
		Stages:       []Stage{{K: kernel.Avx512X16, Width: 16, MinActive: 1}},
		One:          []Stage{{K: kernel.Avx512X16, Width: 16, MinActive: 1}},
		Pairs:        avx512Pairs16,
		PairsPartial: PartialAlways,
	}}
	return []Kernel{avx512, shani, avx2, genericKernel, stdlibKernel}
}

// Plans that mix kernels: wide lanes while enough are busy, then SHA-NI
// streams for the batch's last messages; one message on one SHA-NI stream.
// The wide stage's MinActive is where its speed per busy lane falls below
// the next stage's.
var mixedPlans = []Plan{
	{
		// For Zen 3 (an EPYC, family 19h model 01h, under KVM): two SHA-NI
		// streams for batches. Four are faster while the core is quiet, but
		// while the host runs its other thread four lose far more than two.
		// Levels and Chains keep four streams (BENCHMARKS.md, "AMD Zen 3:
		// shani2").
		Name:        "shani2",
		Stages:      []Stage{{K: kernel.ShaniX2, Width: 2, MinActive: 1}},
		One:         []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:       shaniPairs,
		ChainStages: shaniStages,
	},
	{
		// For Zen 5 (full-width AVX-512): 16 busy lanes hash 1.5x as fast
		// as four SHA-NI streams, so the lanes keep going down to 11 busy,
		// and four streams then two finish; an odd count's last three go to
		// three (BENCHMARKS.md, "AMD Zen 5: avx512+shani"). Its vector
		// operations take two cycles, so the lanes are the kernel ordered
		// for that, and a last group of 11 or more goes to them as a whole
		// one ("The lanes on a core of two-cycle vector operations").
		Name: "avx512+shani",
		Stages: []Stage{
			{K: kernel.Avx512X16Lat2, Width: 16, MinActive: 11},
			{K: kernel.ShaniX4, Width: 4, MinActive: 3},
			{K: kernel.ShaniX2, Width: 2, MinActive: 1},
		},
		One:          []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:        avx512Shani,
		PairsPartial: PartialMins(11, 12, 10, 11),
		// Two waves of 16 lanes take a level's whole groups of 32 pairs:
		// the padding block's rounds are one chain a wave, and a second
		// wave fills the pipes while the first waits (BENCHMARKS.md, "Two
		// waves of 16 lanes on Zen 5").
		PairsWide: Stage{K: kernel.Avx512X32, Width: 32},
	},
	{
		// Without SHA-NI, the best single stream is crypto/sha256's own
		// (its AVX2 code): 8 AVX2 lanes hash one long message at 0.45x its
		// speed (BENCHMARKS.md, "AVX2 without SHA-NI"). So single messages
		// go to it, and a batch's last lanes once fewer than 3 are busy
		// (BENCHMARKS.md, "Lanes without SHA-NI: where crypto/sha256 takes
		// over").
		Name: "avx2+stdlib",
		Stages: []Stage{
			{K: kernel.Avx2X8, Width: 8, MinActive: 3},
			{K: kernel.Stdlib, Width: 1, MinActive: 1},
		},
		One:          []Stage{{K: kernel.Stdlib, Width: 1, MinActive: 1}},
		Pairs:        avx2Pairs8,
		PairsPartial: PartialMins(2, 3, 2, 3),
	},
	{
		// The same for AVX-512 without SHA-NI (Skylake-SP and kin): three
		// busy lanes, not two, so that a core whose lanes are slower beside
		// its stream (AVX-512's lower clocks) does not lose (BENCHMARKS.md,
		// "Lanes without SHA-NI: where crypto/sha256 takes over").
		Name: "avx512+stdlib",
		Stages: []Stage{
			{K: kernel.Avx512X16, Width: 16, MinActive: 3},
			{K: kernel.Stdlib, Width: 1, MinActive: 1},
		},
		One:          []Stage{{K: kernel.Stdlib, Width: 1, MinActive: 1}},
		Pairs:        avx512Pairs16,
		PairsPartial: PartialMins(2, 2, 2, 2),
	},
	{
		// For Intel server cores with SHA-NI: two SHA-NI streams hash about
		// as fast as 11 busy AVX-512 lanes, so the wide lanes hand over
		// below 11 busy; one stream finishes (BENCHMARKS.md, "Intel Xeon
		// (family 6, model 167)"). Two busy streams already reach the SHA
		// unit's bound there: an odd number of jobs starts on three
		// streams, so that none is left to run alone. Its lanes are x16
		// (BENCHMARKS.md, "Intel Xeon lanes: x16, not x16-lat2").
		Name:         "avx512+shani2",
		Stages:       avx512Shani2Stages,
		One:          []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:        avx512Shani3,
		PairsPartial: PartialMins(9, 10, 9, 11),
	},
	{
		// For the Intel Xeon of model 207: avx512+shani2's stages and
		// handover, its lanes taking a last partial group of pairs later,
		// as its streams hash a few more faster than a pass of the lanes
		// (BENCHMARKS.md, "Intel Xeon (family 6, model 207):
		// avx512+shani2-late").
		Name:         "avx512+shani2-late",
		Stages:       avx512Shani2Stages,
		One:          []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:        avx512Shani3,
		PairsPartial: PartialMins(11, 11, 10, 13),
	},
}

// A route is one row of the dispatch table: the CPUs it matches and the plan
// (a kernel's or a mixed one) they run.
type route struct {
	vendor           string // CPUID's vendor string
	family           int    // -1: any
	modelLo, modelHi int    // model range, inclusive
	plan             string // taken only if this CPU can run every kernel in it
	writeAhead       int    // WriteAhead where this row's plan runs
}

const (
	anyFamily = -1
	amd       = "AuthenticAMD"
	intel     = "GenuineIntel"
)

// routes is the dispatch table, first match wins; a CPU no row matches, or
// whose row names a plan it cannot run, falls through to the next rows and
// then to the first plan it can run of shani, avx2+stdlib and generic
// (bestPlan).
var routes = []route{
	// AMD Zen 4 (family 19h, models 10h-1Fh, 60h-7Fh, A0h-AFh): shani leads
	// or ties every shape (BENCHMARKS.md, "AMD Zen 4: shani"). Writes asked
	// for ahead, 16 nodes a call (BENCHMARKS.md, "Writes asked for ahead"),
	// only on routes of CPUs that have the prefetch: it is not read from
	// CPUID.
	{amd, 0x19, 0x10, 0x1f, "shani", 16},
	{amd, 0x19, 0x60, 0x7f, "shani", 16},
	{amd, 0x19, 0xa0, 0xaf, "shani", 16},
	// AMD Zen 5 (family 1Ah): avx512+shani leads or ties every shape
	// (BENCHMARKS.md, "AMD Zen 5: avx512+shani").
	{amd, 0x1a, 0, 0xff, "avx512+shani", 0},
	// AMD Zen 3 servers (family 19h, models 00h-0Fh): two SHA-NI streams
	// hold their speed while the host runs the core's other thread
	// (BENCHMARKS.md, "AMD Zen 3: shani2"). Writes asked for ahead, 16
	// nodes a call (BENCHMARKS.md, "Writes asked for ahead").
	{amd, 0x19, 0x00, 0x0f, "shani2", 16},
	// Other AMD with SHA-NI (Zen 1, 2, the other Zen 3 models): SHA-NI
	// streams lead AVX2 lanes on Zen 3 (BENCHMARKS.md, "AMD Zen 3:
	// shani2"); four streams, as on Zen 4, not measured on these
	// (BENCHMARKS.md, "CPUs not measured here").
	{amd, anyFamily, 0, 0xff, "shani", 0},
	// Intel with AVX-512 and SHA-NI (server cores): 16 AVX-512 lanes lead
	// every batch shape, and two SHA-NI streams finish a batch as fast as
	// three or four (BENCHMARKS.md, "Intel Xeon (family 6, model 167)").
	// The Xeon of model 207 (family 6, model CFh): the same plan, its lanes
	// taking partial groups of pairs later (BENCHMARKS.md, "Intel Xeon
	// (family 6, model 207): avx512+shani2-late"), and writes asked for
	// ahead ("Writes asked for ahead"); every CPU of this model has the
	// prefetch.
	{intel, 6, 0xcf, 0xcf, "avx512+shani2-late", 16},
	// Other Intel with AVX-512 and SHA-NI: model 167's plan. Without SHA-NI
	// (Skylake-SP, which no machine here has) the last lanes and single
	// messages go to crypto/sha256, as on Haswell ("CPUs not measured here").
	{intel, anyFamily, 0, 0xff, "avx512+shani2", 0},
	{intel, anyFamily, 0, 0xff, "avx512+stdlib", 0},
	// Everything else: SHA-NI streams where present, else 8-lane AVX2 with
	// crypto/sha256's single stream for the rest (Haswell-class), else the
	// generic kernel, which beats crypto/sha256's Go code (BENCHMARKS.md,
	// "Portable kernels").
}

func bestPlan() *Plan {
	if r := bestRoute(); r != nil {
		return Runnable(r.plan)
	}
	for _, name := range []string{"shani", "avx2+stdlib"} {
		if pl := Runnable(name); pl != nil {
			return pl
		}
	}
	return &Find("generic").Plan
}

// bestRoute is the first route that matches this CPU and names a plan it
// can run, or nil.
func bestRoute() *route {
	c := &kernel.CPU
	for i, r := range routes {
		if c.Vendor == r.vendor && (r.family == anyFamily || c.Family == r.family) &&
			r.modelLo <= c.Model && c.Model <= r.modelHi && Runnable(r.plan) != nil {
			return &routes[i]
		}
	}
	return nil
}

// writeAhead is WriteAhead for plan pl: its route's, where pl is the plan
// this CPU's route chose (not one forced by name).
func writeAhead(pl *Plan) int {
	if r := bestRoute(); r != nil && Runnable(r.plan) == pl {
		return r.writeAhead
	}
	return 0
}

// The pairs kernels of the plans: AVX2 or AVX-512 lanes where they lead,
// then SHA-NI streams.
//
// The plans' PairsPartial, PartialMins(adjacent, slices, double, staged),
// say from what size the lanes take a last partial group as a whole one,
// where that measured faster than the stages after them (BENCHMARKS.md,
// "Partial groups of pairs"): any size on the lanes alone, which would run
// it anyway; elsewhere from where the stages after the lanes lost. Zen 4's
// plan has no lanes.
var (
	// The SHA-NI plan's stages (see archKernels).
	shaniStages = []Stage{{K: kernel.ShaniX4, Width: 4, MinActive: 4}, {K: kernel.ShaniX3, Width: 3, MinActive: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2, MinActive: 1}}

	// The SHA-NI plan's: an odd count's last three on three streams, one
	// call where two and one took two (BENCHMARKS.md, "AMD Zen 4: shani"),
	// as the Zen 5 and Intel plans do.
	shaniPairs = []Stage{{K: kernel.ShaniX4, Width: 4}, {K: kernel.ShaniX3, Width: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2}, {K: kernel.ShaniX1, Width: 1}}

	avx2Pairs8    = []Stage{{K: kernel.Avx2X8, Width: 8}}
	avx512Pairs16 = []Stage{{K: kernel.Avx512X16, Width: 16}}

	// Zen 5's: four streams after the lanes, then an odd count's last
	// three on three (see avx512+shani).
	avx512Shani = []Stage{{K: kernel.Avx512X16Lat2, Width: 16}, {K: kernel.ShaniX4, Width: 4}, {K: kernel.ShaniX3, Width: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2}, {K: kernel.ShaniX1, Width: 1}}
	// The Intel plans' stages: 16 lanes down to 11 busy, then three
	// streams for an odd count, two, one (see avx512+shani2).
	avx512Shani2Stages = []Stage{
		{K: kernel.Avx512X16, Width: 16, MinActive: 11},
		{K: kernel.ShaniX3, Width: 3, MinActive: 3, Odd: true},
		{K: kernel.ShaniX2, Width: 2, MinActive: 2},
		{K: kernel.ShaniX1, Width: 1, MinActive: 1},
	}
	// The Intel plans' pairs: an odd count left after the wide lanes goes in
	// threes and pairs, none left alone (see avx512+shani2).
	avx512Shani3 = []Stage{{K: kernel.Avx512X16, Width: 16}, {K: kernel.ShaniX3, Width: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2}, {K: kernel.ShaniX1, Width: 1}}
)

// routeNames lists the plans the routes name, for tests.
func routeNames() []string {
	var names []string
	for _, r := range routes {
		names = append(names, r.plan)
	}
	return names
}
