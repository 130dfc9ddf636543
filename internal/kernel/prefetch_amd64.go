//go:build !purego

package kernel

import "unsafe"

// PrefetchW asks for the cache lines at the addresses at, to be written:
// PREFETCHW, which neither waits for them nor faults. Only where the CPU
// has it: its callers run it where plan.WriteAhead is set, on the routes of
// CPUs that have it.
//
//go:noescape
func PrefetchW(at []unsafe.Pointer)
