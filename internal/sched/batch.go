package sched

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

const (
	// Size is the size of a SHA-256 digest in bytes.
	Size = kernel.Size
	// BlockSize is the block size of SHA-256 in bytes.
	BlockSize = kernel.BlockSize

	// A kernel call takes at most window jobs, or smallWindow in a batch of
	// no more: a window's jobs are an array on the stack, zeroed at every
	// call (bench/HISTORY.md, "Wider windows").
	window      = 256
	smallWindow = 64
	maxLanes    = kernel.MaxLanes

	// levelChunk is how many nodes a level stages for one pairs kernel call
	// (at most: plan.PairsMax bounds it too) (BENCHMARKS.md, "Staged
	// levels: 64 nodes a call").
	levelChunk = 64
)

// A slot holds the blocks one job stages (a message's head and tail, or a
// whole Merkle node), and a carried job's state.
type slot struct {
	blk [3 * BlockSize]byte
	h   [8]uint32
}

// A scratch area is allocated whole (page-aligned, as every large object);
// its staged blocks lie on 64-byte lines, so that no kernel's load of a
// block straddles two (TestScratchAligned; bench/HISTORY.md, "Intel Xeon,
// model 207: the fifth session, reviews that found wrong digests").
type scratch struct {
	ls kernel.LaneSet
	// Items staged whole for the pairs kernels (staging): a level's joins,
	// and messages, each in slots of their own, so that a log's leaves and
	// its nodes, hashed in turn, keep their templates.
	joins, msgs slots
	slots       [2][window]slot
	mid         [8]uint32 // the prefix's midstate
	// padBlock is a tail block of padding only (0x80, zeros, the length),
	// shared by the jobs of one length; padBits is the length in bits it
	// is for, noPadBlock if none yet; padWK its message schedule plus the
	// round constants.
	padBlock [BlockSize]byte
	padBits  uint64
	padWK    [64]uint32
}

// slots hold levelChunk items staged whole, at most three blocks each, and
// say what they are laid out for (staging.template).
type slots struct {
	laid layout                                    // notLaid if no layout
	_    [BlockSize - unsafe.Sizeof(layout{})]byte // buf on a line of its own
	buf  [levelChunk * 3 * BlockSize]byte
}

// A layout is where a template's bytes lie in each slot: the prefix, [0,
// pre), and the infix, [at, at+infix), of items of m bytes. Every other byte
// up to m is an item's own, which stage overwrites in every slot; the
// template's lie in every slot only as long as no layout since had an
// item's own bytes there.
type layout struct{ m, pre, at, infix int }

// notLaid marks slots laid out for nothing: no item is -1 bytes long.
var notLaid = layout{m: -1}

// pairPadBlock is the padding block of a 64-byte message (a Merkle pair),
// which single messages point their last run at instead of staging it.
var pairPadBlock = [BlockSize]byte{0: 0x80, BlockSize - 2: 2}

// noPadBlock marks scratch.padBlock unused: no message is 2^64-1 bits long.
const noPadBlock = ^uint64(0)

// The scratch areas keep their shared padding block from one batch to the
// next, for the next batch of the same length (a Merkle tree's levels).
var scratchPool = sync.Pool{New: newScratch}

func newScratch() any {
	sc := new(scratch)
	// One write to each page first: a fresh page read before it is written
	// maps the shared zero page, and the write that replaces it flushes
	// every CPU's TLB (bench/HISTORY.md, "A short read as the end of a
	// file, and fresh memory written first").
	mem := unsafe.Slice((*byte)(unsafe.Pointer(sc)), unsafe.Sizeof(*sc))
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 0
	}
	sc.padBits = noPadBlock
	sc.joins.laid, sc.msgs.laid = notLaid, notLaid
	return sc
}

// setPadBlock makes the shared padding block the one for messages of the
// given length in bits, and tells the kernels where it and its schedule
// are.
func (sc *scratch) setPadBlock(bits uint64) {
	sc.padBits = bits
	sc.padBlock = [BlockSize]byte{0: 0x80}
	binary.BigEndian.PutUint64(sc.padBlock[BlockSize-8:], bits)
	kernel.ScheduleWK(&sc.padWK, &sc.padBlock)
	sc.ls.PadBlock = uintptr(unsafe.Pointer(&sc.padBlock))
	sc.ls.PadBlockWK = uintptr(unsafe.Pointer(&sc.padWK))
}

// run calls the stage's kernel, at most plan.MaxSteps steps (Go cannot
// preempt assembly: internal/plan's bounds.go). It reports whether the call
// ended as the kernel contract ends a call whose steps do not run out (no
// job left and fewer than ls.MinActive lanes busy), else the caller calls
// again on what it left; and how many of the jobs it took. Kernels are
// called directly, never through a func value, so that the caller's slices
// do not escape.
func run(st plan.Stage, ls *kernel.LaneSet, jobs []kernel.Job) (ended bool, taken int) {
	var t0 int64
	if instrumented {
		t0 = callStart()
	}
	ls.MaxSteps = plan.MaxSteps(st.K)
	kernel.Hash(st.K, st.Width, ls, jobs)
	if instrumented {
		noteJobs(st.K, st.Width, int(ls.MinActive), ls, jobs, t0)
	}
	busy, taken := left(ls, st.Width, len(jobs))
	return taken == len(jobs) && busy < int(ls.MinActive), taken
}

// left returns the lanes a call of width lanes left busy, and the jobs of
// its queue of n it took: all of them unless every lane is busy, when the
// lane that took the last one taken is still on it.
func left(ls *kernel.LaneSet, width, n int) (busy, taken int) {
	last := 0
	for i := range width {
		if j := int(ls.Lanes[i].Job); j != 0 {
			busy++
			last = max(last, j)
		}
	}
	if busy < width {
		return busy, n
	}
	return busy, last
}

// A batch is the state of one call.
type batch struct {
	stages []plan.Stage
	sc     *scratch
	half   int        // which half of sc.slots the current window stages into
	init   *[8]uint32 // every job's starting state
	pre    []byte     // the prefix's bytes after its last whole block
	bits   uint64     // 8 * len(prefix)
	padSet bool       // sc.padBlock is this batch's: its jobs may point at it
	// A message of more whole blocks than part is hashed a part at a time
	// (hashParts); a window runs once its jobs hold window blocks a lane of
	// the first stage.
	part, window int
}

// limit is how many blocks a window's jobs, carried lanes included (each
// at most b.window), may hold before it is flushed.
func (b *batch) limit() int { return b.stages[0].Width * b.window }

// withParts sets the parts of b from plan pl, for its stages or, if one,
// for its single-message stage.
func (b *batch) withParts(pl *plan.Plan, one bool) {
	b.part, b.window = pl.PartBlocks, pl.WindowBlocks
	if one {
		b.part, b.window = pl.OneBlocks, pl.OneBlocks
	}
}

// span returns where part number part of a message's whole blocks starts,
// in blocks, and how many it has at most.
func (b *batch) span(part int) (skip, n int) {
	return part * b.part, b.part
}

// spanOf is span for a message of whole blocks: its parts after the first
// as even as can be, at most b.part each, so that a round of equally long
// messages ends in every lane at once.
func (b *batch) spanOf(whole, part int) (skip, n int) {
	if part == 0 || whole <= b.part {
		return 0, b.part
	}
	rest := whole - b.part
	q := (rest + b.part - 1) / b.part // the parts after the first
	n = (rest + q - 1) / q
	return b.part + (part-1)*n, n
}

// A feed is what a batch's jobs are made from, a job an item: items
// first..end of one of four kinds.
type feed struct {
	kind       feedKind
	first, end int
	out        [][Size]byte // where the digests go, but fromStreams'
	msgs       [][]byte     // fromMessages
	// classes are fromMessages' power-of-two classes of the block counts,
	// fed longest first where they span more than a factor of 8.
	classes    uint64
	nodes      [][Size]byte // fromNodes
	nodeBytes  []byte
	jn         *Join
	w          int
	contiguous bool      // left || right lies whole in nodeBytes: a prefixed message read in place
	ss         []*Stream // fromStreams
	chunks     [][]byte
	which      []int // the streams fed, or nil for all
	part       int
}

type feedKind uint8

const (
	fromMessages feedKind = iota // the first part of prefix || msgs[i]
	fromNodes                    // the join of nodes[2i] and nodes[2i+1]
	fromDigests                  // out[i], hashed again in place (SHA-256d)
	fromStreams                  // part f.part of chunks[i], after what ss[i] holds
)

// queue hashes every job f makes on the plan's kernels, a window at a time:
// a full window runs on the first kernel, its busy lanes carried into the
// next window; the last window runs through every stage. It reports whether
// a message or chunk has parts still to hash.
//
// This is the only place a window is built. Jobs are assigned into the
// local array field by field: a pointer or a copy would send the array, and
// the caller's slices, to the heap, and a job built whole stalled on store
// forwarding.
func (b *batch) queue(f *feed) (more bool) {
	if f.end-f.first > smallWindow {
		return queueIn[[window]kernel.Job](b, f)
	}
	return queueIn[[smallWindow]kernel.Job](b, f)
}

// A jobArray is a window's jobs: a local array (a slice passed in would
// send the caller's slices to the heap), of two sizes, so that a small
// batch zeroes only a small one.
type jobArray interface {
	[smallWindow]kernel.Job | [window]kernel.Job
}

// queueIn is queue with a window of len(W) jobs.
func queueIn[W jobArray](b *batch, f *feed) (more bool) {
	var jobs W
	n, nb := 0, 0
	limit := b.limit()
	if f.part > 0 {
		// A stream's later parts, at most one a lane of the first stage:
		// one window, however many blocks.
		limit = int(^uint(0) >> 1)
	}
	var off, size int
	if f.kind == fromStreams {
		skip, pn := b.span(f.part)
		off, size = skip*BlockSize, pn*BlockSize
	}
	// Messages whose block counts span more than three powers of two are
	// queued longest first, a class at a time, so that no long one starts
	// last while the others' lanes idle (BENCHMARKS.md, "Ragged batches
	// queued longest first").
	cmax, cmin := 0, 0
	ragged := false
	if f.kind == fromMessages {
		cmax, cmin = bits.Len64(f.classes)-1, bits.TrailingZeros64(f.classes)
		ragged = cmax-cmin > 3
	}
	for c := cmax; c >= cmin; c-- {
		if ragged && f.classes&(1<<c) == 0 {
			continue
		}
		for i := f.first; i < f.end; i++ {
			var chunk []byte
			var st *Stream
			switch f.kind {
			case fromMessages:
				if ragged && blockClass(len(b.pre)+len(f.msgs[i])) != c {
					continue
				}
			case fromStreams:
				k := i
				if f.which != nil {
					k = f.which[i]
				}
				var ok, rest bool
				st = f.ss[k]
				if chunk, ok, rest = st.take(f.chunks[k], f.part, off, size); rest {
					more = true
				}
				if !ok {
					continue
				}
			}
			// A window runs once it is full, or holds limit blocks and a
			// job for every lane; again while what its call left does. So
			// every call either has no more jobs than lanes, or its lanes
			// take every job within its steps: no call leaves a job it did
			// not take. A carried job counts at most a call's steps
			// (carry), so that the long jobs a call left run the next one
			// with enough short jobs beside them (BENCHMARKS.md, "Kernel
			// calls bounded by time").
			for n == len(jobs) || nb >= limit && n >= b.stages[0].Width {
				carried, c, cb := b.flush(unsafe.Slice(&jobs[0], n))
				for k := range c {
					jobs[k] = carried[k]
				}
				n, nb = c, cb
			}
			s := &b.sc.slots[b.half][n]
			switch f.kind {
			case fromMessages:
				var m bool
				jobs[n].Runs[0], jobs[n].Runs[1], jobs[n].Runs[2], m = b.stagePart(&s.blk, f.msgs[i], 0)
				jobs[n].Init, jobs[n].Out = b.init, &f.out[i]
				more = more || m
			case fromNodes:
				if f.contiguous {
					jobs[n].Runs[0], jobs[n].Runs[1], jobs[n].Runs[2], _ = b.stagePart(&s.blk, f.nodeBytes[2*i*Size:(2*i+2)*Size], 0)
				} else {
					jobs[n].Runs[0], jobs[n].Runs[1], jobs[n].Runs[2] = kernel.Run{P: &s.blk[0], N: uintptr(stageJoin(s.blk[:], f.jn, f.w, &f.nodes[2*i], &f.nodes[2*i+1]))}, kernel.Run{}, kernel.Run{}
				}
				jobs[n].Init, jobs[n].Out = b.init, &f.out[i]
			case fromDigests:
				jobs[n].Runs[0], jobs[n].Runs[1], jobs[n].Runs[2], _ = b.stagePart(&s.blk, f.out[i][:], 0)
				jobs[n].Init, jobs[n].Out = b.init, &f.out[i]
			case fromStreams:
				jobs[n].Runs[0], jobs[n].Runs[1] = st.stage(s, chunk)
				jobs[n].Runs[2], jobs[n].Init, jobs[n].Out = kernel.Run{}, &st.h, &st.sum
			}
			nb += int(jobs[n].Runs[0].N + jobs[n].Runs[1].N + jobs[n].Runs[2].N)
			n++
		}
		if !ragged {
			break
		}
	}
	b.finish(unsafe.Slice(&jobs[0], n)) // jobs[:n]: a type parameter's arrays cannot be sliced
	return more
}

// parts is how many parts prefix || msg is hashed in: one per b.part of
// its whole blocks after the block it shares with the prefix.
func (b *batch) parts(msg []byte) int {
	whole := (len(b.pre) + len(msg)) / BlockSize
	if len(b.pre) > 0 && whole > 0 {
		whole-- // the staged head
	}
	return max((whole+b.part-1)/b.part, 1)
}

// stagePart stages the blocks of one part of prefix || msg in blk and
// returns the part's runs, and whether more parts follow. Part 0 has the
// staged head; each part up to its span of the whole blocks, read in place;
// the last the staged tail. The runs come back in registers: copying a
// returned job into the queue stalled on store forwarding.
func (b *batch) stagePart(blk *[3 * BlockSize]byte, msg []byte, part int) (r0, r1, r2 kernel.Run, more bool) {
	pre := b.pre
	total := b.bits + 8*uint64(len(msg))
	var rs [3]kernel.Run
	k := 0
	if len(pre)+len(msg) <= 3*BlockSize-9 {
		// A message that pads to three blocks or fewer with its prefix (an
		// RFC 6962 leaf) is staged whole, its padding in the same pass: one
		// copy and one run (bench/HISTORY.md, "Transparency logs" and
		// "Short messages staged whole").
		return kernel.Run{P: &blk[0], N: uintptr(padTailClear(blk[:], pre, msg, total))}, kernel.Run{}, kernel.Run{}, false
	}
	whole := (len(pre) + len(msg)) / BlockSize
	if len(pre) > 0 && whole > 0 {
		if part == 0 {
			copy(blk[copy(blk[:BlockSize], pre):BlockSize], msg)
			rs[k] = kernel.Run{P: &blk[0], N: 1}
			k++
		}
		msg = msg[BlockSize-len(pre):]
		pre = nil
		whole--
	}
	if len(pre) == 0 && whole > 0 {
		skip, pn := b.spanOf(whole, part)
		if whole-skip > pn {
			rs[k] = kernel.Run{P: &msg[skip*BlockSize], N: uintptr(pn)}
			return rs[0], rs[1], rs[2], true
		}
		rs[k] = kernel.Run{P: &msg[skip*BlockSize], N: uintptr(whole - skip)}
		k++
		msg = msg[whole*BlockSize:]
	}
	if len(pre)+len(msg) == 0 && b.sc == nil && total == 8*64 {
		rs[k] = kernel.Run{P: &pairPadBlock[0], N: 1}
		return rs[0], rs[1], rs[2], false
	}
	if len(pre)+len(msg) == 0 && b.sc != nil {
		// A tail of padding alone depends only on the length: one is
		// shared by a batch of whole-block messages (Merkle joins).
		if !b.padSet {
			if b.sc.padBits != total {
				b.sc.setPadBlock(total)
			}
			b.padSet = true
		}
		if b.sc.padBits == total {
			rs[k] = kernel.Run{P: &b.sc.padBlock[0], N: 1}
			return rs[0], rs[1], rs[2], false
		}
	}
	rs[k] = kernel.Run{P: &blk[BlockSize], N: uintptr(padTailClear(blk[BlockSize:], pre, msg, total))}
	return rs[0], rs[1], rs[2], false
}

// padTailClear is padTail for a t that overlaps neither a nor b: it zeroes
// the one to three blocks first, with fixed-size stores the compiler
// inlines, instead of a call (bench/HISTORY.md, "Small batches").
func padTailClear(t, a, b []byte, bits uint64) int {
	nt := (len(a)+len(b)+8)/BlockSize + 1
	switch nt {
	case 1:
		*(*[BlockSize]byte)(t) = [BlockSize]byte{}
	case 2:
		*(*[2 * BlockSize]byte)(t) = [2 * BlockSize]byte{}
	default:
		*(*[3 * BlockSize]byte)(t) = [3 * BlockSize]byte{}
	}
	m := copy(t, a)
	m += copy(t[m:], b)
	t[m] = 0x80
	binary.BigEndian.PutUint64(t[nt*BlockSize-8:], bits)
	return nt
}

// padTail writes a || b, the padding and the length in bits into t and
// returns how many blocks that makes. a may be t's own start (a node staged
// in place).
func padTail(t, a, b []byte, bits uint64) int {
	m := copy(t, a)
	m += copy(t[m:], b)
	t[m] = 0x80
	nt := (m+8)/BlockSize + 1
	clear(t[m+1 : nt*BlockSize-8])
	binary.BigEndian.PutUint64(t[nt*BlockSize-8:], bits)
	return nt
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

// flush runs a full window on the plan's first kernel, which takes every
// job (queueIn), and returns the busy lanes as jobs that open the next
// window, and the blocks they hold.
func (b *batch) flush(jobs []kernel.Job) ([maxLanes]kernel.Job, int, int) {
	st := b.stages[0]
	b.sc.ls.MinActive = uintptr(st.Width)
	if _, taken := run(st, &b.sc.ls, jobs); taken < len(jobs) {
		panic("sha256x: internal error: a window's call left jobs it did not take")
	}
	return b.carry(jobs, st.Width)
}

// untaken returns job j, number k of the queue of the last kernel call,
// which did not take it, as job number m of the next queue: its staged
// blocks moved, as carry moves the busy lanes', to slot m of the other
// half. Returned by value, so that the caller's array stays off the heap.
func (b *batch) untaken(j kernel.Job, k, m int) kernel.Job {
	src, dst := &b.sc.slots[b.half^1][k], &b.sc.slots[b.half][m]
	*dst = *src
	return restaged(j, src, dst)
}

// finish runs the last jobs through the plan's kernels, each stage handing
// its last busy lanes to the next; a stage whose call runs out of steps is
// called again on its busy lanes and the jobs it did not take (at most
// maxLanes: the first stage takes every job, and a later one is handed
// fewer than the lanes before it).
func (b *batch) finish(jobs []kernel.Job) {
	var carried [maxLanes]kernel.Job
	for i, st := range b.stages {
		last := i == len(b.stages)-1
		if !last && len(jobs) < st.MinActive {
			continue // too few jobs to be worth this kernel
		}
		if st.Odd && len(jobs)%2 == 0 {
			// Where any two busy streams reach the SHA unit's bound, an odd
			// count starts in threes and an even one in pairs, so that 3, 5
			// or 9 jobs of one length leave none to run alone.
			continue
		}
		b.sc.ls.MinActive = 1
		if !last {
			b.sc.ls.MinActive = uintptr(st.MinActive)
		}
		for {
			ended, taken := run(st, &b.sc.ls, jobs)
			if ended {
				break
			}
			c, nc, _ := b.carry(jobs, st.Width)
			for k := taken; k < len(jobs); k++ {
				c[nc] = b.untaken(jobs[k], k, nc)
				nc++
			}
			carried = c
			jobs = carried[:nc]
		}
		if last {
			return
		}
		c, nc, _ := b.carry(jobs, st.Width)
		if nc == 0 {
			return
		}
		carried = c
		jobs = carried[:nc]
	}
}

// restaged returns job j with its state and runs that lie in slot src
// pointed at slot dst, its copy. By value, so that the batch stays off the
// heap.
func restaged(j kernel.Job, src, dst *slot) kernel.Job {
	if j.Init == &src.h {
		j.Init = &dst.h
	}
	for s, r := range j.Runs {
		if off := uintptr(unsafe.Pointer(r.P)) - uintptr(unsafe.Pointer(src)); r.N != 0 && off < unsafe.Sizeof(*src) {
			r.P = (*byte)(unsafe.Add(unsafe.Pointer(dst), off))
			j.Runs[s] = r
		}
	}
	return j
}

// carry returns the busy lanes of the last kernel call as jobs, their
// staged blocks moved to the first slots of the other half of the scratch
// area, and the blocks the jobs hold, each job's at most b.window (what the
// next call can take of a lane).
func (b *batch) carry(jobs []kernel.Job, width int) (carried [maxLanes]kernel.Job, c, total int) {
	from, to := &b.sc.slots[b.half], &b.sc.slots[b.half^1]
	b.half ^= 1
	for i := range width {
		l := &b.sc.ls.Lanes[i]
		if l.Job == 0 {
			continue
		}
		old := &jobs[l.Job-1]
		src, dst := &from[l.Job-1], &to[c]
		*dst = *src
		dst.h = l.H
		// Assigned whole, never through a pointer: see HashMany.
		j := kernel.Job{Init: &dst.h, Out: old.Out}
		k, blocks := 0, 0
		for s := l.Seg; s < uintptr(len(old.Runs)) && old.Runs[s].N != 0; s++ {
			r := old.Runs[s]
			if s == l.Seg {
				r.P = (*byte)(unsafe.Add(unsafe.Pointer(r.P), (r.N-l.N)*BlockSize))
				r.N = l.N
			}
			// Staged blocks move with the job.
			if off := uintptr(unsafe.Pointer(r.P)) - uintptr(unsafe.Pointer(src)); off < unsafe.Sizeof(*src) {
				r.P = (*byte)(unsafe.Add(unsafe.Pointer(dst), off))
			}
			j.Runs[k] = r
			blocks += int(r.N)
			k++
		}
		carried[c] = j
		c++
		total += min(blocks, b.window)
	}
	return carried, c, total
}

// hashParts hashes the parts after the first of every message longer than
// one part. Their states wait in out between parts. The messages go
// longPass at a time, and each such set round by round: a round takes the
// next part of up to as many messages as the first kernel has lanes, going
// on where the last round stopped, so that a message is in a round at most
// once and every round but the set's last fills the lanes.
func (b *batch) hashParts(out [][Size]byte, msgs [][]byte) {
	var long, np [longPass]int32 // a set's messages, and their parts
	next := 0
	for next < len(msgs) {
		m := 0
		for ; next < len(msgs) && m < longPass; next++ {
			if p := b.parts(msgs[next]); p > 1 {
				long[m], np[m] = int32(next), int32(p)
				m++
			}
		}
		if m > 0 {
			b.roundsOf(out, msgs, long[:m], np[:m])
		}
	}
}

// longPass is the most messages hashParts takes rounds over at a time, so
// that it needs nothing allocated.
const longPass = 256

// roundsOf hashes parts 1 and on of messages long (np[j] parts each) in
// rounds of at most the first kernel's lanes, a part per message a round.
func (b *batch) roundsOf(out [][Size]byte, msgs [][]byte, long, np []int32) {
	var jobs [maxLanes]kernel.Job // a round's parts: at most one a lane
	var in [maxLanes]int32        // the round's messages, by position in long
	width := b.stages[0].Width
	part, j := int32(1), 0 // the next visit: part of long[j]
	for {
		n := 0
	fill:
		for n < width {
			// The next message with a part numbered part, or, past the
			// pass's end, the next pass's first.
			for ; j < len(long) && np[j] <= part; j++ {
			}
			if j == len(long) {
				part, j = part+1, 0
				for ; j < len(long) && np[j] <= part; j++ {
				}
				if j == len(long) {
					break // every part hashed
				}
			}
			for _, k := range in[:n] {
				if int(k) == j {
					break fill // its previous part is in this round
				}
			}
			k := long[j]
			s := &b.sc.slots[b.half][n]
			s.h = kernel.StateOf(&out[k])
			jobs[n].Runs[0], jobs[n].Runs[1], jobs[n].Runs[2], _ = b.stagePart(&s.blk, msgs[k], int(part))
			jobs[n].Init, jobs[n].Out = &s.h, &out[k]
			in[n] = int32(j)
			n++
			j++
		}
		if n == 0 {
			return
		}
		b.finish(jobs[:n])
	}
}

// midstate returns the hash state after the whole blocks in prefix, a part
// at a time, on the plan's single-message stage.
func midstate(pl *plan.Plan, prefix []byte) [8]uint32 {
	h := kernel.IV
	for len(prefix) >= BlockSize {
		nb := min(len(prefix)/BlockSize, pl.OneBlocks)
		var d [Size]byte
		jobs := [1]kernel.Job{{Init: &h, Runs: [3]kernel.Run{{P: &prefix[0], N: uintptr(nb)}}, Out: &d}}
		runOne(pl.One, &jobs)
		h = kernel.StateOf(&d)
		prefix = prefix[nb*BlockSize:]
	}
	return h
}
