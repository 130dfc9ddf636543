//go:build !purego

package plan

import "testing"

// TestBestPlanArm64 checks the dispatcher's order of preference on CPUs
// that CI cannot emulate: every arm64 model of qemu has the SHA2
// instructions, so neon is never the pick under emulation.
func TestBestPlanArm64(t *testing.T) {
	sha2, neon := Find("sha2"), Find("neon")
	saved := [2]string{sha2.Missing, neon.Missing}
	defer func() { sha2.Missing, neon.Missing = saved[0], saved[1] }()
	for _, c := range []struct{ sha2, neon, want string }{
		{"", "", "sha2"},
		{"SHA2", "", "neon+generic"},
		{"ASIMD", "ASIMD", "stdlib"},
	} {
		sha2.Missing, neon.Missing = c.sha2, c.neon
		if got := bestPlan().Name; got != c.want {
			t.Errorf("sha2 missing %q, neon missing %q: bestPlan() = %q, want %q", c.sha2, c.neon, got, c.want)
		}
	}
}
