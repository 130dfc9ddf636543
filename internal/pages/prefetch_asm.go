//go:build amd64 && !purego

package pages

// prefetch asks for the cache lines at the n addresses from p on, without
// waiting for them: a load would hold the core until its line came.
//
//go:noescape
func prefetch(p *uintptr, n int)
