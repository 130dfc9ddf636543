package sched

import (
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A batch of at most a plan's Serial messages of at most 7 blocks each
// (block class serialClass-1), with no whole block of prefix, goes one
// message after another (plan.SerialMax).
const serialClass = 4

// SerialBatch is the most messages any plan hashes one after another, for
// tests.
const SerialBatch = plan.SerialMax

// HashMany is HashMany and HashManyPrefixed on plan pl.
func HashMany(pl *plan.Plan, out [][Size]byte, prefix []byte, msgs [][]byte) {
	if n := len(msgs); n > 0 && len(prefix) == 0 && len(out) >= n && pl.SmallPairs && small64(out[:n], msgs) {
		// 64-byte messages (Merkle pairs) on a plan whose pairs kernels
		// take any count: one or two straight to the one- or two-stream
		// kernel, more through the pairs stages. From a function with a
		// small frame (bench/HISTORY.md, "The house").
		switch n {
		case 1:
			kernel.HashAdjacent(pl.Small[1], &out[0], &msgs[0][0], 1)
		case 2:
			kernel.HashSlices(pl.Small[2], &out[0], &msgs[0], 2)
		default:
			if done := hashPairs(pl, kernel.Slices, &out[0], nil, &msgs[0], nil, n); done < n {
				hashMany(pl, out[done:], nil, msgs[done:])
			}
		}
		return
	}
	hashMany(pl, out, prefix, msgs)
}

// hashMany is HashMany past its path for 64-byte messages: any batch, with
// or without a prefix.
func hashMany(pl *plan.Plan, out [][Size]byte, prefix []byte, msgs [][]byte) {
	if len(out) < len(msgs) {
		panic("sha256x: len(out) = " + strconv.Itoa(len(out)) + " < len(msgs) = " + strconv.Itoa(len(msgs)))
	}
	if len(msgs) == 0 {
		return
	}
	whole := len(prefix) &^ (BlockSize - 1)
	pre := prefix[whole:]

	// One pass over the batch: the overlap check, and the power-of-two
	// classes of the block counts.
	lo := uintptr(unsafe.Pointer(&out[0]))
	hi := lo + uintptr(len(msgs))*Size
	if overlaps(lo, hi, prefix) {
		panic("sha256x: out overlaps prefix")
	}
	var classes uint64
	all64 := len(prefix) == 0
	for _, m := range msgs {
		if overlaps(lo, hi, m) {
			panic("sha256x: out overlaps msgs")
		}
		classes |= 1 << blockClass(len(pre)+len(m))
		all64 = all64 && len(m) == 2*Size
	}
	if pl.Stdlib {
		hashStdlib(out, prefix, msgs)
		return
	}
	if all64 && len(pl.Pairs) > 0 {
		// 64-byte messages (Merkle pairs): the pairs kernels; the rest as
		// any batch.
		done := hashPairs(pl, kernel.Slices, &out[0], nil, &msgs[0], nil, len(msgs))
		if out, msgs = out[done:], msgs[done:]; len(msgs) == 0 {
			return
		}
	}
	if len(msgs) == 1 || len(msgs) <= pl.Serial && bits.Len64(classes) <= serialClass && whole == 0 {
		// One message, or a few short ones: one after another on the
		// single-message path, which costs less than the queue earns back.
		for i, m := range msgs {
			if len(prefix) == 0 {
				sum256To(pl, &out[i], m)
			} else {
				hashOne(pl, &out[i], prefix, m)
			}
		}
		return
	}

	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if nb, shortest, longest := sameBlocks(len(prefix), msgs); nb > 0 && whole == 0 && len(pl.Pairs) > 0 {
		// Short messages of as many blocks each (RFC 6962's leaves, a
		// log's entries, digests): staged whole for the pairs kernels, as
		// a level's joins are.
		stg := staging{sl: &sc.msgs, msgs: msgs, ragged: shortest != longest, pre: prefix, m: len(prefix) + longest, nb: nb}
		done := hashPairs(pl, kernel.Staged, &out[0], nil, nil, &stg, len(msgs))
		if out, msgs = out[done:], msgs[done:]; len(msgs) == 0 {
			return
		}
	}
	b := batch{stages: pl.Stages, sc: sc, init: &kernel.IV, pre: pre, bits: 8 * uint64(len(prefix))}
	b.withParts(pl, false)
	if whole > 0 {
		sc.mid = midstate(pl, prefix[:whole])
		b.init = &sc.mid
	}

	var f feed
	f.kind, f.end, f.out, f.msgs, f.classes = fromMessages, len(msgs), out, msgs, classes
	if b.queue(&f) {
		b.hashParts(out, msgs)
	}
}

// small64 reports whether every message is 64 bytes long and lies apart
// from out.
func small64(out [][Size]byte, msgs [][]byte) bool {
	lo := uintptr(unsafe.Pointer(&out[0]))
	hi := lo + uintptr(len(out))*Size
	for _, m := range msgs {
		if len(m) != 2*Size || overlaps(lo, hi, m) {
			return false
		}
	}
	return true
}

// sameBlocks returns the blocks that every message pads to after a prefix
// of pre bytes, if they all pad to as many and at most three, with the
// shortest and longest message; else 0. A pass of its own, which stops at
// the first message of another block count, so that the pass over every
// batch stays as it was (bench/HISTORY.md, "Transparency logs").
func sameBlocks(pre int, msgs [][]byte) (nb, shortest, longest int) {
	shortest, longest = len(msgs[0]), len(msgs[0])
	if pre+longest > MaxJoin {
		return 0, 0, 0
	}
	nb = (pre+longest+8)/BlockSize + 1
	lo, hi := (nb-1)*BlockSize-8-pre, nb*BlockSize-9-pre // the lengths that pad to nb blocks
	for _, m := range msgs {
		if len(m) < lo || len(m) > hi {
			return 0, 0, 0
		}
		shortest, longest = min(shortest, len(m)), max(longest, len(m))
	}
	return nb, shortest, longest
}
