//go:build !purego

package kernel

import "golang.org/x/sys/cpu"

// osSavesAVX512 reports whether the operating system gives this process
// the AVX-512 registers. On macOS XCR0 does not say: the kernel enables
// them on a thread's first use, and before macOS 12.2 it could corrupt the
// opmask registers on return from a signal. x/sys/cpu asks sysctl and
// checks the kernel's version, so on macOS its reading is used.
func osSavesAVX512(uint32) bool { return cpu.X86.HasAVX512F }
