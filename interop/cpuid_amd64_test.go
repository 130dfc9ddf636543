//go:build !purego

package interop

import (
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/sha256x/sha256x/internal/kernel"
)

// TestCPUIDAgrees: what the dispatcher reads of the CPU with its own three
// CPUID leaves (vendor, family, model, SHA-NI, the brand string) is what
// github.com/klauspost/cpuid, which it read before, says of the same CPU:
// the dispatch table's rows match the same CPUs they did. CI runs it on the
// host and the rest of the suite under qemu's CPU models.
func TestCPUIDAgrees(t *testing.T) {
	c, k := kernel.CPU, cpuid.CPU
	if c.Vendor != k.VendorString {
		t.Errorf("vendor %q, cpuid %q", c.Vendor, k.VendorString)
	}
	if c.Family != k.Family || c.Model != k.Model {
		t.Errorf("family %d model %d, cpuid family %d model %d", c.Family, c.Model, k.Family, k.Model)
	}
	if c.SHA != k.Supports(cpuid.SHA) {
		t.Errorf("SHA-NI %v, cpuid %v", c.SHA, k.Supports(cpuid.SHA))
	}
	if b := c.Brand(); b != k.BrandName {
		t.Errorf("brand %q, cpuid %q", b, k.BrandName)
	}
	t.Logf("%s: vendor %s, family %d, model %d, SHA-NI %v", kernel.CPUName(), c.Vendor, c.Family, c.Model, c.SHA)
}
