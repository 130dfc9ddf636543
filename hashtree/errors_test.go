package hashtree

import (
	"errors"
	"strings"
	"testing"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

// TestDocumentedErrors: every documented error of the package, reached
// by a constructed bad input, is found by errors.Is as the docs say (a
// malformed proof's not as ErrMismatch), and its text starts "hashtree: "
// but for the bindings' names and the shared mismatch.
func TestDocumentedErrors(t *testing.T) {
	chunks := make([][sha256x.Size]byte, 5)
	for i := range chunks {
		chunks[i][0] = byte(i + 1)
	}
	tree := NewTree(chunks, 8)
	list := NewListTree(chunks, 8, 5)
	mut := NewChunks(chunks, 8)
	bl := NewBasicList([]uint64{1, 2, 3}, 16)
	good, _ := tree.Prove(9)
	multi, _ := tree.ProveMulti([]uint64{9, 12})
	short := good
	short.Branch = short.Branch[:2]
	wrongLeaf := good
	wrongLeaf.Leaf[0] ^= 1
	many := multi
	many.Helpers = append(many.Helpers, [sha256x.Size]byte{})
	noLeaves := multi
	noLeaves.Leaves = nil
	twice := Multiproof{Gindices: []uint64{9, 9}, Leaves: make([][sha256x.Size]byte, 2), Helpers: make([][sha256x.Size]byte, len(HelperIndices([]uint64{9, 9})))}
	zero := Multiproof{Gindices: []uint64{0, 9}, Leaves: make([][sha256x.Size]byte, 2), Helpers: make([][sha256x.Size]byte, len(HelperIndices([]uint64{0, 9})))}
	given := Multiproof{Gindices: []uint64{4, 8, 9}, Leaves: make([][sha256x.Size]byte, 3), Helpers: make([][sha256x.Size]byte, len(HelperIndices([]uint64{4, 8, 9})))}
	inner, _ := NewTree(chunks[:2], 2).Prove(2)
	outer, _ := tree.Prove(5)
	wrongMulti := multi
	wrongMulti.Leaves = [][sha256x.Size]byte{{1}, {2}}
	err2 := func(_ any, err error) error { return err }
	tests := []struct {
		name string
		err  error
		want error
		text string // the message's start
	}{
		{"Hash odd chunks", Hash(make([][32]byte, 1), make([][32]byte, 3)), ErrOddChunks, "odd number of chunks"},
		{"Hash short digests", Hash(make([][32]byte, 1), make([][32]byte, 4)), ErrNotEnoughDigests, "not enough digest length, need at least 2, got 1"},
		{"HashOf short digests", HashOf(make([][32]byte, 0), make([][32]byte, 2)), ErrShortDigests, "not enough digest length"},
		{"HashByteSlice chunks", HashByteSlice(make([]byte, 64), make([]byte, 96)), ErrChunksNotMultipleOf64, "chunks not multiple of 64 bytes"},
		{"HashByteSlice digests", HashByteSlice(make([]byte, 33), make([]byte, 128)), ErrDigestsNotMultipleOf32, "digests not multiple of 32 bytes"},
		{"HashByteSlice short", HashByteSlice(make([]byte, 32), make([]byte, 128)), ErrNotEnoughDigests, "not enough digest length, need at least 64, got 32"},
		{"BitlistRoot empty", err2(BitlistRoot(nil, 8)), ErrBitlist, "hashtree: "},
		{"BitlistRoot zero byte", err2(BitlistRoot([]byte{1, 0}, 8)), ErrBitlist, "hashtree: "},
		{"BitlistRoot past limit", err2(BitlistRoot([]byte{0xff, 0xff}, 8)), ErrBitlist, "hashtree: bitlist of 15 bits"},
		{"ProgressiveBitlistRoot", err2(ProgressiveBitlistRoot([]byte{0})), ErrBitlist, "hashtree: "},
		{"NewProgressiveBitlist", err2(NewProgressiveBitlist(nil)), ErrBitlist, "hashtree: "},
		{"Node 0", err2(tree.Node(0)), ErrGindex, "hashtree: "},
		{"Node below the leaves", err2(tree.Node(16)), ErrGindex, "hashtree: "},
		{"list Node below the length", err2(list.Node(6)), ErrGindex, "hashtree: "},
		{"Chunks Prove below the leaves", err2(mut.Prove(1 << 5)), ErrGindex, "hashtree: "},
		{"BasicList Prove below the length", err2(bl.Prove(7)), ErrGindex, "hashtree: "},
		{"Prove 0", err2(tree.Prove(0)), ErrGindex, "hashtree: "},
		{"ProveMulti none", err2(tree.ProveMulti(nil)), ErrMalformed, "hashtree: "},
		{"ProveMulti twice", err2(tree.ProveMulti([]uint64{9, 9})), ErrMalformed, "hashtree: "},
		{"ProveMulti below the leaves", err2(mut.ProveMulti([]uint64{9, 99})), ErrGindex, "hashtree: "},
		{"Proof gindex 0", Proof{}.Verify(tree.Root()), ErrGindex, "hashtree: "},
		{"Proof short branch", short.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Proof long branch", Proof{Gindex: 1, Branch: good.Branch}.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Proof of another root", good.Verify(list.Root()), ErrMismatch, "proof does not match the root"},
		{"Proof wrong leaf", wrongLeaf.Verify(tree.Root()), ErrMismatch, "proof does not match the root"},
		{"Multiproof none", Multiproof{}.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Multiproof leaves", noLeaves.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Multiproof helpers", many.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Multiproof twice", twice.Verify(tree.Root()), ErrMalformed, "hashtree: "},
		{"Multiproof gindex 0", zero.Verify(tree.Root()), ErrGindex, "hashtree: "},
		{"Multiproof given and computed", given.Verify(tree.Root()), ErrMismatch, "proof does not match the root"},
		{"Multiproof of another root", multi.Verify(list.Root()), ErrMismatch, "proof does not match the root"},
		{"Multiproof wrong leaves", wrongMulti.Verify(tree.Root()), ErrMismatch, "proof does not match the root"},
		{"ConcatProofs not the leaf", err2(ConcatProofs(outer, inner)), ErrMismatch, "proof does not match the root"},
		{"ConcatProofs inner malformed", err2(ConcatProofs(outer, short)), ErrMalformed, "hashtree: "},
	}
	for _, tt := range tests {
		checkErr(t, tt.name, tt.err, tt.want, tt.text)
	}
	// ConcatProofs past 64 bits: an inner proof whose root is the outer leaf.
	r, _ := good.Root()
	outer64 := Proof{Gindex: 1 << 62, Leaf: r, Branch: make([][32]byte, 62)}
	checkErr(t, "ConcatProofs past 64 bits", err2(ConcatProofs(outer64, good)), ErrGindex, "hashtree: ")
	if !errors.Is(ErrMismatch, merkle.ErrMismatch) {
		t.Error("hashtree.ErrMismatch is not merkle.ErrMismatch")
	}
}

func checkErr(t *testing.T, name string, err, want error, text string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: nil, want %v", name, want)
	case !errors.Is(err, want):
		t.Errorf("%s: %v, want one wrapping %v", name, err, want)
	case want != ErrMismatch && errors.Is(err, ErrMismatch):
		t.Errorf("%s: %v wraps ErrMismatch", name, err)
	case !strings.HasPrefix(err.Error(), text):
		t.Errorf("%s: %q, want it to start %q", name, err, text)
	}
}
