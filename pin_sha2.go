//go:build sha256x_sha2

package sha256x

const pinned = "sha2"
