//go:build unix && !linux

package files

import "syscall"

// pollerRoom reports whether the process has three descriptors to spare:
// the most the runtime's poller takes when the first timer starts (a
// kqueue or an event port, and on NetBSD and OpenBSD a pipe beside it),
// without which it ends the process.
func pollerRoom() bool {
	var fds [3]int
	n := 0
	defer func() {
		for _, fd := range fds[:n] {
			syscall.Close(fd)
		}
	}()
	for ; n < len(fds); n++ {
		fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		fds[n] = fd
	}
	return true
}
