//go:build sha256x_calltime

package sched

import "github.com/sha256x/sha256x/internal/kernel"

// This build records the kernel calls (go test -tags sha256x_calltime).
const instrumented = true

// CallBlocks records the most blocks a kernel call's queue held.
var CallBlocks CallCounter

// A CallCounter records the most blocks a kernel call's queue held.
type CallCounter struct {
	Most uintptr
}

func noteJobs(jobs []kernel.Job) {
	var n uintptr
	for i := range jobs {
		for _, r := range jobs[i].Runs {
			n += r.N
		}
	}
	CallBlocks.Most = max(CallBlocks.Most, n)
}
