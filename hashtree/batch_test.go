package hashtree

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestContainerRoots: the batched roots of n containers of k fields against
// the reference merkleization of each, for shapes odd and even at every
// level, batches that end inside a block and in place.
func TestContainerRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	ks := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 21, 25, 32, 33, 100}
	for _, k := range ks {
		ns := []int{0, 1, 2, 3, 7, 64, blockOf(k) - 1, blockOf(k), blockOf(k) + 1, 2*blockOf(k) + 5}
		if testing.Short() { // under emulation (.ci/cross): one batch past a block, for some shapes
			ns = ns[:6]
			if k%4 == 1 || k == 8 {
				ns = append(ns, blockOf(k)+1)
			}
		}
		for _, n := range ns {
			fields := randChunks(r, n*k)
			keep := slices.Clone(fields)
			want := make([][32]byte, n)
			for i := range want {
				want[i] = refMerkleize(fields[i*k:i*k+k], uint64(k))
			}
			got := make([][32]byte, n+1)
			ContainerRoots(got, fields, k)
			if !slices.Equal(got[:n], want) || got[n] != ([32]byte{}) {
				t.Fatalf("%d containers of %d fields: roots wrong", n, k)
			}
			if !slices.Equal(fields, keep) {
				t.Fatalf("%d containers of %d fields: fields changed", n, k)
			}
			ContainerRoots(fields[:n], fields, k)
			if !slices.Equal(fields[:n], want) {
				t.Fatalf("%d containers of %d fields, in place: roots wrong", n, k)
			}
		}
	}
	mustPanic(t, "k 0", func() { ContainerRoots(nil, nil, 0) })
	mustPanic(t, "k not dividing", func() { ContainerRoots(make([][32]byte, 3), make([][32]byte, 7), 3) })
	mustPanic(t, "short roots", func() { ContainerRoots(make([][32]byte, 1), make([][32]byte, 6), 3) })
	f := make([][32]byte, 3*10000)
	mustPanic(t, "roots inside fields", func() { ContainerRoots(f[6000:], f, 3) })
	mustPanic(t, "roots inside fields, 2 fields", func() { ContainerRoots(f[1:], f[:20], 2) })
	// One field a container: the doc's rule holds for every k.
	mustPanic(t, "roots inside fields, 1 field", func() { ContainerRoots(f[1:], f[:20], 1) })
	mustPanic(t, "roots below fields, 1 field", func() { ContainerRoots(f[:20], f[1:21], 1) })
	ContainerRoots(f[:20], f[:20], 1) // in place
}

func TestByteVectorRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, size := range []int{1, 2, 20, 31, 32, 33, 48, 63, 64, 65, 96, 100, 200} {
		for _, n := range []int{0, 1, 2, 5, blockOf((size+31)/32) + 3} {
			v := randBytes(r, n*size)
			got := make([][32]byte, n)
			ByteVectorRoots(got, v, size)
			for i := range n {
				if want := refMerkleize(refPack(v[i*size:i*size+size]), uint64((size+31)/32)); got[i] != want {
					t.Fatalf("%d vectors of %d bytes: root %d wrong", n, size, i)
				}
			}
		}
	}
	keys := make([][48]byte, 300)
	sigs := make([][96]byte, 300)
	for i := range keys {
		copy(keys[i][:], randBytes(r, 48))
		copy(sigs[i][:], randBytes(r, 96))
	}
	kr, sr := make([][32]byte, 300), make([][32]byte, 300)
	PubkeyRoots(kr, keys)
	SignatureRoots(sr, sigs)
	for i := range keys {
		if kr[i] != refMerkleize(refPack(keys[i][:]), 2) || sr[i] != refMerkleize(refPack(sigs[i][:]), 3) {
			t.Fatalf("key or signature %d: root wrong", i)
		}
	}
	mustPanic(t, "size 0", func() { ByteVectorRoots(nil, nil, 0) })
	mustPanic(t, "size not dividing", func() { ByteVectorRoots(make([][32]byte, 2), make([]byte, 97), 48) })
	mustPanic(t, "short roots", func() { PubkeyRoots(make([][32]byte, 1), keys[:2]) })
	mustPanic(t, "roots inside 32-byte vectors", func() {
		v := make([]byte, 32*20)
		ByteVectorRoots(unsafe.Slice((*[32]byte)(unsafe.Pointer(&v[32])), 10), v[:320], 32)
	})
	mustPanic(t, "roots over the keys", func() {
		PubkeyRoots(unsafe.Slice((*[32]byte)(unsafe.Pointer(&keys[0])), 300), keys)
	})
}
