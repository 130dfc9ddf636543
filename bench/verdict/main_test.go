package main

import (
	"os"
	"strings"
	"testing"
)

// TestReport: the verdicts of a hostcheck run kept in data/ (Zen 4, fifth
// session of 2026-12-05), each figure as the files give it and as its
// closing note read them.
func TestReport(t *testing.T) {
	var b strings.Builder
	if err := report(&b, "../data/zen4-2026-12-05e/host"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"8 x 64 MiB: openssl / default", "4.06x",
		"1.010 (read 1.07, mapped 0.99)",
		"sum -r: old / new", "0.838",
		"1.047 (ring 37.58, plain 39.15 ms)",
		"48.002µs (HashManyPrefixed 8 x 8 MiB; longest 94.681µs, crypto/sha256's 88.242µs)",
		"shape=mixed +1.4% (+2.0, +1.4, +0.8)",
		"(noise) abrr: a row's processes apart, median        0.5%",
		"HashMany 1 x 512 MiB: runs with a stop > 1 ms", "2 against crypto's 0 (10 runs)",
		"(pooled) runs with a stop > 1 ms", "9 against crypto's 8 (70 runs)",
		"(pooled) GC stops long", "2 of 22368 against crypto's 3 of 30260",
		"time / default's", "1.007",
		"k = 512: Prysm's port / sha256x", "10.51x",
		"slot: fastssz / sha256x", "1306x",
		"first root after a Copy / without one", "3.45x",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// The NOT MET lines: one 1 GiB file against openssl, the small files
	// (two forms) and the list form's choice of the plain way (the
	// threshold of then), abrr's mixed row (and its count), two entry
	// points' stops over 1 ms and one stall, the copy's first root.
	if n := strings.Count(out, "NOT MET"); n != 10 {
		t.Errorf("%d NOT MET lines, want 10:\n%s", n, out)
	}
}

// TestMutableSummaries: mutable.sh's summaries, each bar read: since it
// ran the slot on a copy of the last slot's state as a row of
// BenchmarkMutableSlot (zen4-2026-12-05h), and since that slot is the
// chain's mean (zen4-2026-12-05i).
func TestMutableSummaries(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want map[string]string
	}{
		{"zen4-2026-12-05h", map[string]string{
			"k = 512: Prysm's port / sha256x":             "9.29x",
			"slot: fastssz / sha256x":                     "1511x",
			"Copy":                                        "30.3 µs",
			"first root after a Copy / without one":       "3.68x",
			"the same on a copy of the last slot's state": "3.69x",
		}},
		{"zen4-2026-12-05i", map[string]string{
			"k = 512: Prysm's port / sha256x":       "10.07x",
			"slot: fastssz / sha256x":               "1435x",
			"Copy":                                  "17.0 µs",
			"first root after a Copy / without one": "3.60x",
			"the same on a copy of the last slot's state, a chain of 4800 slots": "4.86x",
		}},
	} {
		b, err := os.ReadFile("../data/" + c.dir + "/mutable/summary.txt")
		if err != nil {
			t.Fatal(err)
		}
		ls, err := mutable(string(b))
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		for _, l := range ls {
			if w, ok := c.want[l.what]; ok {
				if l.figure != w {
					t.Errorf("%s: %s: %s, want %s", c.dir, l.what, l.figure, w)
				}
				delete(c.want, l.what)
			}
		}
		for k := range c.want {
			t.Errorf("%s: no line %q", c.dir, k)
		}
	}
}

// decision reads file with judge, as report does, and requires every one
// of wants in the lines it prints and none judged as a must-show: a
// figure for a decision, not a bar.
func decision(t *testing.T, file string, judge func(string) ([]line, error), wants ...string) {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := judge(string(text))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.String() + "\n")
	}
	out := b.String()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "NOT MET") {
		t.Errorf("a figure judged as a must-show:\n%s", out)
	}
}

// TestWriteAhead: writeahead.sh's summary read row by row, and the
// decision it supports (the Xeon of model 207, 2026-12-06: 16 pays).
func TestWriteAhead(t *testing.T) {
	decision(t, "../data/xeon207-2026-12-06/writeahead.txt", writeAhead,
		"k = 512", "0.928 (faster in 6 of 8)", "the slot after a Copy", "0.972 (faster in 5 of 8)", "pays (16 a call")
}

// TestTiers: patchab.sh's summary of the tiers against the pages copied,
// read row by row, and the decision it gives on the Zen 3 they pay on.
func TestTiers(t *testing.T) {
	decision(t, "../data/zen3-2026-12-07h/tiers.txt", tiers,
		"a chain's slot", "0.845 (lower in 3 of 3)", "the slot on a fresh copy", "0.668 (lower in 3 of 3)",
		"the slot without a copy", "0.968 (lower in 2 of 3)", "pay (as on Zen 3)")
	decision(t, "../data/zen3-2026-12-07h/tiers2.txt", tiers, "0.886 (lower in 2 of 3)", "pay (as on Zen 3)")
	// hostcheck's step with Gloas's chain beside, read past its rows; here
	// the slot without a copy came out at 1.039, over the 1.02 allowed.
	decision(t, "../data/zen3-2026-12-07i/tiers-step.txt", tiers, "0.817 (lower in 3 of 3)", "0.700 (lower in 3 of 3)",
		"1.039 (lower in 1 of 3)", "no (keep the pages copied)")
	if _, err := tiers("BenchmarkMutableChain ms-slot 0.9  3 of 3  0.8  1.0\n"); err == nil {
		t.Error("a summary without the slot rows was judged")
	}
}
