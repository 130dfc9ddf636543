package files

// A file changed under its read: the package doc says what it gets;
// ringcheck_linux.go how the ring's reads are checked.

import (
	"errors"
	"io"
	"io/fs"
	"sync/atomic"
)

// ErrChanged is the error, in an *fs.PathError, of a file that changed
// while it was hashed each of the 3 times it was.
var ErrChanged = errors.New("file changed while it was hashed")

// hashTries bounds the passes over a file that keeps changing (a log
// written all the time), which would otherwise hold a worker.
const hashTries = 3

// changeHook, if set (by tests), is called after a file is read and
// before it is stamped again.
var changeHook func(path string)

// readAgain counts passes again, gaveUp files given ErrChanged (tests).
var readAgain, gaveUp atomic.Int64

// A stamp is what a stat says of a file's contents (ino and ctime 0 for an
// fs.FS's files).
type stamp struct {
	ino          uint64
	size         int64
	mtime, ctime int64 // ns
}

func changedErr(path string) error {
	gaveUp.Add(1)
	return &fs.PathError{Op: "read", Path: path, Err: ErrChanged}
}

func infoStamp(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// fileStamp stamps an open file if it is regular: by fstat for an
// *os.File on Unix, else from its Stat method.
func fileStamp(r io.Reader) (stamp, bool) {
	if st, ok, done := osFileStamp(r); done {
		return st, ok
	}
	s, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return stamp{}, false
	}
	fi, err := s.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return stamp{}, false
	}
	return infoStamp(fi), true
}
