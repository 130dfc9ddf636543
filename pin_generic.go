//go:build sha256x_generic

package sha256x

const pinned = "generic"
