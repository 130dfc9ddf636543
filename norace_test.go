//go:build !race

package sha256x

const raceEnabled = false
