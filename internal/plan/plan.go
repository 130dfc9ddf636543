// Package plan is data and choice: how batches run on this machine. A plan
// names the kernels a batch goes through, widest first, each handing its
// last busy lanes to the next; the pairs kernels that take Merkle pairs with
// no queue; the kernel of single messages; and the chain kernels that
// follow from them. Each architecture's table (plans_<arch>.go) lists its
// plans and the dispatch routes by CPU; the choice is made once, at init:
// SHA256X_KERNEL, else a sha256x_<name> build tag, else the route this CPU
// matches. Every row rests on a measurement in BENCHMARKS.md. The plan
// never calls a kernel: the scheduler (internal/sched) does.
package plan

import (
	"os"
	"runtime"
	"strings"

	"github.com/sha256x/sha256x/internal/kernel"
)

// A Stage is one kernel of a plan, which runs its queue until no job is
// left and fewer than MinActive (at least 1) lanes are busy.
type Stage struct {
	K         kernel.ID
	Width     int  // lanes
	MinActive int  // when to hand busy lanes to the next stage; the last stage runs to the end
	Odd       bool // taken only by an odd number of jobs (see the scheduler's finish)
}

// A Plan is how batches run.
type Plan struct {
	Name   string
	Stages []Stage // widest first, each handing its last busy lanes to the next
	One    []Stage // the kernel of a single message: its last stage
	Stdlib bool    // crypto/sha256, one message after another
	// Pairs are kernels for 64-byte messages (Merkle pairs) with no job
	// queue, widest first, each taking whole groups of its lanes; the job
	// queue takes what is left.
	Pairs        []Stage
	PairsPartial PartialMin // when Pairs[0], lanes, takes a last partial group as a whole one
	// PairsWide, if its Width is not 0, takes whole groups of its lanes of
	// the 64-byte messages of Adjacent calls before Pairs do
	// (BENCHMARKS.md, "Two waves of 16 lanes on Zen 5"); Pairs take the
	// rest.
	PairsWide Stage
	// ChainStages, if any, are the stages Chains runs on instead of Stages
	// (BENCHMARKS.md, "AMD Zen 3: shani2").
	ChainStages []Stage

	// Derived at init from the above.
	Serial     int          // the most short messages a batch hashes one after another on One, not through the job queue
	SmallPairs bool         // the last two pairs kernels take two pairs and one: Small[2] and Small[1]
	Small4     bool         // one pairs kernel takes four pairs whole (Adjacent, Double), and no partial group of lanes: Small[4]
	Small      [5]kernel.ID // the pairs kernel of one, two and four pairs, where SmallPairs and Small4
	Chain      ChainPlan    // the chain kernels that follow the plan
	// PartBlocks is the most blocks of one message a job of the queue
	// hashes; WindowBlocks the blocks a lane of the first stage a window of
	// jobs holds before it runs, a call's worth; OneBlocks the blocks of
	// one message a call on One hashes (bounds.go).
	PartBlocks, WindowBlocks, OneBlocks int
}

// SerialMax is the most short messages (at most 7 blocks each, the
// scheduler's block class of 4-7; no whole block of prefix) a batch hashes
// one after another on the single-message path, on a plan of SHA-NI
// streams: up to five went faster one by one than through the job queue,
// six as fast (bench/HISTORY.md, "Small batches"). A plan's own is Serial.
const SerialMax = 5

// A PartialMin holds, for each pairs call (a byte each), the fewest
// messages a last partial group of a plan's first pairs stage, its lanes,
// must have to run as a whole group; 0: never, it is left to the next
// stages. It is the plan's, not a field of Stage: a fifth field makes a
// Stage too big for the compiler to keep in registers (BENCHMARKS.md,
// "Partial groups of pairs").
type PartialMin uint32

// PartialMins packs the minimums for the four pairs calls.
func PartialMins(adjacent, slices, double, staged int) PartialMin {
	return PartialMin(adjacent | slices<<8 | double<<16 | staged<<24)
}

// At is the minimum for pairs call c.
func (p PartialMin) At(c kernel.PairsCall) int { return int(p >> (8 * c) & 0xff) }

// PartialAlways has the lanes take a last partial group of any size.
const PartialAlways PartialMin = 1 | 1<<8 | 1<<16 | 1<<24

// Take returns how many of n 64-byte messages a pairs stage takes: whole
// groups of its lanes (a power of two: a mask, not a division), or, for an
// odd stage (three SHA-NI streams), one group when n is odd, leaving the
// next stage (two streams) an even count.
func (st Stage) Take(n int) int {
	if st.Odd {
		if n&1 == 0 || n < st.Width {
			return 0
		}
		return st.Width
	}
	return n &^ (st.Width - 1)
}

// TakesPartial reports whether the plan's first pairs stage, its lanes,
// takes all n messages of pairs call c, a last partial group among them
// (PairsPartial): a check once, not one per stage.
func (pl *Plan) TakesPartial(n int, c kernel.PairsCall) bool {
	p := pl.PairsPartial.At(c)
	return p > 0 && n&(pl.Pairs[0].Width-1) >= p && kernel.HasPairs(pl.Pairs[0].K)
}

// MaxPairsWidth is the most lanes a pairs kernel has.
const MaxPairsWidth = kernel.MaxPairsLanes

// derive sets what the plan's hot paths read of its stages, and checks
// what they assume.
func (pl *Plan) derive() {
	// A few short messages go one after another on One, which costs less
	// than the queue earns back on SHA-NI streams (SerialMax). Where the
	// lanes hand over straight to one stream (the +stdlib plans, NEON's),
	// only fewer than the lanes' MinActive; where One is the lanes
	// themselves (a forced lane kernel), none (BENCHMARKS.md, "A few short
	// messages one after another").
	pl.Serial = SerialMax
	switch {
	case len(pl.One) > 0 && pl.One[len(pl.One)-1].Width > 1:
		pl.Serial = 1
	case len(pl.Stages) == 2 && pl.Stages[0].Width > 1 && pl.Stages[1].Width == 1:
		pl.Serial = min(SerialMax, pl.Stages[0].MinActive-1)
	}
	n := len(pl.Pairs)
	// Derived afresh: a plan made from a copy of another (plan.New) must
	// not keep the other's small kernels.
	pl.Small4, pl.Small = false, [5]kernel.ID{}
	pl.SmallPairs = n >= 2 && pl.Pairs[n-2].Width == 2 && pl.Pairs[n-1].Width == 1
	if pl.SmallPairs {
		pl.Small[1], pl.Small[2] = pl.Pairs[n-1].K, pl.Pairs[n-2].K
		// Four pairs, where the stage that hashPairs gives them to takes
		// all four in one call (Zen 4's shani: x4); not where lanes would
		// take them as a partial group. Two streams took longer on Zen 5
		// (bench/HISTORY.md, "AMD Zen 5: the plan measured").
		for _, st := range pl.Pairs {
			if t := st.Take(4); t > 0 {
				if t == 4 && st.Width == 4 && !pl.TakesPartial(4, kernel.Adjacent) && !pl.TakesPartial(4, kernel.Double) {
					pl.Small4, pl.Small[4] = true, st.K
				}
				break
			}
		}
	}
	// Take counts groups with a mask, and an odd stage leaves the next an
	// even count: check the pairs stages are made that way.
	for i, st := range pl.Pairs {
		if !kernel.HasPairs(st.K) || st.Width != kernel.Lookup(st.K).Width {
			panic("sha256x: internal error: plan " + pl.Name + ": a pairs stage without its pairs kernel")
		}
		if st.Odd && (i+1 == n || pl.Pairs[i+1].Width != 2) || !st.Odd && st.Width&(st.Width-1) != 0 {
			panic("sha256x: internal error: plan " + pl.Name + ": a pairs stage that Take cannot count")
		}
	}
	// A partial group is one group of the first stage's lanes, fewer than
	// it has, staged in room for MaxPairsWidth.
	if pl.PairsPartial != 0 {
		if n == 0 || pl.Pairs[0].Odd || pl.Pairs[0].Width > MaxPairsWidth {
			panic("sha256x: internal error: plan " + pl.Name + ": PairsPartial without pairs lanes")
		}
		for c := range kernel.PairsCalls {
			if pl.PairsPartial.At(c) >= pl.Pairs[0].Width {
				panic("sha256x: internal error: plan " + pl.Name + ": PairsPartial of a whole group")
			}
		}
	}
	for _, st := range append(pl.Stages[:len(pl.Stages):len(pl.Stages)], pl.One...) {
		if kernel.Lookup(st.K).PairsOnly {
			panic("sha256x: internal error: plan " + pl.Name + ": a stage of a kernel with pairs kernels only")
		}
	}
	// The scheduler's finish holds what a later stage's call leaves in room
	// for maxLanes jobs: the first stage, which takes a window's jobs, is
	// never skipped for an even count.
	if len(pl.Stages) > 0 && pl.Stages[0].Odd {
		panic("sha256x: internal error: plan " + pl.Name + ": an odd first stage")
	}
	if w := pl.PairsWide; w.Width != 0 && (!kernel.HasPairs(w.K) || w.Width != kernel.Lookup(w.K).Width ||
		w.Width&(w.Width-1) != 0 || w.Width > MaxPairsWidth || n == 0 || w.Width <= pl.Pairs[0].Width) {
		panic("sha256x: internal error: plan " + pl.Name + ": PairsWide that is not wider lanes before its pairs stages")
	}
	pl.Chain = chainPlanOf(pl)
	pl.bound()
}

// A Kernel is what SHA256X_KERNEL and the sha256x_<name> build tags name.
type Kernel struct {
	Name    string
	Missing string // the CPU feature this machine lacks to run it, or ""
	Plan    Plan   // how batches run when it is forced
}

var (
	genericKernel = Kernel{Name: "generic", Plan: Plan{
		Name:   "generic",
		Stages: []Stage{{K: kernel.Generic, Width: 1, MinActive: 1}},
		One:    []Stage{{K: kernel.Generic, Width: 1, MinActive: 1}},
	}}
	stdlibKernel = Kernel{Name: "stdlib", Plan: Plan{Name: "stdlib", Stdlib: true}}
)

// kernels are this architecture's, in the order the dispatcher prefers them
// when forced by name.
var kernels = func() []Kernel {
	ks := archKernels()
	for i := range ks {
		ks[i].Missing = kernel.Missing(ks[i].Name)
		ks[i].Plan.derive()
	}
	for i := range mixedPlans {
		mixedPlans[i].derive()
	}
	return ks
}()

// Active is the plan every call runs on.
var Active = Choose(os.Getenv("SHA256X_KERNEL"), pinned)

// Pinned is the kernel a sha256x_<name> build tag pins, or "".
const Pinned = pinned

// WriteAhead is how many nodes of a level written at scattered addresses
// (hashtree's sparse updates) go to one call, each call's written lines
// asked for (PREFETCHW) while the call before it hashes; 0: the level in
// one call, written after it. A CPU's route sets it where it was measured,
// for the plan it routes to (forced by name or not), not for another plan
// forced by name (BENCHMARKS.md, "Writes asked for ahead").
var WriteAhead = writeAhead(Active)

// Kernels lists every kernel this CPU can run, in the order the dispatcher
// prefers them when forced by name.
func Kernels() []string {
	var names []string
	for _, k := range kernels {
		if k.Missing == "" {
			names = append(names, k.Name)
		}
	}
	return names
}

// Choose returns the plan forced by SHA256X_KERNEL (env), else the one
// pinned by a build tag (pin), else the best plan for this CPU. A forced or
// pinned name is a kernel's (its plan alone) or a plan's, as sha256x.Kernel
// reports it, so that the name a bug report quotes runs that plan again. A
// name that does not exist here, or that this CPU cannot run, panics.
func Choose(env, pin string) *Plan {
	name, why := env, "SHA256X_KERNEL="+env
	if name == "" {
		name, why = pin, "build tag sha256x_"+pin
	}
	if name == "" {
		return bestPlan()
	}
	if k := Find(name); k != nil {
		if k.Missing != "" {
			panic("sha256x: " + why + ": this CPU lacks " + k.Missing + ", which kernel " + name + " needs (available: " + available() + ")")
		}
		return &k.Plan
	}
	pl := findPlan(name)
	if pl == nil {
		panic("sha256x: " + why + ": no kernel " + name + " on " + runtime.GOARCH + kernel.BuildNote + " (available: " + available() + ")")
	}
	if m := planMissing(pl); m != "" {
		panic("sha256x: " + why + ": this CPU lacks " + m + ", which plan " + name + " needs (available: " + available() + ")")
	}
	return pl
}

// available lists Names, for a message.
func available() string { return strings.Join(Names(), ", ") }

// Names lists every name SHA256X_KERNEL accepts on this CPU: each kernel's
// (Kernels), each plan's name where it differs from its kernel's (such as
// "neon+generic"), and the mixed plans this CPU can run.
func Names() []string {
	names := Kernels()
	for _, k := range kernels {
		if k.Missing == "" && k.Plan.Name != k.Name {
			names = append(names, k.Plan.Name)
		}
	}
	for _, pl := range Mixed() {
		names = append(names, pl.Name)
	}
	return names
}

// Find returns the kernel of that name, or nil.
func Find(name string) *Kernel {
	for i := range kernels {
		if kernels[i].Name == name {
			return &kernels[i]
		}
	}
	return nil
}

// findPlan returns the plan of that name, a kernel's or a mixed one, or nil.
func findPlan(name string) *Plan {
	for i := range kernels {
		if kernels[i].Plan.Name == name {
			return &kernels[i].Plan
		}
	}
	for i := range mixedPlans {
		if mixedPlans[i].Name == name {
			return &mixedPlans[i]
		}
	}
	return nil
}

// planMissing returns a CPU feature this machine lacks to run every kernel
// of pl, or "".
func planMissing(pl *Plan) string {
	for _, id := range planKernels(pl) {
		if m := kernel.Missing(kernel.Lookup(id).Family); m != "" {
			return m
		}
	}
	return ""
}

// planKernels lists every kernel pl's stages name: its job queue's, its
// single message's, its pairs kernels', its chains' if it names them, and
// its wide pairs kernel's (the small pairs and the chain kernels are of the
// same families, derived from these).
func planKernels(pl *Plan) []kernel.ID {
	var ids []kernel.ID
	for _, sts := range [][]Stage{pl.Stages, pl.One, pl.Pairs, pl.ChainStages} {
		for _, st := range sts {
			ids = append(ids, st.K)
		}
	}
	if pl.PairsWide.Width != 0 {
		ids = append(ids, pl.PairsWide.K)
	}
	return ids
}

// Runnable returns the plan of that name, a kernel's or a mixed one, if this
// CPU can run all of it.
func Runnable(name string) *Plan {
	if k := Find(name); k != nil {
		if k.Missing != "" {
			return nil
		}
		return &k.Plan
	}
	pl := findPlan(name)
	if pl == nil || planMissing(pl) != "" {
		return nil
	}
	return pl
}

// Mixed lists the mixed plans this CPU can run, for tests and benchmarks.
func Mixed() []*Plan {
	var ps []*Plan
	for i := range mixedPlans {
		if pl := Runnable(mixedPlans[i].Name); pl != nil {
			ps = append(ps, pl)
		}
	}
	return ps
}

// New returns pl with what is derived from it set: a plan made by tests
// and benchmarks (internal/plan/plantest, bench/planrounds).
func New(pl Plan) *Plan {
	pl.derive()
	return &pl
}
