//go:build !purego

package sha256x

// The SHA2 kernels, in kernel_sha2_arm64.s: sha2xN runs N interleaved
// streams of the ARMv8 SHA-256 instructions, one job per stream.

//go:noescape
func sha2x1(ls *laneSet, jobs []job)

//go:noescape
func sha2x2(ls *laneSet, jobs []job)

//go:noescape
func sha2x3(ls *laneSet, jobs []job)

//go:noescape
func sha2x4(ls *laneSet, jobs []job)
