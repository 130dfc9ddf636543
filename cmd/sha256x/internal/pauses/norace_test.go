//go:build !race

package pauses

const raceEnabled = false
