//go:build abrr

// Command abrr times the public API at two commits round robin in one
// process (bench/abrr.sh builds it): each round times every row on old and
// new back to back, the order alternating, so that a slow spell of the host
// hits both sides of a pair; each round runs at another of 16 stack depths,
// since a frame that moves moves a small call's stack buffers against its
// data (4 KiB aliasing). It prints, a row each, both sides' medians, the
// ratio of the medians, the median of the rounds' ratios (the figure to
// quote) and the ratio of the slowest rounds.
package main

import (
	"flag"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"time"

	"github.com/sha256x/sha256x/internal/shapes"
)

type row struct {
	name string
	f    func()
}

type shape struct {
	name   string
	msgs   [][]byte
	prefix []byte
	single bool
}

var sink [32]byte

func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed*13 + i>>8)
	}
	return b
}

//go:noinline
func atDepth(d int, f func()) byte {
	var frame [96]byte
	frame[d%96] = byte(d)
	if d == 0 {
		f()
		return frame[0]
	}
	return atDepth(d-1, f) + frame[d%96]
}

var depth int

func timeIt(f func(), n int) (ns float64) {
	atDepth(depth, func() { ns = timeAt(f, n) })
	return ns
}

func timeAt(f func(), n int) float64 {
	t := time.Now()
	for range n {
		f()
	}
	return float64(time.Since(t).Nanoseconds()) / float64(n)
}

func main() {
	rounds := flag.Int("rounds", 30, "rounds")
	only := flag.String("rows", "", "regexp of rows to time")
	slice := flag.Duration("slice", 2*time.Millisecond, "time per row per side per round")
	flag.Parse()
	runtime.LockOSThread()
	var sh []shape
	for _, s := range shapes.All() {
		sh = append(sh, shape{s.Name, s.Msgs, s.Prefix, s.Single})
	}
	old, new := rowsOld(sh), rowsNew(sh)
	if *only != "" {
		re := regexp.MustCompile(*only)
		var o, n []row
		for i := range old {
			if re.MatchString(old[i].name) {
				o, n = append(o, old[i]), append(n, new[i])
			}
		}
		old, new = o, n
	}
	ns := make([]int, len(old))
	for i := range old {
		old[i].f()
		new[i].f()
		n := 1
		for timeIt(new[i].f, n)*float64(n) < float64(*slice) {
			n *= 2
		}
		ns[i] = n
	}
	ro := make([][]float64, len(old))
	rn := make([][]float64, len(old))
	for r := range *rounds {
		depth = r / 2 % 16
		for i := range old {
			if r%2 == 0 {
				ro[i] = append(ro[i], timeIt(old[i].f, ns[i]))
				rn[i] = append(rn[i], timeIt(new[i].f, ns[i]))
			} else {
				rn[i] = append(rn[i], timeIt(new[i].f, ns[i]))
				ro[i] = append(ro[i], timeIt(old[i].f, ns[i]))
			}
		}
	}
	med := func(x []float64) float64 { y := slices.Clone(x); slices.Sort(y); return y[len(y)/2] }
	fmt.Printf("%-34s %12s %12s %8s %8s %8s\n", "row", "old_ns", "new_ns", "medians", "paired", "slowest")
	for i := range old {
		var pr []float64
		for r := range ro[i] {
			pr = append(pr, rn[i][r]/ro[i][r])
		}
		fmt.Printf("%-34s %12.1f %12.1f %+7.1f%% %+7.1f%% %+7.1f%%\n", old[i].name, med(ro[i]), med(rn[i]),
			(med(rn[i])/med(ro[i])-1)*100, (med(pr)-1)*100, (slices.Max(rn[i])/slices.Max(ro[i])-1)*100)
	}
}
