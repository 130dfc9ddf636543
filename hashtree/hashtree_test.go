package hashtree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

func pairCounts() []int {
	ns := []int{}
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 127, 128, 129, 1000, 1024, 4099)
}

type named [32]byte

// TestHash: every entry point against crypto/sha256, apart and in place.
func TestHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range pairCounts() {
		chunks := randChunks(r, 2*n)
		want := refPairs(chunks)
		check := func(name string, got [][32]byte) {
			t.Helper()
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s, %d pairs: digest %d is %x, want %x", name, n, i, got[i], want[i])
				}
			}
		}
		d := make([][32]byte, n+1)
		if err := Hash(d, chunks); err != nil {
			t.Fatal(err)
		}
		check("Hash", d)
		if d[n] != ([32]byte{}) {
			t.Fatalf("Hash of %d pairs wrote past them", n)
		}
		in := append([][32]byte{}, chunks...)
		if err := Hash(in, in); err != nil {
			t.Fatal(err)
		}
		check("Hash in place", in)
		clear(d)
		HashChunks(d, chunks)
		check("HashChunks", d)
		in = append(append([][32]byte{}, chunks...), [32]byte{7}) // an odd last chunk is left out
		HashChunks(in, in)
		check("HashChunks in place, odd", in)
		flat := make([]byte, 64*n)
		for i := range chunks {
			copy(flat[32*i:], chunks[i][:])
		}
		out := make([]byte, 32*n)
		if err := HashByteSlice(out, flat); err != nil {
			t.Fatal(err)
		}
		check("HashByteSlice", roots(out))
		if err := HashByteSlice(flat, flat); err != nil {
			t.Fatal(err)
		}
		check("HashByteSlice in place", roots(flat))
		nd, nc := make([]named, n), make([]named, 2*n)
		for i := range chunks {
			nc[i] = named(chunks[i])
		}
		if err := HashOf(nd, nc); err != nil {
			t.Fatal(err)
		}
		check("HashOf", view(nd))
		clear(nd)
		HashChunksOf(nd, nc)
		check("HashChunksOf", view(nd))
	}
}

// TestHashTrailing: digests that start below the chunks and run into
// them, by whole digests and by odd bytes, as gohashtree hashes them.
func TestHashTrailing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 4, 5, 16, 17, 100, 1000} {
		for _, gapBytes := range []int{1, 16, 31, 32, 33, 64, 96, 100, 127, 128, 320, 32*n - 1} {
			if gapBytes <= 0 || gapBytes >= 32*n {
				continue
			}
			chunks := randChunks(r, 2*n)
			want := refPairs(chunks)
			mem := make([]byte, gapBytes+64*n)
			for i := range chunks {
				copy(mem[gapBytes+32*i:], chunks[i][:])
			}
			if err := HashByteSlice(mem[:32*n], mem[gapBytes:]); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if string(mem[32*i:32*i+32]) != string(want[i][:]) {
					t.Fatalf("%d pairs, digests %d bytes below: digest %d wrong", n, gapBytes, i)
				}
			}
			if gapBytes%32 == 0 {
				all := make([][32]byte, gapBytes/32+2*n)
				copy(all[gapBytes/32:], chunks)
				if err := Hash(all, all[gapBytes/32:]); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if all[i] != want[i] {
						t.Fatalf("Hash, %d pairs, digests %d below: digest %d wrong", n, gapBytes/32, i)
					}
				}
			}
		}
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("%s: no panic", name)
		}
		if !strings.HasPrefix(fmt.Sprint(r), "sha256x: ") {
			t.Fatalf("%s: panic %q does not start with \"sha256x: \"", name, r)
		}
	}()
	f()
}

// TestHashErrors: gohashtree's error cases, in gohashtree's order and
// words; nothing written on an error.
func TestHashErrors(t *testing.T) {
	c := make([][32]byte, 8)
	for i := range c {
		c[i][0] = byte(i + 1)
	}
	b := unsafe.Slice(&c[0][0], 256)
	for _, tc := range []struct {
		name string
		err  error
		want error
		msg  string
	}{
		{"no chunks", Hash(nil, nil), nil, ""},
		{"no chunks, digests", Hash(c[:1], c[:0]), nil, ""},
		{"odd", Hash(make([][32]byte, 4), c[:3]), ErrOddChunks, "odd number of chunks"},
		{"short", Hash(make([][32]byte, 3), c), ErrNotEnoughDigests, "not enough digest length, need at least 4, got 3"},
		{"bytes: none", HashByteSlice(nil, nil), nil, ""},
		{"bytes: chunks", HashByteSlice(make([]byte, 64), b[:96]), ErrChunksNotMultipleOf64, "chunks not multiple of 64 bytes"},
		{"bytes: digests", HashByteSlice(make([]byte, 33), b[:64]), ErrDigestsNotMultipleOf32, "digests not multiple of 32 bytes"},
		{"bytes: short", HashByteSlice(make([]byte, 32), b[:128]), ErrNotEnoughDigests, "not enough digest length, need at least 64, got 32"},
		{"bytes: chunks first", HashByteSlice(make([]byte, 1), b[:1]), ErrChunksNotMultipleOf64, "chunks not multiple of 64 bytes"},
		{"generic odd", HashOf(make([]named, 4), make([]named, 5)), ErrOddChunks, "odd number of chunks"},
	} {
		if !errors.Is(tc.err, tc.want) || tc.want == nil && tc.err != nil {
			t.Errorf("%s: error %v, want %v", tc.name, tc.err, tc.want)
		}
		if tc.err != nil && tc.err.Error() != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, tc.err, tc.msg)
		}
	}
	for i := range c {
		if c[i][0] != byte(i+1) || c[i][1] != 0 {
			t.Fatal("an error case wrote to the chunks")
		}
	}
	HashChunks(nil, nil) // nothing to do
	mustPanic(t, "HashChunks short", func() { HashChunks(make([][32]byte, 1), c[:4]) })
	mustPanic(t, "digests inside chunks", func() { _ = Hash(c[1:], c[:4]) })
	mustPanic(t, "digests inside flat chunks", func() { _ = HashByteSlice(b[32:], b[:128]) })
}

// TestAllocs: nothing allocates in steady state.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what it is given")
	}
	r := rand.New(rand.NewPCG(5, 6))
	chunks := randChunks(r, 2048)
	flat := unsafe.Slice(&chunks[0][0], len(chunks)*32)
	d := make([][32]byte, 1024)
	fields := randChunks(r, 8*500)
	f5 := randChunks(r, 5*300)
	keys := make([][48]byte, 300)
	sigs := make([][96]byte, 300)
	vals := make([]uint64, 1000)
	bl := []byte{1, 2, 3, 0x81}
	for name, f := range map[string]func(){
		"Hash 1":           func() { _ = Hash(d, chunks[:2]) },
		"Hash 2":           func() { _ = Hash(d, chunks[:4]) },
		"Hash 4":           func() { _ = Hash(d, chunks[:8]) },
		"Hash 1024":        func() { _ = Hash(d, chunks) },
		"Hash in place":    func() { _ = Hash(chunks[:4], chunks[:8]) },
		"HashByteSlice":    func() { _ = HashByteSlice(flat[:64], flat[:128]) },
		"HashOf":           func() { _ = HashOf(d, chunks[:16]) },
		"Merkleize":        func() { Merkleize(chunks[:1000], 1<<40) },
		"Merkleize small":  func() { Merkleize(chunks[:5], 8) },
		"MerkleizeBytes":   func() { MerkleizeBytes(flat[:1000], 1<<20) },
		"BasicListRoot":    func() { BasicListRoot(vals, 1<<40) },
		"BitlistRoot":      func() { _, _ = BitlistRoot(bl, 2048) },
		"ContainerRoots 8": func() { ContainerRoots(d[:500], fields, 8) },
		"ContainerRoots 5": func() { ContainerRoots(d[:300], f5, 5) },
		"PubkeyRoots":      func() { PubkeyRoots(d, keys) },
		"SignatureRoots":   func() { SignatureRoots(d, sigs) },
		"ListRoot":         func() { ListRoot(d, 1<<40) },
	} {
		f()
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations a call", name, a)
		}
	}
}

// TestOldErrorNames: the names the errors had before they took hashtree's
// bindings' are the same values.
func TestOldErrorNames(t *testing.T) {
	if ErrShortDigests != ErrNotEnoughDigests || ErrChunksNotPairs != ErrChunksNotMultipleOf64 || ErrDigestsNotRoots != ErrDigestsNotMultipleOf32 {
		t.Error("an old error name is another value")
	}
}
