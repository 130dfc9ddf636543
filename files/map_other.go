//go:build !linux

package files

// Files are mapped on Linux only (map_linux.go); elsewhere they are read.

import "sync/atomic"

const mapMinSize = 0

var mapFiles atomic.Int64

type mapping struct{ used bool }

func (*mapping) active() bool { return false }

func (*source) mapFile(int64) {}

func (*source) mapped(int) []byte { return nil }

func (*mapping) forget() {}

func (*mapping) end() {}
