//go:build !linux

package files

// mapChosen: files are mapped on Linux only.
func mapChosen() bool { return false }

// setMapWindow: no mappings here.
func setMapWindow(int64) (restore func()) { return func() {} }
