//go:build linux

// Command faultcost prints what a page fault costs on this host: anonymous
// memory mapped, each 4 KiB page written once (a minor fault, the page
// zeroed), timed a page at a time over the whole mapping, then unmapped,
// for several rounds. The first round may touch memory the guest has never
// used or has handed back (the host backs it then: a costlier fault, a
// host's choice, not the CPU's); later rounds reuse what the guest freed.
// A tree that changes allocates fresh memory as it goes, so its cost on a
// host is its faults (bench's faults/op) times this price
// (bench/HISTORY.md, "Zen 3, ninth: the tiers in every host's check").
//
//	go run ./faultcost [-mib 256] [-rounds 5]
package main

import (
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	mib := flag.Int("mib", 256, "MiB mapped a round")
	rounds := flag.Int("rounds", 5, "rounds")
	flag.Parse()
	n := *mib << 20
	const page = 4096
	for r := 1; r <= *rounds; r++ {
		b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			fmt.Fprintln(os.Stderr, "faultcost:", err)
			os.Exit(1)
		}
		// Pages of 4 KiB whatever the host's transparent huge pages say:
		// one fault a page, as a heap growing a span at a time mostly takes.
		if err := syscall.Madvise(b, 14 /* MADV_NOHUGEPAGE */); err != nil {
			fmt.Fprintln(os.Stderr, "faultcost: madvise:", err)
		}
		t := time.Now()
		for i := 0; i < n; i += page {
			b[i] = 1
		}
		d := time.Since(t)
		fmt.Printf("round %d: %.2f us a fault (%d pages of 4 KiB written once)\n", r, float64(d.Nanoseconds())/1e3/float64(n/page), n/page)
		if err := syscall.Munmap(b); err != nil {
			fmt.Fprintln(os.Stderr, "faultcost:", err)
			os.Exit(1)
		}
	}
}
