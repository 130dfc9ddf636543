package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
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
	f, err := os.Open(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	// BenchmarkLevel/pairs=16/impl=gohashtree-2  N  T ns/op
	type key struct{ bench, size string }
	ns := map[key]map[string][]float64{}
	var keys []key
	impls := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || fs[3] != "ns/op" {
			continue
		}
		parts := strings.Split(fs[0], "/")
		if len(parts) != 3 || (parts[0] != "BenchmarkLevel" && parts[0] != "BenchmarkSSZTree") {
			continue
		}
		k := key{parts[0], parts[1][strings.Index(parts[1], "=")+1:]}
		impl := implName(parts[2])
		v, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			continue
		}
		if ns[k] == nil {
			ns[k] = map[string][]float64{}
			keys = append(keys, k)
		}
		if !slices.Contains(impls[k.bench], impl) {
			impls[k.bench] = append(impls[k.bench], impl)
		}
		ns[k][impl] = append(ns[k][impl], v)
	}
	x := "sha256x-" + sha256x.Kernel()
	for _, bench := range []string{"BenchmarkLevel", "BenchmarkSSZTree"} {
		if len(impls[bench]) == 0 {
			continue
		}
		head, ratios, names := "pairs", []string{x, x + "-many"}, []string{"HashLevel", "HashMany"}
		if bench == "BenchmarkSSZTree" {
			head, ratios, names = "chunks", []string{x, x + "-cores"}, []string{"1 core", "all cores"}
		}
		// The dispatched plan and the peers, with the ratios; then the
		// forced kernels.
		var main, forced []string
		for _, im := range impls[bench] {
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
			for _, k := range keys {
				if k.bench != bench {
					continue
				}
				m := ns[k]
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
