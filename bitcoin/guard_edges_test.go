//go:build linux || darwin

package bitcoin

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/guardmem"
)

// TestGuardEdges: blocks that end at an unmapped page or start right after
// one hash as they do elsewhere; every truncation of them, ending at the
// unmapped page, is an error, not a fault; headers at page edges.
func TestGuardEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 77))
	var h Hasher
	for _, n := range []int{1, 2, 3, 7, 64} {
		for _, share := range []int{0, 50, 100} {
			txs := make([]testTx, n)
			for i := range txs {
				txs[i] = makeTx(r, r.IntN(100) < share, 60, i == 0)
			}
			block := makeBlock(txs)
			mem := guardmem.Mem(t, len(block))
			for _, at := range []string{"end", "start"} {
				var b []byte
				if at == "end" {
					b = mem[len(mem)-len(block):]
				} else {
					b = mem[:len(block):len(block)]
				}
				copy(b, block)
				what := fmt.Sprintf("block of %d txs (%d%% segwit) at the %s", n, share, at)
				guardmem.Try(t, what, func() { checkSums(t, &h, b, txs) })
			}
			// Every truncation ends at the unmapped page.
			cuts := len(block)
			if n == 64 {
				cuts = 600
			}
			for c := range cuts {
				b := mem[len(mem)-c:]
				copy(b, block[:c])
				what := fmt.Sprintf("block of %d txs cut to %d bytes at the end", n, c)
				for _, f := range []func([]byte) error{
					func(b []byte) error { _, err := h.Block(b); return err },
					func(b []byte) error { _, err := h.TxIDs(b); return err },
					func(b []byte) error { _, err := h.WTxIDs(b); return err },
					func(b []byte) error { _, err := Parse(nil, b); return err },
				} {
					var err error
					guardmem.Try(t, what, func() { err = f(b) })
					if !errors.Is(err, ErrMalformed) {
						t.Fatalf("%s: %v, want ErrMalformed", what, err)
					}
				}
			}
		}
	}
	// Headers at page edges, and their [][]byte.
	mem := guardmem.Mem(t, 4096)
	hdrMem := guardmem.Mem(t, 4096)
	for i := range mem {
		mem[i] = byte(i * 3)
	}
	for _, n := range []int{1, 2, 3, 5, 6, 17, 40} {
		headers := unsafe.Slice((*[]byte)(unsafe.Pointer(&hdrMem[len(hdrMem)-24*n])), n)
		for i := range headers {
			if i%2 == 0 {
				headers[i] = mem[len(mem)-HeaderSize-i:][:HeaderSize:HeaderSize]
			} else {
				headers[i] = mem[i : i+HeaderSize : i+HeaderSize]
			}
		}
		out := make([][Size]byte, n)
		guardmem.Try(t, fmt.Sprintf("%d headers", n), func() {
			if err := HeaderHashes(out, headers); err != nil {
				panic(err)
			}
		})
		for i := range out {
			if out[i] != sha256d(headers[i]) {
				t.Fatalf("%d headers at page edges: hash %d wrong", n, i)
			}
		}
		clear(headers)
	}
}
