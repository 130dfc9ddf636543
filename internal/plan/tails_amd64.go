//go:build !purego

package plan

import "github.com/sha256x/sha256x/internal/kernel"

// A Tail is a named run of SHA-NI stages that a mixed plan's lanes may hand
// their last busy lanes to.
type Tail struct {
	Name   string
	Stages []Stage
}

// ShaniTails are the tails the hand-over measurements compare
// (BenchmarkHandOver, bench/planrounds): four streams then two; three for an
// odd count, then two, then one; two alone.
func ShaniTails() []Tail {
	return []Tail{
		{"x4.x2", []Stage{{K: kernel.ShaniX4, Width: 4, MinActive: 3}, {K: kernel.ShaniX2, Width: 2, MinActive: 1}}},
		{"x3odd.x2.x1", []Stage{{K: kernel.ShaniX3, Width: 3, MinActive: 3, Odd: true}, {K: kernel.ShaniX2, Width: 2, MinActive: 2}, {K: kernel.ShaniX1, Width: 1, MinActive: 1}}},
		{"x2", []Stage{{K: kernel.ShaniX2, Width: 2, MinActive: 1}}},
	}
}
