package files

// The ring's reads checked for a change. Its statx refuses a direct
// descriptor: a probed file's statx by name after the read must find the
// length read and a change time, which any write, truncation, rename or
// link sets, older than the open by a margin (the kernel's clock is coarse;
// some file systems keep whole seconds). A sized read's statx after must
// equal the one before. Others are read again plainly (BENCHMARKS.md,
// "Files: a change under the read").

import (
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/uring"
)

const (
	fineMargin   = 20 * time.Millisecond
	coarseMargin = 2 * time.Second
)

// ringUnsettled counts the files read through the ring and again the
// plain way, for the tests.
var ringUnsettled atomic.Int64

// statxAfter is statx(2) of file k's name into rr.after.
func (rr *ringReader) statxAfter(k int, path string) bool {
	if changeHook != nil {
		changeHook(path)
	}
	dir, name := rr.path(k)
	for {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(dir), uintptr(unsafe.Pointer(unsafe.SliceData(name))), 0, uring.StatxMask, uintptr(unsafe.Pointer(&rr.after)), 0)
		if e != unix.EINTR {
			return e == 0 && rr.after.Mask&uring.StatxMask == uring.StatxMask
		}
	}
}

// settled reports whether file k, n bytes read after t0 (UnixNano), has
// n bytes and no change since before t0.
func (rr *ringReader) settled(k int, path string, n int, t0 int64) bool {
	st := &rr.after
	if !rr.statxAfter(k, path) || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != uint64(n) {
		return false
	}
	margin := int64(fineMargin)
	if st.Ctime.Nsec == 0 || st.Mtime.Nsec == 0 {
		margin = int64(coarseMargin)
	}
	return st.Ctime.Sec*1e9+int64(st.Ctime.Nsec) <= t0-margin && st.Mtime.Sec*1e9+int64(st.Mtime.Nsec) <= t0-margin
}

// unchanged reports whether file k's statx after its sized read is the
// one before.
func (rr *ringReader) unchanged(k int, path string) bool {
	a, b := &rr.sts[k], &rr.after
	return rr.statxAfter(k, path) && a.Mask&uring.StatxMask == uring.StatxMask && a.Ino == b.Ino && a.Dev_major == b.Dev_major &&
		a.Dev_minor == b.Dev_minor && a.Size == b.Size && a.Ctime == b.Ctime && a.Mtime == b.Mtime
}
