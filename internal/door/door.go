// Package door is the one way into the engine for the packages above the
// root other than the root's public API. A package above the root hashes
// through the root (sha256x.HashMany, sha256x.Join.HashLevel, ...); what it
// needs that the API cannot give it, or not without a frame more on a path
// that is timed in frames, is here, and nowhere else:
//
//   - SmallPairs: hashtree's gohashtree drop-in reaches the kernel of one,
//     two or four pairs with its own checks, one frame sooner than through
//     Join.HashLevel (bench/HISTORY.md, "SSZ");
//   - CPUName: the CPU's brand string, which cmd/sha256x's reports print;
//   - Pinned: the kernel a sha256x_<name> build tag pins, which bench's
//     header names as the reason its kernel runs;
//   - WriteAhead and PrefetchW: hashtree writes a level's nodes at scattered
//     addresses, in calls as long as this CPU's plan says, each call's lines
//     asked for while the call before it hashes.
//
// The import rules (layers_test.go in the root): internal/kernel imports no
// other package of the engine, internal/plan only kernel, internal/sched
// only plan and kernel, the root sched, plan and kernel, this door sched,
// plan and kernel, and every other package of the module none of the three:
// it reaches the engine through the root, or through this door.
package door

import (
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// Size is the size of a SHA-256 digest, and of a node, in bytes.
const Size = sched.Size

// Plan returns the plan in use, for Small and SmallPairs.
func Plan() *plan.Plan { return plan.Active }

// Small reports whether SmallPairs takes the level of the len(in)/2 pairs
// of in into out on plan pl: one or two pairs, or four where the plan has a
// kernel of four, and out in place (starting where in does) or apart from
// in. The caller has checked that len(in) is even and at least 2, and that
// len(out) >= len(in)/2.
func Small(pl *plan.Plan, out, in [][Size]byte) bool {
	if !pl.SmallPairs {
		return false
	}
	n := uintptr(len(in) / 2)
	o, i := uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&in[0]))
	return (n <= 2 || n == 4 && pl.Small4) && (o == i || o+Size*n <= i || i+2*Size*n <= o)
}

// SmallPairs hashes the n adjacent pairs at in into out, out[i] =
// SHA-256(in[64i:64i+64]), straight on plan pl's kernel of n pairs: Small
// must have reported true for this level (the kernel reads and writes with
// no more checks). Otherwise the caller hashes the level through
// sha256x.Join.HashLevel. Its arguments are the kernel's own, so that they
// stay in registers.
//
// Plan, Small and SmallPairs inline, so that the kernel is one call from
// the caller's frame and nothing is live past it (TestInline). Through
// Join.HashLevel the same level costs two frames more, a few percent of a
// one-pair level (bench/HISTORY.md, "SSZ").
func SmallPairs(pl *plan.Plan, out *[Size]byte, in *byte, n int) {
	sched.SmallPairs(pl, out, in, n)
}

// CPUName names the CPU for reports: CPUID's brand string, family and
// model on amd64, or "" where there is none.
func CPUName() string { return kernel.CPUName() }

// Pinned is the kernel a sha256x_<name> build tag pins, or "", for the
// command's reports of why its kernel runs.
func Pinned() string { return plan.Pinned }

// WriteAhead is how many nodes of a level written at scattered addresses
// one call hashes, each call's written lines asked for (PrefetchW) while
// the call before it hashes; 0: the level in one call (plan.WriteAhead).
func WriteAhead() int { return plan.WriteAhead }

// PrefetchW asks for the cache lines at the addresses at, to be written,
// without waiting for them (a no-op where no prefetch was measured).
func PrefetchW(at []unsafe.Pointer) { kernel.PrefetchW(at) }
