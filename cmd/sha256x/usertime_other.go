//go:build !unix

package main

import "time"

var processStart = time.Now()

// userTime stands in for user CPU time with wall time where getrusage is
// missing.
func userTime() time.Duration { return time.Since(processStart) }
