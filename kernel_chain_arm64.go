//go:build !purego

package sha256x

// The chain kernels in kernel_chain_arm64.s: chainSha2xN advances N chains,
// lane-major in ls, by n steps (n bounded by the caller,
// chainStage.maxSteps) on N interleaved ARMv8 SHA2 streams.

//go:noescape
func chainSha2x1(ls *chainLanes, n uint64)

//go:noescape
func chainSha2x2(ls *chainLanes, n uint64)

//go:noescape
func chainSha2x3(ls *chainLanes, n uint64)

// chainNeon4 advances four chains, word-major in ls, by n steps on the
// lanes of NEON vectors.
//
//go:noescape
func chainNeon4(ls *chainLanes, n uint64)

// chainNeonC is chainNeon4's constants: the IV, then the padding W[8..15].
//
//lint:ignore U1000 read by kernel_chain_arm64.s
var chainNeonC = func() (c [16]uint32) {
	copy(c[:8], iv[:])
	copy(c[8:], chainPad[:])
	return c
}()

// chainArmC is the kernels' constants, four words a vector: the IV as abcd
// and efgh; the IV plus K[0..3] and plus K[4..7]; the padding's W[8..11]
// and W[12..15]; then for groups 2..15 of a step, W+K of the padding
// (groups 2, 3) and K (groups 4..15).
//
//lint:ignore U1000 read by kernel_chain_arm64.s
var chainArmC = func() (c [80]uint32) {
	copy(c[0:8], iv[:])
	for i := range 8 {
		c[8+i] = iv[i] + k256[i]
	}
	copy(c[16:24], chainPad[:])
	copy(c[24:32], chainWK[:])
	copy(c[32:80], k256[16:])
	return c
}()
