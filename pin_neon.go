//go:build sha256x_neon

package sha256x

const pinned = "neon"
