//go:build sha256x_avx512

package plan

const pinned = "avx512"
