package files

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTree: Tree lists what a walk over os.ReadDir and os.Stat lists (the
// reference below), in the same order with the same errors, on a tree with
// every kind of entry: files, directories, links to files, to directories,
// dangling and looping, a pipe, odd names, and a directory larger than one
// read of its entries.
func TestTree(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) { must(os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)) }
	for _, d := range []string{"a", "a/b", "a/b/c", "big", "empty", "z"} {
		must(os.Mkdir(filepath.Join(dir, d), 0o755))
	}
	names := []string{"x", "Y", "a b", "é", "new\nline", "back\\slash", "\xff\xfe", "-dash", "z.txt"}
	for _, n := range names {
		file(n)
		file("a/b/" + n)
	}
	file("a/b/c/deep")
	for i := range 3000 {
		file(fmt.Sprintf("big/file-with-a-long-name-%05d", 2999-i))
	}
	must(os.Symlink("x", filepath.Join(dir, "link-file")))
	must(os.Symlink("a", filepath.Join(dir, "link-dir")))
	must(os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	mkfifo(t, filepath.Join(dir, "z/fifo"))
	for _, root := range []string{dir, dir + "/", filepath.Join(dir, "a"), filepath.Join(dir, "x"), filepath.Join(dir, "missing")} {
		got := slices.Collect(Tree(root))
		want := referenceTree(root)
		if len(got) != len(want) {
			t.Fatalf("Tree(%q): %d entries, want %d", root, len(got), len(want))
		}
		for i := range got {
			if got[i].Path != want[i].Path || got[i].Regular != want[i].Regular || fmt.Sprint(got[i].Err) != fmt.Sprint(want[i].Err) {
				t.Fatalf("Tree(%q) entry %d: %+v, want %+v", root, i, got[i], want[i])
			}
		}
	}
}

// TestSepAfter: the separators Tree puts, off Windows and on it.
func TestSepAfter(t *testing.T) {
	for _, c := range []struct {
		dir, unix, windows string
	}{
		{"d", "/", `\`}, {"d/", "", ""}, {`d\`, "/", ""},
		{"C:", "/", ""}, {"C:d", "/", `\`}, {`\\?\C:\d`, "/", `\`}, {`\\host\share`, "/", `\`},
	} {
		if u, w := sepAfter(c.dir, false), sepAfter(c.dir, true); u != c.unix || w != c.windows {
			t.Errorf("sepAfter(%q): %q, on Windows %q; want %q, %q", c.dir, u, w, c.unix, c.windows)
		}
	}
}

// TestDirReaderErrors: a directory that cannot be read leaves the reader
// as it was: the next directory at that depth reads whole.
func TestDirReaderErrors(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a", "c"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var r dirReader
	for range 3 {
		if ents, err := r.read(filepath.Join(dir, "missing")); err == nil || len(ents) != 0 {
			t.Fatalf("read of a missing directory: %v, %v", ents, err)
		}
		r.done()
		ents, err := r.read(dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ents {
			got = append(got, e.name)
		}
		r.done()
		if want := []string{"a", "b", "c"}; !slices.Equal(got, want) {
			t.Fatalf("read after an error: %q, want %q", got, want)
		}
	}
}

// referenceTree is what Tree documents, over os.ReadDir and os.Stat.
func referenceTree(root string) []Entry {
	var out []Entry
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return []Entry{{Path: root}}
	}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := os.ReadDir(dir)
		if err != nil && len(ents) == 0 {
			out = append(out, Entry{Path: dir, Err: err})
			return
		}
		prefix := dir + string(os.PathSeparator)
		if os.IsPathSeparator(dir[len(dir)-1]) {
			prefix = dir
		}
		for _, e := range ents {
			p := prefix + e.Name()
			switch t := e.Type(); {
			case t.IsDir():
				walk(p)
			case t.IsRegular():
				out = append(out, Entry{Path: p, Regular: true})
			case t&fs.ModeSymlink != 0:
				st, err := os.Stat(p)
				switch {
				case err != nil:
					out = append(out, Entry{Path: p, Err: err})
				case st.Mode().IsRegular():
					out = append(out, Entry{Path: p, Regular: true})
				}
			}
		}
		if err != nil {
			out = append(out, Entry{Path: dir, Err: err})
		}
	}
	walk(root)
	return out
}
