//go:build sha256x_stdlib

package plan

const pinned = "stdlib"
