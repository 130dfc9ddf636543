//go:build purego || !amd64

package kernel

import "unsafe"

// PrefetchW asks for the cache lines at the addresses at, to be written:
// here it does nothing (no measurement of a prefetch on these builds).
func PrefetchW(at []unsafe.Pointer) {}
