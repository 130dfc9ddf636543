package sha256x

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/plan/plantest"
	"github.com/sha256x/sha256x/internal/sched"
)

// chainWant is the chain of n steps from seed, on a crypto/sha256 loop.
func chainWant(seed [Size]byte, n uint64) [Size]byte {
	for ; n > 0; n-- {
		seed = sha256.Sum256(seed[:])
	}
	return seed
}

type namedChainPlan struct {
	name string
	cp   *plan.ChainPlan
}

// testChainPlans returns every way this machine can run a chain: the chain
// plan of every plan testPlans lists, and every chain kernel alone.
func testChainPlans() []namedChainPlan {
	var ps []namedChainPlan
	for _, p := range testPlans() {
		if strings.HasPrefix(p.Name, "generic-x") {
			continue // the same chain plan as generic
		}
		ps = append(ps, namedChainPlan{p.Name, &p.Plan.Chain})
	}
	for _, st := range chainKernels() {
		info := kernel.Lookup(st.K)
		ps = append(ps, namedChainPlan{info.Family + "-chain-" + info.Variant, &plan.ChainPlan{Name: info.Variant, One: st, Stages: []plan.ChainStage{st}}})
	}
	// The generic chain kernel at several widths, which drives the
	// scheduler's refills and hand-overs in pure Go.
	for _, w := range []int{3, 16} {
		ps = append(ps, namedChainPlan{fmt.Sprintf("generic-chain-x%d", w), &plan.ChainPlan{
			One: plan.ChainStage{K: kernel.Generic, Width: 1, MinActive: 1},
			Stages: []plan.ChainStage{
				{K: kernel.Generic, Width: w, MinActive: w/2 + 1},
				{K: kernel.Stdlib, Width: 2, MinActive: 2},
				{K: kernel.Generic, Width: 1, MinActive: 1},
			},
		}})
	}
	return ps
}

// chainKernels returns every assembly chain kernel this CPU can run, each
// as a stage alone.
func chainKernels() []plan.ChainStage {
	var sts []plan.ChainStage
	for _, id := range plantest.Alone() {
		if info := kernel.Lookup(id); info.Chain == id && id != kernel.Stdlib {
			sts = append(sts, plan.ChainStage{K: id, Width: info.Width, MinActive: 1, WordMajor: info.ChainWordMajor})
		}
	}
	return sts
}

func forChainPlans(t *testing.T, f func(t *testing.T, cp *plan.ChainPlan)) {
	for _, p := range testChainPlans() {
		t.Run(p.name, func(t *testing.T) { f(t, p.cp) })
	}
}

func seedOf(i int) (s [Size]byte) {
	copy(s[:], pattern(Size, i))
	return s
}

func TestChain(t *testing.T) {
	counts := []uint64{0, 1, 2, 3, 7, 64, 100, 1023, 1024, 1025, 2049}
	forChainPlans(t, func(t *testing.T, cp *plan.ChainPlan) {
		for i, n := range counts {
			seed := seedOf(i)
			if got, w := sched.Chain(cp, seed, n), chainWant(seed, n); got != w {
				t.Errorf("chain of %d steps: got %x, want %x", n, got, w)
			}
			// Chains of one chain takes the single-chain path; of the
			// same chain twice, the batched one.
			states := [][Size]byte{seed, seed}
			sched.Chains(cp, states[:1], []uint64{n})
			if w := chainWant(seed, n); states[0] != w {
				t.Errorf("chains of 1 chain of %d steps: got %x, want %x", n, states[0], w)
			}
			states[0] = seed
			sched.Chains(cp, states, []uint64{n, n})
			if w := chainWant(seed, n); states[0] != w || states[1] != w {
				t.Errorf("chains of 2 chains of %d steps: got %x, %x, want %x", n, states[0], states[1], w)
			}
		}
	})
}

// checkChains runs one batch on cp and compares every chain with the
// crypto/sha256 loop.
func checkChains(t *testing.T, cp *plan.ChainPlan, counts []uint64) {
	t.Helper()
	states := make([][Size]byte, len(counts))
	wants := make([][Size]byte, len(counts))
	for i := range states {
		states[i] = seedOf(i + len(counts))
		wants[i] = chainWant(states[i], counts[i])
	}
	sched.Chains(cp, states, counts)
	bad := 0
	for i := range states {
		if states[i] != wants[i] {
			if bad++; bad <= 3 {
				t.Errorf("chain %d of %d, %d steps: got %x, want %x", i, len(counts), counts[i], states[i], wants[i])
			}
		}
	}
	if bad > 3 {
		t.Errorf("... %d wrong chains in all", bad)
	}
}

// TestChainsRagged: batches of 1..70 chains of 0..400 steps, so that lanes
// refill at every point and the last chains move to narrower kernels.
func TestChainsRagged(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	forChainPlans(t, func(t *testing.T, cp *plan.ChainPlan) {
		for n := 1; n <= 70; n++ {
			if testing.Short() && n > 20 && n%16 > 1 && n%16 != 15 && n != 70 {
				continue // emulated runs: up to 20, and around each 16 lanes
			}
			counts := make([]uint64, n)
			for i := range counts {
				counts[i] = uint64(r.IntN(401))
				if r.IntN(8) == 0 {
					counts[i] = uint64(r.IntN(3))
				}
			}
			checkChains(t, cp, counts)
		}
	})
}

// TestChainsLong: chains over many kernel calls, of equal and of very
// different lengths.
func TestChainsLong(t *testing.T) {
	t.Parallel()
	long := uint64(100_000)
	if testing.Short() {
		long = 5_000
	}
	forChainPlans(t, func(t *testing.T, cp *plan.ChainPlan) {
		checkChains(t, cp, []uint64{long, 3, long/2 + 1, 0, 1, long - 1, 2048, 17})
		counts := make([]uint64, 20)
		for i := range counts {
			counts[i] = long / 10
		}
		checkChains(t, cp, counts)
		seed := seedOf(99)
		if got, w := sched.Chain(cp, seed, long+7), chainWant(seed, long+7); got != w {
			t.Errorf("chain of %d steps: got %x, want %x", long+7, got, w)
		}
	})
}

func TestChainsPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "sha256x: Chains: len(counts) = 1 != len(states) = 2" {
			t.Errorf("panic %q", r)
		}
	}()
	Chains(make([][Size]byte, 2), []uint64{1})
}

func TestChainAPI(t *testing.T) {
	seed := seedOf(1)
	if got, w := Chain(seed, 5), chainWant(seed, 5); got != w {
		t.Errorf("Chain: got %x, want %x", got, w)
	}
	states := [][Size]byte{seed, seed, seed}
	Chains(states, []uint64{0, 1, 300})
	if states[0] != seed || states[1] != chainWant(seed, 1) || states[2] != chainWant(seed, 300) {
		t.Errorf("Chains: wrong states %x", states)
	}
	Chains(nil, nil)
}

func TestChainAllocs(t *testing.T) {
	states := make([][Size]byte, 70)
	counts := make([]uint64, 70)
	for i := range counts {
		counts[i] = uint64(i * 7 % 50)
	}
	var sink [Size]byte
	forChainPlans(t, func(t *testing.T, cp *plan.ChainPlan) {
		if a := testing.AllocsPerRun(10, func() { sched.Chains(cp, states, counts) }); a != 0 {
			t.Errorf("chains: %v allocations", a)
		}
		if a := testing.AllocsPerRun(10, func() { sink = sched.Chain(cp, sink, 100) }); a != 0 {
			t.Errorf("chain: %v allocations", a)
		}
	})
	a := testing.AllocsPerRun(10, func() {
		var st [5][Size]byte
		Chains(st[:], []uint64{1, 2, 3, 4, 5})
		sink = Chain(st[4], 3)
	})
	if a != 0 {
		t.Errorf("Chains on the stack: %v allocations", a)
	}
}

func TestChainConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			states := make([][Size]byte, 20)
			counts := make([]uint64, 20)
			for i := range states {
				states[i] = seedOf(g*100 + i)
				counts[i] = uint64(50 + i*g)
			}
			wants := make([][Size]byte, 20)
			for i := range wants {
				wants[i] = chainWant(states[i], counts[i])
			}
			Chains(states, counts)
			for i := range states {
				if states[i] != wants[i] {
					t.Errorf("goroutine %d, chain %d wrong", g, i)
				}
			}
			if Chain(seedOf(g), 999) != chainWant(seedOf(g), 999) {
				t.Errorf("goroutine %d: Chain wrong", g)
			}
		}()
	}
	wg.Wait()
}

// TestChainPreempt runs a long chain on one P while another goroutine
// sleeps 1 ms at a time: if a kernel call did not return to the scheduler
// within a bounded time, the sleeper would oversleep by the whole chain.
func TestChainPreempt(t *testing.T) {
	if testing.Short() {
		t.Skip("a chain of about a second per plan")
	}
	if os.Getenv("SHA256X_KERNEL") != "" {
		t.Skip("the dispatched plans' kernels are the ones tested")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, p := range testChainPlans() {
		if !strings.Contains(p.name, "-chain-") || strings.HasPrefix(p.name, "generic-") {
			continue // each assembly kernel alone
		}
		t.Run(p.name, func(t *testing.T) {
			// Steps for about 0.3 s.
			start := time.Now()
			sched.Chain(p.cp, seedOf(1), 20000)
			steps := uint64(20000 * float64(300*time.Millisecond) / float64(time.Since(start)+1))
			var states [2][Size]byte
			var took time.Duration
			// A busy host can delay the sleeper too; a kernel that never
			// returns delays it every time, so a failure is retried up to
			// three times.
			for attempt := 1; ; attempt++ {
				done := make(chan time.Duration)
				go func() {
					var worst time.Duration
					for {
						select {
						case <-done:
							done <- worst
							return
						default:
						}
						t0 := time.Now()
						time.Sleep(time.Millisecond)
						worst = max(worst, time.Since(t0)-time.Millisecond)
					}
				}()
				time.Sleep(5 * time.Millisecond)
				t0 := time.Now()
				if p.cp.Stages[0].Width > 1 {
					sched.Chains(p.cp, states[:], []uint64{steps, steps})
				} else {
					states[0] = sched.Chain(p.cp, states[0], steps)
				}
				took = time.Since(t0)
				done <- 0
				worst := <-done
				t.Logf("%d steps in %v; the sleeper overslept by %v at most", steps, took, worst)
				if worst <= 100*time.Millisecond || worst <= took/4 {
					break
				}
				if attempt == 3 {
					t.Errorf("a sleeper overslept by %v during a chain of %v, three times: the kernel is not preemptible", worst, took)
					break
				}
			}

			// With two Ps, garbage collections during the chain: the world
			// stops once the chain's goroutine leaves its kernel call.
			runtime.GOMAXPROCS(2)
			defer runtime.GOMAXPROCS(1)
			stop := make(chan bool)
			go func() {
				for {
					select {
					case <-stop:
						stop <- true
						return
					default:
						runtime.GC()
						time.Sleep(time.Millisecond)
					}
				}
			}()
			before := stoppingPauses()
			sched.Chains(p.cp, states[:], []uint64{steps / 2, steps / 2})
			stop <- true
			<-stop
			gcs, longest := stoppingPauses().since(before)
			t.Logf("%d collections during the chain; the longest stop took %v at most (/sched/pauses/stopping/gc:seconds)", gcs, longest)
			if gcs > 0 && longest > 100*time.Millisecond && longest > took/8 {
				t.Errorf("stopping the world for a GC took up to %v during a chain", longest)
			}
		})
	}
}

// FuzzChains runs a batch cut from the fuzzer's input on every chain plan:
// seeds gives the chains' starting states (cyclically), counts their
// lengths (each byte times 3).
func FuzzChains(f *testing.F) {
	f.Add([]byte("seed"), []byte{0, 1, 2, 3})
	f.Add(pattern(100, 1), []byte{255, 0, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 1})
	f.Add([]byte{}, []byte{200})
	f.Add(pattern(7, 2), []byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 50, 25, 12, 6, 3, 1})
	plans := testChainPlans()
	f.Fuzz(func(t *testing.T, seeds, cs []byte) {
		if len(cs) > 70 {
			cs = cs[:70]
		}
		init := make([][Size]byte, len(cs))
		counts := make([]uint64, len(cs))
		wants := make([][Size]byte, len(cs))
		for i, c := range cs {
			for j := range init[i] {
				if len(seeds) > 0 {
					init[i][j] = seeds[(i*Size+j)%len(seeds)]
				}
			}
			counts[i] = 3 * uint64(c)
			wants[i] = chainWant(init[i], counts[i])
		}
		for _, p := range plans {
			states := append([][Size]byte(nil), init...)
			sched.Chains(p.cp, states, counts)
			for i := range states {
				if states[i] != wants[i] {
					t.Fatalf("%s: chain %d of %d (%d steps): got %x, want %x", p.name, i, len(states), counts[i], states[i], wants[i])
				}
			}
		}
	})
}

// pauseHist is a snapshot of /sched/pauses/stopping/gc:seconds: how long
// stopping the world for the garbage collector took, as a histogram.
type pauseHist struct {
	counts  []uint64
	buckets []float64
}

func stoppingPauses() pauseHist {
	s := []metrics.Sample{{Name: "/sched/pauses/stopping/gc:seconds"}}
	metrics.Read(s)
	h := s[0].Value.Float64Histogram()
	return pauseHist{append([]uint64(nil), h.Counts...), h.Buckets}
}

// since returns how many stops the histogram gained since before, and the
// upper bound of the highest bucket that gained one.
func (h pauseHist) since(before pauseHist) (n uint64, longest time.Duration) {
	for i := range h.counts {
		if d := h.counts[i] - before.counts[i]; d > 0 {
			n += d
			longest = time.Duration(h.buckets[i+1] * 1e9)
		}
	}
	return n, longest
}
