//go:build !race

package cometadapt

const raceEnabled = false
