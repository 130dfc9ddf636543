//go:build !purego

package kernel

import "unsafe"

// PrefetchW asks for the cache lines at the addresses at, to be written:
// PREFETCHW, which neither waits for them nor faults. A hint: a CPU
// without it runs it as a no-op.
//
//go:noescape
func PrefetchW(at []unsafe.Pointer)
