//go:build sha256x_sha2

package plan

const pinned = "sha2"
