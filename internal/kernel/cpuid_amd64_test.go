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
// for their registers both (under qemu's CPU models in CI too).
func TestFeaturesAgree(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want bool
	}{
		{"SSSE3", CPU.SSSE3, cpu.X86.HasSSSE3},
		{"SSE4.1", CPU.SSE41, cpu.X86.HasSSE41},
		{"AVX", CPU.AVX, cpu.X86.HasAVX},
		{"AVX2", CPU.AVX2, cpu.X86.HasAVX2},
		{"AVX-512 F and BW", CPU.AVX512, cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, x/sys/cpu says %v", c.name, c.got, c.want)
		}
	}
	t.Logf("%s: %+v", CPUName(), CPU)
}
