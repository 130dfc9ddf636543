//go:build race

package pauses

// The race detector slows every call many times over.
const raceEnabled = true
