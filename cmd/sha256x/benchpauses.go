package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/cmd/sha256x/internal/pauses"
)

// benchPauses hashes 512 MiB through each entry point, rounds times, and
// prints what each run cost the rest of the process, with a run of
// crypto/sha256 over the same bytes beside each.
func benchPauses(stdout io.Writer, rounds int) int {
	const mib = 1 << 20
	buf := make([]byte, 512*mib)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	const long = 2 * time.Millisecond
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "CPU: %s (%s, GOMAXPROCS %d); %s; kernel %s\n", cpuName(), runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version(), sha256x.Kernel())
	if runtime.GOMAXPROCS(0) < 2 {
		fmt.Fprintln(w, "GOMAXPROCS is 1: the forced GCs run between calls, so this measures little")
	}
	fmt.Fprintf(w, "512 MiB through each entry point; a GC forced every millisecond; stops over %v count as long\n\n", long)
	for _, c := range pauses.EntryPoints(buf) {
		for r := range max(rounds, 1) {
			fmt.Fprintf(w, "%-28s run %d: %v\n", c.Name, r+1, pauses.Measure(c.Hash, long))
			fmt.Fprintf(w, "%-28s run %d: %v\n", "  crypto/sha256.Sum256", r+1, pauses.Measure(func() { sha256.Sum256(buf) }, long))
			w.Flush()
		}
	}
	return 0
}
