//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

var errIsDir error = syscall.EISDIR

// readSmall reads the file at path into buf, which is one byte longer than
// the file's size when stat'ed: grew reports a file that filled buf. Raw
// system calls skip the os.File poller registration, which costs as much as
// the read for a small file.
func readSmall(path string, buf []byte) (n int, grew bool, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return 0, false, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, false, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return n, false, nil
		}
		n += m
	}
	return n, true, nil
}

// userTime is the process's user CPU time, which FreeBSD's time trial
// measures.
func userTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}
