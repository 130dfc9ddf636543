package files

// A file that changes while it is read can give bytes it never held at
// once: a read that races a truncation copies what it finds page by page
// (the bytes before, zeros, pages about to be dropped). So every regular
// file is stamped (size, inode, modification and change times) before it
// is read and again after, and a file whose stamps differ is hashed again,
// up to hashTries times, then given ErrChanged. On Linux 6.13 and later
// the file systems with multigrain times (ext4, XFS, Btrfs, tmpfs) give a
// change made after a stat a time of its own, so a truncation and an
// extension back to the same size are told apart too; elsewhere such a
// pair within one tick of the clock (or the file system's granularity)
// can go unseen. The files read through io_uring are checked another way
// (ringcheck_linux.go).

import (
	"errors"
	"io"
	"io/fs"
	"sync/atomic"
)

// ErrChanged is the error, in an *fs.PathError, of a file that changed
// while it was hashed each of the hashTries times it was.
var ErrChanged = errors.New("file changed while it was hashed")

// hashTries is how many times a file that keeps changing while it is
// hashed is hashed before it is given ErrChanged: one that changed once
// (a rewrite, a truncation) gets a digest of its new contents; one
// written all the time (a log) does not hold up the others for long.
const hashTries = 3

// changeHook, if set (by tests), is called after a file is read and
// before it is stamped again.
var changeHook func(path string)

// readAgain counts the files read again because they changed while read,
// and gaveUp those given ErrChanged, for the tests.
var readAgain, gaveUp atomic.Int64

// A stamp is what a stat tells of a file's contents: two equal stamps
// taken before and after a read say that nothing wrote or truncated it in
// between (as far as the file system's times can tell). ctime is 0 where
// it is not known (an fs.FS's files).
type stamp struct {
	ino          uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

func changedErr(path string) error {
	gaveUp.Add(1)
	return &fs.PathError{Op: "read", Path: path, Err: ErrChanged}
}

// infoStamp is the stamp fs.FileInfo gives: its size and modification
// time.
func infoStamp(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// fileStamp stamps an open file, if it is regular: by fstat for an
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

// How reads are checked: a variable for the benchmarks, which also turn
// the check off (checkOff, never otherwise). The plain way's is an fstat
// after the read either way; the ring's a statx system call a file after
// its submission (checkCalls), which took less time than a statx linked
// after each read in the same submission (checkLinked), which the kernel
// runs on its io-wq threads (BENCHMARKS.md, "Files: a change under the
// read").
var ringCheck = checkCalls

const (
	checkOff = iota
	checkLinked
	checkCalls
)
