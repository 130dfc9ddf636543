// Package sha256x hashes many independent messages at once with SHA-256.
//
// Each message gets its own lane of a SIMD kernel or its own interleaved
// SHA-NI / ARMv8 SHA2 stream, so a batch of messages hashes several times
// faster than the same messages fed one after another to crypto/sha256.
// Every digest is bit-identical to crypto/sha256.
//
// The kernel is chosen once at init from the CPU's features (see Kernel and
// Kernels), less those GODEBUG=cpu.<feature>=off turns off (cpu.sha,
// cpu.avx2, cpu.avx512f, cpu.all), as for Go's own crypto. The environment
// variable SHA256X_KERNEL=<name> forces one kernel (a name of Kernels) or
// one plan (a name Kernel reports, such as "avx512+shani") for every call;
// the build tag purego builds no assembly, and sha256x_<name> pins one
// kernel without detection. A forced or pinned kernel that this CPU cannot
// run panics at init with a message that starts "sha256x:" and names the
// missing CPU feature.
//
// All functions are safe for concurrent use and, after warm-up, allocate
// nothing but the memory they return: New, Kernels, Digest.Clone,
// Digest.MarshalBinary, and Digest.Sum's or Digest.AppendBinary's growth
// of a slice too short.
//
// This package is the API alone; internal/sched, internal/plan and
// internal/kernel are the engine behind it (README.md, "How it works").
package sha256x

import (
	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

const (
	// Size is the size of a SHA-256 digest in bytes.
	Size = 32
	// BlockSize is the block size of SHA-256 in bytes.
	BlockSize = 64
)

// The engine's sizes are these (a negative difference does not compile).
const _ = uint(Size-kernel.Size) | uint(kernel.Size-Size) | uint(BlockSize-kernel.BlockSize) | uint(kernel.BlockSize-BlockSize)

// HashMany sets out[i] to the SHA-256 digest of msgs[i] for every i in
// msgs. Messages may have any lengths, may be nil or empty, and may overlap
// one another in memory. Entries of out past len(msgs) are left alone.
//
// HashMany panics with a message starting "sha256x:" if len(out) < len(msgs),
// or if the digests in out[:len(msgs)] overlap any message in memory (the
// kernels read messages while they write digests).
func HashMany(out [][Size]byte, msgs [][]byte) {
	sched.HashMany(plan.Active, out, nil, msgs)
}

// HashManyPrefixed sets out[i] to the SHA-256 digest of prefix || msgs[i]
// for every i in msgs, without building the concatenations: the prefix's
// whole blocks are hashed once for the batch, a message's whole blocks are
// read in place, and only the block that straddles prefix and message and
// the final padded blocks are copied. (A batch of short messages that all
// pad to as many blocks, at most three, may be staged whole for a pairs
// kernel instead.)
//
// It panics like HashMany, and also if out[:len(msgs)] overlaps prefix.
func HashManyPrefixed(out [][Size]byte, prefix []byte, msgs [][]byte) {
	sched.HashMany(plan.Active, out, prefix, msgs)
}

// Sum256 returns the SHA-256 digest of msg, computed on the fastest
// single-stream path of this CPU.
func Sum256(msg []byte) [Size]byte {
	return sched.Sum256(plan.Active, msg)
}

// Kernel reports what the dispatcher chose on this CPU: one kernel name, or a
// plan such as "avx512+shani" when wide lanes hand their last messages to a
// narrower kernel.
func Kernel() string {
	return plan.Active.Name
}

// Kernels lists every kernel this CPU can run, in the order the dispatcher
// prefers them when forced by name. The names are "generic" (portable Go),
// "stdlib" (crypto/sha256, one message after another), and, where the CPU
// has the features and the build has assembly (not purego), "shani",
// "avx2", "avx512" (amd64), "neon" and "sha2" (arm64).
func Kernels() []string {
	return plan.Kernels()
}
