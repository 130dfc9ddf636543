//go:build sha256x_neon

package plan

const pinned = "neon"
