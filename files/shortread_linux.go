package files

// Where a short read proves the end of a file.
//
// The probe chain reads a small file with one read of probeMax bytes. A
// short read is not always the end of the file (after an I/O error part
// way, or on filesystems such as procfs, FUSE or network ones), so the
// chain reads one more byte, and only a read that finds nothing proves the
// end, as sha256sum's loop does (bench/HISTORY.md, "A short read as the end
// of a file").
//
// On the filesystems below, a regular file is read through the page cache a
// folio at a time (filemap_read, shmem_file_read_iter), and a read stops
// short only at the end of the file, at a folio it could not read (an I/O
// error, which the next read reports), or for a fatal signal. Folios start
// at multiples of 4096, so a read from offset 0 that stops short of a
// multiple of 4096 stopped at the end of the file. Two things break that,
// and are looked for in the mount table:
//   - DAX, where reads copy from persistent memory directly and a poisoned
//     line cuts a read anywhere: if any mount has DAX enabled, no directory
//     is trusted;
//   - a file mounted over a name in the directory (a bind mount from procfs
//     or FUSE, say): a directory with a mount point in it is not trusted.
//     (Mount points are compared by path: a stat of each could hang on a
//     dead network mount.)
// The table is read again whenever the kernel reports it changed (a poll of
// /proc/self/mountinfo).

import (
	"bufio"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// folioAlign is the granularity at which a read of a trusted filesystem
// can stop short of the end of a file.
const folioAlign = 4096

// shortReadsEnd reports whether a short read from offset 0 of a regular
// file in the directory open as fd, stopping at a length that is not a
// multiple of folioAlign, is the end of the file.
func shortReadsEnd(fd int) bool {
	if !trustShortReads {
		return false
	}
	return shortReadsEndIn(fd, "", currentMounts())
}

// shortReadsEndIn is shortReadsEnd under mount table m for the directory
// open as fd whose path from the process's root, with no symbolic link in
// it, is dir; "" if it is not known, and then read from /proc/self/fd,
// which is slower (bench/HISTORY.md, "The directories' paths without
// /proc").
func shortReadsEndIn(fd int, dir string, m mountTable) bool {
	if !trustShortReads {
		return false
	}
	var sfs unix.Statfs_t
	if unix.Fstatfs(fd, &sfs) != nil {
		return false
	}
	switch uint32(sfs.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC:
	default:
		return false
	}
	if !m.ok || m.dax {
		return false
	}
	if dir == "" {
		var err error
		if dir, err = os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err != nil {
			return false
		}
	}
	return !m.parents[dir]
}

// openDirNoLinks opens the directory dir for reading unless a symbolic
// link is on its way (openat2's RESOLVE_NO_SYMLINKS), and returns its path
// from the process's root, cwd (the working directory's, from getcwd) and
// dir put together. It reports false where dir cannot be opened so, or
// openat2 is refused (before Linux 5.6, or by a seccomp profile).
func openDirNoLinks(dir, cwd string) (fd int, abs string, ok bool) {
	if noOpenat2.Load() || (cwd == "" && !path.IsAbs(dir)) {
		return -1, "", false
	}
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &how)
	for err == unix.EINTR {
		fd, err = unix.Openat2(unix.AT_FDCWD, dir, &how)
	}
	if err != nil {
		if err == unix.ENOSYS || err == unix.EPERM {
			noOpenat2.Store(true)
		}
		return -1, "", false
	}
	if !path.IsAbs(dir) {
		dir = cwd + "/" + dir
	}
	return fd, path.Clean(dir), true
}

// noOpenat2 is set once openat2 is refused.
var noOpenat2 atomic.Bool

// trustShortReads lets the tests turn shortReadsEnd off, to run the probe
// chain with its read of one more byte everywhere.
var trustShortReads = true

// mountTable is what shortReadsEnd needs of the mount table.
type mountTable struct {
	ok      bool // read; if not, nothing is trusted
	dax     bool
	parents map[string]bool // directories with a mount point in them
}

var mounts struct {
	sync.Mutex
	// watch is /proc/self/mountinfo, polled for changes, opened as a plain
	// descriptor: an *os.File's would join the runtime's epoll set, whose
	// own polls take the change events.
	watch    int
	watching bool
	table    mountTable
}

// currentMounts returns the mount table as it was when last read, reading
// it again first if it has changed since.
func currentMounts() mountTable {
	mounts.Lock()
	defer mounts.Unlock()
	if !mounts.watching {
		fd, err := unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return mountTable{}
		}
		mounts.watch, mounts.watching = fd, true
	} else {
		pfd := []unix.PollFd{{Fd: int32(mounts.watch), Events: unix.POLLPRI}}
		n, err := unix.Poll(pfd, 0)
		if err == nil && n == 0 {
			return mounts.table // unchanged
		}
	}
	// Read anew; a change that lands while it is read is reported by the
	// next poll.
	f, err := openFile("/proc/self/mountinfo") // not added to the poller either
	if err != nil {
		mounts.table = mountTable{}
		return mounts.table
	}
	defer f.Close()
	points, dax, err := parseMountinfo(f)
	t := mountTable{ok: err == nil, dax: dax, parents: map[string]bool{}}
	for _, p := range points {
		if p != "/" {
			t.parents[path.Dir(p)] = true
		}
	}
	mounts.table = t
	return t
}

// parseMountinfo reads a mountinfo listing (proc_pid_mountinfo(5)): every
// mount point, and whether any mount names DAX among its per-mount or
// superblock options (dax, dax=always, dax=inode).
func parseMountinfo(r io.Reader) (points []string, dax bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// ID parent major:minor root point options [optional...] - type source superoptions
		f := strings.Fields(sc.Text())
		sep := -1
		for i, s := range f {
			if s == "-" && i >= 6 {
				sep = i
				break
			}
		}
		if sep < 0 || len(f) < sep+4 {
			continue
		}
		points = append(points, unescapeMountinfo(f[4]))
		for _, opts := range []string{f[5], f[sep+3]} {
			for o := range strings.SplitSeq(opts, ",") {
				if o == "dax" || (strings.HasPrefix(o, "dax=") && o != "dax=never") {
					dax = true
				}
			}
		}
	}
	return points, dax, sc.Err()
}

// unescapeMountinfo undoes mountinfo's octal escapes of space, tab,
// newline and backslash (\040 and so on).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
