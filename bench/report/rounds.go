package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
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
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ns := map[string]map[string][]float64{}
	var names []string
	impls := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || !strings.HasPrefix(fs[0], "Benchmark") || fs[3] != "ns/op" {
			continue
		}
		name, impl, ok := strings.Cut(fs[0], "/impl=")
		if !ok {
			continue
		}
		impl = implName(impl)
		v, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			continue
		}
		if ns[name] == nil {
			ns[name] = map[string][]float64{}
			names = append(names, name)
		}
		if ns[name][impl] == nil {
			impls[name] = append(impls[name], impl)
		}
		ns[name][impl] = append(ns[name][impl], v)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, name := range names {
		var base []float64
		var bname string
		for _, impl := range impls[name] {
			if strings.HasPrefix(impl, "sha256x") {
				base, bname = ns[name][impl], impl
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
			for i, v := range ns[name][impl] {
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
