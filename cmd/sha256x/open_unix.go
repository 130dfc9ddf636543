//go:build unix

package main

import (
	"os"
	"syscall"
)

// openList opens a checksum file for reading. An *os.File from os.Open
// would be added to the runtime's poller, which, the first time, opens two
// descriptors of its own and ends the process if it cannot: a process short
// of descriptors would end where sha256sum checks the files. Without the
// poller a pipe (as <(...) names one) is read with blocking system calls.
func openList(name string) (*os.File, error) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// spareDescriptors reports whether the process could open n descriptors
// more now.
func spareDescriptors(n int) bool {
	fds := make([]int, 0, n)
	defer func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}()
	for range n {
		fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		fds = append(fds, fd)
	}
	return true
}
