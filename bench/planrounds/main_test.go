//go:build amd64 && !purego

package main

import (
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// TestLanePlans: each variant of -what lanes runs the AVX-512 kernel it is
// named after wherever the plan it varies runs lanes: its stages, its pairs
// stages and its wide pairs stage (Zen 5's avx512+shani takes a level's
// whole groups of 32 pairs on x32, which no variant names), so that the
// levels' rows time x16 against x16-lat2 (BENCHMARKS.md, "The lanes on a
// core of two-cycle vector operations: x16-lat2 on Zen 5").
func TestLanePlans(t *testing.T) {
	tested := 0
	for _, base := range plan.Mixed() {
		if base.Stdlib || kernel.Lookup(base.Stages[0].K).Family != "avx512" || kernel.Lookup(base.One[0].K).Family != "shani" {
			continue // planrounds refuses it
		}
		tested++
		for _, v := range lanePlans(base) {
			want := v.pl.Stages[0].K
			if "lanes "+kernel.Lookup(want).Variant != v.name {
				t.Fatalf("%s: variant %q runs %s first", base.Name, v.name, kernel.Lookup(want).Variant)
			}
			stages := append(append(append([]plan.Stage{}, v.pl.Stages...), v.pl.Pairs...), v.pl.PairsWide)
			for _, st := range stages {
				if st.Width == 0 || kernel.Lookup(st.K).Family != "avx512" {
					continue
				}
				if st.K != want {
					t.Errorf("%s, variant %q: a stage of %d lanes runs avx512-%s", base.Name, v.name, st.Width, kernel.Lookup(st.K).Variant)
				}
			}
		}
	}
	if tested == 0 {
		t.Skip("no plan here starts on AVX-512 lanes and ends on SHA-NI")
	}
}

// TestStdlibPlans: -what stdlib takes the plans that hand their lanes over
// to crypto/sha256 and no other, so that its "crypto/sha256" variant times
// crypto/sha256 and its "lanes" variant the plan's own lanes.
func TestStdlibPlans(t *testing.T) {
	tested := 0
	for _, base := range plan.Mixed() {
		want := strings.HasSuffix(base.Name, "+stdlib")
		if stdlibPlan(base) != want {
			t.Errorf("%s: stdlibPlan %v, want %v", base.Name, !want, want)
		}
		if want {
			tested++
			if k := kernel.Lookup(base.Stages[0].K); k.Family != "avx2" && k.Family != "avx512" {
				t.Errorf("%s: its lanes are %s", base.Name, k.Family)
			}
		}
	}
	if tested == 0 {
		t.Skip("no plan here hands lanes over to crypto/sha256")
	}
}

// TestStreamPlans: each variant of -what streams runs the stream counts it
// is named after in its stages, and single messages on one stream, so that
// the rows compare what they say (BENCHMARKS.md, "AMD Zen 3: shani2").
func TestStreamPlans(t *testing.T) {
	base := plan.Runnable("shani")
	if base == nil {
		t.Skip("no SHA-NI")
	}
	want := map[string][]kernel.ID{
		"x3.x2": {kernel.ShaniX3, kernel.ShaniX2},
		"x2":    {kernel.ShaniX2},
		"x1":    {kernel.ShaniX1},
	}
	seen := 0
	for _, v := range streamPlans(base) {
		ids, ok := want[v.name]
		if !ok {
			continue
		}
		seen++
		if len(v.pl.Stages) != len(ids) {
			t.Fatalf("variant %q: %d stages, want %d", v.name, len(v.pl.Stages), len(ids))
		}
		for i, st := range v.pl.Stages {
			if st.K != ids[i] {
				t.Errorf("variant %q: stage %d runs %s", v.name, i, kernel.Lookup(st.K).Variant)
			}
		}
		if v.pl.One[0].K != kernel.ShaniX1 {
			t.Errorf("variant %q: single messages on %s", v.name, kernel.Lookup(v.pl.One[0].K).Variant)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d variants found", seen, len(want))
	}
}
