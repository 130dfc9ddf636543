package files

import (
	"context"
	"crypto/sha256"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestHugeSparse hashes a sparse file of 4 GiB and a few bytes, a pattern
// near 2^31 and 2^32, mapped, read and with plain reads, with and without
// a prefix, against crypto/sha256 over a read of the file. Only with
// SHA256X_HUGE set: it reads 4 GiB several times.
func TestHugeSparse(t *testing.T) {
	if os.Getenv("SHA256X_HUGE") == "" || testing.Short() {
		t.Skip("SHA256X_HUGE not set")
	}
	const size = 1<<32 + 5
	p := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for _, at := range []int64{0, 1<<31 - 5000, 1<<32 - 5000} {
		b := make([]byte, min(10000, size-at))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if _, err := f.WriteAt(b, at); err != nil {
			t.Fatal(err)
		}
	}
	prefix := []byte("leaf:")
	plain, prefixed := sha256.New(), sha256.New()
	prefixed.Write(prefix)
	f.Seek(0, 0)
	if n, err := io.Copy(io.MultiWriter(plain, prefixed), f); err != nil || n != size {
		t.Fatal(n, err)
	}
	f.Close()
	var want, wantPrefixed [32]byte
	plain.Sum(want[:0])
	prefixed.Sum(wantPrefixed[:0])
	for _, c := range []struct {
		name, mmap string
		h          Hasher
	}{
		{"mapped", "on", Hasher{}},
		{"read", "off", Hasher{}},
		{"plain", "", Hasher{PlainReads: true}},
		{"mapped, prefix", "on", Hasher{Prefix: prefix}},
		{"read, prefix", "off", Hasher{Prefix: prefix}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("SHA256X_MMAP", c.mmap)
			resetTrial(t, 6, nil)
			res, err := c.h.Hash(context.Background(), []string{p})
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if c.h.Prefix != nil {
				w = wantPrefixed
			}
			for _, r := range res {
				if r.Err != nil || r.Sum != w {
					t.Errorf("%v, got %x, want %x", r.Err, r.Sum, w)
				}
			}
		})
	}
}
