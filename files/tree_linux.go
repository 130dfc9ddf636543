package files

import (
	"io/fs"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A dirReader reads directories for Tree as os.ReadDir does (the entries
// sorted by name; with an error, those read before it), with less: one
// buffer for the whole walk, a directory's names in one string, no
// fs.DirEntry for each. os.ReadDir was three quarters of the walk, 8% of
// `sum -r` of 10,000 small files, on the Xeon (BENCHMARKS.md, "The walk and
// the collector").
type dirReader struct {
	buf   []byte
	names []byte
	raw   []rawDent
}

// A rawDent is an entry as read: its name at names[off:off+n].
type rawDent struct {
	off, n int
	typ    byte
}

func (r *dirReader) read(dir string) ([]dent, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	r.names, r.raw = r.names[:0], r.raw[:0]
	var rerr error
	for {
		n, err := unix.Getdents(fd, r.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			rerr = &fs.PathError{Op: "readdirent", Path: dir, Err: err}
			break
		}
		if n <= 0 {
			break
		}
		// struct linux_dirent64: ino, off (8 bytes each), reclen (2),
		// type (1), the name ending in NUL.
		for b := r.buf[:n]; len(b) >= 19; {
			reclen := int(b[16]) | int(b[17])<<8
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino := b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6] | b[7]
			name := b[19:reclen]
			if k := slices.Index(name, 0); k >= 0 {
				name = name[:k]
			}
			if ino != 0 && string(name) != "." && string(name) != ".." {
				r.raw = append(r.raw, rawDent{len(r.names), len(name), b[18]})
				r.names = append(r.names, name...)
			}
			b = b[reclen:]
		}
	}
	all := string(r.names)
	ents := make([]dent, 0, len(r.raw))
	for _, e := range r.raw {
		name := all[e.off : e.off+e.n]
		t, ok := dtMode(e.typ)
		if !ok {
			// The file system gives no type: lstat, as os.ReadDir does.
			var st unix.Stat_t
			if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				if err == unix.ENOENT {
					continue // gone since it was listed
				}
				rerr = &fs.PathError{Op: "lstat", Path: dir + "/" + name, Err: err}
				break
			}
			t = statMode(st.Mode)
		}
		ents = append(ents, dent{name, t})
	}
	slices.SortFunc(ents, func(a, b dent) int { return strings.Compare(a.name, b.name) })
	return ents, rerr
}

// dtMode is the type of a directory entry of type t, as fs.DirEntry.Type
// gives it; false for DT_UNKNOWN.
func dtMode(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// statMode is the type in a stat mode, as fs.FileMode.Type gives it.
func statMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
