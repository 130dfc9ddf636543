package plan

import (
	"fmt"
	"math/rand/v2"
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
		n := 1 << 30
		for i, st := range pl.Stages {
			if i == 0 {
				calls = append(calls, call{fmt.Sprintf("window of %d a lane", pl.FirstBlocks), st.K, firstSteps(st.Width, pl.minActive(i), pl.FirstBlocks)})
				calls = append(calls, call{fmt.Sprintf("parts of %d", pl.PartBlocks), st.K, pl.PartBlocks + 3})
			} else {
				calls = append(calls, call{fmt.Sprintf("%d jobs' parts", n), st.K, laterSteps(n, st.Width, pl.minActive(i), pl.PartBlocks)})
			}
			if !st.Odd {
				n = min(n, st.MinActive-1)
			}
			n = max(n, 1)
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

// TestCallSteps checks callSteps against the kernel contract run step by
// step (runGeneric's): w lanes take the jobs in order, each step hashes a
// block on every busy lane, and the call returns once no job is left and
// fewer than m lanes are busy.
func TestCallSteps(t *testing.T) {
	steps := func(w, m int, jobs []int) int {
		left := make([]int, w) // blocks left in each lane's job
		next, busy, n := 0, 0, 0
		take := func(i int) {
			if next < len(jobs) {
				left[i] = jobs[next]
				next++
				busy++
			}
		}
		for i := range w {
			take(i)
		}
		for busy >= m && busy > 0 {
			n++
			for i := range left {
				if left[i] == 0 {
					continue
				}
				if left[i]--; left[i] == 0 {
					busy--
					take(i)
				}
			}
		}
		return n
	}
	check := func(w, m int, jobs []int) {
		t.Helper()
		total, longest := 0, 0
		for _, b := range jobs {
			total, longest = total+b, max(longest, b)
		}
		got := steps(w, m, jobs)
		for _, n := range []int{len(jobs), 0} {
			if bound := callSteps(w, m, total, longest, n); got > bound {
				t.Fatalf("w=%d m=%d jobs %v: %d steps, more than callSteps' %d (n=%d)", w, m, jobs, got, bound, n)
			}
		}
	}
	// Short jobs first, the longest last: t <= w*j, and yet 3j/2 steps.
	half := make([]int, 17)
	for i := range half {
		half[i] = 50
	}
	half[16] = 100
	check(16, 1, half)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		w := 1 + r.IntN(16)
		m := 1 + r.IntN(w)
		j := 1 + r.IntN(300)
		jobs := make([]int, 1+r.IntN(3*w))
		for i := range jobs {
			jobs[i] = 1 + r.IntN(j)
			if r.IntN(4) == 0 {
				jobs[i] = j
			}
		}
		check(w, m, jobs)
	}
}
