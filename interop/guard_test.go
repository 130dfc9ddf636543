//go:build linux || darwin

package interop

import (
	"os"
	"syscall"
	"testing"
)

// guarded returns n bytes (a whole number of pages) with an unmapped page
// right before and right after them.
func guarded(t *testing.T, n int) []byte {
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
