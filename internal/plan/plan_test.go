package plan

import (
	"os"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
)

// every returns every plan of this architecture's tables, whether or not
// this CPU can run it.
func every() []*Plan {
	var ps []*Plan
	for i := range kernels {
		ps = append(ps, &kernels[i].Plan)
	}
	for i := range mixedPlans {
		ps = append(ps, &mixedPlans[i])
	}
	return ps
}

// TestTables checks what the scheduler assumes of every plan: stages
// widest first, each kernel's width what the kernel declares (the generic
// kernel takes any), a single-message stage of one lane or stream where
// SmallPairs is set, and the one- and two-pair kernels of SmallPairs.
func TestTables(t *testing.T) {
	for _, pl := range every() {
		if pl.Stdlib {
			continue
		}
		if len(pl.Stages) == 0 || len(pl.One) == 0 {
			t.Errorf("plan %s: no stages", pl.Name)
			continue
		}
		for i, st := range append(pl.Stages[:len(pl.Stages):len(pl.Stages)], pl.One...) {
			if info := kernel.Lookup(st.K); st.K != kernel.Generic && st.Width != info.Width {
				t.Errorf("plan %s: stage %d of width %d runs %s-%s", pl.Name, i, st.Width, info.Family, info.Variant)
			}
			if st.MinActive < 1 || st.MinActive > st.Width {
				t.Errorf("plan %s: stage %d hands over below %d of %d lanes", pl.Name, i, st.MinActive, st.Width)
			}
		}
		for i := 1; i < len(pl.Stages); i++ {
			if pl.Stages[i].Width > pl.Stages[i-1].Width {
				t.Errorf("plan %s: stage %d wider than the one before it", pl.Name, i)
			}
		}
		if pl.SmallPairs {
			for n := 1; n <= 2; n++ {
				if info := kernel.Lookup(pl.Small[n]); info.Width != n || !info.Pairs {
					t.Errorf("plan %s: %d pairs go to %s-%s", pl.Name, n, info.Family, info.Variant)
				}
			}
		}
		// Small4: four pairs on the kernel hashPairs would give them to,
		// all in its first call, no partial group.
		first := -1
		for i, st := range pl.Pairs {
			if st.Take(4) > 0 {
				first = i
				break
			}
		}
		whole := first >= 0 && pl.Pairs[first].Take(4) == 4 && pl.Pairs[first].Width == 4 && !pl.TakesPartial(4, kernel.Adjacent) && !pl.TakesPartial(4, kernel.Double)
		if pl.Small4 != (pl.SmallPairs && whole) || pl.Small4 && pl.Small[4] != pl.Pairs[first].K {
			t.Errorf("plan %s: Small4 %v (Small[4] %d), but four pairs' first stage is %d of %v", pl.Name, pl.Small4, pl.Small[4], first, pl.Pairs)
		}
	}
}

// TestNewDerivesAfresh: a plan made from a copy of another derives its
// small kernels from its own pairs stages: a copy of a plan with Small4
// whose pairs stages take four pairs two at a time has none.
func TestNewDerivesAfresh(t *testing.T) {
	for _, p := range every() {
		if !p.Small4 {
			continue
		}
		v := *p
		v.Pairs = nil
		for _, st := range p.Pairs {
			if st.Width != 4 && !st.Odd {
				v.Pairs = append(v.Pairs, st)
			}
		}
		if pl := New(v); pl.Small4 || pl.Small[4] != 0 {
			t.Errorf("plan %s without its four-wide pairs stage %v: Small4 %v, Small[4] %d", p.Name, pl.Pairs, pl.Small4, pl.Small[4])
		}
		return
	}
	t.Skip("no plan here has Small4")
}

// TestRoutes checks that every route names a plan of the tables.
func TestRoutes(t *testing.T) {
	names := map[string]bool{}
	for _, pl := range every() {
		names[pl.Name] = true
	}
	for _, k := range kernels {
		names[k.Name] = true
	}
	for _, r := range routeNames() {
		if !names[r] {
			t.Errorf("a route names plan %q, which no table has", r)
		}
	}
}

func TestForce(t *testing.T) {
	panics := func(env, pin, want string) {
		t.Helper()
		defer func() {
			r, _ := recover().(string)
			if !strings.HasPrefix(r, "sha256x: ") || !strings.Contains(r, want) || !strings.Contains(r, "(available: ") {
				t.Errorf("Choose(%q, %q) panicked %q, want a sha256x: message with %q and the kernels available", env, pin, r, want)
			}
		}()
		Choose(env, pin)
	}
	for _, name := range Kernels() {
		if pl := Choose(name, ""); pl != &Find(name).Plan {
			t.Errorf("SHA256X_KERNEL=%s chose %q", name, pl.Name)
		}
		if pl := Choose("", name); pl != &Find(name).Plan {
			t.Errorf("sha256x_%s chose %q", name, pl.Name)
		}
	}
	// Every name Kernel reports (a plan's) is accepted as well, and forces
	// that plan: the mixed plans and the kernels' own plans by their names.
	for _, name := range append(Names(), Active.Name, bestPlan().Name) {
		pl := Choose(name, "")
		if pl.Name != name && pl != &Find(name).Plan {
			t.Errorf("SHA256X_KERNEL=%s chose %q", name, pl.Name)
		}
		if pl != Runnable(name) {
			t.Errorf("SHA256X_KERNEL=%s chose %q, not the plan of that name", name, pl.Name)
		}
	}
	for _, pl := range every() {
		if planMissing(pl) != "" && Find(pl.Name) == nil {
			panics(pl.Name, "", "lacks "+planMissing(pl)+", which plan "+pl.Name+" needs")
		}
	}
	for _, pl := range append(every(), Active, bestPlan()) {
		if len(pl.Chain.Stages) == 0 {
			t.Errorf("plan %s: not derived (no chain plan)", pl.Name)
		}
	}
	if pl := Choose("", pinned); pl.Name != Active.Name && os.Getenv("SHA256X_KERNEL") == "" {
		t.Errorf("no SHA256X_KERNEL chose %q, but init chose %q", pl.Name, Active.Name)
	}
	panics("nosuch", "", "SHA256X_KERNEL=nosuch: no kernel nosuch")
	panics("", "nosuch", "build tag sha256x_nosuch: no kernel nosuch")
	for _, k := range kernels {
		if k.Missing != "" {
			panics(k.Name, "", "lacks "+k.Missing)
			panics("", k.Name, "lacks "+k.Missing)
		}
	}
}

// TestPlanKernelsChecked: every kernel a plan can call, small pairs and
// chain kernels too, is of a family planMissing (or, for a kernel's own
// plan, Kernel.Missing) checks, so a plan forced by name never reaches a
// kernel whose CPU features nobody checked.
func TestPlanKernelsChecked(t *testing.T) {
	for _, pl := range every() {
		checked := map[string]bool{"generic": true, "stdlib": true}
		if k := Find(pl.Name); k != nil {
			checked[k.Name] = true
		} else {
			for _, id := range planKernels(pl) {
				checked[kernel.Lookup(id).Family] = true
			}
		}
		calls := planKernels(pl)
		for _, id := range pl.Small {
			if id != 0 {
				calls = append(calls, id)
			}
		}
		calls = append(calls, pl.Chain.One.K)
		for _, cs := range pl.Chain.Stages {
			calls = append(calls, cs.K)
		}
		for _, id := range calls {
			if f := kernel.Lookup(id).Family; !checked[f] {
				t.Errorf("plan %s calls kernel %s-%s, whose family's features are not checked when it is forced", pl.Name, f, kernel.Lookup(id).Variant)
			}
		}
	}
}

// TestChainPlanOf checks that each plan's chain plan uses the kernels of the
// plan's own families, so that forcing a kernel forces its chain code, and
// that streams drain to one.
func TestChainPlanOf(t *testing.T) {
	t.Logf("dispatched chain plan %s: one %+v, stages %+v", Active.Chain.Name, Active.Chain.One, Active.Chain.Stages)
	for _, pl := range every() {
		cp := pl.Chain
		want := map[string]bool{}
		for _, st := range append(pl.Stages[:len(pl.Stages):len(pl.Stages)], pl.One...) {
			want[kernel.Lookup(st.K).Family] = true
		}
		if pl.Stdlib {
			want["stdlib"] = true
		}
		for _, st := range append([]ChainStage{cp.One}, cp.Stages...) {
			info := kernel.Lookup(st.K)
			if !want[info.Family] || info.Chain != st.K || st.WordMajor != info.ChainWordMajor {
				t.Errorf("plan %s: chain stage %+v, of %s-%s", pl.Name, st, info.Family, info.Variant)
			}
		}
		last := cp.Stages[len(cp.Stages)-1]
		if last.MinActive != 1 || kernel.Lookup(last.K).Streams && last.Width != 1 {
			t.Errorf("plan %s: the last chain stage %+v does not run to the end on one stream", pl.Name, last)
		}
	}
}

// TestForceListsNames: the names a panic of Choose lists as available are
// every name SHA256X_KERNEL accepts on this CPU (Names), a kernel's plan by
// its own name ("neon+generic", which Kernel reports on arm64) among them.
func TestForceListsNames(t *testing.T) {
	defer func() {
		r, _ := recover().(string)
		_, list, ok := strings.Cut(r, "(available: ")
		list, _ = strings.CutSuffix(list, ")")
		if !ok || list != strings.Join(Names(), ", ") {
			t.Errorf("Choose(\"nosuch\", \"\") panicked %q, want every name SHA256X_KERNEL accepts: %s", r, strings.Join(Names(), ", "))
		}
		for _, name := range Names() {
			if Runnable(name) == nil {
				t.Errorf("Names lists %s, which this CPU cannot run", name)
			}
		}
	}()
	Choose("nosuch", "")
}

// TestSerial: the few short messages a plan hashes one after another are
// SerialMax on plans of streams, fewer than the lanes' MinActive where the
// lanes hand over straight to one stream, and none where single messages
// run on the lanes (BENCHMARKS.md, "A few short messages one after
// another").
func TestSerial(t *testing.T) {
	want := map[string]int{
		"avx2+stdlib": 2, "avx512+stdlib": 2, "avx2": 1, "avx512": 1, "neon+generic": 1,
		"shani": SerialMax, "shani2": SerialMax, "avx512+shani": SerialMax, "avx512+shani2": SerialMax, "avx512+shani2-late": SerialMax,
		"sha2": SerialMax, "generic": SerialMax,
	}
	tested := 0
	for _, p := range every() {
		if p.Stdlib {
			continue
		}
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("plan %s: no Serial expected here; add it", p.Name)
			continue
		}
		tested++
		if p.Serial != w {
			t.Errorf("plan %s: Serial %d, want %d", p.Name, p.Serial, w)
		}
	}
	if tested == 0 {
		t.Fatal("no plan tested")
	}
}

// TestChainStagesChecked: a plan whose chains run on a kernel this CPU
// lacks is refused, as one whose batches do is (planMissing).
func TestChainStagesChecked(t *testing.T) {
	for _, id := range kernel.IDs() {
		f := kernel.Lookup(id).Family
		if kernel.Missing(f) == "" {
			continue
		}
		pl := &Plan{Stages: []Stage{{K: kernel.Generic, Width: 1, MinActive: 1}}, ChainStages: []Stage{{K: id}}}
		if planMissing(pl) == "" {
			t.Errorf("chains on %s-%s, which this CPU lacks: planMissing says nothing", f, kernel.Lookup(id).Variant)
		}
		return
	}
	t.Skip("this CPU runs every kernel")
}
