//go:build linux || darwin

package hashtree

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/guardmem"
)

func chunksAt(b []byte, off, n int) [][32]byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*[32]byte)(unsafe.Pointer(&b[off])), n)
}

// TestGuardEdges: the drop-ins (Hash, HashChunks, HashByteSlice, HashOf,
// HashChunksOf), merkleization and the batched roots with their input and
// their digests ending at an unmapped page or starting right after one, in
// place, apart, and with digests below the chunks (gohashtree's trailing
// overlap), against the reference of ref_test.go.
func TestGuardEdges(t *testing.T) {
	in := guardmem.Mem(t, 64<<10)
	out := guardmem.Mem(t, 32<<10)
	r := rand.New(rand.NewPCG(3, 9))
	src := randChunks(r, len(in)/32)
	counts := []int{2, 4, 6, 8, 10, 12, 14, 16, 18, 30, 32, 34, 62, 64, 66, 126, 128, 130, 1000}
	for _, n := range counts {
		want := refPairs(src[:n])
		for _, at := range []string{"end", "start"} {
			off := 0
			if at == "end" {
				off = len(in) - 32*n
			}
			c := chunksAt(in, off, n)
			reset := func() { copy(c, src[:n]) }
			check := func(how string, d [][32]byte, f func()) {
				t.Helper()
				reset()
				what := fmt.Sprintf("%s, %d chunks at the %s", how, n, at)
				guardmem.Try(t, what, f)
				for i := range want {
					if d[i] != want[i] {
						t.Fatalf("%s: digest %d wrong", what, i)
					}
				}
			}
			for _, dat := range []string{"end", "start"} {
				doff := 0
				if dat == "end" {
					doff = len(out) - 16*n
				}
				d := chunksAt(out, doff, n/2)
				check("Hash apart, digests at the "+dat, d, func() {
					if err := Hash(d, c); err != nil {
						panic(err)
					}
				})
				check("HashChunks apart, digests at the "+dat, d, func() { HashChunks(d, c) })
				check("HashByteSlice apart, digests at the "+dat, d, func() {
					if err := HashByteSlice(unsafe.Slice(&d[0][0], 16*n), unsafe.Slice(&c[0][0], 32*n)); err != nil {
						panic(err)
					}
				})
				nd := unsafe.Slice((*named)(unsafe.Pointer(&d[0])), n/2)
				nc := unsafe.Slice((*named)(unsafe.Pointer(&c[0])), n)
				check("HashOf apart, digests at the "+dat, d, func() {
					if err := HashOf(nd, nc); err != nil {
						panic(err)
					}
				})
				check("HashChunksOf apart, digests at the "+dat, d, func() { HashChunksOf(nd, nc) })
			}
			check("Hash in place", c, func() {
				if err := Hash(c, c); err != nil {
					panic(err)
				}
			})
			check("HashByteSlice in place", c, func() {
				b := unsafe.Slice(&c[0][0], 32*n)
				if err := HashByteSlice(b, b); err != nil {
					panic(err)
				}
			})
			// Digests starting below the chunks and running into them:
			// the chunks end at the page end, the digests start gap bytes
			// below them.
			if at == "end" {
				for _, gap := range []int{1, 31, 32, 33, 64, 96, 8 * 32} {
					if gap > off {
						continue
					}
					nb := unsafe.Slice((*byte)(unsafe.Pointer(&in[off-gap])), 16*n+gap)
					dd := unsafe.Slice((*[32]byte)(unsafe.Pointer(&nb[0])), n/2)
					reset()
					what := fmt.Sprintf("Hash of %d chunks at the end, digests %d bytes below", n, gap)
					guardmem.Try(t, what, func() {
						if err := Hash(dd, c); err != nil {
							panic(err)
						}
					})
					for i := range want {
						if dd[i] != want[i] {
							t.Fatalf("%s: digest %d wrong", what, i)
						}
					}
				}
			}
			// Merkleization reads the chunks alone.
			reset()
			for _, lim := range []uint64{uint64(n), uint64(n) + 1, 1 << 20} {
				var got [32]byte
				guardmem.Try(t, fmt.Sprintf("Merkleize of %d chunks at the %s", n, at), func() { got = Merkleize(c, lim) })
				if got != refMerkleize(src[:n], lim) {
					t.Fatalf("Merkleize of %d chunks at the %s, limit %d: wrong", n, at, lim)
				}
			}
			flat := unsafe.Slice(&c[0][0], 32*n)
			for _, cut := range []int{0, 1, 5, 31, 32, 33} {
				var b []byte
				if at == "end" {
					b = flat[cut:]
				} else {
					b = flat[: 32*n-cut : 32*n-cut]
				}
				var got, got2 [32]byte
				var err error
				what := fmt.Sprintf("roots of %d bytes at the %s", len(b), at)
				guardmem.Try(t, what, func() {
					got = ByteVectorRoot(b)
					got2 = ByteListRoot(b, uint64(len(b))+100)
				})
				if got != refMerkleize(refPack(b), uint64(len(refPack(b)))) {
					t.Fatalf("%s: ByteVectorRoot wrong", what)
				}
				if got2 != refMixIn(refMerkleize(refPack(b), (uint64(len(b))+100+31)/32), uint64(len(b))) {
					t.Fatalf("%s: ByteListRoot wrong", what)
				}
				if len(b) > 0 && b[len(b)-1] != 0 {
					guardmem.Try(t, what, func() { got, err = BitlistRoot(b, 1<<20) })
					if err != nil {
						t.Fatalf("%s: BitlistRoot: %v", what, err)
					}
				}
				u64 := unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
				if at == "start" {
					u64 = unsafe.Slice((*uint64)(unsafe.Pointer(&flat[0])), len(b)/8)
				} else {
					u64 = unsafe.Slice((*uint64)(unsafe.Pointer(&flat[32*n-8*(len(b)/8)])), len(b)/8)
				}
				guardmem.Try(t, what, func() { got = BasicListRoot(u64, 1<<20) })
				var ub []byte // SSZ's packing: little-endian, whatever the host's order
				for _, v := range u64 {
					ub = binary.LittleEndian.AppendUint64(ub, v)
				}
				if got != refMixIn(refMerkleize(refPack(ub), (1<<20)*8/32), uint64(len(u64))) {
					t.Fatalf("%s: BasicListRoot wrong", what)
				}
			}
			// Batched roots: containers of k fields, byte vectors of size
			// bytes, the roots at a page edge of out.
			for _, k := range []int{2, 3, 5, 8, 16} {
				if n%k != 0 {
					continue
				}
				roots := chunksAt(out, len(out)-32*(n/k), n/k)
				guardmem.Try(t, fmt.Sprintf("ContainerRoots of %d fields, k %d at the %s", n, k, at), func() { ContainerRoots(roots, c, k) })
				for i := range roots {
					if roots[i] != refMerkleize(src[i*k:i*k+k], uint64(k)) {
						t.Fatalf("ContainerRoots, k %d at the %s: root %d wrong", k, at, i)
					}
				}
			}
			for _, size := range []int{1, 20, 32, 48, 64, 96, 100} {
				m := min(32*n/size, len(out)/32)
				if m == 0 {
					continue
				}
				var vb []byte
				if at == "end" {
					vb = flat[32*n-m*size:]
				} else {
					vb = flat[: m*size : m*size]
				}
				roots := chunksAt(out, 0, m)
				guardmem.Try(t, fmt.Sprintf("ByteVectorRoots of %d %d-byte vectors at the %s", m, size, at), func() { ByteVectorRoots(roots, vb, size) })
				for i := range roots {
					v := vb[i*size : i*size+size]
					if roots[i] != refMerkleize(refPack(v), uint64(len(refPack(v)))) {
						t.Fatalf("ByteVectorRoots of %d-byte vectors at the %s: root %d wrong", size, at, i)
					}
				}
			}
		}
	}
	// One and two pairs at the very edges, every drop-in (the kernels of
	// one, two and four pairs through internal/door).
	for _, n := range []int{2, 4, 8} {
		for _, off := range []int{0, len(in) - 32*n} {
			c := chunksAt(in, off, n)
			for _, doff := range []int{0, len(out) - 16*n} {
				d := chunksAt(out, doff, n/2)
				copy(c, src[:n])
				guardmem.Try(t, fmt.Sprintf("Hash of %d chunks at %d", n, off), func() {
					if err := Hash(d, c); err != nil {
						panic(err)
					}
				})
				for i, w := range refPairs(src[:n]) {
					if d[i] != w {
						t.Fatalf("Hash of %d chunks at %d: digest %d wrong", n, off, i)
					}
				}
			}
		}
	}
}
