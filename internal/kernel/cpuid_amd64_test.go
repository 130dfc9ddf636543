//go:build !purego

package kernel

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestFamilyModel decodes CPUID leaf 1's EAX of the CPUs the dispatch table
// names, as their vendors' manuals combine the fields (interop's
// TestCPUIDAgrees compares the whole reading with klauspost/cpuid's).
func TestFamilyModel(t *testing.T) {
	for _, c := range []struct {
		name          string
		eax           uint32
		family, model int
	}{
		{"Intel Xeon, family 6 model 167", 0x000a0671, 6, 167},
		{"Intel Haswell", 0x000306c3, 6, 60},
		{"Intel Nehalem", 0x000106a5, 6, 26},
		{"Intel Pentium 4 (base family 0Fh)", 0x00000f29, 15, 2},
		{"AMD Zen 3", 0x00a00f11, 25, 1},
		{"AMD Zen 4", 0x00a10f11, 25, 17},
		{"AMD Zen 5", 0x00b00f21, 26, 2},
		{"AMD K8 (extended model with base family 0Fh)", 0x00040fb2, 15, 75},
	} {
		if f, m := familyModel(c.eax); f != c.family || m != c.model {
			t.Errorf("%s: EAX %#x gives family %d model %d, want %d %d", c.name, c.eax, f, m, c.family, c.model)
		}
	}
	if CPU.Vendor == "" || CPU.Family == 0 {
		t.Errorf("this CPU: %+v", CPU)
	}
}

// TestFeaturesAgree: the features read for the dispatcher are
// golang.org/x/sys/cpu's, CPUID's bits and the operating system's support
// for their registers both (under qemu's CPU models in CI too), and with
// GODEBUG's cpu.<name>=off for the names both know (x/sys/cpu has no "sha").
func TestFeaturesAgree(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want bool
	}{
		{"SSSE3", CPU.SSSE3, cpu.X86.HasSSSE3},
		{"SSE4.1", CPU.SSE41, cpu.X86.HasSSE41},
		{"AVX", CPU.AVX, cpu.X86.HasAVX},
		{"AVX2", CPU.AVX2, cpu.X86.HasAVX2 && cpu.X86.HasAVX},
		{"AVX-512 F and BW", CPU.AVX512, cpu.X86.HasAVX512 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, x/sys/cpu says %v", c.name, c.got, c.want)
		}
	}
	t.Logf("%s: %+v", CPUName(), CPU)
}

// TestGODEBUG: GODEBUG's cpu.<name>=off settings turn features off as Go's
// runtime takes them; nothing else in GODEBUG does, and "on" gives back no
// more than the CPU has.
func TestGODEBUG(t *testing.T) {
	all := X86{Vendor: "GenuineIntel", Family: 6, Model: 207, SHA: true, SSSE3: true, SSE41: true, AVX: true, AVX2: true, AVX512: true}
	none := X86{Vendor: "GenuineIntel", Family: 6, Model: 207}
	with := func(c X86, edit func(*X86)) X86 { edit(&c); return c }
	for _, c := range []struct {
		cpu  X86
		env  string
		want X86
	}{
		{all, "", all},
		{all, "cpu.sha=off", with(all, func(c *X86) { c.SHA = false })},
		{all, "gctrace=1,cpu.avx2=off,madvdontneed=1", with(all, func(c *X86) { c.AVX2 = false })},
		{all, "cpu.ssse3=off", with(all, func(c *X86) { c.SSSE3 = false })},
		{all, "cpu.sse41=off", with(all, func(c *X86) { c.SSE41 = false })},
		{all, "cpu.avx512f=off", with(all, func(c *X86) { c.AVX512 = false })},
		{all, "cpu.avx512bw=off", with(all, func(c *X86) { c.AVX512 = false })},
		{all, "cpu.avx512=off", with(all, func(c *X86) { c.AVX512 = false })},
		// The AVX2 and AVX-512 kernels are VEX and EVEX code.
		{all, "cpu.avx=off", with(all, func(c *X86) { c.AVX, c.AVX2, c.AVX512 = false, false, false })},
		{all, "cpu.all=off", none},
		{all, "cpu.all=off,cpu.sha=on", with(none, func(c *X86) { c.SHA = true })},
		{all, "cpu.avx2=off,cpu.avx2=on", all},
		{none, "cpu.sha=on,cpu.all=on", none},
		// Not settings of a feature: left alone, as the runtime leaves them.
		{all, "cpu.sha=of", all},
		{all, "cpu.sha", all},
		{all, "sha=off", all},
		{all, "cpu.popcnt=off,cpu.bmi2=off", all},
	} {
		if got := c.cpu.withGODEBUG(c.env); got != c.want {
			t.Errorf("GODEBUG=%q on %+v: %+v, want %+v", c.env, c.cpu, got, c.want)
		}
	}
}
