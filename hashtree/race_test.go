//go:build race

package hashtree

const raceEnabled = true
