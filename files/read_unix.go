//go:build unix

package files

import (
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

var errIsDir error = syscall.EISDIR

// outOfFiles reports whether err is a refusal for want of file
// descriptors: the process's (EMFILE) or the system's (ENFILE).
func outOfFiles(err error) bool {
	return errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE)
}

// openRead opens path for reading, made again while a signal interrupts
// it.
func openRead(path string) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	return fd, err
}

// openFile opens the file at path to be streamed. An *os.File from os.Open
// would be added to the runtime's poller, which, the first time, opens two
// descriptors of its own and ends the process if it cannot, and costs more
// system calls; os.NewFile of a descriptor in blocking mode is not added. A
// pipe is then read with blocking system calls, as readSmall hands one
// over.
func openFile(path string) (*os.File, error) {
	fd, err := openRead(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// readSmall opens the file at path and, if it is a regular file of at most
// len(buf)-1 bytes, reads it into buf. A file that is not regular (a pipe,
// a device) is returned open, to be streamed: opening it again could miss
// what a pipe's only writer wrote. Raw system calls skip the os.File poller
// registration, which costs about as much as the read; fstat on the open
// file replaces a stat of the path, and one after the read checks it
// (changed.go).
func readSmall(path string, buf []byte) (n int, kind fileKind, f io.ReadCloser, err error) {
	fd, err := openRead(path)
	if err != nil {
		return 0, 0, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return 0, 0, nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG && st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return 0, isLarge, os.NewFile(uintptr(fd), path), nil
	}
	defer unix.Close(fd)
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return 0, isDir, nil, nil
	}
	before := statStamp(&st)
	for try := 1; ; try++ {
		if before.size >= int64(len(buf)) {
			return 0, isLarge, nil, nil
		}
		// Up to EOF: one byte more than the size tells a file that grew. A
		// read that stops short exactly at the size is taken as EOF, saving
		// a system call; any other short read reads on.
		n = 0
		for n <= int(before.size) {
			m, err := unix.Pread(fd, buf[n:before.size+1], int64(n))
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return 0, 0, nil, &os.PathError{Op: "read", Path: path, Err: err}
			}
			if n += m; m == 0 || n == int(before.size) {
				break
			}
		}
		if n > int(before.size) {
			return 0, isLarge, nil, nil
		}
		if changeHook != nil {
			changeHook(path)
		}
		after, err := fdStamp(fd)
		if err != nil {
			return 0, 0, nil, &os.PathError{Op: "stat", Path: path, Err: err}
		}
		if after == before {
			return n, isSmall, nil, nil
		}
		readAgain.Add(1)
		if try == hashTries {
			return 0, 0, nil, changedErr(path)
		}
		before = after
	}
}
