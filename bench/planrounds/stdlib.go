//go:build amd64 && !purego

package main

import (
	"fmt"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
	"github.com/sha256x/sha256x/internal/shapes"
)

// stdlibPlan says whether pl is a plan of lanes handing over to
// crypto/sha256 (avx2+stdlib, avx512+stdlib): what -what stdlib varies.
func stdlibPlan(pl *plan.Plan) bool {
	n := len(pl.Stages)
	return !pl.Stdlib && n == 2 && pl.Stages[0].Width > 1 && pl.Stages[1].K == kernel.Stdlib
}

// stdlibHandover times the batch shapes with the lanes handing over to
// crypto/sha256 at each MinActive of mins, and single messages on the lanes
// against crypto/sha256 (the plan's One stage): where a plan without SHA-NI
// should leave its lanes (BENCHMARKS.md, "CPUs not measured here").
func stdlibHandover(base *plan.Plan, mins []int, rounds int) {
	for _, s := range shapes.All() {
		out := make([][32]byte, len(s.Msgs))
		vs := []variant{{"dispatched", func() { sched.HashMany(base, out, s.Prefix, s.Msgs) }}}
		if s.Single {
			v := *base
			v.One = []plan.Stage{{K: base.Stages[0].K, Width: base.Stages[0].Width, MinActive: 1}}
			pl := plan.New(v)
			vs = append(vs, variant{"one on the lanes", func() { sched.HashMany(pl, out, s.Prefix, s.Msgs) }})
		} else {
			for _, m := range mins {
				if m > base.Stages[0].Width {
					continue
				}
				v := *base
				v.Stages = []plan.Stage{base.Stages[0], base.Stages[1]}
				v.Stages[0].MinActive = m
				pl := plan.New(v)
				vs = append(vs, variant{fmt.Sprintf("lanes/min=%d", m), func() { sched.HashMany(pl, out, s.Prefix, s.Msgs) }})
			}
		}
		roundRobin(s.Name, rounds, vs)
	}
	// A batch's last n messages, alike: on n busy lanes or one after another
	// on crypto/sha256, which is where MinActive belongs.
	lanes, stdlib := *base, *base
	lanes.Stages = []plan.Stage{base.Stages[0], base.Stages[1]}
	lanes.Stages[0].MinActive = 1
	stdlib.Stages = []plan.Stage{base.Stages[1]}
	pl, ps := plan.New(lanes), plan.New(stdlib)
	for n := 2; n <= base.Stages[0].Width/2; n++ {
		msgs := make([][]byte, n)
		for i := range msgs {
			msgs[i] = make([]byte, 4096)
			msgs[i][0] = byte(i)
		}
		out := make([][32]byte, n)
		roundRobin(fmt.Sprintf("tail n=%d x 4K", n), rounds, []variant{
			{"dispatched", func() { sched.HashMany(base, out, nil, msgs) }},
			{"lanes", func() { sched.HashMany(pl, out, nil, msgs) }},
			{"crypto/sha256", func() { sched.HashMany(ps, out, nil, msgs) }},
		})
	}
}

// stdlibPairs times levels of n pairs (and HashMany of n 64-byte messages)
// with the lanes taking a last partial group of any size, of none (the
// rest go to the job queue: the lanes while MinActive are busy, then
// crypto/sha256), and as dispatched: what a plan's PairsPartial rests on.
func stdlibPairs(base *plan.Plan, ns []int, rounds int) {
	mk := func(part plan.PartialMin) *plan.Plan {
		v := *base
		v.PairsPartial = part
		return plan.New(v)
	}
	plans := []named{
		{"dispatched", base},
		{"partial always", mk(plan.PartialAlways)},
		{"partial never", mk(0)},
	}
	var fewer []int // than a group of the lanes: the partial groups
	for _, n := range ns {
		if n < base.Pairs[0].Width {
			fewer = append(fewer, n)
		}
	}
	levelRounds(plans, levelJoins[:3], fewer, rounds)
}
