//go:build !purego

package kernel

import "golang.org/x/sys/cpu"

// Missing returns the CPU feature this machine lacks to run the kernels of
// family f, or "" if it can run them.
func Missing(f string) string {
	switch f {
	case "sha2":
		switch {
		case !cpu.ARM64.HasASIMD:
			return "ASIMD (NEON)"
		case !cpu.ARM64.HasSHA2:
			return "SHA2 (the ARMv8 SHA-256 instructions)"
		}
	case "neon":
		if !cpu.ARM64.HasASIMD {
			return "ASIMD (NEON)"
		}
	}
	return ""
}
