//go:build sha256x_avx2

package sha256x

const pinned = "avx2"
