package sha256x

import (
	"crypto/sha256"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// BenchmarkChain times one chain, 4096 steps a call, on a crypto/sha256.Sum256
// loop and on the chain plan of every plan and the single-chain kernel
// functions this machine can run, side by side; ns/op / 4096 is the time of
// a step. Compare with benchstat:
//
//	go test -run '^$' -bench 'Chain' -count 8 . | tee chain.txt; benchstat -col /impl chain.txt
func BenchmarkChain(b *testing.B) {
	const steps = 4096
	b.Run("impl=crypto", func(b *testing.B) {
		var d [Size]byte
		for b.Loop() {
			for range steps {
				d = sha256.Sum256(d[:])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
	})
	for _, p := range benchChainPlans(false) {
		b.Run("impl="+p.name, func(b *testing.B) {
			var d [Size]byte
			for b.Loop() {
				d = sched.Chain(p.cp, d, steps)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
		})
	}
}

// BenchmarkChains times 64 chains of 4096 steps on every chain plan and
// chain kernel function; ns/step is the time per step of all chains, to
// compare with BenchmarkChain's.
func BenchmarkChains(b *testing.B) {
	const chains, steps = 64, 4096
	states := make([][Size]byte, chains)
	counts := make([]uint64, chains)
	for i := range counts {
		counts[i] = steps
	}
	for _, p := range benchChainPlans(true) {
		b.Run("impl="+p.name, func(b *testing.B) {
			for b.Loop() {
				sched.Chains(p.cp, states, counts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chains*steps), "ns/step")
		})
	}
}

// benchChainPlans: the dispatched chain plan, each kernel's, and each chain
// kernel function alone (for Chain only the single-stream ones, unless
// batch).
func benchChainPlans(batch bool) []namedChainPlan {
	ps := []namedChainPlan{{"dispatch", &plan.Active.Chain}}
	for _, name := range plan.Kernels() {
		ps = append(ps, namedChainPlan{name, &plan.Find(name).Plan.Chain})
	}
	for _, pl := range plan.Mixed() {
		ps = append(ps, namedChainPlan{pl.Name, &pl.Chain})
	}
	for _, st := range chainKernels() {
		if batch || st.Width == 1 {
			info := kernel.Lookup(st.K)
			ps = append(ps, namedChainPlan{info.Family + "-chain-" + info.Variant, &plan.ChainPlan{Name: info.Variant, One: st, Stages: []plan.ChainStage{st}}})
		}
	}
	return ps
}
