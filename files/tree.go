package files

import (
	"io/fs"
	"iter"
	"os"
	"strings"
)

// Tree yields the files under dir, as sha256x sum -r lists them: depth
// first, each directory's entries in byte order of their names; regular
// files and symbolic links to regular files, each path dir + "/" + its
// path below dir. Links to directories and special files (pipes, devices,
// sockets) are left out. A link that leads nowhere (dangling, a loop) is
// yielded with the error that stat gave, and a directory that cannot be
// read with the error that reading it gave, after any entries that were
// read. Files are yielded Regular; if dir is not a directory, Tree yields
// dir itself, not Regular.
func Tree(dir string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			yield(Entry{Path: dir})
			return
		}
		walk(dir, os.ReadDir, os.Stat, yield)
	}
}

// TreeFS is Tree for the files of fsys under root, for a Hasher whose FS is
// fsys: the paths are fs.FS paths (root "." gives "a", "b/c").
func TreeFS(fsys fs.FS, root string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		if st, err := fs.Stat(fsys, root); err != nil || !st.IsDir() {
			yield(Entry{Path: root})
			return
		}
		readDir := func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, name) }
		stat := func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) }
		if root == "." {
			// fs.FS paths have no "./".
			ents, err := readDir(".")
			walkEntries("", ents, err, ".", readDir, stat, yield)
			return
		}
		walk(root, readDir, stat, yield)
	}
}

type readDirFunc func(string) ([]fs.DirEntry, error)
type statFunc func(string) (fs.FileInfo, error)

// walk yields the files under dir, and reports whether to go on.
func walk(dir string, readDir readDirFunc, stat statFunc, yield func(Entry) bool) bool {
	ents, err := readDir(dir)
	sep := "/"
	if strings.HasSuffix(dir, "/") {
		sep = ""
	}
	return walkEntries(dir+sep, ents, err, dir, readDir, stat, yield)
}

func walkEntries(prefix string, ents []fs.DirEntry, err error, dir string, readDir readDirFunc, stat statFunc, yield func(Entry) bool) bool {
	if err != nil && len(ents) == 0 {
		return yield(Entry{Path: dir, Err: err})
	}
	for _, e := range ents {
		p := prefix + e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			if !walk(p, readDir, stat, yield) {
				return false
			}
		case t.IsRegular():
			if !yield(Entry{Path: p, Regular: true}) {
				return false
			}
		case t&fs.ModeSymlink != 0:
			st, err := stat(p)
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
	}
	if err != nil {
		return yield(Entry{Path: dir, Err: err})
	}
	return true
}
