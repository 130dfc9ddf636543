//go:build purego

package kernel

// BuildNote explains, in panics, why no assembly kernel exists.
const BuildNote = " built with -tags purego"
