package files

// Mapped or read, decided once a process by a trial on the run's own rounds
// (the package doc says how): which costs more, the copy or a mapping's
// faults, TLB misses and shootdowns, depends on the host, not the CPU model
// (BENCHMARKS.md, "Files: mapped or read, measured"). Each round is timed
// whole, fetching its chunks and hashing them, as ns a byte.

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A mapWay is how large regular files are hashed.
type mapWay int32

const (
	wayTrial  mapWay = iota // undecided: rounds alternate, timed
	wayMapped               // from windows mapped into memory
	wayRead                 // read into the worker's buffers
)

// mapSetting is the way SHA256X_MMAP forces, or wayTrial.
func mapSetting() mapWay {
	switch os.Getenv("SHA256X_MMAP") {
	case "on":
		return wayMapped
	case "off":
		return wayRead
	}
	return wayTrial
}

// trialRounds is how many rounds each way the trial times before it
// decides: the median of 6 shrugs off a round or two that the scheduler or
// a cold cache spoiled, and 12 rounds are a few percent of a run worth
// deciding for. A variable for the tests.
var trialRounds = 6

// trialMargin: mapping is taken only if its median is at most this
// fraction of reading's. A tie goes to reading, which has no SIGBUS to
// catch and no munmap to pay, which the trial's first windows do not see.
const trialMargin = 0.97

// trial is the process's trial: the samples so far and, once decided, the
// way every worker follows.
var trial struct {
	way atomic.Int32 // a mapWay
	sync.Mutex
	mapped, read []float64 // ns a byte of each timed round
	result       trialResult
}

// A trialResult is the trial's decision and its figures.
type trialResult struct {
	mapped           bool
	mappedNs, readNs float64 // median ns a byte
	rounds           int     // each way
}

func (r trialResult) String() string {
	how := "read"
	if r.mapped {
		how = "mapped"
	}
	return fmt.Sprintf("sha256x: files: large files %s: mapped %.0f ns/MiB, read %.0f ns/MiB (medians of %d rounds each way; mapped if <= %.2f x read)",
		how, r.mappedNs*(1<<20), r.readNs*(1<<20), r.rounds, trialMargin)
}

// trialWay is the way the trial decided, or wayTrial while it goes on.
func trialWay() mapWay { return mapWay(trial.way.Load()) }

// decideHook, if set (by tests), is called with the trial's result when it
// decides, and returns the decision (mapped or not) to be followed.
var decideHook func(trialResult) bool

// trialRecord records a round hashed the way mapped says, bytes in all,
// that took d, and decides once there are trialRounds of each way. A round
// recorded after the decision, or past trialRounds of its way, is dropped.
func trialRecord(mapped bool, d time.Duration, bytes int) {
	if bytes <= 0 || d <= 0 {
		return
	}
	trial.Lock()
	defer trial.Unlock()
	if trialWay() != wayTrial {
		return
	}
	s := &trial.read
	if mapped {
		s = &trial.mapped
	}
	if len(*s) >= trialRounds {
		return
	}
	if *s == nil {
		*s = make([]float64, 0, min(trialRounds, 16))
	}
	*s = append(*s, float64(d)/float64(bytes))
	if len(trial.mapped) < trialRounds || len(trial.read) < trialRounds {
		return
	}
	r := decide(trial.mapped, trial.read)
	if decideHook != nil {
		r.mapped = decideHook(r)
	}
	trial.result = r
	way := wayRead
	if r.mapped {
		way = wayMapped
	}
	trial.way.Store(int32(way))
	if os.Getenv("SHA256X_MMAP") == "show" {
		fmt.Fprintln(os.Stderr, r)
	}
}

// decide compares the samples, ns a byte of each round mapped and read:
// mapped only if the median mapped is trialMargin of the median read or
// less. The samples are sorted.
func decide(mapped, read []float64) trialResult {
	r := trialResult{mappedNs: median(mapped), readNs: median(read), rounds: min(len(mapped), len(read))}
	r.mapped = r.mappedNs > 0 && r.readNs > 0 && r.mappedNs <= trialMargin*r.readNs
	return r
}

// median sorts s and returns its median, 0 if it is empty.
func median(s []float64) float64 {
	if len(s) == 0 {
		return 0
	}
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
