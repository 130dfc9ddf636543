package fdlimit

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Leave sets RLIMIT_NOFILE, soft and hard, so that spare more descriptors
// can be opened than are open now. The limit bounds descriptors' numbers
// (a new one takes the lowest free), so it is put where spare numbers
// below it are free.
func Leave(spare int) error {
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
