//go:build !purego

package sha256x

// The NEON kernel, in kernel_neon_arm64.s: neon4 runs four lanes, one job
// per 32-bit lane of the vector registers.

//go:noescape
func neon4(ls *laneSet, jobs []job)
