//go:build !race

package bitcoin

const raceEnabled = false
