package merkle_test

// The digests in the Output lines were computed with Python's hashlib by
// testdata/derive_examples.py.

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

func ExampleScheme_Root() {
	// A Certificate Transparency tree of three entries.
	leaves := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	fmt.Printf("%x\n", merkle.RFC6962.Root(leaves))
	fmt.Printf("%x\n", merkle.RFC6962.Root(nil))
	// Output:
	// 36642e73c2540ab121e3a6bf9545b0a24982cd830eb13d3cd19de3ce6c021ec1
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
}

func ExampleTree_Proof() {
	leaves := [][]byte{[]byte("a"), []byte("b"), []byte("c"), []byte("d"), []byte("e")}
	tree := merkle.RFC6962.Build(leaves)
	root := tree.Root()
	fmt.Printf("%x\n", root)

	// The proof of "c", leaf 2 of 5: an RFC 6962 audit path.
	p := tree.Proof(2)
	fmt.Println(len(p.Path), merkle.RFC6962.Verify(root, []byte("c"), p))
	// Another leaf: the proof leads to another root.
	err := merkle.RFC6962.Verify(root, []byte("x"), p)
	fmt.Println(errors.Is(err, merkle.ErrMismatch))
	// Another index: leaf 3 of 5 has a path of 3 nodes too, so this is a
	// mismatch as well; leaf 4 of 5 has 1, and the error says so.
	p.Index = 3
	fmt.Println(errors.Is(merkle.RFC6962.Verify(root, []byte("c"), p), merkle.ErrMismatch))
	p.Index = 4
	fmt.Println(merkle.RFC6962.Verify(root, []byte("c"), p))
	// Output:
	// fe14a5426fbd70c0fa73f52342afed0da0bd23c4838662ccf6b88a3070ead97b
	// 3 <nil>
	// true
	// true
	// merkle: a path of 3 nodes for leaf 4 of 5 leaves, which has 1
}

func Example_bitcoin() {
	// Block 100,000: its txids as explorers print them, in display order.
	txids := []string{
		"8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
		"fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
		"6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
		"e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d",
	}
	// The tree takes them in internal byte order, the reverse.
	nodes := make([][32]byte, len(txids))
	for i, s := range txids {
		b, _ := hex.DecodeString(s)
		nodes[i] = merkle.Reverse([32]byte(b))
	}
	root := merkle.Bitcoin.RootNodes(nodes)
	fmt.Printf("%x\n", merkle.Reverse(root)) // display order
	// Output: f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766
}

func Example_binary() {
	// Three 32-byte chunks, padded with a zero chunk to four.
	var chunks [][]byte
	for _, b := range []byte{1, 2, 3} {
		chunks = append(chunks, slices.Repeat([]byte{b}, 32))
	}
	fmt.Printf("%x\n", merkle.Binary.Root(chunks))
	// Output: d6cfa0d1046a0f4c1f9a6dc57afb0f4577680c106a48cf04125e7ba8606da219
}

func Example_solana() {
	// Five shreds (here short strings; in the validator, a shred's bytes
	// from past its signature to its Merkle proof).
	var shreds [][]byte
	for i := range 5 {
		shreds = append(shreds, fmt.Appendf(nil, "shred %d", i))
	}
	tree := merkle.Solana.Build(shreds)
	root := tree.Root()
	fmt.Printf("%x\n", root)

	// A shred carries 20-byte proof entries.
	p := tree.Proof(4)
	fmt.Println(len(p.Path), len(p.Path[0][:merkle.Solana.Node.Width]))
	fmt.Println(merkle.Solana.Verify(root, shreds[4], p))
	// Output:
	// 86f1e3fbf3d4735c1865aa72bea56444a8a0d0d2cca810d5e4b5a20918baa27d
	// 3 20
	// <nil>
}

func ExampleScheme() {
	// The Merkle tree of tape: leaves SHA-256("LEAF" || blob), nodes
	// SHA-256("LEFT" || left || "RIGHT" || right); here an odd last node
	// is joined with itself.
	tape := merkle.Scheme{
		LeafPrefix: []byte("LEAF"),
		Node:       sha256x.Join{Prefix: []byte("LEFT"), Infix: []byte("RIGHT")},
		Odd:        merkle.Duplicate,
	}
	blobs := [][]byte{[]byte("blob 0"), []byte("blob 1"), []byte("blob 2")}
	fmt.Printf("%x\n", tape.Root(blobs))
	// Output: 33a83003445192a72e347913e4fc6a5b8008ada825ae43a4c0528633bd8421fd
}

func ExampleScheme_workers() {
	// An SSZ tree of 2^14 chunks: large enough to be cut into subtrees for
	// every core by default. Workers: 1 keeps it on this goroutine; the
	// root is the same.
	chunks := make([][merkle.Size]byte, 1<<14)
	for i := range chunks {
		chunks[i][0], chunks[i][1] = byte(i), byte(i>>8)
	}
	one := merkle.Binary
	one.Workers = 1
	fmt.Println(one.RootNodes(chunks) == merkle.Binary.RootNodes(chunks))
	// Output:
	// true
}
