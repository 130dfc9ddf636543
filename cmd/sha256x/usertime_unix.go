//go:build unix

package main

import (
	"syscall"
	"time"
)

// userTime is the process's user CPU time, which FreeBSD's time trial
// measures.
func userTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}
