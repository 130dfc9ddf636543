//go:build purego || !(amd64 || arm64)

package kernel

// Missing returns the CPU feature this machine lacks to run the kernels of
// family f, or "" if it can run them: the Go kernels run everywhere.
func Missing(string) string { return "" }
