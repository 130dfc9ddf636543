//go:build !unix

package bench

func minorFaults() int64 { return -1 }
