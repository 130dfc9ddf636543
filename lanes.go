package sha256x

// The lane scheduler.
//
// A batch becomes a queue of jobs, one per message. A job is a message as a
// kernel sees it: a starting state (the IV, or the midstate after the whole
// blocks of a prefix, computed once per batch) and up to three runs of 64-byte
// blocks:
//
//	head  the block that straddles the prefix's partial last block and the
//	      message, staged (only with a prefix whose length is not a multiple
//	      of 64)
//	body  the message's whole blocks, read in place
//	tail  the message's last partial block with its padding, staged (one or
//	      two blocks)
//
// A kernel has a fixed number of lanes (SIMD lanes, or interleaved SHA-NI /
// ARMv8 SHA2 streams). Each lane takes the next job from the queue and takes
// another as soon as its job ends, inside the kernel's loop, so lanes refill
// as messages end and a ragged batch keeps every lane busy. A kernel returns
// once the queue is empty and fewer than minActive lanes are busy, and writes
// each busy lane back (its hash state and where it is in its job). The
// scheduler turns those lanes into jobs again:
//
//   - between windows they open the next window's queue, so no lane waits at
//     a window boundary;
//   - at the end of the batch they go to the plan's next, narrower kernel
//     (wide lanes hand their last few messages to SHA-NI streams, several
//     streams their last one to fewer; a stage may be only for an odd
//     number of jobs), so the batch ends at the speed of the best kernel for
//     a few messages rather than with idle lanes.
//
// Jobs are built a window at a time, on the caller's stack: their pointers
// into the caller's memory stay visible to the garbage collector and the stack
// copier, and the caller's slices do not escape. Staged blocks live in a
// pooled scratch area whose two halves alternate between windows; a carried
// job's staged blocks move to the new half with it.
//
// Order: when the block counts of a batch span more than a factor of 8 (one
// 64 KiB message among short ones), the batch is fed longest first, by
// power-of-two class, in a few passes over the batch and without sorting, so
// the batch ends with short jobs and the final drain is short. Other batches
// are fed in arrival order.
//
// Bounded work: Go cannot preempt assembly, so no kernel call may run
// unbounded work. A message with more than partBlocks whole blocks is hashed a
// part at a time: the batch's first pass takes every message's first part,
// then the longer messages go on a group at a time, a part of each per
// window, their states waiting in out between parts. A window also closes
// once its jobs hold as many parts as the first kernel has lanes. Single
// messages (Sum256, Digest.Write) loop over their parts on the stack.
//
// Around the queue: one message, or a few short ones, go one after another
// on the plan's single-message path (the queue's fixed cost would not be
// earned back); 64-byte messages (Merkle pairs) go to the plan's pairs
// kernels, a lane group at a time with no queue at all, the padding block's
// W+K a table; other Merkle joins are staged whole for the lane kernels.

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"strconv"
	"sync"
	"unsafe"
)

const (
	window   = 64 // jobs per kernel call, at most
	maxLanes = 16 // the widest kernel's lanes

	// partBlocks bounds the blocks of one message that one job hashes. Go
	// cannot preempt assembly, so a kernel call must be bounded work (as
	// crypto/sha256 hands its assembly at most 64 KiB at a time): a message
	// with more whole blocks is hashed a part at a time, its state carried
	// between parts, and a window closes once its jobs hold widthParts parts
	// per lane. A kernel call then hashes at most 2*width*(partBlocks+3)
	// blocks (TestBoundedCalls).
	partBlocks = 1024

	// pairChunk bounds the 64-byte messages of one pairs kernel call (two
	// blocks each, as partBlocks).
	pairChunk = partBlocks / 2

	// levelChunk is how many nodes a level stages for one pairs kernel call.
	levelChunk = 64

	// maxPairsWidth is the most lanes a pairs kernel has.
	maxPairsWidth = 16

	// A batch of at most serialBatch messages of at most 4 blocks each
	// (block class serialClass-1), with no whole block of prefix, goes one
	// message after another: on the Intel Xeon of BENCHMARKS.md ("Small
	// batches") two to four such messages took 10-25% longer through the job
	// queue than one by one, and five of 32 bytes 27% (0.99x crypto/sha256:
	// the queue's odd stage starts three and hands two over); six ran as
	// fast through the queue.
	serialBatch = 5
	serialClass = 4
)

// A run is n consecutive 64-byte blocks starting at p.
type run struct {
	p *byte
	n uintptr
}

// A job is one message for a kernel. Its layout is shared with the assembly
// kernels (see TestLayout): 64 bytes.
type job struct {
	init *[8]uint32  // starting state, words a..h
	runs [3]run      // non-empty runs first; n == 0 ends the list
	out  *[Size]byte // where the digest goes
}

// A lane is one lane of a kernel. Kernels use it as working storage and, when
// they return, leave in it what a busy lane still has to do. 64 bytes.
type lane struct {
	h   [8]uint32 // at return: hash state before the next block, words a..h
	p   uintptr   // kernel-private: the AVX lane kernels' next block, less their step offset (the others keep it in a register)
	n   uintptr   // blocks left in run seg (at return: at least 1 if busy)
	seg uintptr   // which run of the job the lane is in
	job uintptr   // 1 + index of the lane's job in the queue; 0 when idle
}

// A laneSet is what a kernel is called with, besides the queue.
type laneSet struct {
	minActive uintptr // return once the queue is empty and fewer lanes are busy
	// pad is the address of the batch's shared padding block (0 if none) and
	// padWK of its message schedule plus round constants, W[t]+K[t] for t in
	// 0..63: a kernel whose busy lanes all stand at pad may skip the schedule.
	pad, padWK uintptr
	_          [5]uintptr
	lanes      [maxLanes]lane
}

// A slot holds the blocks one job stages (a message's head and tail, or a
// whole Merkle node), and a carried job's state.
type slot struct {
	blk [3 * BlockSize]byte
	h   [8]uint32
}

type scratch struct {
	ls      laneSet
	slots   [2][window]slot
	mid     [8]uint32                        // the prefix's midstate
	pad     [BlockSize]byte                  // a tail block of padding only, shared by the jobs of one length
	padBits uint64                           // the length in bits pad is for; noPad if none yet
	padWK   [64]uint32                       // pad's message schedule plus the round constants
	lvl     [levelChunk * 3 * BlockSize]byte // a level's nodes staged whole, for a pairs kernel
	lvlLen  int                              // the length of the nodes lvl is laid out for (lvlTemplate), 0 if none
}

// pad64 is the padding block of a 64-byte message (a Merkle pair), which
// single messages point their last run at instead of staging it.
var pad64 = [BlockSize]byte{0: 0x80, BlockSize - 2: 2}

// noPad marks scratch.pad unused: no message is 2^64-1 bits long.
const noPad = ^uint64(0)

// The scratch areas keep their shared padding block from one batch to the
// next: a batch of the same length (every level of a Merkle tree) reuses its
// schedule.
var scratchPool = sync.Pool{New: func() any { return &scratch{padBits: noPad} }}

// setPad makes the shared padding block the one for messages of the given
// length in bits, and tells the kernels where it and its schedule are.
func (sc *scratch) setPad(bits uint64) {
	sc.padBits = bits
	sc.pad = [BlockSize]byte{0: 0x80}
	binary.BigEndian.PutUint64(sc.pad[BlockSize-8:], bits)
	schedule(&sc.padWK, &sc.pad)
	for i := range sc.padWK {
		sc.padWK[i] += k256[i]
	}
	sc.ls.pad = uintptr(unsafe.Pointer(&sc.pad))
	sc.ls.padWK = uintptr(unsafe.Pointer(&sc.padWK))
}

// iv is SHA-256's initial hash state.
var iv = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// A stage is one kernel of a plan. A kernel runs the jobs of its queue, each
// taken by a lane in order, until no job is left and fewer than ls.minActive
// (at least 1) lanes are busy.
type stage struct {
	k         kernelID
	width     int  // lanes
	minActive int  // when to hand busy lanes to the next stage; the last stage runs to the end
	odd       bool // taken only by an odd number of jobs (see finish)
}

// A partialMin holds, for each pairs call (a byte each), the fewest messages
// a last partial group of a plan's first pairs stage, its lanes, must have
// to run as a whole group (runPairsPart); 0: never, it is left to the next
// stages. It is the plan's, not a field of stage: a fifth field makes a
// stage too big for the compiler to keep in registers (it copied each
// through memory, and 3 and 4 pairs took 2-3% longer).
type partialMin uint32

// partialMins packs the minimums for the four pairs calls.
func partialMins(contig, headers, double, staged int) partialMin {
	return partialMin(contig | headers<<8 | double<<16 | staged<<24)
}

// at is the minimum for pairs call c.
func (p partialMin) at(c pairsCall) int { return int(p >> (8 * c) & 0xff) }

// partialAlways has the lanes take a last partial group of any size.
const partialAlways partialMin = 1 | 1<<8 | 1<<16 | 1<<24

// take returns how many of n 64-byte messages a pairs stage takes: whole
// groups of its lanes (a power of two: a mask, not a division), or, for an
// odd stage (three SHA-NI streams), one group when n is odd, leaving the
// next stage (two streams) an even count.
func (st stage) take(n int) int {
	if st.odd {
		if n&1 == 0 || n < st.width {
			return 0
		}
		return st.width
	}
	return n &^ (st.width - 1)
}

// takesPartial reports whether the plan's first pairs stage, its lanes,
// takes all n messages of pairs call c, a last partial group among them
// (pairsPartial). The stages' loops stay as they were without it: a check
// once, not one per stage.
func (pl *plan) takesPartial(n int, c pairsCall) bool {
	p := pl.pairsPartial.at(c)
	return p > 0 && n&(pl.pairs[0].width-1) >= p && pairsCan(pl.pairs[0].k, c)
}

// lanes64 hashes a batch of 64-byte messages on the plan's first pairs
// stage, its lanes, when it takes a partial group (takesPartial).
func (pl *plan) lanes64(out [][Size]byte, msgs [][]byte) {
	st := pl.pairs[0]
	w := len(msgs) &^ (st.width - 1)
	for i := 0; i < w; i += pairChunk {
		runPairs(st.k, pairsHeaders, &out[i], nil, &msgs[i], min(pairChunk, w-i), 0)
	}
	runPairsPart(st, pairsHeaders, out[w:len(msgs)], nil, msgs[w:], 0)
}

// runPairsPart hashes fewer messages than pairs stage st has lanes (in one
// after another, or staged nb blocks apart, or msgs) as one whole group: the
// messages copied to the stack (a staged in already holds a whole group's
// slots), the lanes past them hashing what the copy or the slots hold, their
// digests dropped. Apart, so that the whole groups' path does not carry its
// frame.
//
//go:noinline
func runPairsPart(st stage, c pairsCall, out [][Size]byte, in []byte, msgs [][]byte, nb int) {
	var buf [maxPairsWidth * 2 * Size]byte
	var dig [maxPairsWidth][Size]byte
	p := &buf[0]
	switch c {
	case pairsHeaders:
		for j, m := range msgs[:len(out)] {
			copy(buf[j*2*Size:], m)
		}
		c = pairsContig
	case pairsContig, pairsDouble:
		copy(buf[:], in[:len(out)*2*Size])
	case pairsStaged:
		p = &in[:st.width*nb*BlockSize][0]
	}
	runPairs(st.k, c, &dig[0], p, nil, st.width, nb)
	copy(out, dig[:len(out)])
}

// run calls the stage's kernel. Kernels are called directly, never through a
// func value, so that the compiler can see the caller's slices do not escape.
func (st stage) run(ls *laneSet, jobs []job) {
	if callBlocks.on {
		callBlocks.note(jobs)
	}
	switch st.k {
	case kGeneric:
		runGeneric(ls, jobs, st.width)
	case kStdlib1:
		runStdlib1(ls, jobs)
	default:
		runArch(st.k, ls, jobs)
	}
}

// callBlocks, when on (in tests), records the most blocks a kernel call's
// queue held.
var callBlocks callCounter

type callCounter struct {
	on   bool
	most uintptr
}

func (c *callCounter) note(jobs []job) {
	var n uintptr
	for i := range jobs {
		for _, r := range jobs[i].runs {
			n += r.n
		}
	}
	c.most = max(c.most, n)
}

// A batch is the state of one call.
type batch struct {
	stages []stage
	sc     *scratch
	half   int        // which half of sc.slots the current window stages into
	init   *[8]uint32 // every job's starting state
	pre    []byte     // the prefix's bytes after its last whole block
	bits   uint64     // 8 * len(prefix)
	padSet bool       // sc.pad is this batch's: its jobs may point at it
}

// limit is how many blocks a window's jobs may hold before it is flushed.
func (b *batch) limit() int { return b.stages[0].width * partBlocks }

// hashMany is HashMany and HashManyPrefixed.
func hashMany(out [][Size]byte, prefix []byte, msgs [][]byte) {
	if n := len(msgs); (n == 1 || n == 2) && len(prefix) == 0 && len(out) >= n && active.smallPairs && small64(out[:n], msgs) {
		// One or two 64-byte messages, as at the top of a tree: straight
		// to the one- or two-stream pairs kernel.
		hashMany64(&out[0], &msgs[0], n)
		return
	}
	active.hashMany(out, prefix, msgs)
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

func (pl *plan) hashMany(out [][Size]byte, prefix []byte, msgs [][]byte) {
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
	if pl.stdlib {
		hashStdlib(out, prefix, msgs)
		return
	}
	if all64 && len(pl.pairs) > 0 {
		// 64-byte messages (Merkle pairs): the pairs kernels; the rest as
		// any batch.
		if pl.takesPartial(len(msgs), pairsHeaders) {
			pl.lanes64(out, msgs)
			return
		}
		done := 0
		for _, ps := range pl.pairs {
			k := ps.take(len(msgs) - done)
			for i := done; i < done+k; i += pairChunk {
				runPairs(ps.k, pairsHeaders, &out[i], nil, &msgs[i], min(pairChunk, done+k-i), 0)
			}
			if done += k; done == len(msgs) {
				break
			}
		}
		if out, msgs = out[done:], msgs[done:]; len(msgs) == 0 {
			return
		}
	}
	if len(msgs) == 1 || len(msgs) <= serialBatch && bits.Len64(classes) <= serialClass && whole == 0 {
		// One message, or a few short ones: one after another on the
		// single-message path, which costs less than the queue earns back.
		for i, m := range msgs {
			if len(prefix) == 0 {
				pl.sum256To(&out[i], m)
			} else {
				pl.hashOne(&out[i], prefix, m)
			}
		}
		return
	}

	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	b := batch{stages: pl.stages, sc: sc, init: &iv, pre: pre, bits: 8 * uint64(len(prefix))}
	if whole > 0 {
		sc.mid = midstate(pl.one, prefix[:whole])
		b.init = &sc.mid
	}

	// Jobs are assigned into this local array directly, never through a
	// pointer, so that the compiler keeps it and the caller's slices on the
	// stack.
	var jobs [window]job
	n, nb, long := 0, 0, false
	cmax, cmin := bits.Len64(classes)-1, bits.TrailingZeros64(classes)
	ragged := cmax-cmin > 3
	for c := cmax; c >= cmin; c-- {
		if ragged && classes&(1<<c) == 0 {
			continue
		}
		for i := range msgs {
			if ragged && blockClass(len(pre)+len(msgs[i])) != c {
				continue
			}
			if n == window || nb >= b.limit() {
				carried, nc := b.flush(jobs[:n])
				for k := range nc {
					jobs[k] = carried[k]
				}
				n, nb = nc, 0
			}
			// Field by field: a job built whole is copied through a
			// temporary, with the same stall.
			var more bool
			jobs[n].runs[0], jobs[n].runs[1], jobs[n].runs[2], more = b.stage(&sc.slots[b.half][n].blk, msgs[i], 0)
			jobs[n].init, jobs[n].out = b.init, &out[i]
			nb += int(jobs[n].runs[0].n + jobs[n].runs[1].n + jobs[n].runs[2].n)
			long = long || more
			n++
		}
		if !ragged {
			break
		}
	}
	b.finish(jobs[:n])
	if long {
		b.hashParts(out, msgs)
	}
}

// hashParts hashes the parts after the first of every message longer than
// one part. Their states wait in out between parts. They go a group at a
// time, as many as the first kernel has lanes, all of a group's next parts
// in one window, so that the lanes stay busy and nothing is allocated.
func (b *batch) hashParts(out [][Size]byte, msgs [][]byte) {
	var group [maxLanes]int
	var jobs [window]job
	width := b.stages[0].width
	g := 0
	for i := 0; i <= len(msgs); i++ {
		if i < len(msgs) {
			if b.parts(msgs[i]) > 1 {
				group[g] = i
				g++
			}
			if g < width {
				continue
			}
		}
		for part := 1; g > 0; part++ {
			n := 0
			for _, k := range group[:g] {
				if b.parts(msgs[k]) <= part {
					continue
				}
				s := &b.sc.slots[b.half][n]
				s.h = stateOf(&out[k])
				jobs[n].runs[0], jobs[n].runs[1], jobs[n].runs[2], _ = b.stage(&s.blk, msgs[k], part)
				jobs[n].init, jobs[n].out = &s.h, &out[k]
				n++
			}
			if n == 0 {
				break
			}
			b.finish(jobs[:n])
		}
		g = 0
	}
}

// stateOf reads a state back from its big-endian digest.
func stateOf(d *[Size]byte) (h [8]uint32) {
	for i := range h {
		h[i] = binary.BigEndian.Uint32(d[4*i:])
	}
	return h
}

// joinLevel is HashLevel with its Join passed by address and whether it
// joins plain pairs but for Double. HashLevel inlines to this one call,
// whose arguments all go in registers (a Join passed by value leaves out and
// nodes to the stack), and pairs folds to a constant for a literal Join: a
// one-pair level took about 1 ns less so (Intel Xeon, BENCHMARKS.md).
func joinLevel(pairs bool, j *Join, out, nodes [][Size]byte) {
	if n2 := len(nodes) / 2; pairs && (len(nodes) == 2 || len(nodes) == 4) && len(out) >= n2 && !j.Double && active.smallPairs {
		// One or two pairs, the top of every tree: straight to the one-
		// or two-stream kernel, unless out overlaps the nodes other than
		// in place.
		o, n := uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&nodes[0]))
		if o == n || o+uintptr(n2)*Size <= n || n+uintptr(n2)*2*Size <= o {
			hashPairs(&out[0], &nodes[0][0], n2)
			return
		}
	}
	active.hashLevel(out, j, nodes)
}

func (pl *plan) hashLevel(out [][Size]byte, jn *Join, nodes [][Size]byte) {
	w := jn.Width
	if w == 0 {
		w = Size
	}
	switch {
	case len(nodes)%2 != 0:
		panic("sha256x: HashLevel of an odd number of nodes (" + strconv.Itoa(len(nodes)) + ")")
	case len(out) < len(nodes)/2:
		panic("sha256x: len(out) = " + strconv.Itoa(len(out)) + " < len(nodes)/2 = " + strconv.Itoa(len(nodes)/2))
	case w < 1 || w > Size:
		panic("sha256x: Join.Width = " + strconv.Itoa(jn.Width) + ", not in 0..32")
	case len(jn.Prefix)+len(jn.Infix)+2*w > maxJoin:
		panic("sha256x: Join of " + strconv.Itoa(len(jn.Prefix)+len(jn.Infix)+2*w) + " bytes, more than 183")
	case len(nodes) == 0:
		return
	}
	n2 := len(nodes) / 2
	lo := uintptr(unsafe.Pointer(&out[0]))
	nodeBytes := unsafe.Slice(&nodes[0][0], len(nodes)*Size)
	if overlaps(lo, lo+uintptr(n2)*Size, nodeBytes) && &out[0] != &nodes[0] {
		panic("sha256x: out overlaps nodes, other than in place")
	}
	if pl.stdlib {
		var buf [maxJoin]byte
		for i := range n2 {
			m := copy(buf[:], jn.Prefix)
			m += copy(buf[m:], nodes[2*i][:w])
			m += copy(buf[m:], jn.Infix)
			m += copy(buf[m:], nodes[2*i+1][:w])
			out[i] = sha256.Sum256(buf[:m])
			if jn.Double {
				out[i] = sha256.Sum256(out[i][:])
			}
		}
		return
	}
	// In place is safe on every path: a node's digest is written after its
	// children are read (staged or in registers), and lies before every
	// child read after it.
	contiguous := w == Size && len(jn.Infix) == 0
	call := pairsStaged
	if contiguous && len(jn.Prefix) == 0 {
		call = pairsContig // Merkle pairs, read in place
		if jn.Double {
			call = pairsDouble
		}
	}
	var sc *scratch
	if call == pairsStaged {
		sc = scratchPool.Get().(*scratch)
		defer scratchPool.Put(sc)
	}
	// The pairs kernels, whole groups of their lanes at a time, or the whole
	// level on the lanes, a partial group last (takesPartial); other joins
	// than pairs are staged whole, a chunk at a time.
	first, again := 0, n2 // out[first:] is left to the job queue; out[again:] wants its second hash
	nb := (len(jn.Prefix)+len(jn.Infix)+2*w+8)/BlockSize + 1
	if pl.takesPartial(n2, call) {
		pl.lanesLevel(out, call, nodes, nodeBytes, jn, w, nb, sc)
		first = n2
	} else {
		for _, ps := range pl.pairs {
			if !pairsCan(ps.k, call) {
				break
			}
			k := ps.take(n2 - first)
			if k == 0 {
				continue
			}
			if call != pairsStaged {
				for i := first; i < first+k; i += pairChunk {
					runPairs(ps.k, call, &out[i], &nodeBytes[2*Size*i], nil, min(pairChunk, first+k-i), 0)
				}
			} else {
				sc.lvlTemplate(jn, w, nb)
				l, r := len(jn.Prefix), len(jn.Prefix)+w+len(jn.Infix)
				for i := first; i < first+k; i += levelChunk {
					c := min(levelChunk, first+k-i)
					for j := range c {
						t := sc.lvl[j*nb*BlockSize:]
						copy(t[l:l+w], nodes[2*(i+j)][:w])
						copy(t[r:r+w], nodes[2*(i+j)+1][:w])
					}
					runPairs(ps.k, call, &out[i], &sc.lvl[0], nil, c, nb)
				}
			}
			if first += k; first == n2 {
				break
			}
		}
	}
	if jn.Double {
		again = first
		if call == pairsStaged {
			again = 0
		}
	}
	if (first < n2 || again < n2) && sc == nil {
		sc = scratchPool.Get().(*scratch)
		defer scratchPool.Put(sc)
	}
	if first < n2 {
		// When left || right lies whole in nodes (Width 32, no Infix), each
		// node is a prefixed message read in place; otherwise it is staged
		// whole.
		b := batch{stages: pl.stages, sc: sc, init: &iv, bits: 8 * uint64(len(jn.Prefix))}
		if n2-first == 1 {
			b.stages = pl.one
		}
		if contiguous {
			whole := len(jn.Prefix) &^ (BlockSize - 1)
			if whole > 0 {
				sc.mid = midstate(pl.one, jn.Prefix[:whole])
				b.init = &sc.mid
			}
			b.pre = jn.Prefix[whole:]
		}
		var jobs [window]job
		n := 0
		for i := first; i < n2; i++ {
			if n == window {
				carried, nc := b.flush(jobs[:])
				for k := range nc {
					jobs[k] = carried[k]
				}
				n = nc
			}
			s := &sc.slots[b.half][n]
			if contiguous {
				jobs[n].runs[0], jobs[n].runs[1], jobs[n].runs[2], _ = b.stage(&s.blk, nodeBytes[2*i*Size:(2*i+2)*Size], 0)
			} else {
				jobs[n].runs[0], jobs[n].runs[1], jobs[n].runs[2] = run{&s.blk[0], uintptr(stageJoin(s.blk[:], jn, w, &nodes[2*i], &nodes[2*i+1]))}, run{}, run{}
			}
			jobs[n].init, jobs[n].out = b.init, &out[i]
			n++
		}
		b.finish(jobs[:n])
	}
	if again < n2 {
		b := batch{stages: pl.stages, sc: sc, init: &iv}
		b.rehash(out[again:n2])
	}
}

// rehash sets each digest in out to its own SHA-256 (the second hash of
// SHA-256d), in place: each is staged before its digest is written.
func (b *batch) rehash(out [][Size]byte) {
	var jobs [window]job
	n := 0
	for i := range out {
		if n == window {
			carried, nc := b.flush(jobs[:])
			for k := range nc {
				jobs[k] = carried[k]
			}
			n = nc
		}
		s := &b.sc.slots[b.half][n]
		jobs[n].runs[0], jobs[n].runs[1], jobs[n].runs[2], _ = b.stage(&s.blk, out[i][:], 0)
		jobs[n].init, jobs[n].out = b.init, &out[i]
		n++
	}
	b.finish(jobs[:n])
}

// lvlTemplate makes every node of sc.lvl, at nb blocks each, a node of join
// jn with its children still to be copied in: prefix, infix and padding in
// place. Consecutive levels of one tree find it made.
func (sc *scratch) lvlTemplate(jn *Join, w, nb int) {
	m := len(jn.Prefix) + len(jn.Infix) + 2*w
	t := sc.lvl[:nb*BlockSize]
	if sc.lvlLen == m && string(t[:len(jn.Prefix)]) == string(jn.Prefix) &&
		string(t[len(jn.Prefix)+w:][:len(jn.Infix)]) == string(jn.Infix) {
		return
	}
	for j := range levelChunk {
		t := sc.lvl[j*nb*BlockSize:][:nb*BlockSize]
		copy(t, jn.Prefix)
		copy(t[len(jn.Prefix)+w:], jn.Infix)
		pad(t, t[:m], nil, 8*uint64(m))
	}
	sc.lvlLen = m
}

// lvlNodes stages the children of len(nodes)/2 nodes in the slots of lvl
// (laid out by lvlTemplate).
func (sc *scratch) lvlNodes(jn *Join, w, nb int, nodes [][Size]byte) {
	l, r := len(jn.Prefix), len(jn.Prefix)+w+len(jn.Infix)
	for j := range len(nodes) / 2 {
		t := sc.lvl[j*nb*BlockSize:]
		copy(t[l:l+w], nodes[2*j][:w])
		copy(t[r:r+w], nodes[2*j+1][:w])
	}
}

// lanesLevel hashes a level of len(nodes)/2 pairs on the plan's first pairs
// stage, its lanes, when it takes a partial group (takesPartial): in place
// from nodeBytes, or staged in sc (pairsStaged).
func (pl *plan) lanesLevel(out [][Size]byte, call pairsCall, nodes [][Size]byte, nodeBytes []byte, jn *Join, w, nb int, sc *scratch) {
	st := pl.pairs[0]
	n2 := len(nodes) / 2
	if call != pairsStaged {
		whole := n2 &^ (st.width - 1)
		for i := 0; i < whole; i += pairChunk {
			runPairs(st.k, call, &out[i], &nodeBytes[2*Size*i], nil, min(pairChunk, whole-i), 0)
		}
		runPairsPart(st, call, out[whole:n2], nodeBytes[2*Size*whole:2*Size*n2], nil, 0)
		return
	}
	sc.lvlTemplate(jn, w, nb)
	for i := 0; i < n2; i += levelChunk {
		c := min(levelChunk, n2-i)
		sc.lvlNodes(jn, w, nb, nodes[2*i:2*(i+c)])
		whole := c &^ (st.width - 1)
		if whole > 0 {
			runPairs(st.k, call, &out[i], &sc.lvl[0], nil, whole, nb)
		}
		if whole < c {
			runPairsPart(st, call, out[i+whole:i+c], sc.lvl[whole*nb*BlockSize:], nil, nb)
		}
	}
}

// stageJoin stages a whole node, padded, in t and returns its blocks.
func stageJoin(t []byte, jn *Join, w int, l, r *[Size]byte) int {
	m := copy(t, jn.Prefix)
	m += copy(t[m:], l[:w])
	m += copy(t[m:], jn.Infix)
	m += copy(t[m:], r[:w])
	return pad(t, t[:m], nil, 8*uint64(m))
}

// blockClass is the power-of-two class of the number of blocks that n bytes
// hash to, padding included.
func blockClass(n int) int {
	return bits.Len(uint(n+8)>>6 + 1)
}

// overlaps reports whether b shares a byte with [lo, hi).
func overlaps(lo, hi uintptr, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p < hi && lo < p+uintptr(len(b))
}

// parts is how many parts prefix || msg is hashed in: one per partBlocks
// of its whole blocks after the block it shares with the prefix.
func (b *batch) parts(msg []byte) int {
	whole := (len(b.pre) + len(msg)) / BlockSize
	if len(b.pre) > 0 && whole > 0 {
		whole-- // the staged head
	}
	return max(1, (whole+partBlocks-1)/partBlocks)
}

// stage stages the blocks of one part of prefix || msg in s and returns
// the part's runs, and whether more parts follow. Part 0 has the staged head;
// each part up to partBlocks of the whole blocks, read in place; the last
// the staged tail. The runs come back in registers, not as a job: copying a
// returned job into the queue stalled on store forwarding.
func (b *batch) stage(blk *[3 * BlockSize]byte, msg []byte, part int) (r0, r1, r2 run, more bool) {
	pre := b.pre
	total := b.bits + 8*uint64(len(msg))
	var rs [3]run
	k := 0
	whole := (len(pre) + len(msg)) / BlockSize
	if len(pre) > 0 && whole > 0 {
		if part == 0 {
			copy(blk[copy(blk[:BlockSize], pre):BlockSize], msg)
			rs[k] = run{&blk[0], 1}
			k++
		}
		msg = msg[BlockSize-len(pre):]
		pre = nil
		whole--
	}
	if len(pre) == 0 && whole > 0 {
		skip := part * partBlocks
		if whole-skip > partBlocks {
			rs[k] = run{&msg[skip*BlockSize], partBlocks}
			return rs[0], rs[1], rs[2], true
		}
		rs[k] = run{&msg[skip*BlockSize], uintptr(whole - skip)}
		k++
		msg = msg[whole*BlockSize:]
	}
	if len(pre)+len(msg) == 0 && b.sc == nil && total == 8*64 {
		rs[k] = run{&pad64[0], 1}
		return rs[0], rs[1], rs[2], false
	}
	if len(pre)+len(msg) == 0 && b.sc != nil {
		// A tail of padding only depends on nothing but the length: share
		// one for a batch of whole-block messages (Merkle joins), the first
		// such message's length.
		if !b.padSet {
			if b.sc.padBits != total {
				b.sc.setPad(total)
			}
			b.padSet = true
		}
		if b.sc.padBits == total {
			rs[k] = run{&b.sc.pad[0], 1}
			return rs[0], rs[1], rs[2], false
		}
	}
	rs[k] = run{&blk[BlockSize], uintptr(padApart(blk[BlockSize:], pre, msg, total))}
	return rs[0], rs[1], rs[2], false
}

// padApart is pad for a t that overlaps neither a nor b: it zeroes the
// block or two first, with fixed-size stores the compiler inlines, instead
// of clearing the gap after the message with a call (6% of the short shape,
// 10,000 messages of 0..200 bytes, on the Intel Xeon of BENCHMARKS.md).
func padApart(t, a, b []byte, bits uint64) int {
	nt := (len(a)+len(b)+8)/BlockSize + 1
	if nt == 1 {
		*(*[BlockSize]byte)(t) = [BlockSize]byte{}
	} else {
		*(*[2 * BlockSize]byte)(t) = [2 * BlockSize]byte{}
	}
	m := copy(t, a)
	m += copy(t[m:], b)
	t[m] = 0x80
	binary.BigEndian.PutUint64(t[nt*BlockSize-8:], bits)
	return nt
}

// pad writes a || b, the padding and the length in bits into t and returns
// how many blocks that makes. a may be t's own start (a node staged in
// place).
func pad(t, a, b []byte, bits uint64) int {
	m := copy(t, a)
	m += copy(t[m:], b)
	t[m] = 0x80
	nt := (m+8)/BlockSize + 1
	clear(t[m+1 : nt*BlockSize-8])
	binary.BigEndian.PutUint64(t[nt*BlockSize-8:], bits)
	return nt
}

// flush runs a full window on the plan's first kernel, which returns as soon
// as no job is left and a lane idles, and returns the busy lanes as jobs that
// open the next window.
func (b *batch) flush(jobs []job) ([maxLanes]job, int) {
	st := b.stages[0]
	b.sc.ls.minActive = uintptr(st.width)
	st.run(&b.sc.ls, jobs)
	return b.carry(jobs, st.width)
}

// finish runs the last jobs through the plan's kernels, each stage handing
// its last busy lanes to the next.
func (b *batch) finish(jobs []job) {
	var carried [maxLanes]job
	for i, st := range b.stages {
		last := i == len(b.stages)-1
		if !last && len(jobs) < st.minActive {
			continue // too few jobs to be worth this kernel
		}
		if st.odd && len(jobs)%2 == 0 {
			// Where any two busy streams reach the SHA unit's bound, an
			// odd count starts in threes and an even one in pairs, so that
			// 3, 5 or 9 jobs of one length leave none to run alone (7 still
			// leave one: 3, 3, 1).
			continue
		}
		b.sc.ls.minActive = 1
		if !last {
			b.sc.ls.minActive = uintptr(st.minActive)
		}
		st.run(&b.sc.ls, jobs)
		if last {
			return
		}
		c, nc := b.carry(jobs, st.width)
		if nc == 0 {
			return
		}
		carried = c
		jobs = carried[:nc]
	}
}

// carry returns the busy lanes of the last kernel call as jobs, moving their
// staged blocks to the other half of the scratch area, where they are the
// first slots.
func (b *batch) carry(jobs []job, width int) (carried [maxLanes]job, c int) {
	from, to := &b.sc.slots[b.half], &b.sc.slots[b.half^1]
	b.half ^= 1
	for i := range width {
		l := &b.sc.ls.lanes[i]
		if l.job == 0 {
			continue
		}
		old := &jobs[l.job-1]
		src, dst := &from[l.job-1], &to[c]
		*dst = *src
		dst.h = l.h
		// Assigned whole, never through a pointer: see hashMany.
		j := job{init: &dst.h, out: old.out}
		k := 0
		for s := l.seg; s < uintptr(len(old.runs)) && old.runs[s].n != 0; s++ {
			r := old.runs[s]
			if s == l.seg {
				r.p = (*byte)(unsafe.Add(unsafe.Pointer(r.p), (r.n-l.n)*BlockSize))
				r.n = l.n
			}
			// Staged blocks move with the job.
			if off := uintptr(unsafe.Pointer(r.p)) - uintptr(unsafe.Pointer(src)); off < unsafe.Sizeof(*src) {
				r.p = (*byte)(unsafe.Add(unsafe.Pointer(dst), off))
			}
			j.runs[k] = r
			k++
		}
		carried[c] = j
		c++
	}
	return carried, c
}

// midstate returns the hash state after the whole blocks in prefix, a part
// at a time.
func midstate(stages []stage, prefix []byte) [8]uint32 {
	h := iv
	for len(prefix) >= BlockSize {
		nb := min(len(prefix)/BlockSize, partBlocks)
		var d [Size]byte
		jobs := [1]job{{init: &h, runs: [3]run{{&prefix[0], uintptr(nb)}}, out: &d}}
		runOne(stages, &jobs)
		h = stateOf(&d)
		prefix = prefix[nb*BlockSize:]
	}
	return h
}

// sum256 returns the digest of msg (sum256To).
func (pl *plan) sum256(msg []byte) (d [Size]byte) {
	pl.sum256To(&d, msg)
	return d
}

// sum256To hashes one message on the plan's single-message kernel into d: its
// whole blocks in place, a part at a time, and its padded tail from the
// stack. The kernel writes d itself, and a short message starts from iv
// itself: no digest or state copied through the stack.
func (pl *plan) sum256To(d *[Size]byte, msg []byte) {
	if pl.stdlib || pl.one[len(pl.one)-1].k == kStdlib1 {
		*d = sha256.Sum256(msg)
		return
	}
	if len(msg) == 2*Size && pl.smallPairs {
		// A Merkle pair: its padding block's W+K is the pairs kernel's
		// table, no schedule.
		hashPairs(d, &msg[0], 1)
		return
	}
	var t [2 * BlockSize]byte
	bits := 8 * uint64(len(msg))
	init := &iv
	var h [8]uint32
	for len(msg) > partBlocks*BlockSize {
		jobs := [1]job{{init: init, runs: [3]run{{&msg[0], partBlocks}}, out: d}}
		runOne(pl.one, &jobs)
		h, init = stateOf(d), &h
		msg = msg[partBlocks*BlockSize:]
	}
	var jobs [1]job
	jobs[0].init, jobs[0].out = init, d
	k := 0
	if whole := len(msg) / BlockSize; whole > 0 {
		jobs[0].runs[0] = run{&msg[0], uintptr(whole)}
		msg = msg[whole*BlockSize:]
		k++
	}
	if len(msg) == 0 && bits == 8*64 {
		jobs[0].runs[k] = run{&pad64[0], 1}
	} else {
		jobs[0].runs[k] = run{&t[0], uintptr(pad(t[:], msg, nil, bits))}
	}
	runOne(pl.one, &jobs)
}

// hashOne hashes prefix || msg on the plan's single-message kernel, a part
// at a time, with nothing but the stack for scratch.
func (pl *plan) hashOne(out *[Size]byte, prefix, msg []byte) {
	whole := len(prefix) &^ (BlockSize - 1)
	h := iv
	if whole > 0 {
		h = midstate(pl.one, prefix[:whole])
	}
	pre := prefix[whole:]
	if n := len(pre) + len(msg); n < 4*BlockSize-8 {
		// What is left is at most four padded blocks: staged whole, one run.
		// Up to two in a buffer of two, which costs less to zero; three or
		// four through batch.stage (head, body in place, tail) took 12-19%
		// longer (BENCHMARKS.md, "Small batches").
		var t []byte
		if n < 2*BlockSize-8 {
			var b [2 * BlockSize]byte
			t = b[:]
		} else {
			var b [4 * BlockSize]byte
			t = b[:]
		}
		jobs := [1]job{{init: &h, runs: [3]run{{&t[0], uintptr(pad(t, pre, msg, 8*uint64(len(prefix)+len(msg))))}}, out: out}}
		runOne(pl.one, &jobs)
		return
	}
	b := batch{pre: pre, bits: 8 * uint64(len(prefix))} // no scratch: no shared padding
	var t [3 * BlockSize]byte
	for part := 0; ; part++ {
		r0, r1, r2, more := b.stage(&t, msg, part)
		jobs := [1]job{{init: &h, runs: [3]run{r0, r1, r2}, out: out}}
		runOne(pl.one, &jobs)
		if !more {
			return
		}
		h = stateOf(out)
	}
}

// runOne hashes one job on the last of stages, through the kernel's entry
// for a single job if it has one.
func runOne(stages []stage, j *[1]job) {
	st := stages[len(stages)-1]
	if callBlocks.on {
		callBlocks.note(j[:])
	}
	if runJob(st.k, &j[0]) {
		return
	}
	var ls laneSet
	ls.minActive = 1
	st.run(&ls, j[:])
}
