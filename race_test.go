//go:build race

package sha256x

// The race detector makes sync.Pool drop items at random.
const raceEnabled = true
