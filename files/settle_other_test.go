//go:build !linux

package files

const settleWait = 0

func dropIdleRings() {}
