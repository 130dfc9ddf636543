//go:build sha256x_stdlib

package sha256x

const pinned = "stdlib"
