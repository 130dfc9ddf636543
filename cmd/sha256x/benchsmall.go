package main

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/shapes"
)

// benchSmall prints HashMany and HashManyPrefixed of small batches, and
// Sum256 of 64 bytes, as ratios to crypto/sha256 one message after another:
// the fixed cost of a call, which a batch too small for the streams must
// not pay. Each point is the median of rounds measurements, crypto/sha256
// and sha256x interleaved.
func benchSmall(stdout io.Writer, rounds int, each time.Duration) int {
	sizes := []int{32, 64, 200, 1024}
	counts := []int{1, 2, 3, 4, 5, 6, 8}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "CPU: %s (%s); %s; kernel %s\n", cpuName(), runtime.GOARCH, runtime.Version(), sha256x.Kernel())
	fmt.Fprintf(w, "sha256x / crypto/sha256, medians of %d measurements of %v, interleaved, one core\n\n", max(rounds, 1), each)
	fmt.Fprintf(w, "%-32s", "messages")
	for _, n := range counts {
		fmt.Fprintf(w, " %6d", n)
	}
	fmt.Fprintln(w)
	for _, prefix := range [][]byte{nil, []byte("LEAF")} {
		for _, size := range sizes {
			name := fmt.Sprintf("HashMany, %d B", size)
			if prefix != nil {
				name = fmt.Sprintf("HashManyPrefixed LEAF, %d B", size)
			}
			fmt.Fprintf(w, "%-32s", name)
			for _, n := range counts {
				s := &shapes.Shape{Prefix: prefix, Msgs: make([][]byte, n)}
				for i := range s.Msgs {
					s.Msgs[i] = make([]byte, size)
					for j := range s.Msgs[i] {
						s.Msgs[i][j] = byte(i*31 + j*7)
					}
				}
				fmt.Fprintf(w, " %5.2fx", ratio(s, rounds, each))
			}
			fmt.Fprintln(w)
			w.Flush()
		}
	}
	msg := make([]byte, 64)
	s := &shapes.Shape{Msgs: [][]byte{msg}, Single: true}
	fmt.Fprintf(w, "%-32s %5.2fx\n", "Sum256, 64 B", ratio(s, rounds, each))
	return 0
}

// ratio is the median over rounds of sha256x's speed on s over
// crypto/sha256's, each measured for d in turn.
func ratio(s *shapes.Shape, rounds int, d time.Duration) float64 {
	var r []float64
	for range max(rounds, 1) {
		c := measure(s, d, true)
		r = append(r, measure(s, d, false)/c)
	}
	return median(r)
}
