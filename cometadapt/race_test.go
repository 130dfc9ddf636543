//go:build race

package cometadapt

// The race detector makes sync.Pool drop items at random.
const raceEnabled = true
