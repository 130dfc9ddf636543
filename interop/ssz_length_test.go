package interop

import (
	"math/rand/v2"
	"testing"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// TestMixInLengthWideFastssz: MixInLength and NewListTree's root and
// length node with lengths of all 64 bits (the other tests' lengths fit in
// 32) against fastssz's MerkleizeWithMixin, which mixes in a uint64; the
// tree's proof of its length node (gindex 3) verifies with fastssz.
func TestMixInLengthWideFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 40))
	lengths := []uint64{1 << 32, 1<<32 - 1, 1<<32 + 1, 1 << 40, 1<<63 + 5, ^uint64(0)}
	for range 50 {
		lengths = append(lengths, r.Uint64()>>r.IntN(30))
	}
	for _, length := range lengths {
		n := r.IntN(40)
		chunks := randChunks(r, n)
		limit := uint64(n) + r.Uint64N(100)
		if limit == 0 {
			limit = 1
		}
		hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
		hh.Append(flat(chunks))
		hh.MerkleizeWithMixin(0, length, limit)
		want, err := hh.HashRoot()
		if err != nil {
			t.Fatal(err)
		}
		if got := sszx.MixInLength(sszx.Merkleize(chunks, limit), length); got != want {
			t.Fatalf("length %d: MixInLength %x, fastssz %x", length, got, want)
		}
		tr := sszx.NewListTree(chunks, limit, length)
		if tr.Root() != want {
			t.Fatalf("length %d: NewListTree's root %x, fastssz %x", length, tr.Root(), want)
		}
		p, err := tr.Prove(3)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := ssz.VerifyProof(want[:], toFastssz(p)); !ok || err != nil {
			t.Fatalf("length %d: fastssz rejects the proof of the length node: %v", length, err)
		}
	}
}
