package sha256x

import (
	"os"
	"runtime"
	"strings"
)

// The dispatcher. Each architecture lists the kernels this package has for
// it (archKernels), with what this machine lacks to run each, and picks the
// plan a batch runs on when nothing is forced (bestPlan), from measurements
// recorded in BENCHMARKS.md. Everything is decided once, at init.

// A kernelID names one kernel function; stage.run switches on it.
type kernelID uint8

const (
	kGeneric kernelID = iota
	kStdlib1          // crypto/sha256's block function, one job at a time
	kArch             // the first of the architecture's own kernels
)

// A plan is how batches run: stages, widest first, each handing its last
// busy lanes to the next; one, the stages for a single message.
type plan struct {
	name   string
	stages []stage
	one    []stage
	stdlib bool // crypto/sha256, one message after another
	// pairs are kernels for 64-byte messages (Merkle pairs) with no job
	// queue (runPairs), widest first, each taking whole groups of its lanes;
	// the job queue takes what is left.
	pairs        []stage
	pairsPartial partialMin // when pairs[0], lanes, takes a last partial group as a whole one
	smallPairs   bool       // the last two pairs kernels take two pairs and one (set at init)
}

// A pairsCall is what a pairs kernel reads: 64-byte messages one after
// another, the 64-byte messages of a [][]byte, the same hashed twice
// (SHA-256d), or messages of nb padded blocks one after another.
type pairsCall uint8

const (
	pairsContig pairsCall = iota
	pairsHeaders
	pairsDouble
	pairsStaged
	pairsCalls // how many there are
)

// A kernel is what SHA256X_KERNEL and the sha256x_<name> build tags name.
type kernel struct {
	name    string
	missing string // the CPU feature this machine lacks to run it, or ""
	plan    plan   // how batches run when it is forced
}

// A variant is one kernel function on its own, for tests and benchmarks.
type variant struct {
	kernel string // the kernel it belongs to
	name   string // such as "x4": four streams
	st     stage
}

// stdlibVariant is crypto/sha256's block function as a one-lane kernel,
// which every architecture has.
var stdlibVariant = variant{"stdlib", "x1", stage{k: kStdlib1, width: 1, minActive: 1}}

var (
	genericKernel = kernel{name: "generic", plan: plan{
		name:   "generic",
		stages: []stage{{k: kGeneric, width: 1, minActive: 1}},
		one:    []stage{{k: kGeneric, width: 1, minActive: 1}},
	}}
	stdlibKernel = kernel{name: "stdlib", plan: plan{name: "stdlib", stdlib: true}}
)

var kernels = archKernels()

var active = choose(os.Getenv("SHA256X_KERNEL"), pinned)

func init() {
	for i := range kernels {
		kernels[i].plan.derive()
	}
	for _, pl := range routedPlans() {
		pl.derive()
	}
}

// derive sets what the plan's hot paths read of its stages.
func (pl *plan) derive() {
	n := len(pl.pairs)
	pl.smallPairs = n >= 2 && pl.pairs[n-2].width == 2 && pl.pairs[n-1].width == 1
	// stage.take counts groups with a mask, and an odd stage leaves the
	// next an even count: check the pairs stages are made that way.
	for i, st := range pl.pairs {
		if st.odd && (i+1 == n || pl.pairs[i+1].width != 2) || !st.odd && st.width&(st.width-1) != 0 {
			panic("sha256x: internal error: plan " + pl.name + ": a pairs stage that take cannot count")
		}
	}
	// A partial group is one group of the first stage's lanes, fewer than
	// it has, staged by runPairsPart in room for maxPairsWidth.
	if pl.pairsPartial != 0 {
		if n == 0 || pl.pairs[0].odd || pl.pairs[0].width > maxPairsWidth {
			panic("sha256x: internal error: plan " + pl.name + ": pairsPartial without pairs lanes")
		}
		for c := range pairsCalls {
			if pl.pairsPartial.at(c) >= pl.pairs[0].width {
				panic("sha256x: internal error: plan " + pl.name + ": pairsPartial of a whole group")
			}
		}
	}
}

// choose returns the plan forced by SHA256X_KERNEL, else the one pinned by a
// build tag, else the best plan for this CPU. A forced or pinned kernel that
// does not exist here, or that this CPU cannot run, panics.
func choose(env, pin string) *plan {
	name, why := env, "SHA256X_KERNEL="+env
	if name == "" {
		name, why = pin, "build tag sha256x_"+pin
	}
	if name == "" {
		return bestPlan()
	}
	k := find(name)
	switch {
	case k == nil:
		panic("sha256x: " + why + ": no kernel " + name + " on " + runtime.GOARCH + buildNote + " (available: " + strings.Join(Kernels(), ", ") + ")")
	case k.missing != "":
		panic("sha256x: " + why + ": this CPU lacks " + k.missing + ", which kernel " + name + " needs (available: " + strings.Join(Kernels(), ", ") + ")")
	}
	return &k.plan
}

func find(name string) *kernel {
	for i := range kernels {
		if kernels[i].name == name {
			return &kernels[i]
		}
	}
	return nil
}
