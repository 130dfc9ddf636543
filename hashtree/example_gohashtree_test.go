package hashtree_test

// The digests in the Output lines were computed with Python's hashlib by
// testdata/derive_examples.py.

import (
	"fmt"

	// The switch from gohashtree is this import line: the calls stay as
	// they were.
	gohashtree "github.com/sha256x/sha256x/hashtree"
)

// Prysm's style: a level of chunks hashed in place, each pair's digest over
// the first half of the slice.
func ExampleHash() {
	chunks := make([][32]byte, 4)
	for i := range chunks {
		for j := range chunks[i] {
			chunks[i][j] = byte(i + 1)
		}
	}
	if err := gohashtree.Hash(chunks, chunks); err != nil {
		panic(err)
	}
	fmt.Printf("%x\n%x\n", chunks[0], chunks[1])
	fmt.Println(gohashtree.Hash(chunks, chunks[:3]))
	// Output:
	// f818afd37a6dc3bc92fb44731011277006db4efa6e9023cd7468c02335d22a4d
	// 505a9c6ac70bdffa46248e2025483f9fe997a0e31ed25559e448b73b7e02b9bd
	// odd number of chunks
}
