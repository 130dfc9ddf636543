package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// A budgetFS is fsys with a budget of descriptors, as a process has under
// its RLIMIT_NOFILE: Open (and ReadDir) takes one or fails with EMFILE,
// and Close gives it back.
type budgetFS struct {
	fsys fstest.MapFS
	left atomic.Int64
}

type budgetFile struct {
	fs.File
	b      *budgetFS
	closed atomic.Bool
}

func (b *budgetFS) take(op, name string) error {
	if b.left.Add(-1) < 0 {
		b.left.Add(1)
		return &fs.PathError{Op: op, Path: name, Err: syscall.EMFILE}
	}
	return nil
}

func (b *budgetFS) Open(name string) (fs.File, error) {
	if err := b.take("open", name); err != nil {
		return nil, err
	}
	f, err := b.fsys.Open(name)
	if err != nil {
		b.left.Add(1)
		return nil, err
	}
	return &budgetFile{File: f, b: b}, nil
}

func (b *budgetFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := b.take("open", name); err != nil {
		return nil, err
	}
	defer b.left.Add(1)
	return b.fsys.ReadDir(name)
}

func (f *budgetFile) Close() error {
	if !f.closed.Swap(true) {
		f.b.left.Add(1)
	}
	return f.File.Close()
}

// roomEmpty checks that nothing is counted held or waiting (room.go).
func roomEmpty(t *testing.T) {
	t.Helper()
	if o, b, w, n := room.open.Load(), room.batch.Load(), room.walking.Load(), room.waiting.Load(); o != 0 || b != 0 || w != 0 || n != 0 {
		t.Errorf("room: %d open, %d batches, %d walking, %d waiting; want none", o, b, w, n)
	}
}

// streamBudget streams paths with h (one batch of them up to batchMin),
// failing the test if the call has not returned within a minute.
func streamBudget(t *testing.T, h *Hasher, paths []string) []Result {
	t.Helper()
	var res []Result
	c := make(chan error, 1)
	go func() {
		c <- h.Stream(context.Background(), List(paths), func(r Result) { res = append(res, r) })
	}()
	select {
	case err := <-c:
		if err != nil || len(res) != len(paths) {
			t.Fatalf("%d results of %d, %v", len(res), len(paths), err)
		}
		return res
	case <-time.After(time.Minute):
		t.Fatal("Stream still waiting after a minute")
	}
	return nil
}

// TestQueuedPipeHeld: a pipe a batch found open holds a descriptor while it
// waits in the queue of large files, and a file refused one meanwhile
// waits for it: with one descriptor, 17 large files and a pipe after them,
// in one batch, are all hashed, one at a time. The pipe was counted only once streamed,
// so the 16 files taken before it failed with EMFILE, nothing else being
// held; counted but queued after them, they would wait for it for ever.
func TestQueuedPipeHeld(t *testing.T) {
	m := fstest.MapFS{}
	var paths []string
	for i := range 17 {
		p := fmt.Sprintf("l%02d", i)
		m[p] = &fstest.MapFile{Data: []byte(fmt.Sprintf("%0*d", 300<<10, i))}
		paths = append(paths, p)
	}
	m["pipe"] = &fstest.MapFile{Data: []byte("through a pipe"), Mode: fs.ModeNamedPipe}
	paths = append(paths, "pipe")
	for _, workers := range []int{1, 2, 4} {
		b := &budgetFS{fsys: m}
		b.left.Store(1)
		h := Hasher{FS: b, Workers: workers}
		for _, r := range streamBudget(t, &h, paths) {
			if r.Err != nil || r.Sum != sha256.Sum256(m[r.Path].Data) {
				t.Errorf("workers %d: %s: %v, or a wrong digest", workers, r.Path, r.Err)
			}
		}
		roomEmpty(t)
		if left := b.left.Load(); left != 1 {
			t.Errorf("workers %d: %d descriptors left after the call, want 1", workers, left)
		}
	}
}
