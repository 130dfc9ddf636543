package files

// A batch's names laid out for the ring: where several files share a
// directory, the directory opened once and the files named relative to it,
// its listing read for the types of files Tree did not list, and whether a
// short read ends a file there (shortread_linux.go).

import (
	"bytes"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// path is file k's name for the ring: relative to its directory's
// descriptor, or the whole path from the working directory.
func (rr *ringReader) path(k int) (dir int, name []byte) {
	return rr.dirs[rr.dirOf[k]], rr.paths[rr.offs[k]:rr.offs[k+1]]
}

// dirMin is the fewest files of a batch in one directory for which the
// directory is opened (O_PATH) and they are opened relative to it: a path
// lookup of one name instead of every component, for two system calls
// (BENCHMARKS.md, "Files: batches of 256, from 64 when a worker waits,
// 8,192 ahead").
const dirMin = 8

// setPaths lays out the batch's names, each ending in NUL: where dirMin or
// more in a row share a directory, the name within it and the directory
// opened once; otherwise the whole path.
func (rr *ringReader) setPaths(todo []*item) {
	rr.paths, rr.offs = rr.paths[:0], rr.offs[:0]
	rr.dirs = append(rr.dirs[:0], unix.AT_FDCWD)
	rr.ends = append(rr.ends[:0], false)
	rr.dirOf = rr.dirOf[:0]
	// The directories' paths are the working directory's and theirs put
	// together where no symbolic link is on their way; the working
	// directory is read before and after, and nothing is trusted if it
	// changed between.
	cwd, cwdRead := "", false
	// The mount table, as shortReadsEnd reads it, once a batch, not a poll
	// a directory.
	var table mountTable
	tableRead := false
	ends := func(fd int, abs string) bool {
		if !trustShortReads {
			return false
		}
		if !tableRead {
			table, tableRead = currentMounts(), true
		}
		return shortReadsEndIn(fd, abs, table)
	}
	for i := 0; i < len(todo); {
		dir, _ := splitDir(todo[i].Path)
		j := i + 1
		for j < len(todo) {
			if d, _ := splitDir(todo[j].Path); d != dir {
				break
			}
			j++
		}
		d := 0
		if dir != "" && j-i >= dirMin {
			if !cwdRead && trustShortReads && !path.IsAbs(dir) {
				cwdRead = true
				if wd, err := unix.Getwd(); err == nil && path.IsAbs(wd) {
					cwd = wd
				}
			}
			if fd, abs, ok := openDirNoLinks(dir, cwd); ok {
				rr.dirs = append(rr.dirs, fd)
				rr.ends = append(rr.ends, ends(fd, abs))
				d = len(rr.dirs) - 1
				rr.readTypes(fd, todo[i:j])
			} else if fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
				rr.dirs = append(rr.dirs, fd)
				rr.ends = append(rr.ends, ends(fd, ""))
				d = len(rr.dirs) - 1
				rr.readTypes(fd, todo[i:j])
			} else if fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
				rr.dirs = append(rr.dirs, fd)
				rr.ends = append(rr.ends, ends(fd, ""))
				d = len(rr.dirs) - 1
			}
		}
		for ; i < j; i++ {
			name := todo[i].Path
			if d > 0 {
				_, name = splitDir(name)
			}
			rr.offs = append(rr.offs, len(rr.paths))
			rr.paths = append(append(rr.paths, name...), 0)
			rr.dirOf = append(rr.dirOf, d)
		}
	}
	rr.offs = append(rr.offs, len(rr.paths))
	if cwd != "" {
		if wd, err := unix.Getwd(); err != nil || wd != cwd {
			clear(rr.ends)
		}
	}
}

// readTypes marks Regular the files of items (all in the directory open as
// fd) that the directory's entries say are regular files, so that they are
// probed without statx. It reads at most dirTypesMax bytes of entries.
func (rr *ringReader) readTypes(fd int, items []*item) {
	n := 0
	for _, it := range items {
		if !it.regular {
			n++
		}
	}
	if n == 0 {
		return // a listing by Tree: every type known
	}
	want := make(map[string]*item, n)
	for _, it := range items {
		if !it.regular {
			_, name := splitDir(it.Path)
			want[name] = it
		}
	}
	if rr.dirents == nil {
		rr.dirents = make([]byte, 16<<10)
	}
	read := 0
	for read < dirTypesMax && len(want) > 0 {
		n, err := unix.ReadDirent(fd, rr.dirents)
		if err != nil || n <= 0 {
			break
		}
		read += n
		// struct linux_dirent64: ino, off (8 bytes each), reclen (2),
		// type (1), the name ending in NUL.
		for b := rr.dirents[:n]; len(b) >= 19; {
			reclen := direntReclen(b)
			if reclen < 19 || reclen > len(b) {
				break
			}
			name := b[19:reclen]
			if k := bytes.IndexByte(name, 0); k >= 0 {
				name = name[:k]
			}
			if it, ok := want[string(name)]; ok {
				if b[18] == unix.DT_REG {
					it.regular = true
				}
				delete(want, string(name))
			}
			b = b[reclen:]
		}
	}
}

// dirTypesMax bounds the directory entries readTypes reads.
const dirTypesMax = 64 << 10

// closeDirs closes the batch's directories, once the ring is done with
// them.
func (rr *ringReader) closeDirs() {
	for _, fd := range rr.dirs[1:] {
		unix.Close(fd)
	}
	rr.dirs, rr.ends = rr.dirs[:1], rr.ends[:1]
}

// splitDir splits a path at its last slash: "a/b/c" is "a/b" and "c", "/c"
// is "/" and "c"; a path without a slash, or ending in one, has no
// directory part.
func splitDir(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	switch {
	case i < 0 || i == len(p)-1:
		return "", p
	case i == 0:
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}
