//go:build amd64 && !purego

package main

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"time"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// streamPlans returns the dispatched plan of SHA-NI streams (shani: four,
// three for an odd count, two) and the same plan on fewer streams, in its
// stages and its pairs stages alike, and on eight AVX2 lanes where this CPU
// has them: how many streams a core should run when the host takes part of
// it (issue 8: on Zen 3, four streams lost 2x in a host's slow spell where
// one did not).
func streamPlans(base *plan.Plan) []named {
	x3 := plan.Stage{K: kernel.ShaniX3, Width: 3, MinActive: 3}
	x2 := plan.Stage{K: kernel.ShaniX2, Width: 2, MinActive: 1}
	x1 := plan.Stage{K: kernel.ShaniX1, Width: 1, MinActive: 1}
	// Pairs stages: three streams only for an odd count's last three (what
	// Take can count), then two, one.
	p3 := plan.Stage{K: kernel.ShaniX3, Width: 3, Odd: true}
	p2 := plan.Stage{K: kernel.ShaniX2, Width: 2}
	p1 := plan.Stage{K: kernel.ShaniX1, Width: 1}
	mk := func(stages, pairs []plan.Stage) *plan.Plan {
		v := *base
		v.Stages, v.Pairs, v.PairsPartial, v.PairsWide = stages, pairs, 0, plan.Stage{}
		return plan.New(v)
	}
	plans := []named{{"dispatched", base}}
	if sh := plan.Runnable("shani"); sh != base {
		plans = append(plans, named{"shani (x4.x3odd.x2)", sh})
	}
	plans = append(plans, []named{
		{"x3.x2", mk([]plan.Stage{x3, x2}, []plan.Stage{p3, p2, p1})},
		{"x2", mk([]plan.Stage{x2}, []plan.Stage{p2, p1})},
		{"x1", mk([]plan.Stage{x1}, []plan.Stage{p1})},
	}...)
	if avx2 := plan.Runnable("avx2"); avx2 != nil {
		plans = append(plans, named{"avx2", avx2})
	}
	return plans
}

// streams times streamPlans and crypto/sha256 round robin on the batch
// shapes, on batches of 6 to 64 messages of 200 B to 4 KiB and on levels of
// n pairs, and splits the rounds into quiet and slow
// ones by the dispatched plan's own time (slow: over 1.25x its fastest
// round), so that what a host's slow spell does to each shows beside what
// it does in quiet rounds.
func streams(base *plan.Plan, pairsPerLevel []int, rounds int) {
	plans := streamPlans(base)
	h := sha256.New()
	for _, s := range batchShapes() {
		out := make([][32]byte, len(s.Msgs))
		var vs []variant
		for _, p := range plans {
			vs = append(vs, variant{p.name, func() { sched.HashMany(p.pl, out, s.Prefix, s.Msgs) }})
		}
		vs = append(vs, variant{"crypto/sha256", func() {
			for i, m := range s.Msgs {
				h.Reset()
				h.Write(s.Prefix)
				h.Write(m)
				h.Sum(out[i][:0])
			}
		}})
		spellRounds(s.Name, rounds, vs)
	}
	// Batches of n messages alike, past the serial path (Serial).
	for _, size := range []int{200, 1024, 4096} {
		for _, n := range []int{6, 8, 16, 64} {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = make([]byte, size)
				msgs[i][0] = byte(i)
			}
			out := make([][32]byte, n)
			var vs []variant
			for _, p := range plans {
				vs = append(vs, variant{p.name, func() { sched.HashMany(p.pl, out, nil, msgs) }})
			}
			vs = append(vs, variant{"crypto/sha256", func() {
				for i, m := range msgs {
					out[i] = sha256.Sum256(m)
				}
			}})
			spellRounds(fmt.Sprintf("many size=%d n=%d", size, n), rounds, vs)
		}
	}
	for _, n := range pairsPerLevel {
		nodes := make([][32]byte, 2*n)
		for i := range nodes {
			for k := range nodes[i] {
				nodes[i][k] = byte(i*31 + k)
			}
		}
		out := make([][32]byte, n)
		jn := sched.Join{Width: 32}
		var vs []variant
		for _, p := range plans {
			vs = append(vs, variant{p.name, func() { sched.HashLevel(p.pl, true, &jn, out, nodes) }})
		}
		var pair [64]byte
		vs = append(vs, variant{"crypto/sha256", func() {
			for i := range out {
				copy(pair[:32], nodes[2*i][:])
				copy(pair[32:], nodes[2*i+1][:])
				out[i] = sha256.Sum256(pair[:])
			}
		}})
		spellRounds(fmt.Sprintf("level n=%d", n), rounds, vs)
	}
}

// spellRounds is roundRobin with each round's times kept: it prints each
// variant's median in all rounds, in quiet rounds and in slow ones (by the
// first variant's time), and crypto/sha256's time over the variant's (the
// last variant is crypto/sha256) in the median round of each kind and in
// the worst round.
func spellRounds(group string, rounds int, vs []variant) {
	ns := timeRounds(vs, rounds, time.Millisecond)
	fastest := slices.Min(ns[0])
	var quiet, slow []int
	for r := range rounds {
		if ns[0][r] > 1.25*fastest {
			slow = append(slow, r)
		} else {
			quiet = append(quiet, r)
		}
	}
	ref := len(vs) - 1
	pick := func(x []float64, rs []int) []float64 {
		var out []float64
		for _, r := range rs {
			out = append(out, x[r])
		}
		return out
	}
	speedup := func(i int, rs []int) (med, worst float64) {
		if len(rs) == 0 {
			return 0, 0
		}
		var rat []float64
		for _, r := range rs {
			rat = append(rat, ns[ref][r]/ns[i][r])
		}
		return median(rat), slices.Min(rat)
	}
	fmt.Printf("%s: %d quiet rounds, %d slow (the dispatched plan over 1.25x its fastest)\n", group, len(quiet), len(slow))
	for i, v := range vs {
		qm, slm := 0.0, 0.0
		if len(quiet) > 0 {
			qm = median(pick(ns[i], quiet))
		}
		if len(slow) > 0 {
			slm = median(pick(ns[i], slow))
		}
		am, aw := speedup(i, allRounds(rounds))
		qs, _ := speedup(i, quiet)
		ss, sw := speedup(i, slow)
		fmt.Printf("  %-20s median %9.1f ns (quiet %9.1f, slow %9.1f, slow/quiet %.2f)  crypto/it: all %.2fx worst %.2fx; quiet %.2fx; slow %.2fx worst %.2fx\n",
			v.name, median(ns[i]), qm, slm, safeDiv(slm, qm), am, aw, qs, ss, sw)
	}
}

func allRounds(n int) []int {
	rs := make([]int, n)
	for i := range rs {
		rs[i] = i
	}
	return rs
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
