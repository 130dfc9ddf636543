//go:build amd64 && !purego

// Command planrounds times variants of the dispatched plan round robin in
// one process, where a plan starts on AVX-512 lanes and ends on SHA-NI
// streams (Zen 5's avx512+shani, Intel's avx512+shani2): what the mixed
// plans' rows of the dispatch table rest on (bench/HISTORY.md, "AMD Zen 5:
// the plan measured"). Benchmarks run one after another let a slow spell of
// this host land on one variant; here every round runs every variant,
// rotating which goes first.
//
//	-what handover: the batch shapes, the lanes handing over at each
//	  MinActive of -min to each of three SHA-NI tails;
//	-what pairs: levels of n pairs (SSZ, SHA-256d, RFC 6962, Solana) and
//	  HashMany of n 64-byte messages, for each n of -n, on pairs stages
//	  after the 16 lanes of two, four, four then three, and three SHA-NI
//	  streams, and on the lanes taking any last partial group.
//
// Where the plan is lanes handing over to crypto/sha256 (avx512+stdlib,
// avx2+stdlib: a CPU without SHA-NI, or GODEBUG=cpu.sha=off):
//
//	-what stdlib: the shapes, the lanes handing over at each MinActive of
//	  -min (every one by default), and single messages on the lanes;
//	-what stdlib-pairs: levels of n pairs, the lanes taking a last partial
//	  group always, never, and as dispatched.
//
// Where the plan is SHA-NI streams alone (shani: Zen 1-4):
//
//	-what streams: the batch shapes and levels of n pairs (-n, 1024 by
//	  default) on four, three, two and one stream, on eight AVX2 lanes and
//	  on crypto/sha256, each variant's quiet rounds and slow ones apart.
//
// It prints each variant's median call and the median, best and worst of
// its per-round time over the first variant's (the plan as dispatched).
//
//	cd bench && go run ./planrounds -what pairs [-rounds 30] [-n 1,2,3]
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
	"github.com/sha256x/sha256x/internal/shapes"
)

type variant struct {
	name string
	f    func()
}

func main() {
	what := flag.String("what", "pairs", "handover, pairs, lanes, stdlib, stdlib-pairs or streams")
	rounds := flag.Int("rounds", 30, "rounds")
	mins := flag.String("min", "", "the lanes' MinActive values (handover: 8,10,11,12,14,16; stdlib: all)")
	ns := flag.String("n", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,20,24,25,26,27,28,31", "pairs per level (pairs)")
	flag.Parse()
	base := plan.Active
	if *what == "streams" {
		if base.Stdlib || kernel.Lookup(base.Stages[0].K).Family != "shani" {
			fmt.Fprintln(os.Stderr, "planrounds: the dispatched plan "+base.Name+" is not SHA-NI streams alone (try SHA256X_KERNEL=shani)")
			os.Exit(1)
		}
		n := *ns
		if !flagSet("n") {
			n = "1024"
		}
		fmt.Printf("sha256x plan %s; %d rounds\n", sha256x.Kernel(), *rounds)
		streams(base, ints(n), *rounds)
		return
	}
	if *what == "stdlib" || *what == "stdlib-pairs" {
		if !stdlibPlan(base) {
			fmt.Fprintln(os.Stderr, "planrounds: the dispatched plan "+base.Name+" does not hand its lanes over to crypto/sha256 (try GODEBUG=cpu.sha=off)")
			os.Exit(1)
		}
		fmt.Printf("sha256x plan %s; %d rounds\n", sha256x.Kernel(), *rounds)
		if *what == "stdlib-pairs" {
			stdlibPairs(base, ints(*ns), *rounds)
			return
		}
		m := *mins
		if m == "" {
			for i := 1; i <= base.Stages[0].Width; i++ {
				m += fmt.Sprintf(",%d", i)
			}
			m = m[1:]
		}
		stdlibHandover(base, ints(m), *rounds)
		return
	}
	if *mins == "" {
		*mins = "8,10,11,12,14,16"
	}
	if base.Stdlib || kernel.Lookup(base.Stages[0].K).Family != "avx512" || kernel.Lookup(base.One[0].K).Family != "shani" {
		fmt.Fprintln(os.Stderr, "planrounds: the dispatched plan "+base.Name+" does not start on AVX-512 lanes and end on SHA-NI")
		os.Exit(1)
	}
	fmt.Printf("sha256x plan %s; %d rounds\n", sha256x.Kernel(), *rounds)
	switch *what {
	case "handover":
		handover(base, ints(*mins), *rounds)
	case "pairs":
		pairs(base, ints(*ns), *rounds)
	case "lanes":
		lanes(base, ints(*ns), *rounds)
	default:
		fmt.Fprintln(os.Stderr, "planrounds: -what handover, pairs or lanes")
		os.Exit(2)
	}
}

// batchShapes are the shapes that are batches of messages handed to
// HashMany in one call, the ones where the lanes hand over to fewer: the
// rest are levels of pairs, which -what pairs and -what streams time apart.
func batchShapes() []*shapes.Shape {
	var out []*shapes.Shape
	for _, s := range shapes.All() {
		switch s.Name {
		case "solana", "tape-leaves", "short", "mixed":
			out = append(out, s)
		}
	}
	return out
}

func handover(base *plan.Plan, mins []int, rounds int) {
	tails := plan.ShaniTails()
	for _, s := range batchShapes() {
		out := make([][32]byte, len(s.Msgs))
		vs := []variant{{"dispatched", func() { sched.HashMany(base, out, s.Prefix, s.Msgs) }}}
		for _, tail := range tails {
			for _, m := range mins {
				v := *base
				v.Stages = append([]plan.Stage{base.Stages[0]}, tail.Stages...)
				v.Stages[0].MinActive = m
				pl := plan.New(v)
				vs = append(vs, variant{fmt.Sprintf("%s/min=%d", tail.Name, m), func() { sched.HashMany(pl, out, s.Prefix, s.Msgs) }})
			}
		}
		roundRobin(s.Name, rounds, vs)
	}
}

func pairs(base *plan.Plan, ns []int, rounds int) {
	x16 := plan.Stage{K: base.Stages[0].K, Width: 16}
	x4 := plan.Stage{K: kernel.ShaniX4, Width: 4}
	x3 := plan.Stage{K: kernel.ShaniX3, Width: 3, Odd: true}
	x2 := plan.Stage{K: kernel.ShaniX2, Width: 2}
	x1 := plan.Stage{K: kernel.ShaniX1, Width: 1}
	mk := func(stages []plan.Stage, part plan.PartialMin) *plan.Plan {
		v := *base
		v.Pairs = stages
		v.PairsPartial = part
		return plan.New(v)
	}
	plans := []named{
		{"dispatched", base},
		{"x16.x2.x1", mk([]plan.Stage{x16, x2, x1}, 0)},
		{"x16.x4.x2.x1", mk([]plan.Stage{x16, x4, x2, x1}, 0)},
		{"x16.x4.x3odd.x2.x1", mk([]plan.Stage{x16, x4, x3, x2, x1}, 0)},
		{"x16.x3odd.x2.x1", mk([]plan.Stage{x16, x3, x2, x1}, 0)},
		{"x16(partial).x4.x3odd.x2.x1", mk([]plan.Stage{x16, x4, x3, x2, x1}, plan.PartialAlways)},
	}
	levelRounds(plans, levelJoins, ns, rounds)
}

// A levelJoin is a kind of Merkle level levelRounds times.
type levelJoin struct {
	name string
	jn   sched.Join
}

var levelJoins = []levelJoin{
	{"ssz", sched.Join{Width: 32}},
	{"sha256d", sched.Join{Width: 32, Double: true}},
	{"rfc6962", sched.Join{Prefix: []byte{1}, Width: 32}},
	{"solana", sched.Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}},
}

// levelRounds times each plan, round robin, on HashMany of n 64-byte
// messages and on a level of n pairs of each join, for each n of ns.
func levelRounds(plans []named, joins []levelJoin, ns []int, rounds int) {
	for _, n := range ns {
		nodes := make([][32]byte, 2*n)
		msgs := make([][]byte, n)
		for i := range nodes {
			for k := range nodes[i] {
				nodes[i][k] = byte(i*31 + k)
			}
		}
		for i := range msgs {
			msgs[i] = append(nodes[2*i][:], nodes[2*i+1][:]...)
		}
		out := make([][32]byte, n)
		var vs []variant
		for _, p := range plans {
			vs = append(vs, variant{p.name, func() { sched.HashMany(p.pl, out, nil, msgs) }})
		}
		roundRobin(fmt.Sprintf("n=%02d/many64", n), rounds, vs)
		for _, j := range joins {
			plain := len(j.jn.Prefix) == 0
			vs = vs[:0]
			for _, p := range plans {
				vs = append(vs, variant{p.name, func() { sched.HashLevel(p.pl, plain, &j.jn, out, nodes) }})
			}
			roundRobin(fmt.Sprintf("n=%02d/%s", n, j.name), rounds, vs)
		}
	}
}

// roundRobin times the variants, each round every one (calls enough to
// take about 2 ms), the first to go rotating by round.
func roundRobin(group string, rounds int, vs []variant) {
	ns := timeRounds(vs, rounds, 2*time.Millisecond)
	for i, v := range vs {
		var rat []float64
		for r := range ns[i] {
			rat = append(rat, ns[i][r]/ns[0][r])
		}
		slices.Sort(rat)
		fmt.Printf("%-16s %-28s %10.1f ns  over dispatched %.3f (best %.3f, worst %.3f)\n",
			group, v.name, median(ns[i]), median(rat), rat[0], rat[len(rat)-1])
	}
}

// flagSet says whether the flag was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// timeRounds times the variants round robin: in each round every variant
// makes the calls that took it about each once measured, the first to go
// rotating by round. It returns each variant's ns a call, round by round.
func timeRounds(vs []variant, rounds int, each time.Duration) [][]float64 {
	calls := make([]int, len(vs))
	for i, v := range vs {
		v.f()
		t0 := time.Now()
		for time.Since(t0) < each {
			v.f()
			calls[i]++
		}
	}
	ns := make([][]float64, len(vs))
	for r := range rounds {
		for k := range vs {
			i := (k + r) % len(vs)
			t0 := time.Now()
			for range calls[i] {
				vs[i].f()
			}
			ns[i] = append(ns[i], float64(time.Since(t0).Nanoseconds())/float64(calls[i]))
		}
	}
	return ns
}

func ints(s string) []int {
	var xs []int
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.Atoi(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "planrounds:", err)
			os.Exit(2)
		}
		xs = append(xs, x)
	}
	return xs
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// named is a variant of the dispatched plan.
type named struct {
	name string
	pl   *plan.Plan
}

// lanePlans returns the dispatched plan with each AVX-512 lane kernel of 16
// lanes in its lanes and pairs stages, its own first. A wide pairs stage
// (PairsWide: Zen 5's x32, which would take a level's whole groups of 32
// pairs in every variant alike) is left out of each, so that the levels
// too time the kernel the variant names.
func lanePlans(base *plan.Plan) []named {
	swap := func(stages []plan.Stage, id kernel.ID) []plan.Stage {
		out := slices.Clone(stages)
		for i := range out {
			if kernel.Lookup(out[i].K).Family == "avx512" {
				out[i].K = id
			}
		}
		return out
	}
	// The dispatched plan's own lanes first: the times are over its.
	ids := []kernel.ID{kernel.Avx512X16, kernel.Avx512X16Lat2}
	if base.Stages[0].K == kernel.Avx512X16Lat2 {
		ids[0], ids[1] = ids[1], ids[0]
	}
	var plans []named
	for _, id := range ids {
		v := *base
		v.Stages, v.Pairs = swap(base.Stages, id), swap(base.Pairs, id)
		v.PairsWide = plan.Stage{}
		plans = append(plans, named{"lanes " + kernel.Lookup(id).Variant, plan.New(v)})
	}
	return plans
}

// lanes times the dispatched plan with each AVX-512 lane kernel in its
// lanes and pairs stages (x16, x16-lat2: which round order suits this CPU),
// on every shape and on levels of n pairs of each join.
func lanes(base *plan.Plan, ns []int, rounds int) {
	plans := lanePlans(base)
	for _, s := range shapes.All() {
		out := make([][32]byte, len(s.Msgs))
		var vs []variant
		for _, p := range plans {
			vs = append(vs, variant{p.name, func() { sched.HashMany(p.pl, out, s.Prefix, s.Msgs) }})
		}
		roundRobin(s.Name, rounds, vs)
	}
	for _, n := range ns {
		nodes := make([][32]byte, 2*n)
		for i := range nodes {
			for k := range nodes[i] {
				nodes[i][k] = byte(i*31 + k)
			}
		}
		out := make([][32]byte, n)
		for _, j := range []struct {
			name string
			jn   sched.Join
		}{
			{"ssz", sched.Join{Width: 32}},
			{"rfc6962", sched.Join{Prefix: []byte{1}, Width: 32}},
		} {
			plain := len(j.jn.Prefix) == 0
			var vs []variant
			for _, p := range plans {
				vs = append(vs, variant{p.name, func() { sched.HashLevel(p.pl, plain, &j.jn, out, nodes) }})
			}
			roundRobin(fmt.Sprintf("n=%d/%s", n, j.name), rounds, vs)
		}
	}
}
