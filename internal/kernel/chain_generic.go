package kernel

import "crypto/sha256"

// The Go chain kernels, and the constants every chain kernel shares. A chain
// step hashes one block whose first half is the previous digest and whose
// second half is constant, so the chain kernels keep the state in
// registers, never load or store a block, and take W[8..15] and their share
// of the schedule as constants.

// chainPad is the second half of every chain step's block, W[8..15]: 0x80,
// zeros, and the message length, 256 bits.
var chainPad = [8]uint32{0x80000000, 0, 0, 0, 0, 0, 0, 256}

// chainWK is W[t]+K[t] for the constant rounds 8..15 of a chain step.
var chainWK = func() (wk [8]uint32) {
	for i := range wk {
		wk[i] = chainPad[i] + K[8+i]
	}
	return wk
}()

// chainGeneric advances the chain whose digest, as words, is h by n steps.
// It is Go code, which the runtime can preempt: n is not bounded.
func chainGeneric(h *[8]uint32, n uint64) {
	var w [64]uint32
	copy(w[8:16], chainPad[:])
	for ; n > 0; n-- {
		copy(w[:8], h[:])
		expand(&w)
		s := IV
		compress(&s, &w, &chainWK)
		*h = s
	}
}

// ChainStdlib is the chain of n steps from d on crypto/sha256, one step
// after another.
func ChainStdlib(d [Size]byte, n uint64) [Size]byte {
	for ; n > 0; n-- {
		d = sha256.Sum256(d[:])
	}
	return d
}

// runChainGo advances the width chains of ls by n steps on a Go kernel, one
// chain after another, lane-major.
func runChainGo(id ID, width int, ls *ChainLanes, n uint64) {
	for i := range width {
		h := (*[8]uint32)(ls[8*i:])
		if id == Generic {
			chainGeneric(h, n)
			continue
		}
		var d [Size]byte
		PutDigest(&d, h)
		d = ChainStdlib(d, n)
		*h = StateOf(&d)
	}
}
