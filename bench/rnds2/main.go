//go:build amd64

// Command rnds2 measures, in core cycles, what bounds the SHA-NI kernels on
// this CPU: the latency of one SHA256RNDS2 (one stream's two rounds wait for
// the last two), its throughput with two and four independent streams, and
// what a legacy-SSE SHA256RNDS2 costs among AVX2 instructions that leave the
// upper halves of the vector registers dirty, and, with AVX-512, what SHA-NI
// streams cost beside AVX-512 lane work kept in Z16-Z31 (which leaves those
// halves clean): why no kernel here mixes SHA-NI streams with AVX2 or
// AVX-512 lanes in one loop; and the latency and throughput of the lane
// kernels' own operations, 512-bit (AVX-512) and 256-bit (AVX2). A cycle is
// timed as one step of a chain of dependent register ADDs.
//
//	cd bench && go run ./rnds2
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/cpu"
)

func addChain(n int)      // 4n dependent ADDQ
func rnds2Chain(n int)    // 4n SHA256RNDS2, each on the last one's result
func rnds2Streams2(n int) // 4n SHA256RNDS2 on two independent streams
func rnds2Streams4(n int) // 4n SHA256RNDS2 on four independent streams
func mixedDirty(n int)    // n x (2 SHA256RNDS2 among 8 AVX2 instructions)
func mixedClean(n int)    // the same AVX2 instructions alone

// best returns the fastest of five timings of f(n), in nanoseconds.
func best(f func(int), n int) float64 {
	b := 1e18
	for range 5 {
		t := time.Now()
		f(n)
		b = min(b, float64(time.Since(t).Nanoseconds()))
	}
	return b
}

func main() {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimLeft(name, "\t :")
				break
			}
		}
	}
	if !hasSHA() || !cpu.X86.HasAVX2 {
		fmt.Println("rnds2: needs SHA-NI and AVX2")
		return
	}
	const n = 5_000_000
	cycle := best(addChain, n) / (4 * n)
	per := func(f func(int), ops int) float64 { return best(f, n) / float64(ops*n) / cycle }
	lat, thr2, thr4 := per(rnds2Chain, 4), per(rnds2Streams2, 4), per(rnds2Streams4, 4)
	fmt.Printf("# %s, %.2f GHz\n", model, 1/cycle)
	fmt.Printf("SHA256RNDS2 latency (one stream):        %5.2f cycles\n", lat)
	fmt.Printf("SHA256RNDS2 throughput, 2 streams:       %5.2f cycles each\n", thr2)
	fmt.Printf("SHA256RNDS2 throughput, 4 streams:       %5.2f cycles each\n", thr4)
	fmt.Printf("floor of a 64-byte message (64 of them): %5.1f ns alone, %5.1f ns back to back\n",
		64*lat*cycle, 64*min(thr2, thr4)*cycle)
	clean := per(mixedClean, 1)
	dirty := per(mixedDirty, 1)
	fmt.Printf("8 AVX2 instructions:                     %5.1f cycles\n", clean)
	fmt.Printf("the same with 2 SHA256RNDS2 among them:  %5.1f cycles (dirty upper state)\n", dirty)

	if !cpu.X86.HasAVX512F {
		return
	}
	var k [4]uint32
	perK := func(f func(int, *[4]uint32)) float64 {
		const m = 200_000
		return best(func(n int) { f(n, &k) }, m) / m / cycle
	}
	z, r, zr := perK(zmmAlone), perK(rnds2Alone), perK(zmmRnds2)
	b, zb := perK(blocksAlone), perK(zmmBlocks)
	fmt.Printf("AVX-512 lanes and SHA-NI streams in one loop, the lanes on Z16-Z31 (upper state clean):\n")
	fmt.Printf("512 512-bit operations:                  %5.0f cycles\n", z)
	fmt.Printf("64 SHA256RNDS2, two streams:             %5.0f cycles\n", r)
	fmt.Printf("both, interleaved:                       %5.0f cycles (%.2f more per SHA256RNDS2)\n", zr, (zr-z)/64)
	fmt.Printf("2 SHA-NI blocks with their schedule:     %5.0f cycles\n", b)
	fmt.Printf("512 operations and the 2 blocks:         %5.0f cycles (%.0f more per block)\n", zb, (zb-z)/2)

	// A lane round's critical path is a chain of these three: their
	// latency, against their throughput, says whether the lane kernel waits
	// on the chain or on the ports.
	latencies(per, "512-bit operations", []timedOp{{"VPADDD", zaddChain, zaddIndep}, {"VPRORD", zrorChain, zrorIndep}, {"VPTERNLOGD", zternChain, zternIndep}})
	fmt.Printf("a copy and an add, dependent:              %5.2f cycles (the add alone: 2 for latency 2)\n", 2*per(zmovAddChain, 32))
	fmt.Printf("copies, 8 independent:                     %5.2f cycles each\n", per(zmovIndep, 32))
	fmt.Printf("VPRORD beside VPTERNLOGD, independent:     %5.2f cycles each\n", per(zrorTernIndep, 32))
	fmt.Printf("VPRORD beside VPADDD, independent:         %5.2f cycles each\n", per(zrorAddIndep, 32))
	latencies(per, "256-bit operations (the AVX2 lanes')", []timedOp{{"VPADDD", yaddChain, yaddIndep}, {"VPXOR", yxorChain, yxorIndep}, {"VPSRLD", yshrChain, yshrIndep}})
}

// A timedOp is one operation's probes: 32n of it in one dependent chain, and
// 32n as 8 independent chains.
type timedOp struct {
	name         string
	chain, indep func(int)
}

// latencies prints each op's latency and its cycles each when independent,
// timed with per (cycles an operation of f, ops of them a loop step).
func latencies(per func(f func(int), ops int) float64, title string, ops []timedOp) {
	fmt.Printf("%s, latency / cycles each of 8 independent:\n", title)
	for _, op := range ops {
		fmt.Printf("%-10s                               %5.2f / %4.2f cycles\n", op.name, per(op.chain, 32), per(op.indep, 32))
	}
}
