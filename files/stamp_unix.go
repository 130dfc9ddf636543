//go:build unix

package files

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

func statStamp(st *unix.Stat_t) stamp {
	return stamp{ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// fdStamp stamps the file open as fd.
func fdStamp(fd int) (stamp, error) {
	var st unix.Stat_t
	err := unix.Fstat(fd, &st)
	for err == unix.EINTR {
		err = unix.Fstat(fd, &st)
	}
	return statStamp(&st), err
}

// osFileStamp stamps r by fstat if it is an *os.File (done), and says
// whether it is a regular file.
func osFileStamp(r io.Reader) (st stamp, ok, done bool) {
	f, isFile := r.(*os.File)
	if !isFile {
		return stamp{}, false, false
	}
	var s unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &s); err != nil || s.Mode&unix.S_IFMT != unix.S_IFREG {
		return stamp{}, false, true
	}
	return statStamp(&s), true, true
}
