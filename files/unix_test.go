//go:build unix

package files

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFIFO: a named pipe is opened once and read to its end, as sha256sum
// reads it, though its only writer is gone by then.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 3, 30, 3000)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	paths = append(paths[:10:10], append([]string{fifo}, paths[10:]...)...)
	for _, c := range hashers {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			f.Write(data)
			f.Close()
		}()
		res, err := c.h.Hash(context.Background(), paths)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		w := sha256.Sum256(append(slices.Clone(c.h.Prefix), data...))
		if r := res[10]; r.Err != nil || r.Sum != w || r.Size != int64(len(data)) {
			t.Errorf("%s: fifo: %+v", c.name, r)
		}
	}
}

// TestBadFiles: files that cannot be hashed, or change, give the error
// (or the digest) that plain reads give, and do not stop the others.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := randomTree(t, dir, 2, 40, 5000)
	mk := func(name string, f func(p string) error) string {
		p := filepath.Join(dir, name)
		if err := f(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := map[string]error{
		mk("missing", func(string) error { return nil }):                                                     fs.ErrNotExist,
		mk("dir", func(p string) error { return os.Mkdir(p, 0o755) }):                                        syscall.EISDIR,
		mk("dangling", func(p string) error { return os.Symlink("nowhere", p) }):                             fs.ErrNotExist,
		mk("loop", func(p string) error { return os.Symlink("loop", p) }):                                    syscall.ELOOP,
		mk("notdir/x", func(string) error { return os.WriteFile(filepath.Join(dir, "notdir"), nil, 0o644) }): syscall.ENOTDIR,
	}
	if runtime.GOOS == "linux" {
		bad["/proc/self/mem"] = syscall.EIO // unreadable, even for root
	}
	paths := slices.Clone(good)
	for p := range bad {
		paths = append(paths, p)
		paths = append(paths, good[len(paths)%len(good)])
	}
	// Files whose size says other than what they hold.
	var odd []string
	for _, p := range []string{"/proc/version", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.ReadFile(p); err == nil {
			odd = append(odd, p)
			paths = append(paths, p)
		}
	}
	for _, c := range hashers {
		res, err := c.h.Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if e, ok := bad[r.Path]; ok {
				if !errors.Is(r.Err, e) {
					t.Errorf("%s: %s: error %v, want %v", c.name, r.Path, r.Err, e)
				}
				continue
			}
			if r.Err != nil || r.Sum != want(t, c.h.Prefix, r.Path) {
				t.Errorf("%s: %s: err %v or wrong digest", c.name, r.Path, r.Err)
			}
		}
	}
	t.Logf("files whose size is not their contents: %q", odd)
}

// mkfifo makes a named pipe at p, for tests that list one.
func mkfifo(t *testing.T, p string) {
	if err := unix.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFstatInterrupted: an fstat interrupted by a signal (EINTR, as FUSE,
// NFS or CIFS give for the runtime's SIGURG) is made again, as
// os.File.Stat makes it: no file gets "interrupted system call" for an
// error, and every digest is crypto/sha256's, in every configuration.
func TestFstatInterrupted(t *testing.T) {
	dir := t.TempDir()
	count, most := 200, 1<<20
	if testing.Short() { // the emulated runs
		count, most = 40, 256<<10
	}
	paths := randomTree(t, dir, 23, count, most)
	saved := sysFstat
	defer func() { sysFstat = saved }()
	var calls, interrupted atomic.Int64
	sysFstat = func(fd int, st *unix.Stat_t) error {
		if calls.Add(1)%3 != 0 { // two calls of three interrupted
			interrupted.Add(1)
			return unix.EINTR
		}
		return saved(fd, st)
	}
	for _, c := range hashers {
		res, err := c.h.Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil || r.Sum != want(t, c.h.Prefix, r.Path) {
				t.Fatalf("%s: %s: err %v or wrong digest", c.name, r.Path, r.Err)
			}
		}
	}
	if interrupted.Load() == 0 {
		t.Error("no fstat interrupted")
	}
}
