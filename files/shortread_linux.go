package files

// Where a short read proves the end of a file.
//
// The probe chain reads a small file with one read of probeMax bytes. A read
// that comes back short is not always the end of the file: after an I/O
// error part way, Linux returns the bytes read so far and the error only on
// the next read, and some filesystems (procfs, sysfs, FUSE, network ones)
// return short reads of their own accord. So the chain reads one more byte,
// and only a read that finds nothing proves the end, as sha256sum's loop
// does. That read costs 2-4% of `sum -r` of 10,000 small files on the Intel
// Xeon (BENCHMARKS.md, "A short read as the end of a file").
//
// On the filesystems below, a regular file is read through the page cache
// a folio at a time (filemap_read, shmem_file_read_iter), and a read stops
// short only at the end of the file, at a folio it could not read (an I/O
// error, which the next read reports), or for a fatal signal. Folios start
// at multiples of the page size, itself a multiple of 4096 on every Linux
// architecture, so a read from offset 0 that stops short of a multiple of
// 4096 stopped at the end of the file. The exception is DAX, where reads
// copy from persistent memory directly and a poisoned line cuts a read
// anywhere: if any mount has DAX enabled, no directory is trusted.

import (
	"bufio"
	"io"
	"os"
	"strings"
	"sync"

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
	var st unix.Statfs_t
	if unix.Fstatfs(fd, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC:
		return !daxMounted()
	}
	return false
}

// trustShortReads lets the tests turn shortReadsEnd off, to run the probe
// chain with its read of one more byte everywhere.
var trustShortReads = true

// daxMounted reports whether any mount this process sees may use DAX
// (mount options dax, dax=always or dax=inode), or the mounts cannot be
// read.
var daxMounted = sync.OnceValue(func() bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return true
	}
	defer f.Close()
	dax, err := mountinfoDAX(f)
	return dax || err != nil
})

// mountinfoDAX reports whether a mountinfo listing (proc_pid_mountinfo(5))
// names DAX among any mount's per-mount or superblock options.
func mountinfoDAX(r io.Reader) (bool, error) {
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
		for _, opts := range []string{f[5], f[sep+3]} {
			for o := range strings.SplitSeq(opts, ",") {
				if o == "dax" || (strings.HasPrefix(o, "dax=") && o != "dax=never") {
					return true, nil
				}
			}
		}
	}
	return false, sc.Err()
}
