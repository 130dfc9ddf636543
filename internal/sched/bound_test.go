//go:build sha256x_calltime

package sched

import (
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"

	"github.com/sha256x/sha256x/internal/plan/plantest"
)

// Long messages are hashed a part at a time and the pairs and chain kernels
// take bounded counts, so that no kernel call runs longer than its bound by
// time (internal/plan's bounds.go). TestBoundedCalls checks the bound on
// every entry point; the root's TestParts checks the digests around part
// boundaries, its TestCallTime the calls' time on this CPU, and TestPauses
// (cmd/sha256x/internal/pauses) what the bound is for: the runtime stops
// the world quickly while a long message is hashed.

// TestBoundedCalls records every kernel call while every entry point hashes
// long input on every plan, and checks each call's steps (blocks a lane)
// against its kernel's bound by time, plan.CallSteps: no call runs longer
// than plan.CallTimeMicros at the kernel's slowest known speed. It checks
// the arithmetic, whatever this CPU's speed.
func TestBoundedCalls(t *testing.T) {
	const mib = 1 << 20
	buf := pattern(9*mib+100, 5)
	var many [][]byte
	for i := range 9 {
		many = append(many, buf[i*mib+i:][:mib-i])
	}
	for i := range 50 {
		many = append(many, buf[i:][:i*37])
	}
	var pairs [][]byte
	for i := range 4096 {
		pairs = append(pairs, buf[64*i:][:64])
	}
	var leaves [][]byte
	for i := range 4096 {
		leaves = append(leaves, buf[100*i:][:100])
	}
	nodes := make([][Size]byte, 1<<14)
	for i := range nodes {
		copy(nodes[i][:], buf[32*i:])
	}
	for _, p := range plantest.All() {
		if p.Plan.Stdlib {
			continue // crypto/sha256 bounds its own calls
		}
		t.Run(p.Name, func(t *testing.T) {
			pl := p.Plan
			out := make([][Size]byte, len(nodes)/2)
			states := make([][Size]byte, 40)
			counts := make([]uint64, len(states))
			for i := range counts {
				counts[i] = uint64(3000 + 500*i)
			}
			for name, f := range map[string]func(){
				"sum256":        func() { Sum256(pl, buf) },
				"one message":   func() { HashMany(pl, out, nil, [][]byte{buf}) },
				"many":          func() { HashMany(pl, out, nil, many) },
				"long prefix":   func() { HashMany(pl, out, buf[:5*mib+3], many[9:]) },
				"prefixed many": func() { HashMany(pl, out, buf[:7], many) },
				"pairs":         func() { HashMany(pl, out, nil, pairs) },
				"leaves":        func() { HashMany(pl, out, []byte{0}, leaves) },
				"level":         func() { HashLevel(pl, true, &Join{}, out, nodes) },
				"double level":  func() { HashLevel(pl, true, &Join{Double: true}, out, nodes) },
				"rfc6962 level": func() { HashLevel(pl, false, &Join{Prefix: []byte{1}}, out, nodes) },
				"solana level": func() {
					HashLevel(pl, false, &Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}, out, nodes[:64])
				},
				"one stream":   func() { WriteMany(pl, streams(1), [][]byte{buf}, true) },
				"write":        func() { new(Stream).Write(pl, buf) },
				"many streams": func() { WriteMany(pl, streams(len(many)), many, false) },
				"buffered first": func() {
					ss := streams(2)
					ss[1].Write(pl, buf[:5])
					WriteMany(pl, ss, [][]byte{buf, buf[1:]}, false)
				},
				"chain":  func() { Chain(&pl.Chain, [Size]byte{}, 100000) },
				"chains": func() { Chains(&pl.Chain, states, counts) },
			} {
				Calls.Reset()
				f()
				single := name == "sum256" || name == "one message" || name == "chain"
				if Calls.Calls == 0 && !(single && pl.One[len(pl.One)-1].K == kernel.Stdlib) {
					t.Errorf("%s: no kernel call recorded", name)
				}
				if Calls.Mismatches > 0 {
					t.Errorf("%s: %d calls left other lanes busy than the kernel contract: %s", name, Calls.Mismatches, Calls.Mismatch)
				}
				for _, c := range Calls.Most {
					if bound := plan.CallSteps(c.K); c.Width > 0 && bound > 0 && c.Steps > bound {
						t.Errorf("%s: a call of %s-%s ran up to %d steps (%d blocks), more than %d", name, kernel.Lookup(c.K).Family, kernel.Lookup(c.K).Variant, c.Steps, c.Blocks, bound)
					}
				}
			}
		})
	}
}

// TestFewCalls: long jobs that a call leaves busy, carried into the next
// with short ones queued behind them, run in calls of the full steps, not a
// call for each few short jobs (carry counts a carried job at most a call's
// steps). A batch of the mixed shape's kind, on every plan whose first stage
// has lanes: about as many calls as its first stage's steps need.
func TestFewCalls(t *testing.T) {
	buf := pattern(1<<16+64, 9)
	var msgs [][]byte
	for i := range 300 {
		n := []int{1 << 16, 4096, 1000}[i%3]
		if i%3 == 0 && i >= 3*43 {
			n = 100
		}
		msgs = append(msgs, buf[i%64:][:n])
	}
	out := make([][Size]byte, len(msgs))
	for _, p := range plantest.All() {
		if p.Plan.Stdlib || len(p.Plan.Stages) == 0 || p.Plan.Stages[0].Width == 1 || plan.CallSteps(p.Plan.Stages[0].K) == 0 {
			continue // crypto/sha256's calls, Go's (the runtime preempts them), or one message at a time
		}
		st := p.Plan.Stages[0]
		bound := plan.CallSteps(st.K)
		Calls.Reset()
		HashMany(p.Plan, out, nil, msgs)
		calls, steps := 0, 0
		for _, c := range Calls.All {
			if c.K == st.K {
				calls++
				steps += c.Steps
			}
		}
		if least := (steps + bound - 1) / bound; calls > least+least/3+2 {
			t.Errorf("%s: %d calls of %s-%s for %d steps, %d at most %d steps a call", p.Name, calls, kernel.Lookup(st.K).Family, kernel.Lookup(st.K).Variant, steps, least, bound)
		}
	}
}
