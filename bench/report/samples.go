package main

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
)

// readBench calls f, for every result line of go test -bench output in file
// that reports a value in unit, with the benchmark's name split at "/" and
// that value.
func readBench(file, unit string, f func(elems []string, v float64)) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || !strings.HasPrefix(fs[0], "Benchmark") {
			continue
		}
		// name, iterations, then value-unit pairs.
		for i := 2; i+1 < len(fs); i += 2 {
			if fs[i+1] == unit {
				if v, err := strconv.ParseFloat(fs[i], 64); err == nil {
					f(strings.Split(fs[0], "/"), v)
				}
				break
			}
		}
	}
	return sc.Err()
}

// samples holds benchmark values by key and implementation, the keys and
// each key's implementations in the order first seen.
type samples[K comparable] struct {
	keys  []K
	impls map[K][]string
	v     map[K]map[string][]float64
}

func (s *samples[K]) add(k K, impl string, v float64) {
	if s.v == nil {
		s.v, s.impls = map[K]map[string][]float64{}, map[K][]string{}
	}
	if s.v[k] == nil {
		s.v[k] = map[string][]float64{}
		s.keys = append(s.keys, k)
	}
	if s.v[k][impl] == nil {
		s.impls[k] = append(s.impls[k], impl)
	}
	s.v[k][impl] = append(s.v[k][impl], v)
}

// implsWhere returns the implementations of the keys that keep reports,
// each once, in the order first seen.
func (s *samples[K]) implsWhere(keep func(K) bool) []string {
	var all []string
	for _, k := range s.keys {
		if keep(k) {
			for _, im := range s.impls[k] {
				if !slices.Contains(all, im) {
					all = append(all, im)
				}
			}
		}
	}
	return all
}
