//go:build !sha256x_calltime

package sched

import "github.com/sha256x/sha256x/internal/kernel"

// instrumented says whether the kernel calls are recorded: only in test
// builds with the sha256x_calltime build tag (calls_on.go). Without it the
// functions below are empty and their calls compiled out: users' binaries
// carry no hook.
const instrumented = false

func callStart() int64                                                   { return 0 }
func noteJobs(kernel.ID, int, int, *kernel.LaneSet, []kernel.Job, int64) {}
func notePairs(kernel.ID, kernel.PairsCall, int, int, int64)             {}
func noteChain(kernel.ID, int, uint64, int64)                            {}
