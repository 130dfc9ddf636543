package interop

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// fastsszPutBytes is fastssz's root of a byte vector (Hasher.PutBytes).
func fastsszPutBytes(b []byte) [32]byte {
	hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
	hh.PutBytes(b)
	r, err := hh.HashRoot()
	if err != nil {
		panic(err)
	}
	return r
}

// TestByteVectorRootsFastssz: ByteVectorRoots (apart and, for whole
// chunks, in place), PubkeyRoots and SignatureRoots against fastssz's
// PutBytes, every size to 300 bytes.
func TestByteVectorRootsFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	for size := 1; size <= 300; size++ {
		for _, n := range []int{1, 2, 3, 63, 64, 65, 300} {
			v := make([]byte, n*size)
			for i := range v {
				v[i] = byte(r.Uint32())
			}
			got := make([][32]byte, n)
			sszx.ByteVectorRoots(got, v, size)
			for i := range n {
				if want := fastsszPutBytes(v[i*size : i*size+size]); got[i] != want {
					t.Fatalf("%d vectors of %d bytes: root %d %x, fastssz %x", n, size, i, got[i], want)
				}
			}
			if size%32 == 0 {
				w := append([]byte(nil), v...)
				in := unsafe.Slice((*[32]byte)(unsafe.Pointer(&w[0])), n)
				sszx.ByteVectorRoots(in, w, size)
				for i := range n {
					if in[i] != got[i] {
						t.Fatalf("in place %d of %d bytes: root %d wrong", n, size, i)
					}
				}
			}
		}
	}
	keys := make([][48]byte, 1000)
	sigs := make([][96]byte, 1000)
	for i := range keys {
		for j := range keys[i] {
			keys[i][j] = byte(r.Uint32())
		}
		for j := range sigs[i] {
			sigs[i][j] = byte(r.Uint32())
		}
	}
	kr, sr := make([][32]byte, 1000), make([][32]byte, 1000)
	sszx.PubkeyRoots(kr, keys)
	sszx.SignatureRoots(sr, sigs)
	for i := range keys {
		if kr[i] != fastsszPutBytes(keys[i][:]) || sr[i] != fastsszPutBytes(sigs[i][:]) {
			t.Fatalf("key or signature %d wrong", i)
		}
	}
}
