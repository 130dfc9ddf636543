package sha256x_test

import (
	"crypto/sha256"
	"encoding"
	"hash"
	"testing"

	"github.com/sha256x/sha256x"
)

// same compiles only if ours has ref's type.
func same[T any](ref, ours T) {}

// TestCryptoSHA256Names checks the README's "Switching from crypto/sha256":
// with import sha256 "github.com/sha256x/sha256x", New, Sum256, Size and
// BlockSize have crypto/sha256's types and values, New's hash.Hash is a
// *Digest that is also a hash.Cloner and marshals as crypto/sha256's does
// (the bytes themselves: TestMarshalInterop), and the digests agree.
func TestCryptoSHA256Names(t *testing.T) {
	same(sha256.New, sha256x.New)
	same(sha256.Sum256, sha256x.Sum256)
	if sha256x.Size != sha256.Size || sha256x.BlockSize != sha256.BlockSize {
		t.Errorf("Size %d, BlockSize %d; crypto/sha256's %d, %d", sha256x.Size, sha256x.BlockSize, sha256.Size, sha256.BlockSize)
	}
	var h hash.Hash = sha256x.New()
	d, ok := h.(*sha256x.Digest)
	if !ok {
		t.Fatalf("New() is a %T, not a *Digest", h)
	}
	ref := sha256.New()
	for name, ok := range map[string]bool{
		"hash.Cloner":                  isA[hash.Cloner](h) && isA[hash.Cloner](ref),
		"encoding.BinaryMarshaler":     isA[encoding.BinaryMarshaler](h) && isA[encoding.BinaryMarshaler](ref),
		"encoding.BinaryAppender":      isA[encoding.BinaryAppender](h) && isA[encoding.BinaryAppender](ref),
		"encoding.BinaryUnmarshaler":   isA[encoding.BinaryUnmarshaler](h) && isA[encoding.BinaryUnmarshaler](ref),
		"hash.XOF (neither should be)": !isA[hash.XOF](h) && !isA[hash.XOF](ref),
	} {
		if !ok {
			t.Errorf("New() and crypto/sha256's New() differ: %s", name)
		}
	}
	msg := []byte("The quick brown fox jumps over the lazy dog")
	d.Write(msg)
	ref.Write(msg)
	if string(h.Sum(nil)) != string(ref.Sum(nil)) || sha256x.Sum256(msg) != sha256.Sum256(msg) {
		t.Errorf("digests differ from crypto/sha256's")
	}
	if h.Size() != ref.Size() || h.BlockSize() != ref.BlockSize() {
		t.Errorf("Size() %d, BlockSize() %d; crypto/sha256's %d, %d", h.Size(), h.BlockSize(), ref.Size(), ref.BlockSize())
	}
}

func isA[T any](v any) bool { _, ok := v.(T); return ok }
