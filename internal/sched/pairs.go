package sched

import (
	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A pairsInput is what a batch of 64-byte messages or a level hands the
// pairs kernels: the messages one after another (Adjacent, Double), the
// messages of a [][]byte (Slices), or a level's children to stage whole, a
// chunk at a time, into sc.lvl (Staged).
type pairsInput struct {
	call  kernel.PairsCall
	in    []byte   // Adjacent, Double
	msgs  [][]byte // Slices
	nodes [][Size]byte
	jn    *Join
	w, nb int // Staged: the children's width and the blocks of each node
	sc    *scratch
}

// hashPairs hashes the first n messages of p into out on the plan's pairs
// kernels, widest first, each taking whole groups of its lanes, or all n on
// the first stage's lanes, a last partial group among them (TakesPartial).
// It returns how many it hashed; the rest are the job queue's.
func hashPairs(pl *plan.Plan, p *pairsInput, out [][Size]byte, n int) int {
	if pl.TakesPartial(n, p.call) {
		st := pl.Pairs[0]
		whole := n &^ (st.Width - 1)
		p.run(st, out, 0, whole)
		p.runPart(st, out[whole:n], whole)
		return n
	}
	done := 0
	for _, st := range pl.Pairs {
		k := st.Take(n - done)
		if k == 0 {
			continue
		}
		p.run(st, out, done, done+k)
		if done += k; done == n {
			break
		}
	}
	return done
}

// run hashes messages i..j of p, whole groups of st's lanes, on st's pairs
// kernel, in calls of bounded work.
func (p *pairsInput) run(st plan.Stage, out [][Size]byte, i, j int) {
	chunk := pairChunk
	if p.call == kernel.Staged {
		chunk = levelChunk
		if i < j {
			p.sc.lvlTemplate(p.jn, p.w, p.nb)
		}
	}
	for ; i < j; i += chunk {
		c := min(chunk, j-i)
		if p.call == kernel.Staged {
			p.sc.lvlNodes(p.jn, p.w, p.nb, p.nodes[2*i:2*(i+c)])
		}
		in, msgs := p.at(i)
		kernel.HashPairs(st.K, p.call, &out[i], in, msgs, c, p.nb)
	}
}

// at returns what the pairs kernel reads for messages from i: for Staged,
// what was staged for them.
func (p *pairsInput) at(i int) (*byte, *[]byte) {
	switch p.call {
	case kernel.Slices:
		return nil, &p.msgs[i]
	case kernel.Staged:
		return &p.sc.lvl[0], nil
	}
	return &p.in[2*Size*i], nil
}

// runPart hashes the len(out) < st.Width messages of p from i as one whole
// group of st's lanes: copied to the stack (staged into sc.lvl, which holds
// a whole group's slots), the lanes past them hashing what the copy or the
// slots hold, their digests dropped. Apart, so that the whole groups' path
// does not carry its frame.
//
//go:noinline
func (p *pairsInput) runPart(st plan.Stage, out [][Size]byte, i int) {
	if len(out) == 0 {
		return
	}
	var buf [plan.MaxPairsWidth * 2 * Size]byte
	var dig [plan.MaxPairsWidth][Size]byte
	in, c := &buf[0], p.call
	switch p.call {
	case kernel.Slices:
		for j, m := range p.msgs[i : i+len(out)] {
			copy(buf[j*2*Size:], m)
		}
		c = kernel.Adjacent
	case kernel.Adjacent, kernel.Double:
		copy(buf[:], p.in[2*Size*i:2*Size*(i+len(out))])
	case kernel.Staged:
		p.sc.lvlTemplate(p.jn, p.w, p.nb)
		p.sc.lvlNodes(p.jn, p.w, p.nb, p.nodes[2*i:2*(i+len(out))])
		in = &p.sc.lvl[0]
	}
	kernel.HashPairs(st.K, c, &dig[0], in, nil, st.Width, p.nb)
	copy(out, dig[:len(out)])
}
