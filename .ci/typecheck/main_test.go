package main

import (
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTestMainErrors: a test function of the wrong signature, which go vet
// and go test reject when they write the test's main, fails the check.
func TestTestMainErrors(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("m.go", "package m\n")
	write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n")
	t.Chdir(dir)
	c := &run{fset: token.NewFileSet(), goroot: filepath.Clean(strings.TrimSpace(string(goroot))) + string(filepath.Separator)}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if n := c.check(platform, ""); n != 0 {
		t.Fatalf("a clean module: %d errors", n)
	}
	write("bad_test.go", "package m\n\nimport \"testing\"\n\nfunc TestBad(b *testing.B) {}\n")
	if n := c.check(platform, ""); n != 1 {
		t.Errorf("TestBad(*testing.B): %d errors, want 1", n)
	}
}
