package files

import (
	"io/fs"
	"iter"
	"os"
	"runtime"
	"strings"
)

// Tree yields the files under dir, as sha256x sum -r lists them: depth
// first, each directory's entries in byte order of their names; regular
// files and symbolic links to regular files, each path dir and its path
// below dir joined by a slash (a backslash on Windows, as filepath.Join).
// Links to directories and special files (pipes, devices, sockets) are
// left out. A link that leads nowhere (dangling, a loop) is yielded with
// the error that stat gave, and a directory that cannot be read with the
// error that reading it gave, after any entries that were read. Files are
// yielded Regular; if dir is not a directory, Tree yields dir itself, not
// Regular.
func Tree(dir string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			yield(Entry{Path: dir})
			return
		}
		var r dirReader
		w := walker{readDir: r.read, done: r.done, stat: os.Stat, yield: yield, windows: runtime.GOOS == "windows"}
		w.walk(dir)
	}
}

// TreeFS is Tree for the files of fsys under root, for a Hasher whose FS is
// fsys: the paths are fs.FS paths (root "." gives "a", "b/c"). A panic in
// fsys while Stream or Each consumes TreeFS is re-raised as a panic of
// their entries is.
func TreeFS(fsys fs.FS, root string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		// Without StatFS, fs.Stat opens the file: refused a descriptor, it
		// is made again as a directory is read (room.go). Refused outright,
		// the root was taken for a file.
		stat := func(name string) (st fs.FileInfo, err error) {
			err = walkOpen(func() (err error) {
				st, err = fs.Stat(fsys, name)
				return err
			})
			if err == nil {
				walkClosed()
			}
			return st, err
		}
		if st, err := stat(root); err != nil || !st.IsDir() {
			yield(Entry{Path: root})
			return
		}
		readDir := func(name string) ([]dent, error) {
			ents, err := readDirRoom(func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, name) }, name)
			return dents(ents), err
		}
		w := walker{readDir: readDir, stat: stat, yield: yield}
		if root == "." {
			// fs.FS paths have no "./".
			ents, err := readDir(".")
			w.entries("", ents, err, ".")
			return
		}
		w.walk(root)
	}
}

// A dent is a directory entry: its name and type (fs.DirEntry.Type).
type dent struct {
	name string
	typ  fs.FileMode
}

// dents returns the names and types of ents.
func dents(ents []fs.DirEntry) []dent {
	ds := make([]dent, len(ents))
	for i, e := range ents {
		ds[i] = dent{e.Name(), e.Type()}
	}
	return ds
}

// A readDirFunc is os.ReadDir: the entries of a directory sorted by name,
// and with an error, those read before it.
type readDirFunc func(string) ([]dent, error)
type statFunc func(string) (fs.FileInfo, error)

// A walker walks a tree depth first for Tree and TreeFS.
type walker struct {
	readDir readDirFunc
	// done, if not nil, is called when the walk is through with the
	// entries readDir last returned that it has not called done for: the
	// reader may use their memory again.
	done    func()
	stat    statFunc
	yield   func(Entry) bool
	windows bool // Windows' paths, not fs.FS paths
}

// walk yields the files under dir, and reports whether to go on.
func (w *walker) walk(dir string) bool {
	ents, err := w.readDir(dir)
	ok := w.entries(dir+sepAfter(dir, w.windows), ents, err, dir)
	if w.done != nil {
		w.done()
	}
	return ok
}

// sepAfter is what goes between dir and a name in it: a slash, on Windows
// a backslash (a \\?\ path's only separator); nothing after a separator
// (on Windows either) or a drive alone ("C:", its working directory).
func sepAfter(dir string, windows bool) string {
	switch {
	case strings.HasSuffix(dir, "/") || windows && (strings.HasSuffix(dir, `\`) || len(dir) == 2 && dir[1] == ':'):
		return ""
	case windows:
		return `\`
	}
	return "/"
}

// entries yields the files of the directory dir, whose entries are ents
// (with err, the error that cut its listing short) and whose paths begin
// with prefix, and those under its subdirectories; it reports whether to
// go on. The names in ents are not kept once it returns.
func (w *walker) entries(prefix string, ents []dent, err error, dir string) bool {
	yield := w.yield
	if err != nil && len(ents) == 0 {
		return yield(Entry{Path: dir, Err: err})
	}
	// The paths of the directory's files, in one string.
	var b strings.Builder
	n := 0
	for _, e := range ents {
		if e.typ.IsRegular() || e.typ&fs.ModeSymlink != 0 {
			n += len(prefix) + len(e.name)
		}
	}
	b.Grow(n)
	for _, e := range ents {
		if e.typ.IsRegular() || e.typ&fs.ModeSymlink != 0 {
			b.WriteString(prefix)
			b.WriteString(e.name)
		}
	}
	paths := b.String()
	for _, e := range ents {
		var p string
		switch t := e.typ; {
		case t.IsDir():
			if !w.walk(prefix + e.name) {
				return false
			}
			continue
		case t.IsRegular() || t&fs.ModeSymlink != 0:
			p, paths = paths[:len(prefix)+len(e.name)], paths[len(prefix)+len(e.name):]
		default:
			continue
		}
		if e.typ.IsRegular() {
			if !yield(Entry{Path: p, Regular: true}) {
				return false
			}
			continue
		}
		st, err := w.stat(p)
		switch {
		case err != nil:
			if !yield(Entry{Path: p, Err: err}) { // dangling, or a loop
				return false
			}
		case st.Mode().IsRegular():
			if !yield(Entry{Path: p, Regular: true}) {
				return false
			}
		}
	}
	if err != nil {
		return yield(Entry{Path: dir, Err: err})
	}
	return true
}
