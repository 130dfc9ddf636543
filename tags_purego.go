//go:build purego

package sha256x

// buildNote explains, in panics, why no assembly kernel exists.
const buildNote = " built with -tags purego"
