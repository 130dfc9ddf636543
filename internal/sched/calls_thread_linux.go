//go:build sha256x_calltime && linux

package sched

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadTime is the CPU time of the calling thread, in nanoseconds.
func threadTime() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return int64(time.Since(epoch))
	}
	return ts.Nano()
}
