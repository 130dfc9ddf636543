//go:build !linux

package files

import "sync/atomic"

const ringMin = 1 << 30 // never: io_uring is Linux's

type ringReader struct{}

func (*ringReader) close() {}

func (w *worker) release() {}

func (w *worker) discard() {}

func (w *worker) park(r *run) {}

func (w *worker) unpark(r *run) {}

func handBackRings(r *run) {}

func (w *worker) ringSmalls(r *run, todo []*item) (rest, large []*item) { return todo, nil }

func longerPlain() bool { return false }

var ringFiles, ringUnsettled atomic.Int64

// probeMax is the size of a probe read on Linux (ringread_linux.go).
const probeMax = 16 << 10

// dropKept closes the rings kept for the next call: there are none here.
func dropKept() bool { return false }
