package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/files"
	"github.com/sha256x/sha256x/internal/uring"
)

// badTree adds to dir files that cannot be hashed or say other than what
// they hold, and returns them with some good files between them.
func badTree(t *testing.T, dir string, good []string) []string {
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "adir"), 0o755))
	must(os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(os.WriteFile(filepath.Join(dir, "notdir"), nil, 0o644))
	bad := []string{"missing", "adir", "dangling", "loop", "notdir/x", "adir/"}
	if runtime.GOOS == "linux" {
		// Unreadable even for root; stated size 0 with contents.
		bad = append(bad, "/proc/self/mem", "/proc/version")
	}
	var out []string
	for i, b := range bad {
		out = append(out, good[i*7%len(good)], b)
	}
	return append(out, good...)
}

// ringModes runs f with io_uring (where the kernel allows it, for names
// of unknown type too: SHA256X_IOURING=on) and with it refused, as a
// seccomp profile would refuse it.
func ringModes(t *testing.T, f func(t *testing.T)) {
	t.Run("io_uring", func(t *testing.T) {
		t.Setenv("SHA256X_IOURING", "on")
		if r, err := uring.New(8, 8, nil); err != nil {
			t.Logf("io_uring refused here (%v): this run reads plainly too", err)
		} else {
			r.Close()
		}
		f(t)
	})
	t.Run("refused", func(t *testing.T) {
		t.Setenv("SHA256X_IOURING", "off")
		f(t)
	})
}

// TestSumBadFiles: files that cannot be read get sha256sum's messages and
// status, and do not stop the others, with io_uring and without, on one
// goroutine and on many.
func TestSumBadFiles(t *testing.T) {
	dir := t.TempDir()
	names := badTree(t, dir, tree(t, dir))
	t.Chdir(dir)
	ringModes(t, func(t *testing.T) {
		compare(t, nil, append([]string{"--"}, names...)...)
		want := ours(nil, append([]string{"--"}, names...)...)
		for _, j := range []string{"-j1", "-j" + strconv.Itoa(files.MaxWorkers())} {
			if got := ours(nil, append([]string{j, "--"}, names...)...); got != want {
				t.Errorf("%s: %s", j, diff(got.stdout+got.stderr, want.stdout+want.stderr))
			}
		}
	})
}

// TestSumRecursiveBad: -r over a tree with a symbolic link loop, a dangling
// link and an unreadable directory lists and reports what sha256sum says of
// the same names, with io_uring and without.
func TestSumRecursiveBad(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	for _, l := range [][2]string{{"loop", "d1/loop"}, {"nowhere", "d2/dangling"}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	// What -r lists: the files, and the broken links in their places.
	var want []string
	for _, n := range names {
		if strings.HasPrefix(n, "d1/") || strings.HasPrefix(n, "d2/") {
			want = append(want, n)
		}
	}
	want = append(want, "d2/dangling")
	for i, n := range want {
		if n > "d1/loop" && (i == 0 || want[i-1] < "d1/loop") {
			want = append(want[:i], append([]string{"d1/loop"}, want[i:]...)...)
			break
		}
	}
	ringModes(t, func(t *testing.T) {
		w := sha256sum(t, "C.UTF-8", nil, append([]string{"--"}, want...)...)
		if got := ours(nil, "-r", "d1", "d2"); got != w {
			t.Errorf("sum -r: code %d, want %d\n stdout: %s\n stderr: %s", got.code, w.code, diff(got.stdout, w.stdout), diff(got.stderr, w.stderr))
		}
	})
}

// TestJobs: -j N, -jN and --jobs=N take a positive number; one above
// files.MaxWorkers is capped there, with a note on standard error.
func TestJobs(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	// After "--": some names start with a dash.
	names = append([]string{"--"}, names...)
	want := ours(nil, names...)
	if want.code != 0 || !strings.Contains(want.stdout, "big/b") || strings.Contains(want.stderr, "Try") {
		t.Fatalf("sum of the tree: %+v", want)
	}
	for _, a := range [][]string{{"-j", "1"}, {"-j2"}, {"--jobs=5"}, {"--jobs", "64"}, {"-rj", "2"}, {"--jo=3"}, {"-j", "1000000"}} {
		w := want
		n, _ := strconv.Atoi(strings.TrimLeft(a[len(a)-1], "-jobs=r"))
		if m := files.MaxWorkers(); n > m {
			w.stderr = fmt.Sprintf("sha256x: %d jobs capped at %d (%d per core)\n", n, m, files.WorkersPerCore) + w.stderr
		}
		if got := ours(nil, append(a, names...)...); got != w {
			t.Errorf("%q: %s", a, diff(got.stdout+got.stderr, w.stdout+w.stderr))
		}
	}
	for _, a := range [][]string{{"-j", "0"}, {"-j", "x"}, {"--jobs=-1"}, {"-j"}} {
		got := ours(nil, a...)
		if got.code != 1 || got.stdout != "" || !strings.HasSuffix(got.stderr, "Try 'sha256x sum --help' for more information.\n") {
			t.Errorf("%q: %+v", a, got)
		}
	}
}
