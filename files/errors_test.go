package files

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// errFS serves the files of fsys, with their Stat failing (bare error)
// or saying another modification time each call.
type errFS struct {
	fsys fstest.MapFS
	mode string // "stat": Stat fails after the first call; "change": a new mtime each call
}

func (e errFS) Open(name string) (fs.File, error) {
	f, err := e.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return &errFile{File: f, mode: e.mode}, nil
}

type errFile struct {
	fs.File
	mode  string
	stats int
}

var errStat = errors.New("stat failed")

type changingInfo struct {
	fs.FileInfo
	t time.Time
}

func (c changingInfo) ModTime() time.Time { return c.t }

func (f *errFile) Stat() (fs.FileInfo, error) {
	f.stats++
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case f.mode == "stat" && f.stats > 1, f.mode == "statfirst":
		return nil, errStat
	case f.mode == "change":
		return changingInfo{fi, time.Unix(int64(f.stats), 0)}, nil
	}
	return fi, nil
}

// TestResultErrs: every documented Result.Err of an fs.FS's file is an
// *fs.PathError naming the file, and ErrChanged is found in it; a
// directory's is EISDIR on every system (an error of its own off Unix said
// "is a directory", not sha256sum's "Is a directory").
func TestResultErrs(t *testing.T) {
	m := fstest.MapFS{"small": {Data: []byte("abc")}, "large": {Data: make([]byte, 600<<10)}, "dir": {Mode: fs.ModeDir}}
	for _, tc := range []struct {
		name, mode, path string
		want             error
	}{
		{"missing", "", "nope", fs.ErrNotExist},
		{"directory", "", "dir", syscall.EISDIR}, // "Is a directory", as sha256sum says
		{"small changing", "change", "small", ErrChanged},
		{"large changing", "change", "large", ErrChanged},
		{"small stat fails", "stat", "small", errStat},
		{"small first stat fails", "statfirst", "small", errStat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := (&Hasher{FS: errFS{m, tc.mode}}).Hash(context.Background(), []string{tc.path})
			if err != nil {
				t.Fatal(err)
			}
			var pe *fs.PathError
			if r := res[0]; !errors.Is(r.Err, tc.want) || !errors.As(r.Err, &pe) || pe.Path != tc.path {
				t.Errorf("%s: Err %#v, want an *fs.PathError of %q wrapping %v", tc.path, r.Err, tc.path, tc.want)
			}
		})
	}
}
