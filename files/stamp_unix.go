//go:build unix

package files

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

func statStamp(st *unix.Stat_t) stamp {
	return stamp{st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
}

func fdStamp(fd int) (stamp, error) {
	var st unix.Stat_t
	err := unix.Fstat(fd, &st)
	return statStamp(&st), err
}

// osFileStamp stamps r by fstat if it is an *os.File (done).
func osFileStamp(r io.Reader) (st stamp, regular, done bool) {
	f, ok := r.(*os.File)
	if !ok {
		return stamp{}, false, false
	}
	var s unix.Stat_t
	err := unix.Fstat(int(f.Fd()), &s)
	return statStamp(&s), err == nil && s.Mode&unix.S_IFMT == unix.S_IFREG, true
}
