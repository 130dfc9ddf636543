//go:build !purego

package kernel

import "golang.org/x/sys/cpu"

// Missing returns the CPU feature this machine lacks to run the kernels of
// family f, or "" if it can run them.
func Missing(f string) string {
	switch f {
	case "shani":
		switch {
		case !CPU.SHA:
			return "SHA (SHA-NI)"
		case !cpu.X86.HasSSE41:
			return "SSE4.1"
		}
	case "avx2":
		if !cpu.X86.HasAVX2 {
			return "AVX2"
		}
	case "avx512":
		// The kernel's lane bookkeeping uses AVX2 instructions (every
		// AVX-512 CPU has them).
		if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW || !cpu.X86.HasAVX2 {
			return "AVX-512 F+BW and AVX2"
		}
	}
	return ""
}

// useVZEROUPPER tells the SHA-NI kernels they may clear upper AVX state
// (legacy-SSE SHA-NI code runs slowly after AVX-512 code left it dirty).
//
//lint:ignore U1000 read by shani_amd64.s and chain_amd64.s
var useVZEROUPPER = cpu.X86.HasAVX
