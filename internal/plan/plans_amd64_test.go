//go:build !purego

package plan

import (
	"slices"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
)

// TestWriteAhead: the route this CPU takes sets WriteAhead for its own plan
// alone; a plan forced by another name gets none; only the rows where it was
// measured set one: AMD family 19h's (Zen 4's and Zen 3's) and the Intel Xeon
// of model 207's (BENCHMARKS.md, "Writes asked for ahead").
func TestWriteAhead(t *testing.T) {
	r := bestRoute()
	if r == nil {
		if WriteAhead != 0 {
			t.Fatalf("no route, WriteAhead %d", WriteAhead)
		}
		return
	}
	if got := writeAhead(Runnable(r.plan)); got != r.writeAhead {
		t.Errorf("writeAhead(%s) = %d, want the route's %d", r.plan, got, r.writeAhead)
	}
	for _, name := range Kernels() {
		if pl := &Find(name).Plan; pl != Runnable(r.plan) && writeAhead(pl) != 0 {
			t.Errorf("writeAhead(%s), forced, = %d, want 0", name, writeAhead(pl))
		}
	}
	for _, rt := range routes {
		zen34 := rt.vendor == amd && rt.family == 0x19
		xeon207 := rt.vendor == intel && rt.family == 6 && rt.modelLo == 0xcf && rt.modelHi == 0xcf
		if rt.writeAhead != 0 && !zen34 && !xeon207 {
			t.Errorf("route %+v sets writeAhead where it was not measured", rt)
		}
	}
	t.Logf("route %s, WriteAhead %d", r.plan, WriteAhead)
}

// TestFallback: a CPU that no route matches (another vendor's, or one a
// hypervisor names oddly) runs what routes' comment says it falls through
// to: the first of shani, avx2+stdlib and generic it can run.
func TestFallback(t *testing.T) {
	saved, shani := kernel.CPU, Find("shani").Missing
	defer func() { kernel.CPU, Find("shani").Missing = saved, shani }()
	for _, c := range []struct {
		vendor string
		noSHA  bool
	}{
		{"HygonGenuine", false},
		{"CentaurHauls", false},
		{"HygonGenuine", true},
	} {
		kernel.CPU.Vendor = c.vendor
		kernel.CPU.SHA, Find("shani").Missing = saved.SHA, shani
		if c.noSHA {
			kernel.CPU.SHA = false
			Find("shani").Missing = kernel.Missing("shani")
		}
		want := "generic"
		for _, name := range []string{"shani", "avx2+stdlib"} {
			if Runnable(name) != nil {
				want = name
				break
			}
		}
		if got := bestPlan().Name; got != want {
			t.Errorf("vendor %s, SHA-NI %v: bestPlan() = %s, want %s", c.vendor, kernel.CPU.SHA, got, want)
		}
		t.Logf("vendor %s, SHA-NI %v: %s", c.vendor, kernel.CPU.SHA, want)
	}
}

// TestZen3Route: the Zen 3 servers measured (family 19h, models 00h-0Fh)
// run shani2, with writes asked for ahead; the other Zen 3 models, Zen 4,
// Zen 1 and 2 do not (BENCHMARKS.md, "AMD Zen 3: shani2"). Routes are matched by vendor,
// family and model alone here, whatever this CPU can run.
func TestZen3Route(t *testing.T) {
	first := func(vendor string, family, model int) route {
		for _, r := range routes {
			if r.vendor == vendor && (r.family == anyFamily || r.family == family) && r.modelLo <= model && model <= r.modelHi {
				return r
			}
		}
		return route{}
	}
	for _, c := range []struct {
		family, model int
		want          string
	}{
		{0x19, 0x01, "shani2"}, // Milan, the measured model
		{0x19, 0x0f, "shani2"},
		{0x19, 0x21, "shani"}, // Vermeer: the same core, not measured
		{0x19, 0x50, "shani"},
		{0x19, 0x11, "shani"}, // Zen 4
		{0x17, 0x31, "shani"}, // Zen 2
	} {
		if got := first(amd, c.family, c.model).plan; got != c.want {
			t.Errorf("AMD family %#x model %#x: route %q, want %q", c.family, c.model, got, c.want)
		}
	}
	// Its changed trees' writes asked for ahead, 16 nodes a call, as measured.
	if got := first(amd, 0x19, 0x01).writeAhead; got != 16 {
		t.Errorf("AMD family 0x19 model 0x1: writeAhead %d, want 16", got)
	}
	// Its Chains run on shani's stages, four streams first.
	if s2, s := Runnable("shani2"), Runnable("shani"); s2 != nil && s != nil {
		if !slices.Equal(s2.Chain.Stages, s.Chain.Stages) {
			t.Errorf("shani2's chains run on %+v, shani's on %+v", s2.Chain.Stages, s.Chain.Stages)
		}
	}
}
