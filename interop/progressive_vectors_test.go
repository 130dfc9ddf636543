package interop

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	sszx "github.com/sha256x/sha256x/hashtree"
)

// stream returns n bytes: SHA-256 of label, ":" and a counter, 0, 1, ...,
// as testdata/progressive_vectors.py draws its values.
func stream(label string, n int) []byte {
	var b []byte
	for i := 0; len(b) < n; i++ {
		s := sha256.Sum256([]byte(label + ":" + strconv.Itoa(i)))
		b = append(b, s[:]...)
	}
	return b[:n]
}

// vectorBits returns the bits progressive_vectors.py draws for a
// ProgressiveBitList of n bits in mode.
func vectorBits(t *testing.T, mode string, n int) []bool {
	t.Helper()
	bits := make([]bool, n)
	switch mode {
	case "random":
		b := stream("bits random "+strconv.Itoa(n), (n+7)/8)
		for i := range bits {
			bits[i] = b[i/8]>>(i%8)&1 == 1
		}
	case "sparse":
		b := stream("bits sparse "+strconv.Itoa(n), n)
		for i := range bits {
			bits[i] = b[i] < 2
		}
	case "ones":
		for i := range bits {
			bits[i] = true
		}
	case "zeros":
	default:
		t.Fatalf("bits mode %q", mode)
	}
	return bits
}

// TestProgressiveVectors: roots that remerkleable, the EIPs' reference
// implementation (the one consensus-specs v1.7.0-alpha.13's pyspec uses),
// computed for ProgressiveList[Uint64], ProgressiveByteList,
// ProgressiveList[Bytes32], ProgressiveBitList and ProgressiveContainers of
// Bytes32 fields at the subtrees' edges (testdata/progressive_vectors.py
// wrote them), each against the functions and the types that change.
func TestProgressiveVectors(t *testing.T) {
	f, err := os.Open("testdata/progressive_vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kinds := map[string]int{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		w := strings.Fields(s.Text())
		if len(w) != 3 {
			t.Fatalf("line %q", s.Text())
		}
		var want [32]byte
		if b, err := hex.DecodeString(w[2]); err != nil || len(b) != 32 {
			t.Fatalf("line %q: root %v", s.Text(), err)
		} else {
			copy(want[:], b)
		}
		kinds[w[0]]++
		// got is the function's root; changing, where there is one, that
		// of the type that changes, built partly by appends.
		var got [32]byte
		var changing func() [32]byte
		if w[0] == "container" {
			active := make([]bool, len(w[1]))
			var fields [][32]byte
			for i, c := range w[1] {
				active[i] = c == '1'
				if active[i] {
					fields = append(fields, [32]byte{})
				}
			}
			b := stream("fields "+w[1], 32*len(fields))
			for k := range fields {
				copy(fields[k][:], b[32*k:])
			}
			got = sszx.ProgressiveContainerRoot(fields, active)
			changing = sszx.NewProgressiveContainer(fields, active).Root
		} else {
			n, err := strconv.Atoi(w[1])
			if err != nil {
				t.Fatalf("line %q: %v", s.Text(), err)
			}
			switch kind := w[0]; kind {
			case "uint64s":
				b := stream("uint64s "+w[1], 8*n)
				v := make([]uint64, n)
				for i := range v {
					v[i] = binary.LittleEndian.Uint64(b[8*i:])
				}
				got = sszx.ProgressiveBasicListRoot(v)
			case "bytes":
				got = sszx.ProgressiveBasicListRoot(stream("bytes "+w[1], n))
			case "roots":
				b := stream("roots "+w[1], 32*n)
				roots := make([][32]byte, n)
				for i := range roots {
					copy(roots[i][:], b[32*i:])
				}
				got = sszx.ProgressiveListRoot(roots)
				l := sszx.NewProgressiveList(roots[:n/2])
				for _, r := range roots[n/2:] {
					l.Append(r)
				}
				changing = l.Root
			default:
				mode, ok := strings.CutPrefix(kind, "bits-")
				if !ok {
					t.Fatalf("line %q: kind %q", s.Text(), kind)
				}
				bits := vectorBits(t, mode, n)
				if got, err = sszx.ProgressiveBitlistRoot(bitsBytes(bits)); err != nil {
					t.Fatal(err)
				}
				l := &sszx.ProgressiveBitlist{}
				for _, v := range bits {
					l.Append(v)
				}
				changing = l.Root
			}
		}
		if got != want {
			t.Errorf("%s %s: %x, remerkleable %x", w[0], w[1], got, want)
		}
		if changing != nil {
			if c := changing(); c != want {
				t.Errorf("%s %s: the type that changes %x, remerkleable %x", w[0], w[1], c, want)
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(kinds) != 8 {
		t.Fatalf("kinds of vectors %v, want 8", kinds)
	}
	t.Logf("vectors: %v", kinds)
}
