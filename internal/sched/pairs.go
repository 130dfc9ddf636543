package sched

import (
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A staging is how items other than 64-byte messages reach the pairs
// kernels: staged whole, padded, nb blocks each, levelChunk at a time, into
// the scratch area's slots: a level's nodes of a join other than pairs, or
// short messages that pad to as many blocks each after a prefix of less
// than a block (RFC 6962's leaves: bench/HISTORY.md, "Transparency logs").
type staging struct {
	sl    *slots       // sc.joins for nodes, sc.msgs for messages
	nodes [][Size]byte // a level's children, or nil
	msgs  [][]byte     // the messages, if nodes is nil, each of nb blocks
	// digests, if not nil, are 32-byte messages hashed again in place
	// (HashManyDouble's second hash): nodes and msgs are nil.
	digests [][Size]byte
	ragged  bool   // the messages' lengths differ: each is padded as it is staged
	pre     []byte // what each item starts with: jn.Prefix, or the messages' prefix
	jn      *Join  // the join of nodes
	w       int    // the children's width
	m, nb   int    // the bytes of each item staged, and its blocks
}

// template lays out every slot for stg's items, all but their own bytes:
// the prefix, a join's infix and the padding, which the next levels of a
// tree, and the next batches of leaves, find made.
func (stg *staging) template() {
	sl, pre, m, nb := stg.sl, stg.pre, stg.m, stg.nb
	if stg.ragged {
		sl.laid = notLaid // stage lays out each slot
		return
	}
	var infix []byte
	at := 0
	if stg.nodes != nil {
		infix, at = stg.jn.Infix, len(pre)+stg.w
	}
	// The first slot's prefix and infix stand for every slot's only if the
	// slots were laid out with them where they are now: an item's own bytes
	// of another layout of the same length differ from slot to slot.
	lay := layout{m, len(pre), at, len(infix)}
	if t := sl.buf[:nb*BlockSize]; sl.laid == lay && string(t[:len(pre)]) == string(pre) && string(t[at:][:len(infix)]) == string(infix) {
		return
	}
	sl.laid = notLaid // until every slot is laid out: a fault reading pre panics
	for j := range levelChunk {
		t := sl.buf[j*nb*BlockSize:][:nb*BlockSize]
		copy(t, pre)
		copy(t[at:], infix)
		padTail(t, t[:m], nil, 8*uint64(m))
	}
	sl.laid = lay
}

// stage copies the own bytes of items i..i+k into the slots (laid out by
// template) and returns where they start.
func (stg *staging) stage(i, k int) *byte {
	buf, stride := stg.sl.buf[:], stg.nb*BlockSize
	if stg.digests != nil {
		for j := range k {
			*(*[Size]byte)(buf[j*stride:]) = stg.digests[i+j]
		}
		return &buf[0]
	}
	if stg.nodes == nil {
		if stg.ragged {
			bits := 8 * uint64(len(stg.pre))
			for j, msg := range stg.msgs[i : i+k] {
				padTail(buf[j*stride:][:stride], stg.pre, msg, bits+8*uint64(len(msg)))
			}
		} else {
			p := len(stg.pre)
			for j, msg := range stg.msgs[i : i+k] {
				copy(buf[j*stride+p:], msg)
			}
		}
		return &buf[0]
	}
	w, nodes := stg.w, stg.nodes[2*i:2*(i+k)]
	l, r := len(stg.pre), len(stg.pre)+w+len(stg.jn.Infix)
	if w == Size {
		// Whole children, as every RFC 6962 node has: two moves of a
		// fixed size each, not two calls of memmove.
		for j := range k {
			t := buf[j*stride:]
			*(*[Size]byte)(t[l:]) = nodes[2*j]
			*(*[Size]byte)(t[r:]) = nodes[2*j+1]
		}
		return &buf[0]
	}
	for j := range k {
		t := buf[j*stride:]
		copy(t[l:l+w], nodes[2*j][:w])
		copy(t[r:r+w], nodes[2*j+1][:w])
	}
	return &buf[0]
}

// hashPairs hashes the first n 64-byte messages into out on the plan's
// pairs kernels, widest first, each taking whole groups of its lanes, or
// all n on the first stage's lanes, a last partial group among them
// (TakesPartial). It returns how many it hashed; the rest are the job
// queue's. What it hashes is as pairs call c reads it: messages one after
// another from in (Adjacent, Double), the [][]byte at msgs (Slices), or
// items staged by stg (Staged). Each call is bounded: plan.PairsMax
// messages, and at most levelChunk staged.
//
// Its arguments are the kernels' own, pointers and a count, so that they
// stay in registers between two small levels' kernel calls
// (bench/HISTORY.md, "The house").
func hashPairs(pl *plan.Plan, c kernel.PairsCall, out *[Size]byte, in *byte, msgs *[]byte, stg *staging, n int) int {
	chunk, nb, kc := int(^uint(0)>>1), 0, c
	if c == kernel.Staged {
		chunk, nb = levelChunk, stg.nb
		stg.template()
		if stg.m == 65 && !stg.ragged {
			// RFC 6962's nodes, and 64-byte messages after a 1-byte
			// prefix: the second block from a table by its first byte
			// (BENCHMARKS.md, "RFC 6962 nodes: the second block from a
			// table").
			kc = kernel.Staged65
		}
	}
	done := 0
	if pl.TakesPartial(n, c) {
		st := pl.Pairs[0]
		whole := n &^ (st.Width - 1)
		if whole > done {
			hashGroups(st, c, kc, out, in, msgs, stg, done, whole, chunk, nb)
		}
		runPart(st, kc, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), whole*Size)), n-whole, in, msgs, stg, whole)
		return n
	}
	// As few instructions as can be between two stages' kernel calls: a
	// small batch's second kernel waits for them.
	for _, st := range pl.Pairs {
		end := done + st.Take(n-done)
		for i := done; i < end; {
			// The bound looked up only for a stage that takes messages:
			// a small batch skips most stages.
			m := min(chunk, plan.PairsMax(st.K), end-i)
			p, s := pairsAt(c, in, msgs, stg, i, m)
			var t0 int64
			if instrumented {
				t0 = callStart()
			}
			kernel.HashPairs(st.K, kc, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), i*Size)), p, s, m, nb)
			if instrumented {
				notePairs(st.K, kc, m, nb, t0)
			}
			i += m
		}
		if done = end; done == n {
			break
		}
	}
	return done
}

// hashAdjacent is hashPairs of n pairs one after another at in (Adjacent or
// Double) on a plan with a wide pairs stage (PairsWide), which takes whole
// groups of its lanes of Adjacent calls first. Apart from hashPairs, whose
// stage loop then keeps fewer values live across its calls
// (bench/HISTORY.md, "Link layouts at random").
func hashAdjacent(pl *plan.Plan, c kernel.PairsCall, out *[Size]byte, in *byte, n int) int {
	done := 0
	if st := pl.PairsWide; c == kernel.Adjacent && st.Width != 0 && n >= st.Width {
		done = n &^ (st.Width - 1)
		hashGroups(st, c, c, out, in, nil, nil, 0, done, int(^uint(0)>>1), 0)
		if done == n {
			return n
		}
	}
	return done + hashPairs(pl, c, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), done*Size)), (*byte)(unsafe.Add(unsafe.Pointer(in), done*2*Size)), nil, nil, n-done)
}

// hashGroups hashes messages from..to, whole groups of st's lanes, in calls
// of at most chunk messages and st's bound (plan.PairsMax), apart from the
// stages' loop, whose small levels want no call between their kernels.
func hashGroups(st plan.Stage, c, kc kernel.PairsCall, out *[Size]byte, in *byte, msgs *[]byte, stg *staging, from, to, chunk, nb int) {
	ch := min(chunk, plan.PairsMax(st.K))
	for i := from; i < to; i += ch {
		m := min(ch, to-i)
		p, s := pairsAt(c, in, msgs, stg, i, m)
		var t0 int64
		if instrumented {
			t0 = callStart()
		}
		kernel.HashPairs(st.K, kc, (*[Size]byte)(unsafe.Add(unsafe.Pointer(out), i*Size)), p, s, m, nb)
		if instrumented {
			notePairs(st.K, kc, m, nb, t0)
		}
	}
}

// pairsAt returns what the pairs kernel reads for messages i..i+m, staging
// them first for Staged.
func pairsAt(c kernel.PairsCall, in *byte, msgs *[]byte, stg *staging, i, m int) (*byte, *[]byte) {
	switch c {
	case kernel.Slices:
		return nil, (*[]byte)(unsafe.Add(unsafe.Pointer(msgs), i*int(unsafe.Sizeof([]byte(nil)))))
	case kernel.Staged, kernel.Staged65:
		return stg.stage(i, m), nil
	}
	return (*byte)(unsafe.Add(unsafe.Pointer(in), 2*Size*i)), nil
}

// runPart hashes the m < st.Width messages from i as one whole group of
// st's lanes, copied to the stack (or staged), the lanes past them hashing
// what the copy or the slots hold, their digests dropped. Apart, so that
// the whole groups' path does not carry its frame.
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
	case kernel.Staged, kernel.Staged65:
		stg.template()
		p, _ = pairsAt(c, in, msgs, stg, i, m)
		nb = stg.nb
	}
	var t0 int64
	if instrumented {
		t0 = callStart()
	}
	kernel.HashPairs(st.K, c, &dig[0], p, nil, st.Width, nb)
	if instrumented {
		notePairs(st.K, c, st.Width, nb, t0)
	}
	copy(unsafe.Slice(out, m), dig[:m])
}
