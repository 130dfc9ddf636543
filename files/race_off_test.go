//go:build !race

package files

// raceEnabled says the tests run under the race detector, which allocates
// more.
const raceEnabled = false
