// Package plantest lists, for tests and benchmarks, every way this machine
// can run a batch. Only tests import it: it is not in users' binaries.
package plantest

import (
	"fmt"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A Named is a plan and what tests and benchmarks call it.
type Named struct {
	Name string
	Plan *plan.Plan
}

// All returns every way this machine can run a batch: the dispatched plan,
// every kernel it can run, every mixed plan it can run, every kernel
// function alone (named family-variant), and the generic kernel at several
// widths, which drives the scheduler's carry and hand-over paths in pure Go.
func All() []Named {
	ps := []Named{{"dispatch=" + plan.Active.Name, plan.Active}}
	for _, name := range plan.Kernels() {
		ps = append(ps, Named{name, &plan.Find(name).Plan})
	}
	for _, pl := range plan.Mixed() {
		ps = append(ps, Named{pl.Name, pl})
	}
	for _, id := range Alone() {
		info := kernel.Lookup(id)
		st := plan.Stage{K: id, Width: info.Width, MinActive: 1}
		pl := plan.Plan{Name: info.Variant, Stages: []plan.Stage{st}, One: []plan.Stage{st}}
		if info.PairsOnly {
			// Pairs kernels alone: the job queue on the kernel whose
			// chains it runs, a level's whole groups on it.
			lanes := kernel.Lookup(info.Chain)
			st = plan.Stage{K: info.Chain, Width: lanes.Width, MinActive: 1}
			pl = plan.Plan{Name: info.Variant, Stages: []plan.Stage{st}, One: []plan.Stage{st},
				Pairs: []plan.Stage{{K: info.Chain, Width: lanes.Width}}, PairsPartial: plan.PartialAlways,
				PairsWide: plan.Stage{K: id, Width: info.Width}}
		}
		ps = append(ps, Named{info.Family + "-" + info.Variant, plan.New(pl)})
	}
	one := plan.Find("generic").Plan.One
	for _, w := range []int{2, 3, 4, 7, 16} {
		ps = append(ps, Named{fmt.Sprintf("generic-x%d", w), plan.New(plan.Plan{
			Name:   fmt.Sprintf("generic-x%d", w),
			Stages: []plan.Stage{{K: kernel.Generic, Width: w, MinActive: w/2 + 1}, {K: kernel.Generic, Width: 2, MinActive: 1}},
			One:    one,
		})})
	}
	return ps
}

// Alone lists the kernels this CPU can run that tests and benchmarks run
// alone, each as a plan of its own: every kernel but the generic one, which
// All runs at several widths instead.
func Alone() []kernel.ID {
	var ids []kernel.ID
	for _, id := range kernel.IDs() {
		if id != kernel.Generic && kernel.Missing(kernel.Lookup(id).Family) == "" {
			ids = append(ids, id)
		}
	}
	return ids
}
