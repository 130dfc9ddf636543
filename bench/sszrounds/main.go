// Command sszrounds times the SSZ drop-in's small levels round by round
// against gohashtree and hashtree: in every round each implementation
// hashes a level of n pairs -calls times (Hash into a second buffer, and
// HashByteSlice in place as fastssz calls it), the order of the
// implementations turning from round to round, so that a slow spell of the
// host lands on all of them. It prints, for each n, each implementation's
// median and fastest round and the median and worst per-round ratio of each peer's time
// to sha256x's (above 1: sha256x faster).
//
//	cd bench && go run ./sszrounds [-rounds 40] [-calls 4000] [-pairs 1,2,4,16]
package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/bench"
	sszx "github.com/sha256x/sha256x/hashtree"
)

type impl struct {
	name string
	f    func()
	ns   []float64
}

func main() {
	rounds := flag.Int("rounds", 40, "rounds")
	calls := flag.Int("calls", 4000, "calls of each implementation per round, timed together")
	pairsFlag := flag.String("pairs", "1,2,4,16", "level sizes, comma-separated")
	flag.Parse()
	fmt.Printf("sha256x plan %s; %d rounds of %d calls; ns per call, median round\n", sha256x.Kernel(), *rounds, *calls)
	for _, s := range strings.Split(*pairsFlag, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			panic("sszrounds: bad -pairs " + s)
		}
		l := bench.NewLevel(n)
		flat := unsafe.Slice(&l.Nodes[0][0], 64*n)
		must := func(err error) {
			if err != nil {
				panic(err)
			}
		}
		for _, form := range []string{"Hash", "HashByteSlice in place"} {
			var ims []*impl
			if form == "Hash" {
				ims = []*impl{
					{name: "sha256x", f: func() { must(sszx.Hash(l.Out, l.Nodes)) }},
					{name: "gohashtree", f: func() { must(gohashtree.Hash(l.Out, l.Nodes)) }},
					{name: bench.HashtreeName, f: func() { must(hashtree.Hash(l.Out, l.Nodes)) }},
				}
			} else {
				ims = []*impl{
					{name: "sha256x", f: func() { must(sszx.HashByteSlice(flat, flat)) }},
					{name: "gohashtree", f: func() { must(gohashtree.HashByteSlice(flat, flat)) }},
					{name: bench.HashtreeName, f: func() { must(hashtree.HashByteSlice(flat, flat)) }},
				}
			}
			var rg, rh []float64
			for r := range *rounds {
				for k := range ims {
					im := ims[(k+r)%len(ims)]
					t0 := time.Now()
					for range *calls {
						im.f()
					}
					im.ns = append(im.ns, float64(time.Since(t0).Nanoseconds())/float64(*calls))
				}
				rg = append(rg, ims[1].ns[r]/ims[0].ns[r])
				rh = append(rh, ims[2].ns[r]/ims[0].ns[r])
			}
			line := fmt.Sprintf("%-24s pairs=%-5d", form, n)
			for _, im := range ims {
				line += fmt.Sprintf("  %s %.1f (fastest %.1f)", im.name, median(im.ns), slices.Min(im.ns))
			}
			fmt.Printf("%s   gohashtree/sha256x %.3f (worst %.3f), %s/sha256x %.3f (worst %.3f)\n", line, median(rg), slices.Min(rg), ims[2].name, median(rh), slices.Min(rh))
		}
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}
