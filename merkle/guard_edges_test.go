//go:build linux || darwin

package merkle

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/guardmem"
)

// TestGuardEdges: leaves (their bytes and the [][]byte), leaf nodes and a
// scheme's own prefixes ending at an unmapped page or starting right after
// one, through Root, RootNodes, Build, BuildNodes, Proof, Verify, LeafHash
// and Mutable, against the reference trees of ref_test.go.
func TestGuardEdges(t *testing.T) {
	data := guardmem.Mem(t, 64<<10)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	hdr := guardmem.Mem(t, 1100*24)
	nodeMem := guardmem.Mem(t, 1100*Size)
	pre := guardmem.Mem(t, 4096)
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65, 100, 1000}
	for _, at := range []string{"end", "start"} {
		// RFC 6962 with its prefixes in guarded memory too.
		rfc := RFC6962
		if at == "end" {
			rfc.LeafPrefix = pre[len(pre)-1:]
			rfc.Node.Prefix = pre[:1:1]
		} else {
			rfc.LeafPrefix = pre[:1:1]
			rfc.Node.Prefix = pre[len(pre)-1:]
		}
		rfc.LeafPrefix[0], rfc.Node.Prefix[0] = 0, 1
		for _, n := range sizes {
			leaves := unsafe.Slice((*[]byte)(unsafe.Pointer(&hdr[0])), n)
			if at == "end" {
				leaves = unsafe.Slice((*[]byte)(unsafe.Pointer(&hdr[len(hdr)-24*n])), n)
			}
			nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&nodeMem[0])), n)
			if at == "end" {
				nodes = unsafe.Slice((*[Size]byte)(unsafe.Pointer(&nodeMem[len(nodeMem)-Size*n])), n)
			}
			for i := range leaves {
				l := (i * 37) % 200
				if i%2 == 0 {
					leaves[i] = data[len(data)-l-i:][:l:l]
				} else {
					leaves[i] = data[i : i+l : i+l]
				}
				if i%5 == 4 {
					leaves[i] = data[len(data)-l:]
				}
				copy(nodes[i][:], data[len(data)-Size-i:])
			}
			heap := make([][]byte, n)
			for i := range heap {
				heap[i] = append([]byte(nil), leaves[i]...)
			}
			what := fmt.Sprintf("%d leaves at the %s", n, at)
			var got [Size]byte
			guardmem.Try(t, what+": RFC 6962 Root", func() { got = rfc.Root(leaves) })
			if got != refRFC6962(heap) {
				t.Fatalf("%s: RFC 6962 root wrong", what)
			}
			var tr *Tree
			guardmem.Try(t, what+": RFC 6962 Build", func() { tr = rfc.Build(leaves) })
			if tr.Root() != refRFC6962(heap) {
				t.Fatalf("%s: RFC 6962 Build root wrong", what)
			}
			for _, i := range []int{0, n / 2, n - 1} {
				p := tr.Proof(i)
				guardmem.Try(t, what+": Verify", func() {
					if err := rfc.Verify(tr.Root(), leaves[i], p); err != nil {
						panic(err)
					}
				})
			}
			var m *Mutable
			guardmem.Try(t, what+": Mutable", func() {
				m = rfc.NewMutable(leaves)
				m.Set(n-1, leaves[0])
				m.Append(leaves[n-1])
				got = m.Root()
			})
			h2 := append(append([][]byte(nil), heap...), heap[n-1])
			h2[n-1] = heap[0]
			if got != refRFC6962(h2) {
				t.Fatalf("%s: Mutable root wrong", what)
			}
			for _, s := range []struct {
				name string
				s    *Scheme
				ref  func([][Size]byte) [Size]byte
			}{{"bitcoin", &Bitcoin, refBitcoin}, {"binary", &Binary, refBinary}} {
				hn := append([][Size]byte(nil), nodes...)
				guardmem.Try(t, what+": "+s.name+" RootNodes", func() { got = s.s.RootNodes(nodes) })
				if got != s.ref(hn) {
					t.Fatalf("%s: %s RootNodes wrong", what, s.name)
				}
				guardmem.Try(t, what+": "+s.name+" BuildNodes", func() { tr = s.s.BuildNodes(nodes) })
				if tr.Root() != s.ref(hn) {
					t.Fatalf("%s: %s BuildNodes wrong", what, s.name)
				}
				raw := make([][]byte, n)
				for i := range raw {
					raw[i] = nodes[i][:]
				}
				guardmem.Try(t, what+": "+s.name+" Root", func() { got = s.s.Root(raw) })
				if got != s.ref(hn) {
					t.Fatalf("%s: %s Root wrong", what, s.name)
				}
			}
			// Solana: leaves through LeafHash, against agave's tree.
			ln := make([][Size]byte, n)
			for i := range ln {
				ln[i] = sha(solanaLeafPrefix, heap[i])
			}
			at := agaveTree(ln)
			guardmem.Try(t, what+": Solana Root", func() { got = Solana.Root(leaves) })
			if got != at[len(at)-1] {
				t.Fatalf("%s: Solana root wrong", what)
			}
		}
	}
}
