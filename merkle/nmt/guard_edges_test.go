//go:build linux || darwin

package nmt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/guardmem"
)

// TestGuardEdges: leaves, nodes and shares (and the [][]byte of shares)
// ending at an unmapped page or starting right after one: HashLeaf,
// HashNode, Tree.Push/Root, VerifyInclusion and Square.Roots, against the
// spec's definitions in nmt_test.go.
func TestGuardEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	// Each leaf in a guarded area of its own, at the end or the start.
	areas := make([][]byte, 66) // the last two for nodes
	for i := range areas {
		areas[i] = guardmem.Mem(t, 4096)
	}
	place := func(i int, b []byte) []byte {
		a := areas[i]
		if i%2 == 0 {
			return a[len(a)-copy(a[len(a)-len(b):], b):]
		}
		return a[:copy(a, b):len(b)]
	}
	for _, h := range []Hasher{Celestia, {NamespaceSize: 1, IgnoreMaxNamespace: true}, {NamespaceSize: 8}} {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 16, 17, 33, 64} {
			heap := randLeaves(r, h, n)
			leaves := make([][]byte, n)
			for i := range leaves {
				// Some leaves of the namespace alone, some of 55 to 64 bytes
				// after it (a one- or two-block message with the 0x00).
				switch i % 3 {
				case 0:
					heap[i] = heap[i][:h.NamespaceSize]
				case 1:
					heap[i] = append(heap[i][:h.NamespaceSize:h.NamespaceSize], make([]byte, 54+i%11)...)
				}
				leaves[i] = place(i, heap[i])
			}
			what := fmt.Sprintf("%+v, %d leaves", h, n)
			tr := New(h)
			var got []byte
			guardmem.Try(t, what, func() {
				for _, l := range leaves {
					if err := tr.Push(l); err != nil {
						panic(err)
					}
				}
				got = tr.Root()
			})
			if !bytes.Equal(got, refRoot(h, heap)) {
				t.Fatalf("%s: root wrong", what)
			}
			for i, l := range leaves {
				var node []byte
				guardmem.Try(t, what, func() {
					var err error
					if node, err = h.HashLeaf(nil, l); err != nil {
						panic(err)
					}
				})
				if !bytes.Equal(node, refLeaf(h, heap[i])) {
					t.Fatalf("%s: HashLeaf %d wrong", what, i)
				}
			}
			if n >= 2 {
				// Nodes at page edges.
				l, rt := refLeaf(h, heap[0]), refLeaf(h, heap[1])
				gl, gr := place(64, l), place(65, rt)
				var node []byte
				guardmem.Try(t, what+": HashNode", func() {
					var err error
					if node, err = h.HashNode(nil, gl, gr); err != nil {
						panic(err)
					}
				})
				if !bytes.Equal(node, refNode(h, l, rt)) {
					t.Fatalf("%s: HashNode wrong", what)
				}
				k := n / 2
				p, err := tr.ProveRange(k, k+1)

				if err != nil {
					t.Fatal(err)
				}
				guardmem.Try(t, what+": VerifyInclusion", func() {
					if err := h.VerifyInclusion(got, leaves[k:k+1], p); err != nil {
						panic(err)
					}
				})
			}
		}
		// Squares: shares and their [][]byte at page edges.
		sq := NewSquare(h)
		for _, w := range []int{2, 4, 6, 8, 16} {
			for _, shareLen := range []int{h.NamespaceSize, 55, 63, 64, 100} {
				if shareLen < h.NamespaceSize {
					continue
				}
				heap := squareOf(r, h, w, shareLen)
				hdr := guardmem.Mem(t, 24*w*w)
				shares := unsafe.Slice((*[]byte)(unsafe.Pointer(&hdr[len(hdr)-24*w*w])), w*w)
				if w*w <= 64 {
					for i := range shares {
						shares[i] = place(i, heap[i])
					}
				} else {
					// One after another, the first at a page start, the
					// last at a page end.
					all := slices.Concat(heap...)
					g := guardmem.Mem(t, len(all))
					off := len(g) - len(all)
					copy(g[off:], all)
					for i := range shares {
						shares[i] = g[off : off+shareLen : off+shareLen]
						off += shareLen
					}
					shares[0] = g[:copy(g, heap[0]):shareLen]
				}
				var got []byte
				what := fmt.Sprintf("%+v, square %d wide of %d-byte shares", h, w, shareLen)
				guardmem.Try(t, what, func() {
					var err error
					if got, err = sq.Roots(nil, shares, w); err != nil {
						panic(err)
					}
				})
				if !bytes.Equal(got, slices.Concat(squareRef(h, heap, w)...)) {
					t.Fatalf("%s: roots wrong", what)
				}
				clear(shares)
			}
		}
	}
}
