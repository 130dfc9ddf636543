//go:build unix

package sched

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/plan/plantest"
)

// TestWriteManyFault checks, on every plan, what package files relies on
// when it hashes a mapped file that shrinks: a read of a page past the
// file's new end (SIGBUS) inside WriteMany becomes a panic the caller
// recovers, with the faulting address; afterwards the streams are free
// again and the scheduler hashes correctly (the call's scratch, perhaps
// half laid out, was not put back in the pool).
func TestWriteManyFault(t *testing.T) {
	ps := os.Getpagesize()
	const size = 256 << 10
	keep := 40<<10 + 100 // what is left of the file: pages past it fault
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, pattern(size, 1), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(m)
	if err := os.Truncate(path, int64(keep)); err != nil {
		t.Fatal(err)
	}
	bad := (keep + ps - 1) / ps * ps // the first page that faults
	for _, p := range plantest.All() {
		for _, n := range []int{1, 2, 5, 8, 16, 17} {
			t.Run(fmt.Sprintf("%s/%d", p.Name, n), func(t *testing.T) {
				// Stream n-1 reads past the end; the others stay below it.
				chunks := make([][]byte, n)
				for i := range chunks {
					chunks[i] = m[i*512 : i*512+4096+i*7]
				}
				chunks[n-1] = m[bad-8192-n : bad+3*ps]
				ss := streams(n)
				addr, ok := writeFaulting(p.Plan, ss, chunks)
				if !ok {
					t.Fatal("WriteMany read past the file's end without a fault")
				}
				// qemu's user-mode emulation reports the fault at address 0,
				// which the runtime turns into a nil dereference; .ci/cross
				// says so with SHA256X_TEST_QEMU.
				if lo := uintptr(unsafe.Pointer(unsafe.SliceData(m))) + uintptr(bad); (addr != 0 || !emulated) && (addr < lo || addr >= lo+3*uintptr(ps)) {
					t.Fatalf("fault at %#x, want in [%#x, %#x)", addr, lo, lo+3*uintptr(ps))
				}
				// The same streams, reset, and new ones hash correctly.
				for i := range chunks {
					chunks[i] = pattern(1000+i*300, i)
				}
				for _, s := range ss {
					*s = Stream{}
				}
				for _, ss := range [][]*Stream{ss, streams(n)} {
					WriteMany(p.Plan, ss, chunks, false)
					for i, s := range ss {
						if got, want := s.Sum256(p.Plan), sha256.Sum256(chunks[i]); got != want {
							t.Fatalf("stream %d after the fault: %x, want %x", i, got, want)
						}
					}
				}
			})
		}
	}
}

// emulated says that the tests run under qemu's user-mode emulation, which
// reports no fault addresses (.ci/cross sets SHA256X_TEST_QEMU).
var emulated = os.Getenv("SHA256X_TEST_QEMU") != ""

// writeFaulting calls WriteMany with faults turned into panics, and returns
// the faulting address if it recovered one.
func writeFaulting(pl *plan.Plan, ss []*Stream, chunks [][]byte) (addr uintptr, faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		switch e := recover().(type) {
		case nil:
		case interface{ Addr() uintptr }:
			addr, faulted = e.Addr(), true
		case runtime.Error:
			faulted = true // no address (qemu)
		default:
			panic(e)
		}
	}()
	WriteMany(pl, ss, chunks, false)
	runtime.KeepAlive(chunks)
	return 0, false
}
