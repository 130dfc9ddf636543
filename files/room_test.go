package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	// refused, if set, is called when name is refused a descriptor.
	refused func(name string)
	// block, if set, holds the reads of the file named "block" until it
	// is closed.
	block chan struct{}
}

type budgetFile struct {
	fs.File
	b      *budgetFS
	name   string
	closed atomic.Bool
}

func (f *budgetFile) Read(p []byte) (int, error) {
	if f.name == "block" && f.b.block != nil {
		<-f.b.block
	}
	return f.File.Read(p)
}

func (b *budgetFS) take(op, name string) error {
	if b.left.Add(-1) < 0 {
		b.left.Add(1)
		if b.refused != nil {
			b.refused(name)
		}
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
	return &budgetFile{File: f, b: b, name: name}, nil
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
// in one batch, are all hashed, one at a time, none failing with EMFILE
// and none waiting for ever.
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

// calledFrom reports whether the caller's caller was called, at some depth,
// from the function of the package named name.
func calledFrom(name string) bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, "."+name) {
			return true
		}
		if !more {
			return false
		}
	}
}

// TestBatchEndCloses: the end of a batch counts as a close: a file refused
// a descriptor that a batch (of another call, here) held, finding nothing
// held once it ended, is opened again, not failed with EMFILE.
func TestBatchEndCloses(t *testing.T) {
	drainRings()
	m := fstest.MapFS{"small": {Data: []byte("small")}, "large": {Data: make([]byte, 300<<10)}}
	b := &budgetFS{fsys: m}
	b.left.Store(1)
	holding, refused := make(chan struct{}), make(chan struct{})
	changeHook = func(p string) {
		if p == "small" { // read by the batch, still open
			close(holding)
			select {
			case <-refused:
			case <-time.After(10 * time.Second):
				t.Error("large not refused in noRoom")
			}
		}
	}
	defer func() { changeHook = nil }()
	var once sync.Once
	b.refused = func(name string) {
		if name == "large" && calledFrom("noRoom") {
			// Refused again by a worker with nothing open: the batch
			// ends before it looks at what is held.
			once.Do(func() {
				close(refused)
				for room.batch.Load() > 0 {
					time.Sleep(time.Millisecond)
				}
			})
		}
	}
	small := make(chan []Result, 1)
	go func() {
		res, _ := (&Hasher{FS: b, Workers: 1}).Hash(context.Background(), []string{"small"})
		small <- res
	}()
	<-holding
	res, err := (&Hasher{FS: b, Workers: 1}).Hash(context.Background(), []string{"large"})
	if err != nil || res[0].Err != nil || res[0].Sum != sha256.Sum256(m["large"].Data) {
		t.Errorf("large: %v, %v, or a wrong digest", err, res[0].Err)
	}
	if r := <-small; r[0].Err != nil || r[0].Sum != sha256.Sum256(m["small"].Data) {
		t.Errorf("small: %v, or a wrong digest", r[0].Err)
	}
	roomEmpty(t)
}

// TestTreeFSRootWaits: TreeFS's stat of its root, which an fs.FS without
// Stat (fs.Sub's) makes by opening it, waits for a descriptor as a
// directory's listing does, not taking the root for a file.
func TestTreeFSRootWaits(t *testing.T) {
	m := fstest.MapFS{
		"block":   {Data: make([]byte, 300<<10)},
		"d/a":     {Data: []byte("a")},
		"d/b/c":   {Data: []byte("c")},
		"d/large": {Data: make([]byte, 300<<10)},
	}
	b := &budgetFS{fsys: m, block: make(chan struct{})}
	b.left.Store(1)
	held := make(chan error, 1)
	go func() { // holds the one descriptor until b.block is closed
		_, err := (&Hasher{FS: b, Workers: 1}).Hash(context.Background(), []string{"block"})
		held <- err
	}()
	for b.left.Load() > 0 {
		time.Sleep(time.Millisecond)
	}
	go func() {
		for room.waiting.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		close(b.block)
	}()
	var got []string
	err := (&Hasher{FS: b, Workers: 1}).Stream(context.Background(), TreeFS(b, "d"), func(r Result) {
		if r.Err != nil || r.Sum != sha256.Sum256(m[r.Path].Data) {
			t.Errorf("%s: %v, or a wrong digest", r.Path, r.Err)
		}
		got = append(got, r.Path)
	})
	if err != nil || <-held != nil {
		t.Fatal(err)
	}
	if want := []string{"d/a", "d/b/c", "d/large"}; !slices.Equal(got, want) {
		t.Errorf("results for %q, want %q", got, want)
	}
	roomEmpty(t)
}
