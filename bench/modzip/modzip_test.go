package main

import (
	"strings"
	"testing"
)

// TestModuleZip: the main module's zip, built as the module proxy builds
// it, unpacks to under 3 MB and holds the library, its tests and its docs,
// not the lab: no benchdata/, nothing of the bench module, and the docs'
// pictures small.
func TestModuleZip(t *testing.T) {
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	z, err := build(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("module zip: %d files, %d bytes zipped, %d bytes unpacked", len(z.files), z.zipped, z.unpacked)
	if z.unpacked >= 3_000_000 {
		t.Errorf("the module unpacks to %d bytes, want under 3 MB; largest: %v", z.unpacked, z.files[:min(5, len(z.files))])
	}
	have := map[string]bool{}
	for _, f := range z.files {
		have[f.name] = true
		switch {
		case strings.HasPrefix(f.name, "benchdata/"), strings.HasPrefix(f.name, "bench/"):
			t.Errorf("the module zip holds %s", f.name)
		case strings.HasPrefix(f.name, "docs/") && f.size > 100_000:
			t.Errorf("the module zip holds %s of %d bytes: a picture in docs/ should be a few tens of KB", f.name, f.size)
		}
	}
	for _, want := range []string{"go.mod", "sha256x.go", "BENCHMARKS.md", "README.md"} {
		if !have[want] {
			t.Errorf("the module zip lacks %s", want)
		}
	}
}
