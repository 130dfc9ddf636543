// Command cold times the solana and tape-leaves shapes on data that is not
// in the cache: each call hashes the next copy of the batch from a buffer of
// -mib MiB (the batches laid out one after another, as a store or a receive
// queue would hold them), crypto/sha256 and sha256x.HashManyPrefixed taking
// turns round by round; and, beside it, the same with one copy (warm, as
// BenchmarkShapes times it). It prints the median and fastest round of each
// and their ratio.
//
//	cd bench && go run ./cold [-mib 512] [-rounds 30] [-calls 200]
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/shapes"
)

func main() {
	mib := flag.Int("mib", 512, "MiB of batches to cycle through for cold data")
	rounds := flag.Int("rounds", 30, "rounds")
	calls := flag.Int("calls", 200, "calls of each implementation per round")
	flag.Parse()
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimLeft(name, "\t :")
				break
			}
		}
	}
	fmt.Printf("# %s, sha256x %s; %d rounds of %d calls; us per call\n", cpu, sha256x.Kernel(), *rounds, *calls)
	fmt.Printf("%-12s %-9s %9s %9s %9s %9s %8s\n", "shape", "data", "crypto", "fastest", "sha256x", "fastest", "ratio")
	for _, s := range shapes.All() {
		if s.Name != "solana" && s.Name != "tape-leaves" {
			continue
		}
		size := 0
		for _, m := range s.Msgs {
			size += len(m)
		}
		for _, copies := range []int{1, max(1, *mib<<20/size)} {
			// copies batches, each message a slice of one big buffer.
			buf := make([]byte, copies*size)
			batches := make([][][]byte, copies)
			off := 0
			for b := range batches {
				for _, m := range s.Msgs {
					batches[b] = append(batches[b], buf[off:off+len(m)])
					off += copy(buf[off:], m)
				}
			}
			out := make([][sha256x.Size]byte, len(s.Msgs))
			h := sha256.New()
			var ns [2][]float64
			k := 0
			for r := range *rounds {
				for j := range 2 {
					impl := (j + r) % 2
					start := time.Now()
					for range *calls {
						msgs := batches[k%copies]
						k++
						if impl == 0 {
							(&shapes.Shape{Prefix: s.Prefix, Msgs: msgs}).HashCrypto(out, h)
						} else {
							sha256x.HashManyPrefixed(out, s.Prefix, msgs)
						}
					}
					ns[impl] = append(ns[impl], float64(time.Since(start).Nanoseconds())/float64(*calls)/1e3)
				}
			}
			c, x := slices.Sorted(slices.Values(ns[0])), slices.Sorted(slices.Values(ns[1]))
			data := "warm"
			if copies > 1 {
				data = fmt.Sprintf("%d MiB", copies*size>>20)
			}
			fmt.Printf("%-12s %-9s %9.2f %9.2f %9.2f %9.2f %7.2fx\n", s.Name, data, c[len(c)/2], c[0], x[len(x)/2], x[0], c[len(c)/2]/x[len(x)/2])
		}
	}
}
