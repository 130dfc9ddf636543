package plan

import (
	"fmt"

	"github.com/sha256x/sha256x/internal/kernel"
)

// A Named is a plan and what tests and benchmarks call it.
type Named struct {
	Name string
	Plan *Plan
}

// All returns, for tests and benchmarks, every way this machine can run a
// batch: the dispatched plan, every kernel it can run, every mixed plan it
// can run, every kernel function alone (named family-variant), and the
// generic kernel at several widths, which drives the scheduler's carry and
// hand-over paths in pure Go.
func All() []Named {
	ps := []Named{{"dispatch=" + Active.Name, Active}}
	for i := range kernels {
		if kernels[i].Missing == "" {
			ps = append(ps, Named{kernels[i].Name, &kernels[i].Plan})
		}
	}
	for _, pl := range Mixed() {
		ps = append(ps, Named{pl.Name, pl})
	}
	for _, id := range Alone() {
		info := kernel.Lookup(id)
		st := Stage{K: id, Width: info.Width, MinActive: 1}
		ps = append(ps, Named{info.Family + "-" + info.Variant, New(Plan{Name: info.Variant, Stages: []Stage{st}, One: []Stage{st}})})
	}
	for _, w := range []int{2, 3, 4, 7, 16} {
		ps = append(ps, Named{fmt.Sprintf("generic-x%d", w), New(Plan{
			Name:   fmt.Sprintf("generic-x%d", w),
			Stages: []Stage{{K: kernel.Generic, Width: w, MinActive: w/2 + 1}, {K: kernel.Generic, Width: 2, MinActive: 1}},
			One:    genericKernel.Plan.One,
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

// New returns pl with what is derived from it set: a plan made by tests
// and benchmarks.
func New(pl Plan) *Plan {
	pl.derive()
	return &pl
}
