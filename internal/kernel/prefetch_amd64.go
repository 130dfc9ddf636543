//go:build !purego

package kernel

import "unsafe"

// PrefetchW asks for the cache lines at the addresses at, to be written:
// PREFETCHW, which neither waits for them nor faults. Only where the CPU
// has it (CPUID 80000001h ECX bit 8: every AMD64 CPU of AMD's, Intel's
// since Broadwell): its callers run it where plan.WriteAhead is set, on
// routes of CPUs that have it (internal/plan's routes).
//
//go:noescape
func PrefetchW(at []unsafe.Pointer)
