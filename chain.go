package sha256x

import (
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// Hash chains: SHA-256 applied to its own 32-byte output, over and over, as
// in Solana's proof of history. One step hashes one block whose second half
// is constant padding, so the chain kernels keep the state in registers and
// never load or store a block. They follow the kernel chosen for messages
// (SHA256X_KERNEL, the build tags).

// Chain returns the hash chain of n steps from seed: seed itself if n is 0,
// else SHA-256(Chain(seed, n-1)). It runs on the fastest single stream of
// this CPU, and returns to the Go scheduler every 1024 steps or so, so that
// a long chain never holds up a garbage collection.
func Chain(seed [Size]byte, n uint64) [Size]byte {
	return sched.Chain(&plan.Active.Chain, seed, n)
}

// Chains advances every chain states[i] by counts[i] steps, in place:
// states[i] becomes Chain(states[i], counts[i]). The chains run side by side
// on the CPU's SIMD lanes or interleaved streams; a lane whose chain ends
// takes the next one, so chains of different lengths keep every lane busy.
// A count of 0 leaves its state alone.
//
// Chains panics with a message starting "sha256x:" if len(counts) !=
// len(states).
func Chains(states [][Size]byte, counts []uint64) {
	sched.Chains(&plan.Active.Chain, states, counts)
}
