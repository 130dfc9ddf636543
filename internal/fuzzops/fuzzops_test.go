package fuzzops

import (
	"math/rand/v2"
	"testing"
)

// TestN: the bytes first, two a step, then the generator; always in range.
func TestN(t *testing.T) {
	o := &Ops{B: []byte{0x01, 0x02, 0xff}, R: rand.New(rand.NewPCG(1, 2))}
	if got := o.N(1000); got != 0x0102%1000 {
		t.Fatalf("first step %d, want %d", got, 0x0102%1000)
	}
	if got := o.N(0); got != 0 {
		t.Fatalf("N(0) = %d", got)
	}
	for range 100 {
		if v := o.N(7); v < 0 || v >= 7 {
			t.Fatalf("N(7) = %d", v)
		}
	}
	if len(o.B) != 1 {
		t.Fatalf("a lone byte left should stay unread, %d left", len(o.B))
	}
}
