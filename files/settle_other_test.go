//go:build !linux

package files

const settleWait = 0
