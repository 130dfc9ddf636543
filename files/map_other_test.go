//go:build !linux

package files

// mapChosen: files are mapped on Linux only.
func mapChosen() bool { return false }
