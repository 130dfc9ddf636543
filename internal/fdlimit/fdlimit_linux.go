package fdlimit

import (
	"os"
	"runtime/debug"
	"strconv"

	"golang.org/x/sys/unix"
)

// Leave sets RLIMIT_NOFILE, soft and hard, so that spare more descriptors
// can be opened than are open now. The limit bounds descriptors' numbers
// (a new one takes the lowest free), so it is put where spare numbers
// below it are free.
//
// It turns the collector off first: a collection wakes the runtime's
// scavenger, whose first timer sets up the poller, which takes two
// descriptors and ends the process without them, whatever the code under
// test does (TestShortOfDescriptors' children, under -race with
// GOMAXPROCS=1, in 5 runs of 12).
func Leave(spare int) error {
	debug.SetGCPercent(-1)
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	open := map[int]bool{}
	for _, e := range ents {
		// The listing's own descriptor is among them, closed since.
		fd, err := strconv.Atoi(e.Name())
		if _, ferr := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && ferr == nil {
			open[fd] = true
		}
	}
	limit, free := 0, 0
	for free < spare || open[limit] {
		if !open[limit] {
			free++
		}
		limit++
	}
	return unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: uint64(limit), Max: uint64(limit)})
}
