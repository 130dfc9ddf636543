//go:build unix

package bench

import "syscall"

// minorFaults is the process's minor page faults so far (getrusage), or -1
// where it cannot tell: a host's cost of fresh memory is its faults times
// their price, so a benchmark that reports them says which half moved.
func minorFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return int64(ru.Minflt)
}
