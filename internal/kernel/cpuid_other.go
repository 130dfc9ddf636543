//go:build purego || !amd64

package kernel

// CPUName names the CPU for reports where CPUID gives a brand string: here
// nothing does.
func CPUName() string { return "" }
