//go:build purego || !(amd64 || arm64)

package plan

import (
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
)

// TestPortableListed: BENCHMARKS.md's "Portable kernels" lists the
// architectures that run stdlib (crypto/sha256 has assembly there, this
// package none); this one is among them exactly when it runs stdlib.
func TestPortableListed(t *testing.T) {
	if kernel.BuildNote != "" {
		t.Skip("purego turns crypto/sha256's assembly off too")
	}
	record, err := os.ReadFile("../../BENCHMARKS.md")
	if err != nil {
		t.Skip(err)
	}
	_, sec, ok := strings.Cut(string(record), "\n## Portable kernels\n")
	sec, _, _ = strings.Cut(sec, "\n## ")
	m := regexp.MustCompile(`has assembly and this package none \(([^)]*)\), ` + "`stdlib`").FindStringSubmatch(strings.Join(strings.Fields(sec), " "))
	if !ok || m == nil {
		t.Fatal(`BENCHMARKS.md: no "Portable kernels" decision listing the architectures that run stdlib`)
	}
	arch := runtime.GOARCH
	if arch == "ppc64" || arch == "ppc64le" {
		arch = "ppc64x"
	}
	listed := false
	for _, a := range strings.Split(m[1], ",") {
		listed = listed || strings.TrimSpace(a) == arch
	}
	if got := bestPlan().Name; (got == "stdlib") != listed {
		t.Errorf("%s runs %s, but BENCHMARKS.md lists the architectures that run stdlib as (%s)", runtime.GOARCH, got, m[1])
	}
}
