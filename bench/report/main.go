// Command report helps run.sh and merkle.sh: "report kernels" lists the
// kernels this CPU can run; "report ratios FILE" reads go test -bench
// output and prints, per shape, the median MB/s of every implementation and
// its ratio to crypto/sha256, as a Markdown table; "report merkle FILE"
// prints the level and whole-tree tables of BenchmarkLevel and
// BenchmarkSSZTree: median times, and the speed of sha256x's dispatched
// plan to the faster of gohashtree and hashtree and to crypto/sha256
// ("report merkle FILE fastest": of the fastest samples, which a busy host
// slows least); "report rounds FILE" prints each peer's time over sha256x's
// round by round (see rounds).
package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sha256x/sha256x"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "kernels" {
		fmt.Println(strings.Join(sha256x.Kernels(), " "))
		return
	}
	if (len(os.Args) == 3 || len(os.Args) == 4 && os.Args[3] == "fastest") && os.Args[1] == "merkle" {
		merkle(os.Args[2], len(os.Args) == 4)
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "rounds" {
		if err := rounds(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 3 || os.Args[1] != "ratios" {
		fmt.Fprintln(os.Stderr, "usage: report kernels | report ratios FILE | report merkle FILE [fastest] | report rounds FILE")
		os.Exit(2)
	}
	// BenchmarkShapes/shape=solana/impl=crypto-2  N  T ns/op  X MB/s
	var mbs samples[string]
	err := readBench(os.Args[2], "MB/s", func(elems []string, v float64) {
		if len(elems) == 3 && elems[0] == "BenchmarkShapes" {
			mbs.add(strings.TrimPrefix(elems[1], "shape="), implName(elems[2]), v)
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	impls := mbs.implsWhere(func(string) bool { return true })
	fmt.Printf("| shape |")
	for _, im := range impls {
		fmt.Printf(" %s |", im)
	}
	fmt.Printf("\n|---|")
	for range impls {
		fmt.Printf("---|")
	}
	fmt.Println()
	for _, s := range mbs.keys {
		base := median(mbs.v[s]["crypto"])
		fmt.Printf("| %s |", s)
		for _, im := range impls {
			v := mbs.v[s][im]
			switch {
			case len(v) == 0:
				fmt.Printf(" |")
			case base == 0 || im == "crypto":
				fmt.Printf(" %.0f MB/s |", median(v))
			default:
				fmt.Printf(" %.0f MB/s **%.2fx** |", median(v), median(v)/base)
			}
		}
		fmt.Println()
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// implName is a benchmark name's impl= element without its key and the
// GOMAXPROCS suffix go test adds: "impl=gohashtree-2" is "gohashtree".
func implName(elem string) string {
	impl := strings.TrimPrefix(elem, "impl=")
	if i := strings.LastIndex(impl, "-"); i > 0 {
		if _, err := strconv.Atoi(impl[i+1:]); err == nil {
			impl = impl[:i]
		}
	}
	return impl
}
