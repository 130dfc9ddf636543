package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sha256x/sha256x"
)

// merkle prints the Markdown tables of BenchmarkLevel and BenchmarkSSZTree
// in file: medians, or with fastest the fastest samples.
func merkle(file string, fastest bool) {
	stat, statName := median, "medians"
	if fastest {
		stat, statName = func(v []float64) float64 {
			if len(v) == 0 {
				return 0
			}
			return slices.Min(v)
		}, "fastest samples"
	}
	// BenchmarkLevel/pairs=16/impl=gohashtree-2  N  T ns/op
	type key struct{ bench, size string }
	var ns samples[key]
	err := readBench(file, "ns/op", func(elems []string, v float64) {
		if len(elems) == 3 && (elems[0] == "BenchmarkLevel" || elems[0] == "BenchmarkSSZTree") {
			ns.add(key{elems[0], elems[1][strings.Index(elems[1], "=")+1:]}, implName(elems[2]), v)
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	x := "sha256x-" + sha256x.Kernel()
	for _, bench := range []string{"BenchmarkLevel", "BenchmarkSSZTree"} {
		impls := ns.implsWhere(func(k key) bool { return k.bench == bench })
		if len(impls) == 0 {
			continue
		}
		head, ratios, names := "pairs", []string{x, x + "-many"}, []string{"HashLevel", "HashMany"}
		if bench == "BenchmarkSSZTree" {
			head, ratios, names = "chunks", []string{x, x + "-cores"}, []string{"1 core", "all cores"}
		}
		// The dispatched plan and the peers, with the ratios; then the
		// forced kernels.
		var main, forced []string
		for _, im := range impls {
			if !strings.HasPrefix(im, "sha256x-") || slices.Contains(ratios, im) {
				main = append(main, im)
			} else {
				forced = append(forced, im)
			}
		}
		for i, cols := range [][]string{main, forced} {
			if len(cols) == 0 {
				continue
			}
			withRatios := i == 0
			fmt.Printf("| %s |", head)
			for _, im := range cols {
				fmt.Printf(" %s |", im)
			}
			n := len(cols)
			if withRatios {
				for _, name := range names {
					fmt.Printf(" %s / faster peer | %s / crypto |", name, name)
				}
				n += 2 * len(names)
			}
			fmt.Printf("\n|---|%s\n", strings.Repeat("---|", n))
			for _, k := range ns.keys {
				if k.bench != bench {
					continue
				}
				m := ns.v[k]
				fmt.Printf("| %s |", k.size)
				for _, im := range cols {
					fmt.Printf(" %s |", duration(stat(m[im])))
				}
				if withRatios {
					peer := min(nonzero(stat(m["gohashtree"])), nonzero(stat(m["hashtree"])))
					for _, r := range ratios {
						t := stat(m[r])
						fmt.Printf(" %s | %s |", ratio(peer, t), ratio(stat(m["crypto"]), t))
					}
				}
				fmt.Println()
			}
			fmt.Println()
		}
	}
	fmt.Printf("Ratios: the speed of %s, the dispatched plan, to the faster of gohashtree and hashtree, and to crypto/sha256; %s of ns/op.\n", x, statName)
}

func nonzero(v float64) float64 {
	if v == 0 {
		return 1e300
	}
	return v
}

func ratio(base, t float64) string {
	if t == 0 || base == 0 || base == 1e300 {
		return ""
	}
	return fmt.Sprintf("**%.2fx**", base/t)
}

func duration(ns float64) string {
	switch {
	case ns == 0:
		return ""
	case ns < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
}
