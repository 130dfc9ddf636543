//go:build linux || darwin

package guardmem

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
)

// Mem returns n bytes, rounded up to whole pages, with an unmapped
// (PROT_NONE) page right before and right after them, unmapped when t
// ends.
func Mem(t testing.TB, n int) []byte {
	t.Helper()
	ps := os.Getpagesize()
	n = (n + ps - 1) / ps * ps
	mem, err := syscall.Mmap(-1, 0, n+2*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:ps], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[ps+n:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return mem[ps : ps+n]
}

// Try runs f with faults turned into panics, and fails t, naming what, if
// f faults or panics.
func Try(t testing.TB, what string, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("%s: %v", what, e)
		}
	}()
	f()
}
