//go:build purego || !amd64

package kernel

// Name names the CPU for reports where CPUID gives a brand string: here
// nothing does.
func Name() string { return "" }
