//go:build race

package bench

// The race detector's build allocates where the plain build does not (its
// instrumentation moves values to the heap), so allocation counts are the
// plain build's.
const raceEnabled = true
