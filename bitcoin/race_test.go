//go:build race

package bitcoin

// The race detector makes sync.Pool drop items at random.
const raceEnabled = true
