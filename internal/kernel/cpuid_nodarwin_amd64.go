//go:build !purego && !darwin

package kernel

// osSavesAVX512 reports whether the operating system gives this process
// the AVX-512 registers: XCR0's opmask, upper ZMM 0-15 and ZMM 16-31
// states.
func osSavesAVX512(xcr0 uint32) bool { return xcr0&0b11100000 == 0b11100000 }
