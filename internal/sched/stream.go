package sched

import (
	"strconv"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A Stream is one SHA-256 computation that takes its input piece by piece:
// sha256x.Digest's state. The zero Stream is ready to use.
type Stream struct {
	h   [8]uint32 // state after the blocks hashed so far, once started
	sum [Size]byte
	// x[:nx] is the input not yet hashed: less than a block, or a whole
	// block that Write holds back when its input ends on a block's end, so
	// that a sum hashes that block and the padding in one kernel call
	// (BENCHMARKS.md, "A stream's last block"). One block: a larger one, to
	// gather small writes, made New slower.
	x    [BlockSize]byte
	nx   int
	len  uint64 // bytes written
	init bool   // h holds a state (the zero Stream has not set the IV yet)
	busy bool   // inside WriteMany: catches a Stream passed twice
}

// Reset makes s the zero Stream but for the bytes of its buffer, which
// nx says are not in use.
func (s *Stream) Reset() { s.nx, s.len, s.init, s.busy = 0, 0, false, false }

// Write adds p to s's input on plan pl.
func (s *Stream) Write(pl *plan.Plan, p []byte) {
	switch {
	case s.nx+len(p) < BlockSize:
		s.nx += copy(s.x[s.nx:], p)
		s.len += uint64(len(p))
	case pl.Stdlib:
		s.stdlib(p, nil)
	case s.nx+len(p) == BlockSize: // a block held back
		s.nx += copy(s.x[s.nx:], p)
		s.len += uint64(len(p))
	default:
		s.write(pl, p)
	}
}

// write adds p, which with s's buffered bytes makes more than a block, to
// s on the plan's single-message kernel: s.x completed with p's first
// bytes, then p's whole blocks in place, a part at a time, but for p's
// last bytes (a whole block if p ends on one), which s.x keeps.
func (s *Stream) write(pl *plan.Plan, p []byte) {
	if !s.init {
		s.h, s.init = kernel.IV, true
	}
	s.len += uint64(len(p))
	var jobs [1]kernel.Job
	jobs[0].Init, jobs[0].Out = &s.h, &s.sum
	k := 0
	if s.nx > 0 {
		p = p[copy(s.x[s.nx:], p):]
		jobs[0].Runs[0] = kernel.Run{P: &s.x[0], N: 1}
		s.nx, k = 0, 1
	}
	for {
		if whole := min((len(p)-1)/BlockSize, pl.OneBlocks); whole > 0 {
			jobs[0].Runs[k] = kernel.Run{P: &p[0], N: uintptr(whole)}
			p = p[whole*BlockSize:]
			k++
		}
		if k > 0 {
			runOne(pl.One, &jobs)
			s.h = kernel.StateOf(&s.sum)
		}
		if len(p) <= BlockSize {
			break
		}
		jobs[0].Runs, k = [3]kernel.Run{}, 0
	}
	s.nx = copy(s.x[:], p)
}

// Sum256 returns the digest of s's input so far on plan pl; s is not
// changed.
func (s *Stream) Sum256(pl *plan.Plan) [Size]byte {
	if pl.Stdlib {
		var sum [Size]byte
		e := *s
		e.stdlib(nil, &sum)
		return sum
	}
	h := s.state()
	var t [2 * BlockSize]byte
	var out [Size]byte
	jobs := [1]kernel.Job{{Init: &h, Runs: [3]kernel.Run{{P: &t[0], N: uintptr(padTail(t[:], s.x[:s.nx], nil, 8*s.len))}}, Out: &out}}
	runOne(pl.One, &jobs)
	return out
}

func (s *Stream) state() [8]uint32 {
	if !s.init {
		return kernel.IV
	}
	return s.h
}

// State returns s's state after its whole blocks, the bytes it holds of
// the next, and how many bytes it has been written: a block it holds back
// hashed first, on plan pl (s is not changed).
func (s *Stream) State(pl *plan.Plan) (h [8]uint32, x []byte, n uint64) {
	h = s.state()
	switch {
	case s.nx < BlockSize:
		return h, s.x[:s.nx], s.len
	case pl.Stdlib: // no kernel of its own (s was written on another plan)
		e := *s
		e.stdlib(nil, nil)
		return e.h, s.x[:0], s.len
	}
	var out [Size]byte
	jobs := [1]kernel.Job{{Init: &h, Runs: [3]kernel.Run{{P: &s.x[0], N: 1}}, Out: &out}}
	runOne(pl.One, &jobs)
	return kernel.StateOf(&out), s.x[:0], s.len
}

// SetState sets s to state h, with the partial block x and n bytes written
// (n%64 of them in x).
func (s *Stream) SetState(h *[8]uint32, x *[BlockSize]byte, n uint64) {
	s.h = *h
	// WriteMany reloads h from sum, the state big-endian, after every call,
	// including calls that only buffer bytes: the two must agree.
	kernel.PutDigest(&s.sum, h)
	s.x = *x
	s.len = n
	s.nx = int(n % BlockSize)
	s.init = true
}

// Clone returns a copy of s, not inside any WriteMany.
func (s *Stream) Clone() Stream {
	e := *s
	e.busy = false
	return e
}

// WriteMany writes chunks[i] to ss[i] for every i on plan pl, the streams
// side by side; single runs them on the plan's single-message kernel (for
// tests).
func WriteMany(pl *plan.Plan, ss []*Stream, chunks [][]byte, single bool) {
	if len(ss) < len(chunks) {
		panic("sha256x: len(ds) = " + strconv.Itoa(len(ss)) + " < len(chunks) = " + strconv.Itoa(len(chunks)))
	}
	ss = ss[:len(chunks)]
	for i, s := range ss {
		if s == nil || s.busy {
			// Nothing marked stays marked: the streams before it are free
			// again for the caller that recovers.
			for _, s := range ss[:i] {
				s.busy = false
			}
			if s == nil {
				panic("sha256x: WriteMany with a nil Digest")
			}
			panic("sha256x: WriteMany with a Digest twice")
		}
		s.busy = true
	}
	defer func() {
		for _, s := range ss {
			s.busy = false
		}
	}()
	if pl.Stdlib {
		for i, s := range ss {
			s.stdlib(chunks[i], nil)
		}
		return
	}
	one := single || len(chunks) == 1
	stages := pl.Stages
	if one {
		stages = pl.One
	}
	// The scratch goes back to the pool only if the call returns: one that
	// panics (a fault in a mapped file, which package files recovers from)
	// may leave it half laid out.
	sc := scratchPool.Get().(*scratch)
	b := batch{stages: stages, sc: sc}
	b.withParts(pl, one)
	b.writeAll(ss, chunks)
	scratchPool.Put(sc)
}

// writeAll writes every chunk to its stream.
func (b *batch) writeAll(ss []*Stream, chunks [][]byte) {
	stages := b.stages
	if !b.writePart(ss, chunks, nil, 0) {
		return
	}
	// The chunks longer than a part go on a group at a time, a part of each
	// per window, as hashParts does for messages.
	var group [maxLanes]int
	g := 0
	for i := 0; i <= len(chunks); i++ {
		if i < len(chunks) {
			if len(chunks[i]) > b.part*BlockSize {
				group[g] = i
				g++
			}
			if g < stages[0].Width {
				continue
			}
		}
		for part := 1; g > 0 && b.writePart(ss, chunks, group[:g], part); part++ {
		}
		g = 0
	}
}

// writePart writes part number part (b.span's blocks) of chunks[i] to ss[i],
// for each i in which, or in all of ss if which is nil, and reports whether
// any of those chunks has more parts.
func (b *batch) writePart(ss []*Stream, chunks [][]byte, which []int, part int) (more bool) {
	var f feed
	f.kind, f.end, f.ss, f.chunks, f.which, f.part = fromStreams, len(ss), ss, chunks, which, part
	if which != nil {
		f.end = len(which)
	}
	more = b.queue(&f)
	for k := range f.end {
		s := ss[k]
		if which != nil {
			s = ss[which[k]]
		}
		if s.init {
			s.h = kernel.StateOf(&s.sum)
		}
	}
	return more
}

// take returns part number part of chunk c, size bytes from off (with up to
// a block the Stream buffered before, a job of at most size/64+1 blocks),
// and whether it makes a job: bytes that complete no block are only
// buffered. rest reports whether c has parts after this one.
func (s *Stream) take(c []byte, part, off, size int) (p []byte, job, rest bool) {
	if part > 0 && off >= len(c) {
		return nil, false, false
	}
	c = c[off:]
	if len(c) > size {
		c = c[:size]
		rest = true
	}
	if s.nx+len(c) < BlockSize {
		s.nx += copy(s.x[s.nx:], c)
		s.len += uint64(len(c))
		return nil, false, rest
	}
	if !s.init {
		s.h, s.init = kernel.IV, true
	}
	return c, true, rest
}

// stage returns the runs of the job that hashes s's buffered bytes and c's
// whole blocks, staging the block they share in sl, and keeps what is left
// of c in s.x. The job's digest, the state afterwards big-endian, goes to
// s.sum. writePart calls it only when the two make a block or more.
func (s *Stream) stage(sl *slot, c []byte) (r0, r1 kernel.Run) {
	s.len += uint64(len(c))
	var rs [2]kernel.Run
	k := 0
	if s.nx > 0 {
		copy(sl.blk[copy(sl.blk[:BlockSize], s.x[:s.nx]):BlockSize], c)
		c = c[BlockSize-s.nx:]
		s.nx = 0
		rs[k] = kernel.Run{P: &sl.blk[0], N: 1}
		k++
	}
	if whole := len(c) / BlockSize; whole > 0 {
		rs[k] = kernel.Run{P: &c[0], N: uintptr(whole)}
		c = c[whole*BlockSize:]
	}
	s.nx = copy(s.x[:], c)
	return rs[0], rs[1]
}
