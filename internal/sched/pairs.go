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
	partial := pl.TakesPartial(n, c)
	chunk, nb := pairChunk, 0
	if c == kernel.Staged {
		chunk, nb = levelChunk, stg.nb
	}
	done := 0
	for _, st := range pl.Pairs {
		k := st.Take(n - done)
		if partial {
			k = n &^ (st.Width - 1) // the whole groups; runPart the rest
		}
		if k > 0 && c == kernel.Staged {
			stg.sc.lvlTemplate(stg.jn, stg.w, nb)
		}
		for i := done; i < done+k; i += chunk {
			m := min(chunk, done+k-i)
			p, s := pairsAt(c, in, msgs, stg, i, m)
			kernel.HashPairs(st.K, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), i*Size)), p, s, m, nb)
		}
		if done += k; partial {
			runPart(st, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), done*Size)), n-done, in, msgs, stg, done)
			return n
		}
		if done == n {
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
