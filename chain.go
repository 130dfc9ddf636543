package sha256x

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// Hash chains: SHA-256 applied to its own 32-byte output, over and over, as
// in Solana's proof of history. One step hashes one block whose first half
// is the previous digest and whose second half is constant (0x80, zeros, the
// length 256 bits), so the chain kernels keep the state in registers, never
// load or store a block, and take W[8..15] and their share of the schedule
// as constants.
//
// The chain kernels follow the plan the dispatcher chose for messages
// (chainPlanOf): each kernel function of a plan has a chain counterpart of
// the same family and width (arm64's four SHA2 streams excepted: three
// stand in), so SHA256X_KERNEL, the sha256x_<name> build tags and purego
// choose the chain code too. Chain runs on the plan's single-message kernel
// (one SHA-NI stream in avx512+shani2, crypto/sha256 in avx2+stdlib, all 16
// lanes when avx512 is forced), Chains on its stages, widest first; SHA-NI
// and SHA2 streams drain through fewer streams down to one.

// Chain returns the hash chain of n steps from seed: seed itself if n is 0,
// else SHA-256(Chain(seed, n-1)). It runs on the fastest single stream of
// this CPU (one SHA-NI or ARMv8 SHA2 stream where there is one), the state
// held in registers, and returns to the Go scheduler every 1024 steps or
// so, so that a chain of 10^9 steps never holds up a garbage collection.
func Chain(seed [Size]byte, n uint64) [Size]byte {
	return activeChain.chain(seed, n)
}

// Chains advances every chain states[i] by counts[i] steps, in place:
// states[i] becomes Chain(states[i], counts[i]). The chains run side by side
// on the CPU's SIMD lanes or interleaved SHA-NI / ARMv8 SHA2 streams; a lane
// whose chain ends takes the next one, so chains of different lengths keep
// every lane busy, and the last few chains finish on a narrower kernel. A
// count of 0 leaves its state alone.
//
// Chains panics with a message starting "sha256x:" if len(counts) !=
// len(states).
func Chains(states [][Size]byte, counts []uint64) {
	if len(counts) != len(states) {
		panic("sha256x: Chains: len(counts) = " + strconv.Itoa(len(counts)) + " != len(states) = " + strconv.Itoa(len(states)))
	}
	activeChain.chains(states, counts)
}

// chainBlocks bounds the work of one assembly call: 1024 blocks (64 KiB of
// hashing, as crypto/sha256 bounds its own), that is 1024 steps of one
// stream, or 1024/w steps of w lanes or streams.
const chainBlocks = 1024

// A chainKernel names one chain kernel function; chainStage.run switches on
// it. Architectures number theirs from cArch.
type chainKernel uint8

const (
	cGeneric chainKernel = iota // portable Go, one chain
	cStdlib                     // a crypto/sha256.Sum256 loop, one chain
	cArch
)

// A chainStage is one chain kernel of a chain plan.
type chainStage struct {
	k         chainKernel
	width     int  // lanes or streams
	minActive int  // hand the busy chains to the next stage below this many, once none wait
	wordMajor bool // the kernel's state: word k of lane i at [k*width+i], else at [8*i+k]
}

// chainLanes is the state a chain kernel works on: 8 words a lane.
type chainLanes [8 * maxLanes]uint32

// A chainPlan is how Chain and Chains run: one, the stage of a single chain;
// stages, widest first, for batches.
type chainPlan struct {
	name   string
	one    chainStage
	stages []chainStage
}

var activeChain = chainPlanOf(active)

// chainPlanOf returns the chain plan that follows plan pl: each of its
// stages on the chain kernel of the same family and width, and the
// single-message stage for Chain.
func chainPlanOf(pl *plan) *chainPlan {
	cp := &chainPlan{name: pl.name}
	if pl.stdlib {
		s := chainStage{k: cStdlib, width: 1, minActive: 1}
		cp.one, cp.stages = s, []chainStage{s}
		return cp
	}
	cp.one = chainStageOf(pl.one[len(pl.one)-1])
	for _, st := range pl.stages {
		cp.stages = append(cp.stages, archChainStages(chainStageOf(st))...)
	}
	// The last stage runs to the end.
	cp.stages[len(cp.stages)-1].minActive = 1
	return cp
}

// chainStageOf maps one stage of a message plan to its chain stage.
func chainStageOf(st stage) chainStage {
	switch st.k {
	case kGeneric:
		return chainStage{k: cGeneric, width: 1, minActive: 1}
	case kStdlib1:
		return chainStage{k: cStdlib, width: 1, minActive: 1}
	}
	return archChainStage(st)
}

// chain runs one chain on the plan's single-chain stage.
func (cp *chainPlan) chain(seed [Size]byte, n uint64) [Size]byte {
	st := cp.one
	switch {
	case n == 0:
		return seed
	case st.k == cStdlib:
		return chainStdlib(seed, n)
	}
	var ls chainLanes
	for k := range 8 {
		ls[st.word(0, k)] = binary.BigEndian.Uint32(seed[4*k:])
	}
	for n > 0 {
		m := min(n, st.maxSteps())
		st.run(&ls, m)
		n -= m
	}
	var d [Size]byte
	for k := range 8 {
		binary.BigEndian.PutUint32(d[4*k:], ls[st.word(0, k)])
	}
	return d
}

// chainStdlib is the chain on crypto/sha256, one step after another.
func chainStdlib(d [Size]byte, n uint64) [Size]byte {
	for ; n > 0; n-- {
		d = sha256.Sum256(d[:])
	}
	return d
}

// word returns where word k of lane i lives in a chainLanes.
func (st chainStage) word(i, k int) int {
	if st.wordMajor {
		return k*st.width + i
	}
	return 8*i + k
}

// maxSteps is the most steps one call of the stage's kernel may run.
func (st chainStage) maxSteps() uint64 {
	return uint64(max(chainBlocks/st.width, 1))
}

// run runs n (at most maxSteps) steps of every lane of ls. Kernels are
// called directly, never through a func value, so ls stays on the caller's
// stack.
func (st chainStage) run(ls *chainLanes, n uint64) {
	switch st.k {
	case cGeneric:
		for i := range st.width {
			chainGeneric((*[8]uint32)(ls[8*i:]), n)
		}
	case cStdlib:
		for i := range st.width {
			var d [Size]byte
			h := (*[8]uint32)(ls[8*i:])
			putDigest(&d, h)
			d = chainStdlib(d, n)
			for k := range h {
				h[k] = binary.BigEndian.Uint32(d[4*k:])
			}
		}
	default:
		runChainArch(st.k, ls, n)
	}
}

// A chainJob is a chain still to advance: states[i], rem more steps.
type chainJob struct {
	i   int
	rem uint64
}

func (cp *chainPlan) chains(states [][Size]byte, counts []uint64) {
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
		states[first] = cp.chain(states[first], counts[first])
		return
	}
	// The first stage takes chains from the caller's slices, in order; each
	// later stage takes the chains the one before it handed over.
	var carried [maxLanes]chainJob
	nc := 0
	next := first
	for si, st := range cp.stages {
		last := si == len(cp.stages)-1
		var q chainQueue
		if si == 0 {
			q = chainQueue{counts: counts, next: next}
		} else {
			q = chainQueue{carried: carried[:nc]}
		}
		nc = cp.runStage(st, last, states, &q, &carried)
		if nc == 0 {
			return
		}
	}
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

// runStage runs chains from q on stage st until q is empty and, unless
// last, fewer than st.minActive lanes are busy; it writes those lanes'
// states back to states and returns them, as jobs, in carried.
func (cp *chainPlan) runStage(st chainStage, last bool, states [][Size]byte, q *chainQueue, carried *[maxLanes]chainJob) int {
	var ls chainLanes
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
			ls[st.word(l, k)] = binary.BigEndian.Uint32(s[4*k:])
		}
	}
	store := func(l int) {
		s := &states[jobs[l].i]
		for k := range 8 {
			binary.BigEndian.PutUint32(s[4*k:], ls[st.word(l, k)])
		}
		busy[l] = false
		nbusy--
	}
	for l := range st.width {
		load(l)
	}
	for nbusy > 0 {
		if !last && nbusy < st.minActive && q.empty() {
			nc := 0
			for l := range st.width {
				if busy[l] {
					store(l)
					carried[nc] = jobs[l]
					nc++
				}
			}
			return nc
		}
		m := st.maxSteps()
		for l := range st.width {
			if busy[l] {
				m = min(m, jobs[l].rem)
			}
		}
		st.run(&ls, m)
		for l := range st.width {
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

// A chainVariant is one chain kernel function alone, for tests and
// benchmarks.
type chainVariant struct {
	kernel string // the kernel it belongs to
	name   string // such as "x4": four streams
	st     chainStage
}
