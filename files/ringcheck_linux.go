package files

// The small files read through io_uring are checked for a change under
// the read as the plain way checks them (changed.go), but without a stat
// of the open file before the read: io_uring's statx refuses a direct
// descriptor, and each statx it runs goes to an io-wq thread. A file is
// taken as read whole and unchanged if, after the read, a statx of its
// name finds a regular file of the length read whose change time is
// settled: older than the time taken before the ring opened it, by a
// margin for the file system's and the clock's granularity. A file
// written to, truncated, or put in the name's place (rename and link set
// the change time) after that time has a later change time, on Linux's
// local file systems; any file not settled so is read again the plain
// way, stat before and after. The statx is a system call a file after the
// ring's submission (checkCalls), or for the benchmarks linked after the
// read in the same submission (checkLinked), which took more time:
// BENCHMARKS.md, "Files: a change under the read". A sized read (after a
// statx through the ring) is checked by a statx after it giving the same
// stamp as the one before.

import (
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/uring"
)

// The margins by which a change time must be older than the start of the
// read: a fine one where the time has nanoseconds (the coarse clock the
// kernel stamps files with lags the one read here by up to a tick, 10 ms
// at HZ=100), and a coarse one where it has none, which may be a file
// system that keeps whole seconds.
const (
	fineMargin   = 20 * time.Millisecond
	coarseMargin = 2 * time.Second
)

// settled reports whether a statx after a read of n bytes begun at t0
// (time.Now's UnixNano) says the file was that long and unchanged since
// before t0.
func settled(res int32, st *unix.Statx_t, n int, t0 int64) bool {
	if res < 0 || st.Mask&uring.StatxMask != uring.StatxMask || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != uint64(n) {
		return false
	}
	margin := int64(fineMargin)
	if st.Ctime.Nsec == 0 || st.Mtime.Nsec == 0 {
		margin = int64(coarseMargin)
	}
	c := st.Ctime.Sec*1e9 + int64(st.Ctime.Nsec)
	m := st.Mtime.Sec*1e9 + int64(st.Mtime.Nsec)
	return c <= t0-margin && m <= t0-margin
}

// sameStatx reports whether two statx results name the same file,
// unchanged.
func sameStatx(a, b *unix.Statx_t) bool {
	return a.Ino == b.Ino && a.Dev_major == b.Dev_major && a.Dev_minor == b.Dev_minor && a.Size == b.Size &&
		a.Ctime == b.Ctime && a.Mtime == b.Mtime && a.Mask&uring.StatxMask == uring.StatxMask && b.Mask&uring.StatxMask == uring.StatxMask
}

// statxCall is statx(2) of file k's name, into st; it returns statx's
// result as the ring would (0, or minus the errno).
func (rr *ringReader) statxCall(k int, st *unix.Statx_t) int32 {
	dir, name := rr.path(k)
	for {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(dir), uintptr(unsafe.Pointer(unsafe.SliceData(name))), 0, uring.StatxMask, uintptr(unsafe.Pointer(st)), 0)
		if e != unix.EINTR {
			return -int32(e)
		}
	}
}

// ringUnsettled counts the files read whole through the ring that were
// read again the plain way because the check could not settle them, for
// the tests.
var ringUnsettled atomic.Int64
