// Command prefixrounds times HashManyPrefixed against HashMany of the same
// bytes concatenated (issue 22: the prefixed path as fast as the
// concatenated one), round robin in one process, on the prefixed shapes of
// internal/shapes. Besides the two it times, as controls, the
// concatenations placed 38 bytes past a 64-byte boundary (HashManyPrefixed
// reads a 26-byte prefix's messages from that offset on) and, for solana, a
// 64-byte prefix with each message 38 bytes shorter (the prefix then a
// shared midstate, the messages read from their start). It prints each
// one's median call and the median of its per-round time over the
// concatenated one's.
//
//	cd bench && go run ./prefixrounds [-rounds 400] [-calls 20]
package main

import (
	"flag"
	"fmt"
	"slices"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/shapes"
)

func main() {
	rounds := flag.Int("rounds", 400, "rounds")
	calls := flag.Int("calls", 20, "calls of each implementation per round, timed together")
	flag.Parse()
	fmt.Printf("sha256x plan %s; %d rounds of %d calls\n", sha256x.Kernel(), *rounds, *calls)
	for _, s := range shapes.All() {
		if len(s.Prefix) == 0 {
			continue
		}
		cat := make([][]byte, len(s.Msgs))
		off := make([][]byte, len(s.Msgs))
		for i, m := range s.Msgs {
			cat[i] = append(append(make([]byte, 0, len(s.Prefix)+len(m)), s.Prefix...), m...)
			b := make([]byte, 64+38+len(cat[i]))
			off[i] = b[64+38:]
			copy(off[i], cat[i])
		}
		out := make([][32]byte, len(s.Msgs))
		names := []string{"HashManyPrefixed", "HashMany, concatenated", "the same at offset 38"}
		fs := []func(){
			func() { sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs) },
			func() { sha256x.HashMany(out, cat) },
			func() { sha256x.HashMany(out, off) },
		}
		if s.Name == "solana" {
			short := make([][]byte, len(s.Msgs))
			for i, m := range s.Msgs {
				short[i] = m[:len(m)-(64-len(s.Prefix))]
			}
			pre64 := make([]byte, 64)
			names = append(names, "64-byte prefix, messages shorter")
			fs = append(fs, func() { sha256x.HashManyPrefixed(out, pre64, short) })
		}
		ns := make([][]float64, len(fs))
		for r := range *rounds {
			for k := range fs {
				i := (k + r) % len(fs)
				t0 := time.Now()
				for range *calls {
					fs[i]()
				}
				ns[i] = append(ns[i], float64(time.Since(t0).Nanoseconds())/float64(*calls))
			}
		}
		for i := range fs {
			var rat []float64
			for r := range ns[i] {
				rat = append(rat, ns[i][r]/ns[1][r])
			}
			fmt.Printf("%-12s %-34s %8.0f ns  over concatenated %.4f\n", s.Name, names[i], median(ns[i]), median(rat))
		}
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
