package sched

import (
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A staging is how a level of joins other than pairs reaches the pairs
// kernels: its nodes staged whole, nb blocks each, levelChunk at a time,
// into sc.lvl (laid out by lvlTemplate).
type staging struct {
	sc    *scratch
	nodes [][Size]byte
	jn    *Join
	w, nb int // the children's width, the blocks of each node
}

// hashPairs hashes the first n 64-byte messages into out on the plan's
// pairs kernels, widest first, each taking whole groups of its lanes, or
// all n on the first stage's lanes, a last partial group among them
// (TakesPartial). It returns how many it hashed; the rest are the job
// queue's. What it hashes is as pairs call c reads it: messages one after
// another from in (Adjacent, Double), the messages of the [][]byte at
// msgs (Slices), or a level's nodes staged by stg (Staged). Each stage's
// messages go in calls of bounded work: pairChunk messages, or levelChunk
// nodes staged at a time.
//
// Its arguments are the kernels' own, pointers and a count, so that they
// stay in registers: the instructions between two small levels' kernel
// calls are what those levels cost beyond the kernels (BENCHMARKS.md, "The
// house").
func hashPairs(pl *plan.Plan, c kernel.PairsCall, out *[Size]byte, in *byte, msgs *[]byte, stg *staging, n int) int {
	chunk, nb := pairChunk, 0
	if c == kernel.Staged {
		chunk, nb = levelChunk, stg.nb
		stg.sc.lvlTemplate(stg.jn, stg.w, nb)
	}
	if pl.TakesPartial(n, c) {
		st := pl.Pairs[0]
		whole := n &^ (st.Width - 1)
		for i := 0; i < whole; i += chunk {
			m := min(chunk, whole-i)
			p, s := pairsAt(c, in, msgs, stg, i, m)
			kernel.HashPairs(st.K, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), i*Size)), p, s, m, nb)
		}
		runPart(st, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), whole*Size)), n-whole, in, msgs, stg, whole)
		return n
	}
	// As few instructions as can be between two stages' kernel calls: a
	// small batch's second kernel waits for them (BENCHMARKS.md, "The
	// house").
	done := 0
	for _, st := range pl.Pairs {
		end := done + st.Take(n-done)
		for i := done; i < end; i += chunk {
			m := min(chunk, end-i)
			p, s := pairsAt(c, in, msgs, stg, i, m)
			kernel.HashPairs(st.K, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), i*Size)), p, s, m, nb)
		}
		if done = end; done == n {
			break
		}
	}
	return done
}

// pairsAt returns what the pairs kernel reads for messages i..i+m, staging
// them first for Staged.
func pairsAt(c kernel.PairsCall, in *byte, msgs *[]byte, stg *staging, i, m int) (*byte, *[]byte) {
	switch c {
	case kernel.Slices:
		return nil, (*[]byte)(unsafe.Add(unsafe.Pointer(msgs), i*int(unsafe.Sizeof([]byte(nil)))))
	case kernel.Staged:
		stg.sc.lvlNodes(stg.jn, stg.w, stg.nb, stg.nodes[2*i:2*(i+m)])
		return &stg.sc.lvl[0], nil
	}
	return (*byte)(unsafe.Add(unsafe.Pointer(in), 2*Size*i)), nil
}

// runPart hashes the m < st.Width messages from i as one whole group of
// st's lanes: copied to the stack (staged into sc.lvl, which holds a whole
// group's slots), the lanes past them hashing what the copy or the slots
// hold, their digests dropped. Apart, so that the whole groups' path does
// not carry its frame.
//
//go:noinline
func runPart(st plan.Stage, c kernel.PairsCall, out *[Size]byte, m int, in *byte, msgs *[]byte, stg *staging, i int) {
	if m == 0 {
		return
	}
	var buf [plan.MaxPairsWidth * 2 * Size]byte
	var dig [plan.MaxPairsWidth][Size]byte
	p, nb := &buf[0], 0
	switch c {
	case kernel.Slices:
		for j, msg := range unsafe.Slice(msgs, i+m)[i:] {
			copy(buf[j*2*Size:], msg)
		}
		c = kernel.Adjacent
	case kernel.Adjacent, kernel.Double:
		copy(buf[:], unsafe.Slice(in, 2*Size*(i+m))[2*Size*i:])
	case kernel.Staged:
		stg.sc.lvlTemplate(stg.jn, stg.w, stg.nb)
		p, _ = pairsAt(c, in, msgs, stg, i, m)
		nb = stg.nb
	}
	kernel.HashPairs(st.K, c, &dig[0], p, nil, st.Width, nb)
	copy(unsafe.Slice(out, m), dig[:m])
}
