package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"runtime"
	"time"
	"unsafe"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/pauses"
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
	var eight [][]byte
	for i := range 8 {
		eight = append(eight, buf[i*64*mib:][:64*mib])
	}
	out := make([][sha256x.Size]byte, 8)
	nodes := unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(&buf[0])), len(buf)/sha256x.Size)
	level := make([][sha256x.Size]byte, len(nodes)/2)
	digests := func() []*sha256x.Digest {
		ds := make([]*sha256x.Digest, 8)
		for i := range ds {
			ds[i] = new(sha256x.Digest)
		}
		return ds
	}
	cases := []struct {
		name string
		f    func()
	}{
		{"Sum256", func() { sha256x.Sum256(buf) }},
		{"HashMany 1 x 512 MiB", func() { sha256x.HashMany(out, [][]byte{buf}) }},
		{"HashMany 8 x 64 MiB", func() { sha256x.HashMany(out, eight) }},
		{"HashManyPrefixed 8 x 64 MiB", func() { sha256x.HashManyPrefixed(out, buf[:100], eight) }},
		{"Digest.Write", func() { new(sha256x.Digest).Write(buf) }},
		{"WriteMany 8 x 64 MiB", func() { sha256x.WriteMany(digests(), eight) }},
		{"HashLevel of 512 MiB", func() { sha256x.Join{}.HashLevel(level, nodes) }},
	}
	const long = 2 * time.Millisecond
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "CPU: %s (%s, GOMAXPROCS %d); %s; kernel %s\n", cpuName(), runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version(), sha256x.Kernel())
	if runtime.GOMAXPROCS(0) < 2 {
		fmt.Fprintln(w, "GOMAXPROCS is 1: the forced GCs run between calls, so this measures little")
	}
	fmt.Fprintf(w, "512 MiB through each entry point; a GC forced every millisecond; stops over %v count as long\n\n", long)
	for _, c := range cases {
		for r := range max(rounds, 1) {
			fmt.Fprintf(w, "%-28s run %d: %v\n", c.name, r+1, pauses.Measure(c.f, long))
			fmt.Fprintf(w, "%-28s run %d: %v\n", "  crypto/sha256.Sum256", r+1, pauses.Measure(func() { sha256.Sum256(buf) }, long))
			w.Flush()
		}
	}
	return 0
}
