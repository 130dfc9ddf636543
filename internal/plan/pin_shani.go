//go:build sha256x_shani

package plan

const pinned = "shani"
