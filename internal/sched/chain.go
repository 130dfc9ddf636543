package sched

import (
	"encoding/binary"
	"strconv"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// Chain returns the hash chain of n steps from seed on chain plan cp's
// single-chain stage, a bounded call at a time.
func Chain(cp *plan.ChainPlan, seed [Size]byte, n uint64) [Size]byte {
	st := cp.One
	switch {
	case n == 0:
		return seed
	case st.K == kernel.Stdlib:
		return kernel.ChainStdlib(seed, n)
	}
	var ls kernel.ChainLanes
	for k := range 8 {
		ls[word(st, 0, k)] = binary.BigEndian.Uint32(seed[4*k:])
	}
	for n > 0 {
		m := min(n, maxSteps(st))
		var t0 int64
		if instrumented {
			t0 = callStart()
		}
		kernel.AdvanceChains(st.K, st.Width, &ls, m)
		if instrumented {
			noteChain(st.K, st.Width, m, t0)
		}
		n -= m
	}
	var d [Size]byte
	for k := range 8 {
		binary.BigEndian.PutUint32(d[4*k:], ls[word(st, 0, k)])
	}
	return d
}

// word returns where word k of lane i lives in a ChainLanes.
func word(st plan.ChainStage, i, k int) int {
	if st.WordMajor {
		return k*st.Width + i
	}
	return 8*i + k
}

// maxSteps is the most steps one call of the stage's kernel may run:
// plan.ChainSteps.
func maxSteps(st plan.ChainStage) uint64 {
	return plan.ChainSteps(st.K)
}

// Chains advances every chain states[i] by counts[i] steps on chain plan
// cp, in place.
func Chains(cp *plan.ChainPlan, states [][Size]byte, counts []uint64) {
	if len(counts) != len(states) {
		panic("sha256x: Chains: len(counts) = " + strconv.Itoa(len(counts)) + " != len(states) = " + strconv.Itoa(len(states)))
	}
	// One chain, or none, with work: the single-chain path.
	first, nwork := -1, 0
	for i, c := range counts {
		if c != 0 {
			if nwork == 0 {
				first = i
			}
			if nwork++; nwork > 1 {
				break
			}
		}
	}
	switch nwork {
	case 0:
		return
	case 1:
		states[first] = Chain(cp, states[first], counts[first])
		return
	}
	// The first stage takes chains from the caller's slices, in order; each
	// later stage takes the chains the one before it handed over.
	var carried [maxLanes]chainJob
	nc := 0
	for si, st := range cp.Stages {
		last := si == len(cp.Stages)-1
		var q chainQueue
		if si == 0 {
			q = chainQueue{counts: counts, next: first}
		} else {
			q = chainQueue{carried: carried[:nc]}
		}
		nc = runChainStage(st, last, states, &q, &carried)
		if nc == 0 {
			return
		}
	}
}

// A chainJob is a chain still to advance: states[i], rem more steps.
type chainJob struct {
	i   int
	rem uint64
}

// A chainQueue hands chains to a stage: from the caller's counts (skipping
// zero counts), or from the previous stage's carried chains.
type chainQueue struct {
	counts  []uint64
	next    int
	carried []chainJob
}

func (q *chainQueue) take() (chainJob, bool) {
	if q.counts == nil {
		if len(q.carried) == 0 {
			return chainJob{}, false
		}
		j := q.carried[0]
		q.carried = q.carried[1:]
		return j, true
	}
	for q.next < len(q.counts) {
		i := q.next
		q.next++
		if q.counts[i] != 0 {
			return chainJob{i, q.counts[i]}, true
		}
	}
	return chainJob{}, false
}

func (q *chainQueue) empty() bool {
	if q.counts == nil {
		return len(q.carried) == 0
	}
	for q.next < len(q.counts) && q.counts[q.next] == 0 {
		q.next++
	}
	return q.next == len(q.counts)
}

// runChainStage runs chains from q on stage st until q is empty and, unless
// last, fewer than st.minActive lanes are busy; it writes those lanes'
// states back to states and returns them, as jobs, in carried.
func runChainStage(st plan.ChainStage, last bool, states [][Size]byte, q *chainQueue, carried *[maxLanes]chainJob) int {
	var ls kernel.ChainLanes
	var jobs [maxLanes]chainJob
	var busy [maxLanes]bool
	nbusy := 0
	load := func(l int) {
		j, ok := q.take()
		busy[l] = ok
		if !ok {
			return
		}
		jobs[l] = j
		nbusy++
		s := &states[j.i]
		for k := range 8 {
			ls[word(st, l, k)] = binary.BigEndian.Uint32(s[4*k:])
		}
	}
	store := func(l int) {
		s := &states[jobs[l].i]
		for k := range 8 {
			binary.BigEndian.PutUint32(s[4*k:], ls[word(st, l, k)])
		}
		busy[l] = false
		nbusy--
	}
	for l := range st.Width {
		load(l)
	}
	for nbusy > 0 {
		if !last && nbusy < st.MinActive && q.empty() {
			nc := 0
			for l := range st.Width {
				if busy[l] {
					store(l)
					carried[nc] = jobs[l]
					nc++
				}
			}
			return nc
		}
		m := maxSteps(st)
		for l := range st.Width {
			if busy[l] {
				m = min(m, jobs[l].rem)
			}
		}
		var t0 int64
		if instrumented {
			t0 = callStart()
		}
		kernel.AdvanceChains(st.K, st.Width, &ls, m)
		if instrumented {
			noteChain(st.K, st.Width, m, t0)
		}
		for l := range st.Width {
			if !busy[l] {
				continue
			}
			if jobs[l].rem -= m; jobs[l].rem == 0 {
				store(l)
				load(l)
			}
		}
	}
	return 0
}
