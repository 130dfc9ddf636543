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
// ProgressiveList, ProgressiveBitlist and ProgressiveContainer that change
// agree after random changes. v1.4.0 has dynamic-ssz's fix for a
// progressive bitlist whose top chunk is all zero (its PR 186); an empty
// one has no chunks in both (and in the specs' remerkleable).

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

// bitsBytes returns the SSZ serialization of a bitlist: the bits, then the
// delimiting bit.
func bitsBytes(bits []bool) []byte {
	b := make([]byte, len(bits)/8+1)
	for i, v := range bits {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	b[len(bits)/8] |= 1 << (len(bits) % 8)
	return b
}

// changeBits makes a random change to a ProgressiveBitlist and to the same
// bits kept plainly: bits set, appended (sparse ones, so that the top chunk
// is often all zero, the case dynamic-ssz fixed in PR 186 before v1.4.0) or
// a truncation.
func changeBits(r *rand.Rand, l *sszx.ProgressiveBitlist, bits []bool) []bool {
	n := len(bits)
	switch op := r.IntN(4); {
	case op < 2 && n > 0:
		for range 1 + r.IntN(40) {
			i, v := r.IntN(n), r.IntN(2) == 0
			l.Set(uint64(i), v)
			bits[i] = v
		}
	case op < 3:
		for range r.IntN(600) {
			v := r.IntN(50) == 0
			l.Append(v)
			bits = append(bits, v)
		}
	default:
		k := r.IntN(n + 1)
		l.Truncate(uint64(k))
		bits = bits[:k]
	}
	return bits
}

// TestProgressiveBitlistDynamicSSZ: a ProgressiveBitlist that changes at
// random, its root after each change against dynamic-ssz's root of the same
// bits.
func TestProgressiveBitlistDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7916, 1))
	for _, n0 := range []int{0, 1, 255, 256, 257, 1280, 1281, 5000} {
		bits := make([]bool, n0)
		for i := range bits {
			bits[i] = r.IntN(3) == 0
		}
		l, err := sszx.NewProgressiveBitlist(bitsBytes(bits))
		if err != nil {
			t.Fatal(err)
		}
		for step := range 60 {
			if got, want := oneField(t, l.Root()), dynRoot(t, d, &progBits{bitsBytes(bits)}); got != want {
				t.Fatalf("from %d bits, step %d, %d bits: %x, dynamic-ssz %x", n0, step, len(bits), got, want)
			}
			bits = changeBits(r, l, bits)
		}
	}
	// An all-zero top chunk: 257 bits, only bit 0 set.
	l, _ := sszx.NewProgressiveBitlist(bitsBytes(append([]bool{true}, make([]bool, 256)...)))
	if got, want := oneField(t, l.Root()), dynRoot(t, d, &progBits{l.Bytes()}); got != want {
		t.Fatalf("257 bits, the top chunk zero: %x, dynamic-ssz %x", got, want)
	}
}

// progWide is a ProgressiveContainer whose active fields lie in each of the
// five subtrees of 256 indices (1, 4, 16, 64, 256 chunks: indices 0, 1-4,
// 5-20, 21-84, 85-340), the last at 255, and among them a progressive
// bitlist and a progressive list.
type progWide struct {
	A uint64   `ssz-index:"0"`
	B [32]byte `ssz-index:"1"`
	C uint32   `ssz-index:"4"`
	D bool     `ssz-index:"5"`
	E []byte   `ssz-index:"20" ssz-type:"progressive-bitlist"`
	F uint64   `ssz-index:"21"`
	G []uint64 `ssz-index:"84" ssz-type:"progressive-list"`
	H uint8    `ssz-index:"85"`
	I [32]byte `ssz-index:"200"`
	J uint16   `ssz-index:"255"`
}

// progWideIndices are progWide's fields' indices: its active_fields.
var progWideIndices = []int{0, 1, 4, 5, 20, 21, 84, 85, 200, 255}

func le(v uint64) (c [32]byte) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

// TestProgressiveContainerDynamicSSZ: a ProgressiveContainer whose fields
// change at random, the bitlist field kept as a ProgressiveBitlist that
// changes, its root after each change against dynamic-ssz's root of the
// struct.
func TestProgressiveContainerDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7495, 2))
	active := make([]bool, 256)
	for _, i := range progWideIndices {
		active[i] = true
	}
	for round := range 8 {
		var w progWide
		w.A, w.C, w.D, w.F, w.H, w.J = r.Uint64(), r.Uint32(), r.IntN(2) == 0, r.Uint64(), uint8(r.Uint32()), uint16(r.Uint32())
		for j := range 32 {
			w.B[j], w.I[j] = byte(r.Uint32()), byte(r.Uint32())
		}
		w.G = make([]uint64, r.IntN(40))
		for j := range w.G {
			w.G[j] = r.Uint64()
		}
		bits := make([]bool, r.IntN(700))
		for j := range bits {
			bits[j] = r.IntN(2) == 0
		}
		w.E = bitsBytes(bits)
		bl, err := sszx.NewProgressiveBitlist(w.E)
		if err != nil {
			t.Fatal(err)
		}
		var dv [32]byte
		if w.D {
			dv[0] = 1
		}
		c := sszx.NewProgressiveContainer([][32]byte{
			le(w.A), w.B, le(uint64(w.C)), dv, bl.Root(), le(w.F),
			sszx.ProgressiveBasicListRoot(w.G), le(uint64(w.H)), w.I, le(uint64(w.J)),
		}, active)
		for step := range 40 {
			if got, want := c.Root(), dynRoot(t, d, &w); got != want {
				t.Fatalf("round %d, step %d: %x, dynamic-ssz %x", round, step, got, want)
			}
			switch f := progWideIndices[r.IntN(len(progWideIndices))]; f {
			case 0:
				w.A = r.Uint64()
				c.Set(f, le(w.A))
			case 1:
				w.B[r.IntN(32)]++
				c.Set(f, w.B)
			case 4:
				w.C = r.Uint32()
				c.Set(f, le(uint64(w.C)))
			case 5:
				w.D = !w.D
				var v [32]byte
				if w.D {
					v[0] = 1
				}
				c.Set(f, v)
			case 20:
				bits = changeBits(r, bl, bits)
				w.E = bitsBytes(bits)
				c.Set(f, bl.Root())
			case 21:
				w.F = r.Uint64()
				c.Set(f, le(w.F))
			case 84:
				w.G = append(w.G, r.Uint64())
				c.Set(f, sszx.ProgressiveBasicListRoot(w.G))
			case 85:
				w.H++
				c.Set(f, le(uint64(w.H)))
			case 200:
				w.I[r.IntN(32)]--
				c.Set(f, w.I)
			case 255:
				w.J++
				c.Set(f, le(uint64(w.J)))
			}
		}
	}
}
