//go:build !purego

package kernel

// Missing returns the CPU feature this machine lacks to run the kernels of
// family f, or "" if it can run them.
func Missing(f string) string {
	switch f {
	case "shani":
		switch {
		case !CPU.SHA:
			return lacks("SHA (SHA-NI)", detected.SHA)
		case !CPU.SSSE3:
			// PSHUFB, PALIGNR: every CPU with SHA-NI has them, but a hypervisor's
			// CPU model may not say so.
			return lacks("SSSE3", detected.SSSE3)
		case !CPU.SSE41:
			return lacks("SSE4.1", detected.SSE41)
		}
	case "avx2":
		if !CPU.AVX2 {
			return lacks("AVX2", detected.AVX2)
		}
	case "avx512":
		// The kernel's lane bookkeeping uses AVX2 instructions (every
		// AVX-512 CPU has them).
		switch {
		case !CPU.AVX512:
			return lacks("AVX-512 F+BW", detected.AVX512)
		case !CPU.AVX2:
			return lacks("AVX2", detected.AVX2)
		}
	}
	return ""
}

// lacks names a missing feature, and says so where the CPU has it but
// GODEBUG turned it off.
func lacks(feature string, detected bool) string {
	if detected {
		return feature + " (turned off by GODEBUG)"
	}
	return feature
}

// useVZEROUPPER tells the SHA-NI kernels they may clear upper AVX state
// (legacy-SSE SHA-NI code runs slowly after AVX-512 code left it dirty).
//
//lint:ignore U1000 read by shani_amd64.s and chain_amd64.s
var useVZEROUPPER = CPU.AVX
