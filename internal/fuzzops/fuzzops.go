// Package fuzzops draws the steps of a random sequence of operations from
// a fuzzer's bytes, and from a generator once the bytes run out: what the
// fuzz tests of the trees that change (internal/pages, hashtree) share.
package fuzzops

import "math/rand/v2"

// Ops is a source of steps: B's bytes two at a time, then R.
type Ops struct {
	B []byte
	R *rand.Rand
}

// N returns a step in [0, max), or 0 if max <= 0.
func (o *Ops) N(max int) int {
	if max <= 0 {
		return 0
	}
	if len(o.B) >= 2 {
		v := int(o.B[0])<<8 | int(o.B[1])
		o.B = o.B[2:]
		return v % max
	}
	return o.R.IntN(max)
}
