package plan

import "github.com/sha256x/sha256x/internal/kernel"

// Bounded kernel calls. Go cannot preempt assembly: while a goroutine is
// inside a kernel call, a stop of the world (a GC's) waits for the call to
// return. crypto/sha256 hands its assembly at most 64 KiB a call. Here
// every call is bounded by time, not bytes: at most CallTime on the slowest
// CPU each kernel is known to run on, with a margin, so that a slow kernel
// hashes less a call than a fast one. The scheduler reads the limits
// derived here:
//
//   - CallSteps: the most steps (blocks a lane) one call of a job-queue
//     kernel runs (kernel.LaneSet.MaxSteps) before it returns its busy
//     lanes for the scheduler to call again on;
//   - a plan's OneBlocks: the blocks of one message a call of the single
//     message's kernel hashes (its entry for one job has no MaxSteps);
//   - PairsMax: the messages of one pairs kernel call;
//   - ChainSteps: the steps of one chain kernel call.
//
// Each is capped at 1024 blocks a part, 512 pairs and 1024 chain blocks a
// call, so that only the kernels whose calls could run longer than CallTime
// get smaller calls. TestBoundedCalls (internal/sched, build tag
// sha256x_calltime) checks every call of every plan against these limits;
// TestCallTime (the root, same tag) times the longest call of every entry
// point.

// CallTimeMicros is the most time, in microseconds, one kernel call may
// take on the slowest CPU measured for its kernel.
const CallTimeMicros = 100

// callMargin: a call's work is sized for CallTimeMicros / callMargin at the
// slowest measured speed, for CPUs slower still (lower clocks, a busy SMT
// sibling) than those measured.
const callMargin = 1.25

const (
	maxPart      = 1024 // blocks of one part (bench/HISTORY.md, "Intel Xeon, model 207: the second session, calls bounded by the kernels (2026-12-06, twelfth session)")
	maxPairs     = 512  // messages of one pairs call
	maxChainCall = 1024 // blocks (steps times lanes) of one chain call
)

// A speed is the slowest a kernel is known to hash, all lanes busy, on long
// messages (64 KiB), in MB/s, and where that was measured.
type speed struct {
	family, variant string
	mbps            int
	where           string
}

// slowest lists every assembly kernel's slowest speed measured (or, where
// no hardware was at hand, estimated low). The Go kernels need none: the
// runtime preempts the generic kernel, and crypto/sha256 bounds its own
// calls. A kernel not listed takes the slowest speed a lane of the listed
// ones, times its lanes.
var slowest = []speed{
	// SHA-NI streams: the slowest of Zen 3, Zen 4, Zen 5 and the Intel
	// Xeons (BENCHMARKS.md, "Kernel calls bounded by time"); Zen 3's three
	// and four streams measured while its host ran the core's other thread
	// (BENCHMARKS.md, "AMD Zen 3: shani2").
	{"shani", "x1", 1370, "Intel Xeon, model 207"},
	{"shani", "x2", 1690, "Intel Xeon, model 207"},
	{"shani", "x3", 1770, "AMD Zen 3, in a slow spell"},
	{"shani", "x4", 1730, "AMD Zen 3, in a slow spell"},
	// AVX2 lanes: Zen 3's in a slow spell, the slowest (BENCHMARKS.md,
	// "Kernel calls bounded by time"; bench/HISTORY.md, "The AVX2 lanes
	// against their bound").
	{"avx2", "x8", 700, "Zen 3, in a slow spell"},
	// AVX-512 lanes: the slowest of Zen 4, Zen 5 and the Intel Xeons
	// (bench/HISTORY.md, "Kernel variants and plans, side by side" and "The
	// AVX-512 lanes against their bound"). The lat2 order is not measured
	// on Zen 4, where no plan runs it.
	{"avx512", "x16", 3220, "Zen 4"},
	{"avx512", "x16-lat2", 2970, "Intel Xeon, model 207"},
	// Two waves of 16 lanes run at one wave's speed on Zen 5
	// (BENCHMARKS.md, "Two waves of 16 lanes on Zen 5"): x16's slowest for
	// both.
	{"avx512", "x32", 3220, "Zen 4, as x16"},
	// arm64: no hardware here (BENCHMARKS.md, "Other architectures").
	// Estimates for a Cortex-A53 at 1.2 GHz; the SHA2 instructions' for
	// every width (an in-order core gains little from interleaving).
	{"neon", "x4", 100, "Cortex-A53, estimated"},
	{"sha2", "x1", 300, "Cortex-A53, estimated"},
	{"sha2", "x2", 300, "Cortex-A53, estimated"},
	{"sha2", "x3", 300, "Cortex-A53, estimated"},
	{"sha2", "x4", 300, "Cortex-A53, estimated"},
}

// CallBlocks returns the blocks one call of kernel id may hash with every
// lane busy, CallTimeMicros/callMargin at its slowest speed; 0 for the Go
// kernels, whose calls need no bound.
func CallBlocks(id kernel.ID) int {
	mbps, _ := slowestSpeed(id)
	if mbps == 0 {
		return 0
	}
	// MB/s are bytes a microsecond.
	return max(int(mbps*CallTimeMicros/callMargin/kernel.BlockSize), 1)
}

// slowestSpeed returns the slowest speed known for kernel id in MB/s, all
// lanes busy, and where it was measured; 0 for the Go kernels.
func slowestSpeed(id kernel.ID) (mbps float64, where string) {
	if id == kernel.Generic || id == kernel.Stdlib {
		return 0, ""
	}
	info := kernel.Lookup(id)
	for _, s := range slowest {
		if s.family == info.Family && s.variant == info.Variant {
			return float64(s.mbps), s.where
		}
	}
	// Not listed: the slowest lane listed, times its lanes.
	lane := 0.0
	for _, s := range slowest {
		for _, k := range kernel.IDs() {
			if i := kernel.Lookup(k); i.Family == s.family && i.Variant == s.variant {
				if l := float64(s.mbps) / float64(i.Width); lane == 0 || l < lane {
					lane = l
				}
			}
		}
	}
	if lane == 0 {
		lane = 25 // no kernel of this architecture listed: NEON's lane
	}
	return lane * float64(info.Width), "not listed: the slowest lane listed"
}

// CallSteps returns the steps (blocks a lane) one call of kernel id may
// run, CallBlocks over its lanes; 0 if unbounded.
func CallSteps(id kernel.ID) int {
	b := CallBlocks(id)
	if b == 0 {
		return 0
	}
	return max(b/kernel.Lookup(id).Width, 1)
}

// MaxSteps returns CallSteps(id) from a table, for the scheduler's every
// call (kernel.LaneSet.MaxSteps).
func MaxSteps(id kernel.ID) uintptr { return maxSteps[id] }

// pairsMax, chainSteps and maxSteps are PairsMax, ChainSteps and MaxSteps
// by kernel ID.
var pairsMax, chainSteps, maxSteps = func() (p, c [256]int, m [256]uintptr) {
	for _, id := range kernel.IDs() {
		w := kernel.Lookup(id).Width
		m[id] = uintptr(CallSteps(id))
		p[id], c[id] = maxPairs, max(maxChainCall/w, 1)
		if b := CallBlocks(id); b > 0 {
			// A message of a pairs call is at most three blocks (a pair
			// hashed twice, a node staged whole), a whole number of lanes.
			p[id] = max(min(maxPairs, b/3)/w*w, w)
			c[id] = max(min(c[id], b/w), 1)
		}
	}
	return p, c, m
}()

// PairsMax returns the most messages one call of kernel id's pairs kernel
// may take: a multiple of its lanes.
func PairsMax(id kernel.ID) int { return pairsMax[id] }

// ChainSteps returns the most steps one call of kernel id's chain kernel
// may run: each of its lanes a block a step.
func ChainSteps(id kernel.ID) uint64 { return uint64(chainSteps[id]) }

// bound sets the plan's parts. A job of the queue hashes at most maxPart
// blocks of one message, and a window of jobs runs once it holds a call's
// steps a lane of the first stage: each call is bounded by CallSteps alone.
// A single message runs OneBlocks+3 blocks a call on the One stage, whose
// entry for one job has no bound of its own.
func (pl *Plan) bound() {
	pl.PartBlocks, pl.WindowBlocks, pl.OneBlocks = maxPart, maxPart, maxPart
	if len(pl.One) > 0 {
		if s := CallSteps(pl.One[len(pl.One)-1].K); s > 0 {
			pl.OneBlocks = clampPart(s - 3)
		}
	}
	if len(pl.Stages) > 0 {
		if s := CallSteps(pl.Stages[0].K); s > 0 {
			pl.WindowBlocks = clampPart(s)
		}
	}
}

func clampPart(p int) int { return min(max(p, 1), maxPart) }
