//go:build sha256x_calltime

package sched

import (
	"time"

	"github.com/sha256x/sha256x/internal/kernel"
)

// This build records every kernel call the scheduler makes (go test -tags
// sha256x_calltime): how long it took, and the work it was handed. The
// calls of one to four pairs or nodes (HashMany of one or two 64-byte
// messages, the top of a level) go straight to their kernel and are not
// recorded: a dozen blocks at most.
const instrumented = true

// A Call is one kernel call as recorded.
type Call struct {
	K      kernel.ID
	Width  int
	Blocks int // blocks handed to it, all lanes
	// Steps bounds the steps (blocks a lane) it ran: its longest job alone
	// when each lane has a job at most, else the longest job after the
	// others spread over the lanes (a queue that refills lanes ends no
	// later); n pairs calls' messages a lane; a chain call's steps.
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

func (l *CallLog) note(c Call, t0 int64) {
	c.Time = time.Duration(threadTime() - t0)
	c.Wall = time.Since(epoch) - wallStart
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

func noteJobs(k kernel.ID, width int, jobs []kernel.Job, t0 int64) {
	total, longest := 0, 0
	for i := range jobs {
		n := 0
		for _, r := range jobs[i].Runs {
			n += int(r.N)
		}
		total += n
		longest = max(longest, n)
	}
	steps := longest
	if len(jobs) > width {
		steps = (total-longest+width-1)/width + longest
	}
	Calls.note(Call{K: k, Width: width, Blocks: total, Steps: steps}, t0)
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
	Calls.note(Call{K: k, Width: w, Blocks: n * nb, Steps: (n + w - 1) / w * nb}, t0)
}

func noteChain(k kernel.ID, width int, steps uint64, t0 int64) {
	Calls.note(Call{K: k, Width: width, Blocks: int(steps) * width, Steps: int(steps)}, t0)
}
