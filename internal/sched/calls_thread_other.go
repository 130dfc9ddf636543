//go:build sha256x_calltime && !linux

package sched

import "time"

// threadTime is the wall clock, where no clock of a thread's time is used.
func threadTime() int64 { return int64(time.Since(epoch)) }
