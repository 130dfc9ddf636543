//go:build !amd64 || purego

package pages

// prefetch does nothing where there is no prefetch instruction to call.
func prefetch(p *uintptr, n int) {}
