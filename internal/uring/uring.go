// Package uring is the small part of Linux's io_uring that hashing files
// needs: one ring per goroutine, a sparse table of direct descriptors,
// registered buffers, and the operations statx, openat (into a direct
// descriptor), read (plain or from a registered buffer) and close, which
// may be linked into chains that the kernel runs in order.
//
// It is built on raw system calls (golang.org/x/sys/unix): no Go module for
// io_uring is available to this project. Where the kernel or a seccomp
// profile refuses io_uring (ENOSYS, EPERM), or lacks what this package needs,
// New returns an error and the caller reads files with plain system calls.
// Setting the environment variable SHA256X_IOURING=off makes New fail the
// same way, to test that path.
package uring

import (
	"errors"
	"os"
)

// ErrDisabled is New's error when SHA256X_IOURING=off.
var ErrDisabled = errors.New("uring: disabled by SHA256X_IOURING=off")

// Disabled reports whether the environment turns io_uring off.
func Disabled() bool { return os.Getenv("SHA256X_IOURING") == "off" }
