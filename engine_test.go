package sha256x

import (
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/plan/plantest"
	"github.com/sha256x/sha256x/internal/sched"
)

// The differential tests run every plan this machine can run (plan.All)
// through the scheduler's entry points, as the API runs the dispatched one.
// The longest of them call t.Parallel: they share nothing, and the rest
// (allocation counts and timings among them) run before them, alone.

const (
	partBlocks  = 1024 // the most blocks of a part on any plan (each plan's own: Plan.PartBlocks)
	serialBatch = sched.SerialBatch
	maxJoin     = sched.MaxJoin
)

func testPlans() []plantest.Named { return plantest.All() }

func forPlans(t *testing.T, f func(t *testing.T, pl *plan.Plan)) {
	for _, p := range testPlans() {
		t.Run(p.Name, func(t *testing.T) { f(t, p.Plan) })
	}
}

func hashMany(pl *plan.Plan, out [][Size]byte, prefix []byte, msgs [][]byte) {
	sched.HashMany(pl, out, prefix, msgs)
}

func sum256(pl *plan.Plan, msg []byte) [Size]byte { return sched.Sum256(pl, msg) }

// hashLevel is Join.HashLevel on pl, the one- and two-pair path included.
func hashLevel(pl *plan.Plan, out [][Size]byte, j Join, nodes [][Size]byte) {
	sched.HashLevel(pl, len(j.Prefix)|len(j.Infix) == 0 && j.Width|Size == Size, (*sched.Join)(&j), out, nodes)
}

func writeMany(pl *plan.Plan, ds []*Digest, chunks [][]byte, single bool) {
	sched.WriteMany(pl, streams(ds), chunks, single)
}
