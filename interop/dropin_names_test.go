package interop

import (
	"errors"
	"strings"
	"testing"

	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// TestDropInErrorNames: the drop-in exports every error name of
// OffchainLabs hashtree's Go bindings, with the same text, and each case
// that returns one there returns the one of the same name here (errors.Is),
// with gohashtree's words. This file compiles only while the names exist:
// code that compares against hashtree.ErrNotEnoughDigests keeps compiling
// after the one-line switch.
func TestDropInErrorNames(t *testing.T) {
	c := make([][32]byte, 8)
	b := make([]byte, 256)
	for _, e := range []struct {
		name        string
		ours, ref   error
		got, refGot error // the same bad call to each
		goh         error // and to gohashtree (v0.0.4-beta has no error values: its text)
	}{
		{"ErrOddChunks", sszx.ErrOddChunks, hashtree.ErrOddChunks,
			sszx.Hash(make([][32]byte, 4), c[:3]), hashtree.Hash(make([][32]byte, 4), c[:3]),
			gohashtree.Hash(make([][32]byte, 4), c[:3])},
		{"ErrNotEnoughDigests", sszx.ErrNotEnoughDigests, hashtree.ErrNotEnoughDigests,
			sszx.Hash(make([][32]byte, 3), c), hashtree.Hash(make([][32]byte, 3), c),
			gohashtree.Hash(make([][32]byte, 3), c)},
		{"ErrNotEnoughDigests (bytes)", sszx.ErrNotEnoughDigests, hashtree.ErrNotEnoughDigests,
			sszx.HashByteSlice(make([]byte, 32), b[:128]), hashtree.HashByteSlice(make([]byte, 32), b[:128]),
			gohashtree.HashByteSlice(make([]byte, 32), b[:128])},
		{"ErrChunksNotMultipleOf64", sszx.ErrChunksNotMultipleOf64, hashtree.ErrChunksNotMultipleOf64,
			sszx.HashByteSlice(make([]byte, 64), b[:96]), hashtree.HashByteSlice(make([]byte, 64), b[:96]),
			gohashtree.HashByteSlice(make([]byte, 64), b[:96])},
		{"ErrDigestsNotMultipleOf32", sszx.ErrDigestsNotMultipleOf32, hashtree.ErrDigestsNotMultipleOf32,
			sszx.HashByteSlice(make([]byte, 33), b[:64]), hashtree.HashByteSlice(make([]byte, 33), b[:64]),
			gohashtree.HashByteSlice(make([]byte, 33), b[:64])},
	} {
		if e.ours.Error() != e.ref.Error() {
			t.Errorf("%s: %q, hashtree's %q", e.name, e.ours, e.ref)
		}
		if !errors.Is(e.refGot, e.ref) {
			t.Errorf("%s: hashtree's call returned %v, not its %s", e.name, e.refGot, e.name)
		}
		if !errors.Is(e.got, e.ours) {
			t.Errorf("%s: our call returned %v, not our %s", e.name, e.got, e.name)
		}
		if e.goh == nil || e.got.Error() != e.goh.Error() || !strings.HasPrefix(e.goh.Error(), e.ours.Error()) {
			t.Errorf("%s: our call returned %q, gohashtree's %v", e.name, e.got, e.goh)
		}
	}
}
