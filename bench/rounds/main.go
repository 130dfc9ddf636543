// Command rounds times implementations round by round, so that a slow
// spell of the host shows in all of them at once: in every round, each
// implementation hashes one level of 1024 pairs (crypto/sha256 node by
// node, sha256x Join{}.HashLevel and HashMany, gohashtree, hashtree), and
// crypto/sha256 and sha256x.HashManyPrefixed hash the solana and
// tape-leaves shapes, -calls times each; the order of the implementations
// turns from round to round. It prints every round, then each
// implementation's median, fastest and worst round, and the speed ratios
// sha256x/gohashtree and sha256x/crypto per round. As controls, crypto/sha256
// and sha256x each time the tape-leaves shape twice in every round: the
// spread of those A/A ratios is what the timing alone does to a ratio.
//
// A round's figure is the mean of its calls, timed together (-interleave
// false, the default), or, with -interleave, the median of its calls timed
// one by one, the implementations taking turns call by call. A sustained
// slow spell slows every call of a round and shows in both; a single
// interruption of the process (a host timer, a preemption: a few hundred
// microseconds) lands in the calls of whichever implementation runs at the
// time and, in the mean, makes that one look slow for the whole round,
// while the median leaves it out.
//
//	cd bench && go run ./rounds [-rounds 40] [-calls 20] [-pairs 1024] [-interleave]
//
// SHA256X_KERNEL=name forces sha256x's kernel, as everywhere.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/bench"
	"github.com/sha256x/sha256x/internal/shapes"
)

type timed struct {
	name string
	run  func()
	ns   []float64 // per round: ns per call
}

func main() {
	rounds := flag.Int("rounds", 40, "rounds")
	calls := flag.Int("calls", 20, "calls of each implementation per round, timed together")
	pairs := flag.Int("pairs", 1024, "pairs in the level")
	interleave := flag.Bool("interleave", false, "time each call alone, the implementations taking turns call by call, and take each round's median call")
	flag.Parse()

	l := bench.NewLevel(*pairs)
	var ts []*timed
	for _, im := range bench.LevelImpls(true) {
		ts = append(ts, &timed{name: im.Name, run: func() { im.Fn(l.Out, l.Nodes, l.Msgs) }})
	}
	for _, s := range shapes.All() {
		if s.Name != "solana" && s.Name != "tape-leaves" {
			continue
		}
		out := make([][sha256x.Size]byte, len(s.Msgs))
		h := sha256.New()
		ts = append(ts,
			&timed{name: s.Name + "/crypto", run: func() { s.HashCrypto(out, h) }},
			&timed{name: s.Name + "/sha256x", run: func() { sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs) }},
		)
		if s.Name == "tape-leaves" {
			// The controls: the same code timed twice in every round. Their
			// worst rounds are how far the timing alone moves a ratio, for
			// a short call (sha256x's) and a long one (crypto/sha256's).
			ts = append(ts,
				&timed{name: s.Name + "/crypto-again", run: func() { s.HashCrypto(out, h) }},
				&timed{name: s.Name + "/sha256x-again", run: func() { sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs) }},
			)
		}
	}
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimLeft(name, "\t :")
				break
			}
		}
	}
	stat := "mean of calls timed together"
	if *interleave {
		stat = "median of calls timed one by one, interleaved"
	}
	fmt.Printf("# %s, GOMAXPROCS %d, sha256x %s; %d rounds of %d calls (%s); level of %d pairs; us per call\n",
		cpu, runtime.GOMAXPROCS(0), sha256x.Kernel(), *rounds, *calls, stat, *pairs)

	for _, t := range ts { // warm up
		t.run()
	}
	each := make([][]float64, len(ts)) // with -interleave: this round's calls
	for r := range *rounds {
		if !*interleave {
			for i := range ts {
				t := ts[(i+r)%len(ts)]
				start := time.Now()
				for range *calls {
					t.run()
				}
				t.ns = append(t.ns, float64(time.Since(start).Nanoseconds())/float64(*calls))
			}
			continue
		}
		for c := range *calls {
			for i := range ts {
				k := (i + r + c) % len(ts)
				start := time.Now()
				ts[k].run()
				each[k] = append(each[k], float64(time.Since(start).Nanoseconds()))
			}
		}
		for k, t := range ts {
			t.ns = append(t.ns, median(slices.Sorted(slices.Values(each[k]))))
			each[k] = each[k][:0]
		}
	}

	byName := map[string]*timed{}
	fmt.Printf("%5s", "round")
	for _, t := range ts {
		byName[t.name] = t
		fmt.Printf(" %*s", width(t.name), t.name)
	}
	x := byName["sha256x-"+sha256x.Kernel()]
	ratios := []struct {
		name string
		of   *timed
		vs   *timed
		r    []float64
	}{
		{name: "sha256x/gohashtree", of: x, vs: byName["gohashtree"]},
		{name: "sha256x/crypto", of: x, vs: byName["crypto"]},
		{name: "solana sha256x/crypto", of: byName["solana/sha256x"], vs: byName["solana/crypto"]},
		{name: "tape sha256x/crypto", of: byName["tape-leaves/sha256x"], vs: byName["tape-leaves/crypto"]},
		{name: "tape crypto/crypto (A/A)", of: byName["tape-leaves/crypto-again"], vs: byName["tape-leaves/crypto"]},
		{name: "tape sha256x/sha256x (A/A)", of: byName["tape-leaves/sha256x-again"], vs: byName["tape-leaves/sha256x"]},
	}
	for _, q := range ratios {
		fmt.Printf(" %*s", width(q.name), q.name)
	}
	fmt.Println()
	for r := range *rounds {
		fmt.Printf("%5d", r+1)
		for _, t := range ts {
			fmt.Printf(" %*.2f", width(t.name), t.ns[r]/1e3)
		}
		for i := range ratios {
			q := &ratios[i]
			v := q.vs.ns[r] / q.of.ns[r] // speed of one to the other
			q.r = append(q.r, v)
			fmt.Printf(" %*.2fx", width(q.name)-1, v)
		}
		fmt.Println()
	}

	fmt.Printf("\n%-24s %10s %10s %10s\n", "us per call", "median", "fastest", "worst")
	for _, t := range ts {
		s := slices.Sorted(slices.Values(t.ns))
		fmt.Printf("%-24s %10.2f %10.2f %10.2f\n", t.name, median(s)/1e3, s[0]/1e3, s[len(s)-1]/1e3)
	}
	fmt.Printf("\n%-28s %10s %10s %10s\n", "speed ratio per round", "median", "best", "worst")
	for _, q := range ratios {
		s := slices.Sorted(slices.Values(q.r))
		fmt.Printf("%-28s %9.2fx %9.2fx %9.2fx\n", q.name, median(s), s[len(s)-1], s[0])
	}
}

func width(name string) int { return max(len(name), 8) }

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
