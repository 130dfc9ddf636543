//go:build !purego

package kernel

import "testing"

// TestMissingNames: Missing names the one feature a family's kernels lack
// here, and says when GODEBUG turned it off; a CPU with AVX2 is not told it
// lacks AVX2.
func TestMissingNames(t *testing.T) {
	defer func(c, d X86) { CPU, detected = c, d }(CPU, detected)
	full := X86{SHA: true, SSSE3: true, SSE41: true, AVX: true, AVX2: true, AVX512: true}
	for _, c := range []struct {
		family   string
		cpu, det func(*X86)
		want     string
	}{
		{"avx512", func(x *X86) { x.AVX512 = false }, func(x *X86) { x.AVX512 = false }, "AVX-512 F+BW"},
		{"avx512", func(x *X86) { x.AVX512 = false }, func(*X86) {}, "AVX-512 F+BW (turned off by GODEBUG)"},
		{"avx512", func(x *X86) { x.AVX2 = false }, func(*X86) {}, "AVX2 (turned off by GODEBUG)"},
		{"avx2", func(x *X86) { x.AVX2 = false }, func(x *X86) { x.AVX2 = false }, "AVX2"},
		{"shani", func(x *X86) { x.SHA = false }, func(x *X86) { x.SHA = false }, "SHA (SHA-NI)"},
		{"shani", func(x *X86) { x.SSE41 = false }, func(x *X86) { x.SSE41 = false }, "SSE4.1"},
		{"shani", func(*X86) {}, func(*X86) {}, ""},
	} {
		CPU, detected = full, full
		c.cpu(&CPU)
		c.det(&detected)
		if got := Missing(c.family); got != c.want {
			t.Errorf("%s, CPU %+v, detected %+v: Missing %q, want %q", c.family, CPU, detected, got, c.want)
		}
	}
}
