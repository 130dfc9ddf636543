package interop

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	dynssz "github.com/pk910/dynamic-ssz"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// Progressive merkleization (EIP-7916, EIP-7495) against an independent
// implementation: pk910/dynamic-ssz v1.4.0, which builds the same trees by
// reflection from struct tags. Both ways: the roots of random lists,
// bitlists and containers agree, whichever computes them first, and the
// ProgressiveList that changes agrees after random changes.

type progUint64s struct {
	X []uint64 `ssz-type:"progressive-list"`
}

type progElem struct {
	A uint64
	B [32]byte
}

type progElems struct {
	X []progElem `ssz-type:"progressive-list"`
}

type progBits struct {
	X []byte `ssz-type:"progressive-bitlist"`
}

// progSquare is ProgressiveContainer(active_fields=[1, 0, 1, 0, 0, 1]).
type progSquare struct {
	Side  uint16   `ssz-index:"0"`
	Color uint8    `ssz-index:"2"`
	Tag   [32]byte `ssz-index:"5"`
}

// dynRoot returns the hash tree root of x by dynamic-ssz.
func dynRoot(t *testing.T, d *dynssz.DynSsz, x any) [32]byte {
	t.Helper()
	r, err := d.HashTreeRoot(x)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// oneField is the root of a container of one field whose root is root:
// merkleize of one chunk, the chunk itself.
func oneField(t *testing.T, root [32]byte) [32]byte {
	t.Helper()
	return sszx.Merkleize([][32]byte{root}, 1)
}

func TestProgressiveDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7916, 7495))
	for n := range 300 {
		if n > 70 && n%13 != 0 {
			continue
		}
		// ProgressiveList[Uint64].
		u := make([]uint64, n)
		for i := range u {
			u[i] = r.Uint64()
		}
		if got, want := oneField(t, sszx.ProgressiveBasicListRoot(u)), dynRoot(t, d, &progUint64s{u}); got != want {
			t.Fatalf("ProgressiveList[Uint64] of %d: %x, dynamic-ssz %x", n, got, want)
		}
		// ProgressiveList of containers, also kept as a ProgressiveList
		// that changes.
		es := make([]progElem, n)
		roots := make([][32]byte, n)
		for i := range es {
			es[i].A = r.Uint64()
			for j := range es[i].B {
				es[i].B[j] = byte(r.Uint32())
			}
			var a [32]byte
			binary.LittleEndian.PutUint64(a[:], es[i].A)
			roots[i] = sszx.Merkleize([][32]byte{a, es[i].B}, 2)
		}
		want := dynRoot(t, d, &progElems{es})
		if got := oneField(t, sszx.ProgressiveListRoot(roots)); got != want {
			t.Fatalf("ProgressiveList of %d containers: %x, dynamic-ssz %x", n, got, want)
		}
		l := sszx.NewProgressiveList(roots[:n/2])
		for _, root := range roots[n/2:] {
			l.Append(root)
		}
		if n > 0 {
			i := r.IntN(n)
			es[i].A++
			var a [32]byte
			binary.LittleEndian.PutUint64(a[:], es[i].A)
			l.Set(uint64(i), sszx.Merkleize([][32]byte{a, es[i].B}, 2))
		}
		if got, want := oneField(t, l.Root()), dynRoot(t, d, &progElems{es}); got != want {
			t.Fatalf("changed ProgressiveList of %d containers: %x, dynamic-ssz %x", n, got, want)
		}
		// ProgressiveBitList of n bits.
		bits := make([]byte, n/8+1)
		for i := range n {
			if r.IntN(2) == 0 {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		bits[n/8] |= 1 << (n % 8)
		got, err := sszx.ProgressiveBitlistRoot(bits)
		if err != nil {
			t.Fatal(err)
		}
		if want := dynRoot(t, d, &progBits{bits}); oneField(t, got) != want {
			t.Fatalf("ProgressiveBitList of %d bits: %x, dynamic-ssz %x", n, got, want)
		}
	}
	// ProgressiveContainer.
	for range 20 {
		s := progSquare{Side: uint16(r.Uint32()), Color: uint8(r.Uint32())}
		for j := range s.Tag {
			s.Tag[j] = byte(r.Uint32())
		}
		var side, color [32]byte
		binary.LittleEndian.PutUint16(side[:], s.Side)
		color[0] = s.Color
		got := sszx.ProgressiveContainerRoot([][32]byte{side, color, s.Tag}, []bool{true, false, true, false, false, true})
		if want := dynRoot(t, d, &s); got != want {
			t.Fatalf("ProgressiveContainer: %x, dynamic-ssz %x", got, want)
		}
	}
}
