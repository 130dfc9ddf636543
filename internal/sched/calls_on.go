//go:build sha256x_calltime

package sched

import (
	"fmt"
	"slices"
	"time"

	"github.com/sha256x/sha256x/internal/kernel"
)

// This build records every kernel call the scheduler makes (go test -tags
// sha256x_calltime): how long it took, and the work it was handed. The
// calls of one to four pairs or nodes go straight to their kernel and are
// not recorded: a dozen blocks at most.
const instrumented = true

// A Call is one kernel call as recorded.
type Call struct {
	K      kernel.ID
	Width  int
	Blocks int // blocks handed to it, all lanes
	// Steps is the steps (blocks a lane) it ran: for the job queue, as the
	// kernel contract runs it (simulate; CallLog.check compares the lanes
	// the kernel left busy); n pairs calls' messages a lane; a chain call's
	// steps.
	Steps int
	// Time is the CPU time of the calling thread during the call, where
	// the system has a clock for it (Linux: a thread the host deschedules
	// in the middle of a call does not make it long), else as Wall; the
	// caller must then stay on its thread (runtime.LockOSThread).
	Time, Wall time.Duration
}

// A CallLog holds, since its last Reset, the longest call, for each kernel
// the call of the most steps, and the first calls themselves. Not safe for
// concurrent use: record one goroutine's calls.
type CallLog struct {
	Calls   int
	Longest Call
	Most    [256]Call // by kernel ID
	All     []Call    // the first maxLogged calls
	// Mismatches counts the job-queue calls whose kernel left other lanes
	// busy than the kernel contract does; Mismatch describes the first.
	Mismatches int
	Mismatch   string
}

const maxLogged = 1 << 16

// Calls is the log every kernel call is recorded in.
var Calls CallLog

// Reset empties the log.
func (l *CallLog) Reset() {
	all := l.All[:0]
	if all == nil {
		all = make([]Call, 0, maxLogged)
	}
	*l = CallLog{All: all}
}

var epoch = time.Now()

// wallStart is the wall clock at the call's start; callStart returns the
// thread's time.
var wallStart time.Duration

// ThreadTime is the clock the calls are timed by (the thread's CPU time on
// Linux), for a test's timings of other code beside them.
func ThreadTime() time.Duration { return time.Duration(threadTime()) }

func callStart() int64 {
	wallStart = time.Since(epoch)
	return threadTime()
}

// callEnd returns a call's times, the thread's since t0 and the wall
// clock's, with Time and Wall set.
func callEnd(t0 int64) Call {
	return Call{Time: time.Duration(threadTime() - t0), Wall: time.Since(epoch) - wallStart}
}

// note records call c, its times those of end.
func (l *CallLog) note(c Call, end Call) {
	c.Time, c.Wall = end.Time, end.Wall
	l.Calls++
	if len(l.All) < cap(l.All) {
		l.All = append(l.All, c)
	}
	if c.Time > l.Longest.Time {
		l.Longest = c
	}
	if m := &l.Most[c.K]; c.Steps > m.Steps || m.Width == 0 {
		*m = c
	}
}

func noteJobs(k kernel.ID, width, minActive int, ls *kernel.LaneSet, jobs []kernel.Job, t0 int64) {
	end := callEnd(t0) // before the bookkeeping below
	total := 0
	for i := range jobs {
		total += jobBlocks(&jobs[i], 0)
	}
	maxSteps := 0
	if ls != nil {
		maxSteps = int(ls.MaxSteps)
	}
	steps, left := simulate(width, minActive, maxSteps, jobs)
	if ls != nil && k != kernel.Stdlib {
		Calls.check(k, width, ls, jobs, left)
	}
	Calls.note(Call{K: k, Width: width, Blocks: total, Steps: steps}, end)
}

// jobBlocks is the blocks of job j from its run seg on.
func jobBlocks(j *kernel.Job, seg uintptr) int {
	n := 0
	for _, r := range j.Runs[seg:] {
		n += int(r.N)
	}
	return n
}

// A laneLeft is a lane busy at a call's return: its job (1 + index in the
// queue) and the blocks the job has left.
type laneLeft struct{ job, blocks int }

// simulate runs a kernel call's queue as the kernel contract says (as
// runGeneric does), until no job is left and fewer than minActive lanes are
// busy, or maxSteps steps are run (if not 0). It returns the steps run and
// the lanes busy at the end.
func simulate(width, minActive, maxSteps int, jobs []kernel.Job) (steps int, left []laneLeft) {
	if maxSteps == 0 {
		maxSteps = 1 << 62
	}
	var job, rem [kernel.MaxLanes]int
	next, busy := 0, 0
	start := func(i int) {
		job[i], rem[i] = 0, 0
		for next < len(jobs) {
			next++
			if n := jobBlocks(&jobs[next-1], 0); n > 0 {
				job[i], rem[i] = next, n
				busy++
				return
			}
		}
	}
	for i := range width {
		start(i)
	}
	for busy >= minActive && busy > 0 && steps < maxSteps {
		d := maxSteps - steps
		for i := range width {
			if job[i] != 0 && rem[i] < d {
				d = rem[i]
			}
		}
		steps += d
		for i := range width {
			if job[i] == 0 {
				continue
			}
			if rem[i] -= d; rem[i] == 0 {
				busy--
				start(i)
			}
		}
	}
	for i := range width {
		if job[i] != 0 {
			left = append(left, laneLeft{job[i], rem[i]})
		}
	}
	return steps, left
}

// check compares the lanes a kernel call left busy with those the kernel
// contract says it leaves (simulate), so that the steps recorded are the
// steps the kernel ran; a mismatch is counted in Mismatches.
func (l *CallLog) check(k kernel.ID, width int, ls *kernel.LaneSet, jobs []kernel.Job, want []laneLeft) {
	var got []laneLeft
	for i := range width {
		ln := &ls.Lanes[i]
		if ln.Job == 0 {
			continue
		}
		j := &jobs[ln.Job-1]
		got = append(got, laneLeft{int(ln.Job), int(ln.N) + jobBlocks(j, ln.Seg+1)})
	}
	same := len(got) == len(want)
	for _, g := range got {
		if !slices.Contains(want, g) {
			same = false
		}
	}
	if !same {
		l.Mismatches++
		if l.Mismatch == "" {
			l.Mismatch = fmt.Sprintf("%s-%s, %d jobs: lanes left busy (job, blocks) %v, the contract's %v",
				kernel.Lookup(k).Family, kernel.Lookup(k).Variant, len(jobs), got, want)
		}
	}
}

// notePairs records a pairs call of n messages on kernel k (nb blocks each
// for Staged).
func notePairs(k kernel.ID, c kernel.PairsCall, n, nb int, t0 int64) {
	switch c {
	case kernel.Adjacent, kernel.Slices, kernel.Staged65:
		nb = 2
	case kernel.Double:
		nb = 3
	}
	w := kernel.Lookup(k).Width
	Calls.note(Call{K: k, Width: w, Blocks: n * nb, Steps: (n + w - 1) / w * nb}, callEnd(t0))
}

func noteChain(k kernel.ID, width int, steps uint64, t0 int64) {
	Calls.note(Call{K: k, Width: width, Blocks: int(steps) * width, Steps: int(steps)}, callEnd(t0))
}
