package sha256x_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sha256x/sha256x"
)

func ExampleHashMany() {
	msgs := [][]byte{[]byte("abc"), nil, []byte("hello, world")}
	out := make([][sha256x.Size]byte, len(msgs))
	sha256x.HashMany(out, msgs)
	for _, d := range out {
		fmt.Printf("%x\n", d)
	}
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
	// 09ca7e4eaa6e8ae9c7d261167129184883644d07dfba7cbfbc4c8a2e08360d5b
}

func ExampleHashManyPrefixed() {
	// Leaves of a Merkle tree with domain separation: SHA-256("LEAF" || blob).
	blobs := [][]byte{[]byte("first blob"), []byte("second blob")}
	leaves := make([][sha256x.Size]byte, len(blobs))
	sha256x.HashManyPrefixed(leaves, []byte("LEAF"), blobs)
	fmt.Printf("%x\n", leaves[0])
	fmt.Println(leaves[0] == sha256x.Sum256([]byte("LEAFfirst blob")))
	// Output:
	// a03fd601b1ad232ce23f3114711e8802aed29c36b48093f57c513f9de50c4774
	// true
}

func ExampleSum256() {
	fmt.Printf("%x\n", sha256x.Sum256([]byte("abc")))
	// Output: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}

func ExampleJoin_HashLevel() {
	// An RFC 6962 (Certificate Transparency) tree of four leaves, reduced
	// level by level in place.
	level := make([][sha256x.Size]byte, 4)
	var leaves [][]byte
	for _, s := range []string{"a", "b", "c", "d"} {
		leaves = append(leaves, []byte(s))
	}
	sha256x.HashManyPrefixed(level, []byte{0}, leaves)
	node := sha256x.Join{Prefix: []byte{1}}
	for len(level) > 1 {
		node.HashLevel(level, level)
		level = level[:len(level)/2]
	}
	fmt.Printf("%x\n", level[0])
	// Output: 33376a3bd63e9993708a84ddfe6c28ae58b83505dd1fed711bd924ec5a6239f0
}

func ExampleKernel() {
	// Kernel names the dispatcher's choice on this CPU, such as "shani";
	// Kernels lists every kernel this CPU can run.
	fmt.Println(strings.Contains(sha256x.Kernel(), "") && slices.Contains(sha256x.Kernels(), "generic"))
	// Output: true
}

func ExampleWriteMany() {
	// Three streams hashed side by side, a chunk at a time: how to hash
	// several large files without holding any of them in memory.
	ds := []*sha256x.Digest{new(sha256x.Digest), new(sha256x.Digest), new(sha256x.Digest)}
	for _, chunk := range []string{"ab", "c"} {
		sha256x.WriteMany(ds, [][]byte{[]byte(chunk), []byte(chunk + chunk), nil})
	}
	for _, d := range ds {
		fmt.Printf("%x\n", d.Sum(nil))
	}
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	// 2caacccf621971d0a094e9693be31731bc6fa85b28e39ee745d26100b7d64d08
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
}
