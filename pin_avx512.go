//go:build sha256x_avx512

package sha256x

const pinned = "avx512"
