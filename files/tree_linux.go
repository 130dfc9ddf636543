package files

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A dirReader reads directories for Tree as os.ReadDir does (the entries
// sorted by name; with an error, those read before it), with less: one
// buffer for the whole walk, a directory's names in one string, no
// fs.DirEntry for each (bench/HISTORY.md, "The walk and the collector").
//
// The walk is depth first and done with a directory's entries before it
// reads the next directory at the same depth, so the entries and their
// names are kept in memory of that depth's, used again: fresh memory cost
// page faults (bench/HISTORY.md, "The walk's memory used again").
type dirReader struct {
	buf    []byte
	raw    []rawDent
	keys   []uint64 // sortByName's
	sorted []dent
	levels []dirLevel
	depth  int // directories read that the walk is not done with
}

// A dirLevel holds a directory's entries, and their names, at one depth.
type dirLevel struct {
	names []byte
	ents  []dent
}

// done tells r the walk is done with the entries it read last.
func (r *dirReader) done() { r.depth-- }

// sortByName sorts ents by name, in byte order. A directory of up to 65,536
// entries is sorted as integers, each the first bytes of a name after the
// directory's common prefix, big-endian, above the entry's index, then the
// runs whose bytes agree by their names: less than half the time of a sort
// by strings.Compare (BenchmarkSortByName; bench/HISTORY.md, "The walk's
// memory used again").
func (r *dirReader) sortByName(ents []dent) {
	n := len(ents)
	if n < 2 {
		return
	}
	if n > 1<<16 {
		slices.SortFunc(ents, compareNames)
		return
	}
	ib := 1 // bytes of the index
	if n > 1<<8 {
		ib = 2
	}
	first := ents[0].name
	p := len(first)
	for _, e := range ents[1:] {
		p = min(p, len(e.name))
		for i := range p {
			if e.name[i] != first[i] {
				p = i
				break
			}
		}
	}
	keys := r.keys[:0]
	for i, e := range ents {
		keys = append(keys, nameKey(e.name[p:], 8-ib)<<(8*ib)|uint64(i))
	}
	slices.Sort(keys)
	sorted := r.sorted[:0]
	for _, k := range keys {
		sorted = append(sorted, ents[k&(1<<(8*ib)-1)])
	}
	// Names that agree in their key's bytes (or are one another with NULs
	// after, which no name has) are sorted by the whole name.
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j]>>(8*ib) == keys[i]>>(8*ib) {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], compareNames)
		}
		i = j
	}
	copy(ents, sorted)
	r.keys, r.sorted = keys[:0], sorted[:0]
}

func compareNames(a, b dent) int { return strings.Compare(a.name, b.name) }

// nameKey is the first m bytes of s, big-endian, padded with zeros.
func nameKey(s string, m int) uint64 {
	if len(s) >= 8 {
		return binary.BigEndian.Uint64([]byte(s[:8])) >> (64 - 8*m)
	}
	var k uint64
	l := min(len(s), m)
	for i := range l {
		k = k<<8 | uint64(s[i])
	}
	return k << (8 * (m - l))
}

// direntReclen is the length of the struct linux_dirent64 at b's start, its
// d_reclen: two bytes at offset 16, in the machine's byte order.
func direntReclen(b []byte) int { return int(binary.NativeEndian.Uint16(b[16:18])) }

// A rawDent is an entry as read: its name at names[off:off+n].
type rawDent struct {
	off, n int
	typ    byte
}

// getdents and fstatat are unix.Getdents and unix.Fstatat; tests make the
// one give no types (DT_UNKNOWN) and the other fail with EINTR.
var getdents, fstatat = unix.Getdents, unix.Fstatat

func (r *dirReader) read(dir string) ([]dent, error) {
	if r.depth == len(r.levels) {
		r.levels = append(r.levels, dirLevel{})
	}
	lv := &r.levels[r.depth]
	r.depth++ // done is called for every read, its errors too
	// Refused a descriptor while the Hasher that takes the walk holds
	// files, it is opened again once one closes (room.go).
	var fd int
	err := walkOpen(func() (err error) {
		fd, err = openRead(dir)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer func() {
		unix.Close(fd)
		walkClosed()
	}()
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	lv.names, r.raw = lv.names[:0], r.raw[:0]
	var rerr error
	for {
		n, err := getdents(fd, r.buf)
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
			reclen := direntReclen(b)
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino := b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6] | b[7]
			name := b[19:reclen]
			if k := slices.Index(name, 0); k >= 0 {
				name = name[:k]
			}
			if ino != 0 && string(name) != "." && string(name) != ".." {
				r.raw = append(r.raw, rawDent{len(lv.names), len(name), b[18]})
				lv.names = append(lv.names, name...)
			}
			b = b[reclen:]
		}
	}
	// The names stay in lv.names until the walk is done with them.
	all := unsafe.String(unsafe.SliceData(lv.names), len(lv.names))
	ents := lv.ents[:0]
	for _, e := range r.raw {
		name := all[e.off : e.off+e.n]
		t, ok := dtMode(e.typ)
		if !ok {
			// The file system gives no type: lstat, as os.ReadDir does.
			var st unix.Stat_t
			err := fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
			for err == unix.EINTR { // made again, as os.Lstat makes it (fstat)
				err = fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
			}
			if err != nil {
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
	r.sortByName(ents)
	lv.ents = ents
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
