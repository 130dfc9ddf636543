//go:build sha256x_avx2

package plan

const pinned = "avx2"
