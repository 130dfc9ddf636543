package sched

import (
	"crypto/sha256"
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// Sum256 returns the digest of msg on plan pl's single-message path.
func Sum256(pl *plan.Plan, msg []byte) (d [Size]byte) {
	sum256To(pl, &d, msg)
	return d
}

// sum256To hashes one message on the plan's single-message kernel into d:
// its whole blocks in place, a part at a time, and its padded tail from the
// stack. The kernel writes d itself, and a short message starts from the IV
// itself: nothing is copied through the stack.
func sum256To(pl *plan.Plan, d *[Size]byte, msg []byte) {
	if pl.Stdlib || pl.One[len(pl.One)-1].K == kernel.Stdlib {
		*d = sha256.Sum256(msg)
		return
	}
	if len(msg) == 2*Size && pl.SmallPairs {
		// A Merkle pair: its padding block's W+K is the pairs kernel's
		// table, no schedule.
		kernel.HashAdjacent(pl.Small[1], d, &msg[0], 1)
		return
	}
	sum256Blocks(pl, d, msg)
}

// sum256Blocks is sum256To past its checks, in a frame of its own: the
// checks' small frame is all a 64-byte message pays for (bench/HISTORY.md,
// "The house").
func sum256Blocks(pl *plan.Plan, d *[Size]byte, msg []byte) {
	var t [2 * BlockSize]byte
	bits := 8 * uint64(len(msg))
	init := &kernel.IV
	var h [8]uint32
	for pb := pl.OneBlocks; len(msg) > pb*BlockSize; {
		jobs := [1]kernel.Job{{Init: init, Runs: [3]kernel.Run{{P: &msg[0], N: uintptr(pb)}}, Out: d}}
		runOne(pl.One, &jobs)
		h, init = kernel.StateOf(d), &h
		msg = msg[pb*BlockSize:]
	}
	var jobs [1]kernel.Job
	jobs[0].Init, jobs[0].Out = init, d
	k := 0
	if whole := len(msg) / BlockSize; whole > 0 {
		jobs[0].Runs[0] = kernel.Run{P: &msg[0], N: uintptr(whole)}
		msg = msg[whole*BlockSize:]
		k++
	}
	if len(msg) == 0 && bits == 8*64 {
		jobs[0].Runs[k] = kernel.Run{P: &pairPadBlock[0], N: 1}
	} else {
		jobs[0].Runs[k] = kernel.Run{P: &t[0], N: uintptr(padTail(t[:], msg, nil, bits))}
	}
	runOne(pl.One, &jobs)
}

// hashOne hashes prefix || msg on the plan's single-message kernel, a part
// at a time, with nothing but the stack for scratch.
func hashOne(pl *plan.Plan, out *[Size]byte, prefix, msg []byte) {
	whole := len(prefix) &^ (BlockSize - 1)
	h := kernel.IV
	if whole > 0 {
		h = midstate(pl, prefix[:whole])
	}
	pre := prefix[whole:]
	if n := len(pre) + len(msg); n < 4*BlockSize-8 {
		// What is left is at most four padded blocks: staged whole, one
		// run, up to two in a buffer of two, which costs less to zero
		// (bench/HISTORY.md, "Small batches").
		var t []byte
		if n < 2*BlockSize-8 {
			var b [2 * BlockSize]byte
			t = b[:]
		} else {
			var b [4 * BlockSize]byte
			t = b[:]
		}
		jobs := [1]kernel.Job{{Init: &h, Runs: [3]kernel.Run{{P: &t[0], N: uintptr(padTail(t, pre, msg, 8*uint64(len(prefix)+len(msg))))}}, Out: out}}
		runOne(pl.One, &jobs)
		return
	}
	b := batch{pre: pre, bits: 8 * uint64(len(prefix))} // no scratch: no shared padding block
	b.withParts(pl, true)
	var t [3 * BlockSize]byte
	for part := 0; ; part++ {
		r0, r1, r2, more := b.stagePart(&t, msg, part)
		jobs := [1]kernel.Job{{Init: &h, Runs: [3]kernel.Run{r0, r1, r2}, Out: out}}
		runOne(pl.One, &jobs)
		if !more {
			return
		}
		h = kernel.StateOf(out)
	}
}

// runOne hashes one job on the last of stages, through the kernel's entry
// for a single job if it has one.
func runOne(stages []plan.Stage, j *[1]kernel.Job) {
	st := stages[len(stages)-1]
	var t0 int64
	if instrumented {
		t0 = callStart()
	}
	if kernel.HashJob(st.K, &j[0]) {
		if instrumented {
			noteJobs(st.K, 1, 1, nil, j[:], t0)
		}
		return
	}
	var ls kernel.LaneSet
	ls.MinActive = 1
	if ended, _ := run(st, &ls, j[:]); ended {
		return
	}
	// Out of steps: the job goes on from where its lane stands, in a queue
	// of this function's, which keeps the caller's buffers off the heap.
	var h [8]uint32
	var jobs [1]kernel.Job
	from := &j[0]
	for {
		for i := range st.Width {
			if l := &ls.Lanes[i]; l.Job != 0 {
				h = l.H
				jobs[0] = rest(from, l, &h)
				break
			}
		}
		if ended, _ := run(st, &ls, jobs[:]); ended {
			return
		}
		from = &jobs[0]
	}
}

// rest is the job that finishes job j from where lane l stands, its state
// at h (a copy of l.H).
func rest(j *kernel.Job, l *kernel.Lane, h *[8]uint32) kernel.Job {
	r := kernel.Job{Init: h, Out: j.Out}
	k := 0
	for s := l.Seg; s < uintptr(len(j.Runs)) && j.Runs[s].N != 0; s++ {
		run := j.Runs[s]
		if s == l.Seg {
			run.P = (*byte)(unsafe.Add(unsafe.Pointer(run.P), (run.N-l.N)*BlockSize))
			run.N = l.N
		}
		r.Runs[k] = run
		k++
	}
	return r
}
