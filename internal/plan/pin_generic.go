//go:build sha256x_generic

package plan

const pinned = "generic"
