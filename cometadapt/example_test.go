package cometadapt_test

import (
	"fmt"

	"github.com/sha256x/sha256x/cometadapt"
)

// The one-line switch: cometadapt.HashFromByteSlices in place of CometBFT's
// merkle.HashFromByteSlices, and ProofsFromByteSlices returning CometBFT's
// own *merkle.Proof.
func Example() {
	txs := [][]byte{[]byte("tx1"), []byte("tx2"), []byte("tx3")}
	root, proofs := cometadapt.ProofsFromByteSlices(txs)
	fmt.Println(string(cometadapt.HashFromByteSlices(txs)) == string(root))
	fmt.Println(proofs[2].Verify(root, txs[2]))                  // CometBFT's verifier
	fmt.Println(cometadapt.VerifyProof(proofs[2], root, txs[2])) // ours
	// Output:
	// true
	// <nil>
	// <nil>
}
