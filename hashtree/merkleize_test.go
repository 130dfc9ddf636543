package hashtree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestZeroHash(t *testing.T) {
	for d := range MaxDepth + 1 {
		if ZeroHash(d) != refZero(d) {
			t.Fatalf("ZeroHash(%d) wrong", d)
		}
	}
	mustPanic(t, "ZeroHash(65)", func() { ZeroHash(65) })
	mustPanic(t, "ZeroHash(-1)", func() { ZeroHash(-1) })
}

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		depth int
	}{{0, 0}, {1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1 << 40, 40}, {1<<40 + 1, 41}, {1<<63 + 1, 64}, {^uint64(0), 64}} {
		if got := Depth(tc.limit); got != tc.depth {
			t.Errorf("Depth(%d) = %d, want %d", tc.limit, got, tc.depth)
		}
	}
}

// TestMerkleize: every count to 70 and some larger, under limits from the
// count itself to 2^64-1.
func TestMerkleize(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	counts := pairCounts()
	for _, n := range counts {
		if testing.Short() && n > 130 { // under emulation (.ci/cross)
			continue
		}
		chunks := randChunks(r, n)
		keep := slices.Clone(chunks)
		limits := []uint64{uint64(n), uint64(n) + 1, 2*uint64(n) + 3, 1 << 20, 1 << 40, 1<<63 + 5, ^uint64(0)}
		if n == 0 {
			limits = append(limits, 0)
		}
		for _, limit := range limits {
			if limit < uint64(n) {
				continue
			}
			want := refMerkleize(chunks, limit)
			if got := Merkleize(chunks, limit); got != want {
				t.Fatalf("Merkleize of %d chunks, limit %d: %x, want %x", n, limit, got, want)
			}
			if got := ListRoot(chunks, limit); got != refMixIn(want, uint64(n)) {
				t.Fatalf("ListRoot of %d chunks, limit %d wrong", n, limit)
			}
			if got := NewTree(chunks, limit).Root(); got != want {
				t.Fatalf("NewTree of %d chunks, limit %d: root %x, want %x", n, limit, got, want)
			}
		}
		if !slices.Equal(chunks, keep) {
			t.Fatal("Merkleize changed its chunks")
		}
	}
	mustPanic(t, "over the limit", func() { Merkleize(make([][32]byte, 5), 4) })
	mustPanic(t, "limit 0", func() { Merkleize(make([][32]byte, 1), 0) })
	mustPanic(t, "MerkleizeBytes over the limit", func() { MerkleizeBytes(make([]byte, 33), 1) })
}

func TestMerkleizeBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := range 300 {
		b := randBytes(r, n)
		c := refPack(b)
		for _, limit := range []uint64{uint64(len(c)), uint64(len(c)) + 3, 1 << 30} {
			want := refMerkleize(c, limit)
			if got := MerkleizeBytes(b, limit); got != want {
				t.Fatalf("MerkleizeBytes of %d bytes, limit %d wrong", n, limit)
			}
		}
		if got := ByteVectorRoot(b); got != refMerkleize(c, uint64(len(c))) {
			t.Fatalf("ByteVectorRoot of %d bytes wrong", n)
		}
		if got := BitvectorRoot(b); got != refMerkleize(c, uint64(len(c))) {
			t.Fatalf("BitvectorRoot of %d bytes wrong", n)
		}
		for _, limit := range []uint64{uint64(n), uint64(n) + 1, 1 << 30} {
			want := refMixIn(refMerkleize(c, (limit+31)/32), uint64(n))
			if got := ByteListRoot(b, limit); got != want {
				t.Fatalf("ByteListRoot of %d bytes, limit %d wrong", n, limit)
			}
		}
	}
	mustPanic(t, "ByteListRoot over", func() { ByteListRoot(make([]byte, 3), 2) })
}

type gwei uint64

func basicCase[T Basic](t *testing.T, name string, r *rand.Rand, size int, enc func(T, []byte), gen func() T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 64, 65, 100, 1000, 1031} {
		v := make([]T, n)
		for i := range v {
			v[i] = gen()
		}
		ser := make([]byte, n*size)
		for i := range v {
			enc(v[i], ser[i*size:])
		}
		c := refPack(ser)
		if got := BasicVectorRoot(v); got != refMerkleize(c, uint64(len(c))) {
			t.Fatalf("%s: BasicVectorRoot of %d wrong", name, n)
		}
		for _, limit := range []uint64{uint64(n), uint64(n) + 1, 1 << 40, ^uint64(0)} {
			per := uint64(32 / size)
			lc := limit/per + min(limit%per, 1)
			want := refMixIn(refMerkleize(c, lc), uint64(n))
			if got := BasicListRoot(v, limit); got != want {
				t.Fatalf("%s: BasicListRoot of %d, limit %d wrong", name, n, limit)
			}
		}
		// The big-endian path, on a byte-swapped image of the values.
		if size > 1 {
			be := slices.Clone(ser)
			for i := 0; i < len(be); i += size {
				slices.Reverse(be[i : i+size])
			}
			if got := packedRoot(be, size, true, Depth(uint64(len(c)))); got != refMerkleize(c, uint64(len(c))) {
				t.Fatalf("%s: the big-endian path of %d wrong", name, n)
			}
		}
	}
	mustPanic(t, name+": over the limit", func() { BasicListRoot(make([]T, 3), 2) })
}

func TestBasic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	basicCase(t, "uint64", r, 8, func(v uint64, b []byte) { binary.LittleEndian.PutUint64(b, v) }, r.Uint64)
	basicCase(t, "gwei", r, 8, func(v gwei, b []byte) { binary.LittleEndian.PutUint64(b, uint64(v)) }, func() gwei { return gwei(r.Uint64()) })
	basicCase(t, "uint32", r, 4, func(v uint32, b []byte) { binary.LittleEndian.PutUint32(b, v) }, r.Uint32)
	basicCase(t, "uint16", r, 2, func(v uint16, b []byte) { binary.LittleEndian.PutUint16(b, v) }, func() uint16 { return uint16(r.Uint32()) })
	basicCase(t, "uint8", r, 1, func(v uint8, b []byte) { b[0] = v }, func() uint8 { return uint8(r.Uint32()) })
	basicCase(t, "bool", r, 1, func(v bool, b []byte) {
		if v {
			b[0] = 1
		}
	}, func() bool { return r.IntN(2) == 1 })
}

// refBitlist is the specs' bitlist root from a serialization: the bits
// read one by one up to the delimiter, packed again.
func refBitlist(ser []byte, limit uint64) ([32]byte, bool) {
	if len(ser) == 0 || ser[len(ser)-1] == 0 {
		return [32]byte{}, false
	}
	var bitsOf []bool
	for i := range 8 * len(ser) {
		bitsOf = append(bitsOf, ser[i/8]>>(i%8)&1 == 1)
	}
	for !bitsOf[len(bitsOf)-1] {
		bitsOf = bitsOf[:len(bitsOf)-1]
	}
	bitsOf = bitsOf[:len(bitsOf)-1] // the delimiter
	if uint64(len(bitsOf)) > limit {
		return [32]byte{}, false
	}
	packed := make([]byte, (len(bitsOf)+7)/8)
	for i, b := range bitsOf {
		if b {
			packed[i/8] |= 1 << (i % 8)
		}
	}
	return refMixIn(refMerkleize(refPack(packed), (limit+255)/256), uint64(len(bitsOf))), true
}

func TestBitlistRoot(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var sers [][]byte
	for n := range 140 {
		for range 3 {
			b := randBytes(r, n)
			if n > 0 && r.IntN(3) == 0 {
				b[n-1] = 1 << r.IntN(8) // the delimiter alone in its byte
			}
			sers = append(sers, b)
		}
	}
	sers = append(sers, []byte{}, []byte{0}, []byte{1}, []byte{1, 0}, []byte{0xff, 0x80})
	for _, s := range sers {
		for _, limit := range []uint64{0, 1, 7, 8, 255, 256, 257, 2048, 1 << 40} {
			want, ok := refBitlist(s, limit)
			got, err := BitlistRoot(s, limit)
			if ok != (err == nil) || ok && got != want {
				t.Fatalf("BitlistRoot(%x, %d) = %x, %v; want %x, valid %v", s, limit, got, err, want, ok)
			}
			if err != nil && !errors.Is(err, ErrBitlist) {
				t.Fatalf("BitlistRoot(%x, %d): error %v is not ErrBitlist", s, limit, err)
			}
		}
	}
}

// FuzzBitlist: any bytes, as a Bitlist[limit] and as a ProgressiveBitList,
// are an ErrBitlist error or the specs' root, as the references read them;
// a ProgressiveBitlist made from them serializes back to them.
func FuzzBitlist(f *testing.F) {
	f.Add([]byte{0xff, 0x80}, uint64(15))
	f.Add(append(make([]byte, 32), 1), uint64(256))
	f.Add([]byte{1, 0}, uint64(0))
	f.Fuzz(func(t *testing.T, ser []byte, limit uint64) {
		limit %= 1 << 62 // the reference's (limit+255)/256 not past 2^64
		want, ok := refBitlist(ser, limit)
		got, err := BitlistRoot(ser, limit)
		if ok != (err == nil) || ok && got != want || err != nil && !errors.Is(err, ErrBitlist) {
			t.Fatalf("BitlistRoot(%x, %d) = %x, %v; want %x, valid %v", ser, limit, got, err, want, ok)
		}
		_, ok = refBitlist(ser, 1<<62)
		got, err = ProgressiveBitlistRoot(ser)
		l, lerr := NewProgressiveBitlist(ser)
		if ok != (err == nil) || ok != (lerr == nil) || err != nil && !errors.Is(err, ErrBitlist) || lerr != nil && !errors.Is(lerr, ErrBitlist) {
			t.Fatalf("ProgressiveBitlistRoot(%x): %v, NewProgressiveBitlist: %v; valid %v", ser, err, lerr, ok)
		}
		if !ok {
			return
		}
		var bs []bool
		for i := range 8*len(ser) - 8 + bits.Len8(ser[len(ser)-1]) - 1 {
			bs = append(bs, ser[i/8]>>(i%8)&1 == 1)
		}
		if want := refProgBitlist(bs); got != want || l.Root() != want || l.Len() != uint64(len(bs)) {
			t.Fatalf("ProgressiveBitlistRoot(%x) = %x, ProgressiveBitlist's %x; want %x", ser, got, l.Root(), want)
		}
		if b := l.Bytes(); !bytes.Equal(b, ser) {
			t.Fatalf("NewProgressiveBitlist(%x).Bytes() = %x", ser, b)
		}
	})
}
