package plan

import (
	"fmt"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
)

// TestCallBounds checks the arithmetic of the bound by time on every plan of
// this architecture's tables, whether or not this CPU runs it: each kernel
// call a plan can make, its most steps by the scheduler's rules (bound's
// comment) at the slowest speed known for its kernel, takes at most
// CallTimeMicros. go test -run CallBounds -v prints the table.
func TestCallBounds(t *testing.T) {
	t.Logf("%-14s %-18s %-28s %6s %7s %9s %8s  %s", "plan", "kernel", "call", "steps", "KiB", "MB/s", "µs", "slowest speed")
	for _, pl := range every() {
		type call struct {
			what  string
			k     kernel.ID
			steps int
		}
		var calls []call
		for _, st := range pl.Stages {
			calls = append(calls, call{"job queue, MaxSteps", st.K, CallSteps(st.K)})
		}
		if len(pl.One) > 0 {
			calls = append(calls, call{fmt.Sprintf("one message, parts of %d", pl.OneBlocks), pl.One[len(pl.One)-1].K, pl.OneBlocks + 3})
		}
		for _, st := range pl.Pairs {
			m := PairsMax(st.K)
			calls = append(calls, call{fmt.Sprintf("%d pairs hashed twice", m), st.K, (m + st.Width - 1) / st.Width * 3})
		}
		if !pl.Stdlib {
			for _, st := range append([]ChainStage{pl.Chain.One}, pl.Chain.Stages...) {
				calls = append(calls, call{"chain steps", st.K, int(ChainSteps(st.K))})
			}
		}
		seen := map[call]bool{}
		for _, c := range calls {
			if seen[c] {
				continue
			}
			seen[c] = true
			mbps, where := slowestSpeed(c.k)
			if mbps == 0 {
				continue // Go: preempted by the runtime
			}
			info := kernel.Lookup(c.k)
			bytes := c.steps * info.Width * kernel.BlockSize
			us := float64(bytes) / mbps
			t.Logf("%-14s %-18s %-28s %6d %7.1f %9.0f %8.1f  %s", pl.Name, info.Family+"-"+info.Variant, c.what, c.steps, float64(bytes)/1024, mbps, us, where)
			if us > CallTimeMicros {
				t.Errorf("plan %s: %s on %s-%s: %d steps, %.0f µs at %.0f MB/s, more than %d µs", pl.Name, c.what, info.Family, info.Variant, c.steps, us, mbps, CallTimeMicros)
			}
		}
	}
}

// TestLaneBounds: the scheduler keeps within the lane kernels' contract
// (kernel.MaxLaneSteps, kernel.MaxLaneRun): every kernel's MaxSteps is a
// bound, not 0 ("no end"), of at most MaxLaneSteps, and the blocks a run
// can hold (a part, a window, a single message's call and its three
// padding blocks) at most MaxLaneRun.
func TestLaneBounds(t *testing.T) {
	for _, id := range kernel.IDs() {
		if f := kernel.Lookup(id).Family; f != "avx2" && f != "avx512" {
			continue // Go, preemptible (generic, stdlib), or 64-bit offsets
		}
		if s := MaxSteps(id); s == 0 || s > kernel.MaxLaneSteps {
			t.Errorf("%s: MaxSteps %d, want 1..%d", kernel.Lookup(id).Family, s, kernel.MaxLaneSteps)
		}
	}
	if maxPart+3 > kernel.MaxLaneRun {
		t.Errorf("parts of %d blocks, past the lanes' runs of %d", maxPart, kernel.MaxLaneRun)
	}
	for _, name := range Names() {
		pl := Runnable(name)
		if n := max(pl.PartBlocks, pl.WindowBlocks, pl.OneBlocks+3); n > kernel.MaxLaneRun {
			t.Errorf("%s: runs of up to %d blocks, past the lanes' %d", name, n, kernel.MaxLaneRun)
		}
	}
}
