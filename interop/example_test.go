package interop

import (
	"bytes"
	"fmt"

	ssz "github.com/ferranbt/fastssz"
	"github.com/ferranbt/fastssz/spectests"
	"github.com/sha256x/sha256x/hashtree"
)

// fastssz with sha256x's HashFn: the one change is the hasher's
// construction. (The digest in the Output line was computed with Python's
// hashlib by hashtree/testdata/derive_examples.py.)
func Example_fastssz() {
	header := &spectests.BeaconBlockHeader{
		Slot:          1,
		ProposerIndex: 2,
		ParentRoot:    bytes.Repeat([]byte{0x11}, 32),
		StateRoot:     bytes.Repeat([]byte{0x22}, 32),
		BodyRoot:      bytes.Repeat([]byte{0x33}, 32),
	}
	hh := ssz.NewHasherWithHashFn(hashtree.HashByteSlice)
	if err := header.HashTreeRootWith(hh); err != nil {
		panic(err)
	}
	root, err := hh.HashRoot()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", root)
	// Output:
	// ca97916da2119fd20a6e873e4c8d77d4f92297cf3b82d017d277a9a46d10de61
}
