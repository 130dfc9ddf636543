//go:build unix

package files

import (
	"io"
	"os"
	"syscall"
)

var errIsDir error = syscall.EISDIR

// readSmall opens the file at path and, if it is a regular file of at most
// len(buf)-1 bytes, reads it into buf. A file that is not regular (a pipe,
// a device) is returned open, to be streamed: opening it again could miss
// what a pipe's only writer wrote. Raw system calls skip the os.File poller
// registration, which costs about as much as the read of a small file;
// fstat on the open file replaces a stat of the path.
func readSmall(path string, buf []byte) (n int, kind fileKind, f io.ReadCloser, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return 0, 0, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return 0, 0, nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG && st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return 0, isLarge, os.NewFile(uintptr(fd), path), nil
	}
	defer syscall.Close(fd)
	switch {
	case st.Mode&syscall.S_IFMT == syscall.S_IFDIR:
		return 0, isDir, nil, nil
	case st.Size >= int64(len(buf)):
		return 0, isLarge, nil, nil
	}
	// Up to EOF: one byte more than the size tells a file that grew. A
	// read that stops short exactly at the size is taken as EOF, which
	// saves a system call per file; any other short read reads on.
	buf = buf[:st.Size+1]
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, 0, nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 || n+m == int(st.Size) {
			return n + m, isSmall, nil, nil
		}
		n += m
	}
	return 0, isLarge, nil, nil
}
