//go:build sha256x_shani

package sha256x

const pinned = "shani"
