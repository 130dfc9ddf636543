//go:build !purego

package plan

import "github.com/sha256x/sha256x/internal/kernel"

// archKernels lists the amd64 kernels, best first when forced by name.
func archKernels() []Kernel {
	// Four streams while four are busy, then three for an odd count (three
	// busy streams on x4 hash at 0.75x x3's speed: a batch's last three
	// long messages, a later parts' round of three), then two
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
// MinActive of the wide stage is where its speed per busy lane falls below
// the next stage's.
var mixedPlans = []Plan{
	{
		// For Zen 3 (an EPYC, family 19h model 01h, under KVM): two SHA-NI
		// streams for batches. Four hash 10-15% faster than two while the
		// core is quiet, but while the host runs its other thread (most
		// rounds on that machine) four lose 1.6-1.7x and two 1.1-1.2x, so
		// two lead the batch shapes by 9-22% over all rounds; x3 loses as
		// x4 does. Levels keep four streams: level in slow rounds, 10%
		// faster in quiet ones; so do Chains: 64 chains on two streams
		// took 1.05-1.13x the time of four (BENCHMARKS.md, "AMD Zen 3:
		// shani2").
		Name:        "shani2",
		Stages:      []Stage{{K: kernel.ShaniX2, Width: 2, MinActive: 1}},
		One:         []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:       shaniPairs,
		ChainStages: shaniStages,
	},
	{
		// For Zen 5 (full-width AVX-512): 16 busy lanes hash 1.5x as fast
		// as four SHA-NI streams, so the lanes keep going down to 11 busy
		// (the mixed shape 1.8% faster than at 14, the others level), and
		// four streams then two finish (tape-leaves 4-5% faster than three
		// or two). A level's pairs left after the lanes go to four streams,
		// an odd count's last three to three (BENCHMARKS.md, "AMD Zen 5:
		// avx512+shani"). Its vector operations take two cycles, so
		// the lanes are the kernel ordered for that: 2-13% less time on
		// every batch and level; on those faster lanes a last group of 11
		// or more goes to them as a whole one (HashMany: 12, SHA-256d: 10;
		// "The lanes on a core of two-cycle vector operations").
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
		// Without SHA-NI, the best single stream is crypto/sha256's own (its
		// AVX2 code): 8 AVX2 lanes hash one long message at 0.45x its speed,
		// 8 busy lanes 3.0-4.2x (BENCHMARKS.md, "AVX2 without SHA-NI"). So
		// single messages go to it, and a batch's last lanes once fewer than
		// 3 are busy: two busy lanes are slower than one stream, three
		// faster, on Zen 4 and on the Xeon of model 207; the pairs lanes
		// take a last partial group of 2 pairs, 3 messages (BENCHMARKS.md,
		// "Lanes without SHA-NI: where crypto/sha256 takes over").
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
		// The same for AVX-512 without SHA-NI (Skylake-SP and kin): two
		// busy lanes of 16 already beat one stream on the Xeon of model 207
		// (by 11%), three by 1.6x; three, so that a core whose lanes are
		// slower beside its stream (AVX-512's lower clocks on Skylake-SP)
		// does not lose on two (BENCHMARKS.md, "Lanes without SHA-NI: where
		// crypto/sha256 takes over").
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
		// as fast as 11 busy AVX-512 lanes, so the wide lanes hand over below
		// 11 busy; one stream finishes (BENCHMARKS.md, "Intel Xeon (family
		// 6, model 167)"). Two busy streams already reach the SHA unit's
		// bound there, and an idle one wastes its share: an odd number of
		// jobs starts on three streams, so that none is left to run alone.
		// Its lanes are x16: x16-lat2 took 3-8% longer on every batch and
		// level there (BENCHMARKS.md, "Intel Xeon lanes: x16, not x16-lat2").
		Name:         "avx512+shani2",
		Stages:       avx512Shani2Stages,
		One:          []Stage{{K: kernel.ShaniX1, Width: 1, MinActive: 1}},
		Pairs:        avx512Shani3,
		PairsPartial: PartialMins(9, 10, 9, 11),
	},
	{
		// For the Intel Xeon of model 207: avx512+shani2's stages and
		// handover, which hold there (no variant of the handover or the
		// streams after it leads by more than the noise; x16-lat2 4-8%
		// slower), its lanes taking a last partial group of pairs later:
		// its streams hash up to 10 contiguous pairs, 10 messages, 9
		// SHA-256d pairs and 12 staged nodes faster than a pass of the
		// lanes, up to 14% (BENCHMARKS.md, "Intel Xeon (family 6, model
		// 207): avx512+shani2-late").
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
	// AMD Zen 4 (family 19h, models 10h-1Fh, 60h-7Fh, A0h-AFh), measured on
	// this project's machine: shani leads or ties every shape; avx512+shani
	// trails it by 5-20%, avx512 alone by up to 51% (BENCHMARKS.md, "AMD Zen
	// 4: shani"). A level written at scattered addresses, 16 nodes a call,
	// each call's lines asked for ahead: 3-6% less time for a root after
	// 512 or 8,192 changes of 2^20 (BENCHMARKS.md, "Writes asked for
	// ahead"). Only on routes of CPUs that have the prefetch: it is not
	// read from CPUID.
	{amd, 0x19, 0x10, 0x1f, "shani", 16},
	{amd, 0x19, 0x60, 0x7f, "shani", 16},
	{amd, 0x19, 0xa0, 0xaf, "shani", 16},
	// AMD Zen 5 (family 1Ah), measured on this project's machine (an EPYC,
	// family 1Ah model 02h): avx512+shani leads or ties every shape; shani
	// alone trails it by 11-36% on every batch shape (BENCHMARKS.md, "AMD Zen 5:
	// avx512+shani").
	{amd, 0x1a, 0, 0xff, "avx512+shani", 0},
	// AMD Zen 3 servers (family 19h, models 00h-0Fh), measured on this
	// project's machine (an EPYC, model 01h, under KVM): two SHA-NI streams
	// for batches hold their speed while the host runs the core's other
	// thread, where four lose 1.6-1.7x (BENCHMARKS.md, "AMD Zen 3:
	// shani2"). Writes asked for ahead, 16 nodes a call: a root after 512
	// changes of 2^20 0.82-0.99 of the time, after 8,192 0.88-0.94, in four
	// runs (BENCHMARKS.md, "Writes asked for ahead").
	{amd, 0x19, 0x00, 0x0f, "shani2", 16},
	// Other AMD with SHA-NI (Zen 1, 2, the other Zen 3 models): 8-lane
	// AVX2 behind SHA-NI streams on Zen 3 (BENCHMARKS.md, "AMD Zen 3:
	// shani2"); four streams, the plan measured on Zen 4, not measured on
	// these (BENCHMARKS.md, "CPUs not measured here").
	{amd, anyFamily, 0, 0xff, "shani", 0},
	// Intel with AVX-512 and SHA-NI (server cores), measured on an Intel
	// Xeon (family 6, model 167, under KVM): 16 AVX-512 lanes lead every
	// batch shape, and two SHA-NI streams finish a batch faster than one
	// (tape-leaves 1.86x against 1.71x crypto/sha256), as fast as three or
	// four (BENCHMARKS.md, "Intel Xeon (family 6, model 167)").
	// The Xeon of model 207 (family 6, model CFh, under KVM): the same plan, its
	// lanes taking partial groups of pairs later (BENCHMARKS.md, "Intel
	// Xeon (family 6, model 207): avx512+shani2-late"). Its changed trees'
	// writes asked for ahead, 16 nodes a call: 3-13% less time for a root
	// after 512 or 8,192 changes of 2^20 ("Writes asked for ahead"); every
	// CPU of this model has the prefetch (PREFETCHW, since Broadwell).
	{intel, 6, 0xcf, 0xcf, "avx512+shani2-late", 16},
	// Other Intel with AVX-512 and SHA-NI: model 167's plan. Without SHA-NI
	// (Skylake-SP, which no machine here has) the last lanes and single
	// messages go to crypto/sha256, as on Haswell ("CPUs not measured here").
	{intel, anyFamily, 0, 0xff, "avx512+shani2", 0},
	{intel, anyFamily, 0, 0xff, "avx512+stdlib", 0},
	// Everything else: SHA-NI streams where present, else 8-lane AVX2 with
	// crypto/sha256's single stream for the rest (Haswell-class), else the
	// generic kernel: without SHA-NI and AVX2,
	// crypto/sha256 runs its own Go code, which the generic kernel beats by
	// 4-10% (BENCHMARKS.md, "Portable kernels").
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
// The plans' PairsPartial, PartialMins(adjacent, slices, double, staged), say
// from what size the lanes take a last partial group as a whole one, where
// that measured faster than the stages after them (BENCHMARKS.md, "Partial
// groups of pairs"): any size on the lanes alone, which would run it anyway;
// on the plans that end on crypto/sha256, from where their stages after the
// lanes lost on the Intel Xeon (its crypto/sha256 runs on SHA-NI, faster than
// on the CPUs these plans are for); on the Intel plan, from where its SHA-NI
// streams lost; on Zen 5's, from where its streams lost there. Zen 4's
// plan has no lanes.
var (
	// The SHA-NI plan's stages (see archKernels).
	shaniStages = []Stage{{K: kernel.ShaniX4, Width: 4, MinActive: 4}, {K: kernel.ShaniX3, Width: 3, MinActive: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2, MinActive: 1}}

	// The SHA-NI plan's: an odd count's last three on three streams, one
	// call where two and one took two (Zen 4: three pairs 1.3x faster;
	// BENCHMARKS.md, "AMD Zen 4: shani"), as the Zen 5 and Intel plans do.
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
