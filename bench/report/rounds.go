package main

import (
	"fmt"
	"slices"
	"strings"
)

// rounds reads go test -bench output of benchmarks named NAME/impl=IMPL,
// one line per implementation per round (as translog.sh and ssz.sh run
// them: every implementation in each process), and prints, for each
// benchmark, sha256x's time round by round (the first implementation whose
// name starts with "sha256x") and each other implementation's time over it
// in the same round: the smallest, median and largest of those ratios
// (above 1: sha256x faster).
func rounds(path string) error {
	var ns samples[string]
	err := readBench(path, "ns/op", func(elems []string, v float64) {
		if n := len(elems) - 1; n > 0 && strings.HasPrefix(elems[n], "impl=") {
			ns.add(strings.Join(elems[:n], "/"), implName(elems[n]), v)
		}
	})
	if err != nil {
		return err
	}
	names, impls := ns.keys, ns.impls
	for _, name := range names {
		var base []float64
		var bname string
		for _, impl := range impls[name] {
			if strings.HasPrefix(impl, "sha256x") {
				base, bname = ns.v[name][impl], impl
				break
			}
		}
		if base == nil {
			continue
		}
		fmt.Printf("%s %s per-round:", name, bname)
		for _, v := range base {
			fmt.Printf(" %.4g", v)
		}
		fmt.Println()
		for _, impl := range impls[name] {
			if impl == bname {
				continue
			}
			var r []float64
			for i, v := range ns.v[name][impl] {
				if i < len(base) {
					r = append(r, v/base[i])
				}
			}
			slices.Sort(r)
			med := (r[(len(r)-1)/2] + r[len(r)/2]) / 2
			fmt.Printf("   %-18s ratio min %.2f median %.2f max %.2f\n", impl, r[0], med, r[len(r)-1])
		}
	}
	return nil
}
