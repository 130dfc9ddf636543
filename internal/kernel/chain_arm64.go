//go:build !purego

package kernel

// The arm64 chain kernels' constants, read by chain_arm64.s.

// chainNeonC is the NEON chain kernel's constants: the IV, then the padding
// W[8..15].
//
//lint:ignore U1000 read by chain_arm64.s
var chainNeonC = func() (c [16]uint32) {
	copy(c[:8], IV[:])
	copy(c[8:], chainPad[:])
	return c
}()

// chainArmC is the SHA2 chain kernels' constants, four words a vector: the
// IV as abcd and efgh; the IV plus K[0..3] and plus K[4..7]; the padding's
// W[8..11] and W[12..15]; then for groups 2..15 of a step, W+K of the
// padding (groups 2, 3) and K (groups 4..15).
//
//lint:ignore U1000 read by chain_arm64.s
var chainArmC = func() (c [80]uint32) {
	copy(c[0:8], IV[:])
	for i := range 8 {
		c[8+i] = IV[i] + K[i]
	}
	copy(c[16:24], chainPad[:])
	copy(c[24:32], chainWK[:])
	copy(c[32:80], K[16:])
	return c
}()
