//go:build !purego

package sha256x

import (
	"fmt"
	"os"
	"testing"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/shapes"
)

// BenchmarkHandOver times the batch shapes on variants of the dispatched
// plan, where it starts on AVX-512 lanes and ends on SHA-NI streams: the
// lanes handing over at each MinActive from 6 to 16, to each of three SHA-NI
// tails. It is what the mixed plans' first stage and tail rest on
// (BENCHMARKS.md, "AMD Zen 5: avx512+shani" and "Intel Xeon (family 6,
// model 167): avx512+shani2"); it runs only with HANDOVER=1. Compare with benchstat
// -col /min or -col /tail.
func BenchmarkHandOver(b *testing.B) {
	if os.Getenv("HANDOVER") == "" {
		b.Skip("HANDOVER=1 runs it")
	}
	tails := plan.ShaniTails()
	var batches []*shapes.Shape
	for _, s := range shapes.All() {
		switch s.Name {
		case "solana", "tape-leaves", "short", "mixed":
			batches = append(batches, s)
		}
	}
	base := plan.Active
	if base.Stdlib || kernel.Lookup(base.Stages[0].K).Family != "avx512" || kernel.Lookup(base.One[0].K).Family != "shani" {
		b.Skip("the dispatched plan " + base.Name + " does not start on AVX-512 lanes and end on SHA-NI")
	}
	{
		for _, tail := range tails {
			for m := 6; m <= 16; m += 2 {
				v := *base
				v.Stages = append([]plan.Stage{base.Stages[0]}, tail.Stages...)
				v.Stages[0].MinActive = m
				pl := plan.New(v)
				for _, s := range batches {
					out := make([][Size]byte, len(s.Msgs))
					b.Run(fmt.Sprintf("plan=%s/shape=%s/tail=%s/min=%02d", base.Name, s.Name, tail.Name, m), func(b *testing.B) {
						b.SetBytes(s.Bytes())
						for b.Loop() {
							hashMany(pl, out, s.Prefix, s.Msgs)
						}
					})
				}
			}
		}
	}
}
