package files

import "golang.org/x/sys/unix"

// pollerRoom reports whether the process has two descriptors to spare:
// what the runtime's poller takes when the first timer starts (an epoll
// instance and an eventfd), and without which it ends the process.
func pollerRoom() bool {
	var p [2]int
	if unix.Pipe2(p[:], unix.O_CLOEXEC) != nil {
		return false
	}
	unix.Close(p[0])
	unix.Close(p[1])
	return true
}
