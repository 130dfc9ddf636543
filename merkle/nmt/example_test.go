package nmt_test

import (
	"fmt"

	"github.com/sha256x/sha256x/merkle/nmt"
)

// The tree of Figure 1 of nmt's specification: namespaces of one byte.
func Example() {
	h := nmt.Hasher{NamespaceSize: 1, IgnoreMaxNamespace: true}
	t := nmt.New(h)
	leaves := [][]byte{[]byte("\x00leaf_0"), []byte("\x00leaf_1"), []byte("\x01leaf_2"), []byte("\x03leaf_3")}
	for _, l := range leaves {
		if err := t.Push(l); err != nil {
			panic(err)
		}
	}
	root := t.Root()
	fmt.Printf("root %x...\n", root[:6]) // Figure 1: 00 03 b1c2cc5

	p, _ := t.ProveNamespace([]byte{1})
	fmt.Println("namespace 1:", p.Start, p.End, h.VerifyNamespace(root, []byte{1}, leaves[2:3], p))
	p, _ = t.ProveNamespace([]byte{2})
	fmt.Println("namespace 2 absent:", p.IsAbsence(), h.VerifyNamespace(root, []byte{2}, nil, p))
	fmt.Println("out of order:", t.Push([]byte("\x02late")))
	// Output:
	// root 0003b1c2cc50...
	// namespace 1: 2 3 <nil>
	// namespace 2 absent: true <nil>
	// out of order: nmt: leaf 4 pushed with a namespace below the last leaf's
}

// A Celestia block's row and column roots.
func ExampleSquare() {
	const width = 4 // a 2 x 2 square, extended
	shares := make([][]byte, width*width)
	for i := range shares {
		shares[i] = make([]byte, 512)
		shares[i][28] = byte(i / width * 2) // the original shares' namespaces, in order
	}
	sq := nmt.NewSquare(nmt.Celestia)
	roots, err := sq.Roots(nil, shares, width)
	if err != nil {
		panic(err)
	}
	n := nmt.Celestia.NodeSize()
	fmt.Println(len(roots)/n, "roots of", n, "bytes")
	// Output:
	// 8 roots of 90 bytes
}
