package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// A panicValue is what the tests' callbacks panic with: a pointer, so that
// the caller's recover must get this very value, not a copy or a wrapper.
type panicValue struct{ where string }

// recovered runs f and returns what it panicked with, or nil.
func recovered(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// settled waits until the goroutines are no more than before, and reports
// whether they came down to it: a call's workers all stopped (the context's
// AfterFunc and an idle ring's timer end on their own, at once).
func settled(before int) bool {
	for range 500 {
		if runtime.NumGoroutine() <= before {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// panicked checks that call panics with want on the caller's goroutine,
// every goroutine it started stopped, every file it opened closed (where
// descriptors can be counted), and nothing counted held or waiting (room.go).
func panicked(t *testing.T, want any, call func()) {
	t.Helper()
	drainRings()
	goroutines, fds := runtime.NumGoroutine(), openFDs()
	got := recovered(call)
	if got != want {
		t.Fatalf("recovered %#v, want %#v", got, want)
	}
	if !settled(goroutines) {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
	}
	drainRings()
	if after := openFDs(); after > fds {
		t.Errorf("%d descriptors open after the panic, %d before: %v", after, fds, fdLinks())
	}
	roomEmpty(t)
}

// checkAll hashes paths with h, nothing panicking now, and checks every
// digest against crypto/sha256 of data(path).
func checkAll(t *testing.T, h *Hasher, paths []string, data func(string) []byte) {
	t.Helper()
	res, err := h.Hash(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Err != nil || r.Index != i || r.Sum != sha256.Sum256(data(r.Path)) {
			t.Fatalf("after the panic: result %d: %+v", i, r)
		}
	}
	seen := make([]bool, len(paths))
	if err := h.Each(context.Background(), List(paths), func(r Result) {
		seen[r.Index] = true
		if r.Err != nil || r.Sum != sha256.Sum256(data(r.Path)) {
			t.Errorf("after the panic: Each: result %d: %+v", r.Index, r)
		}
	}); err != nil {
		t.Fatal(err)
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("after the panic: Each gave no result %d", i)
		}
	}
}

// osData reads the files of the operating system for checkAll.
func osData(t *testing.T) func(string) []byte {
	return func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// TestPanicFn: fn panicking on the first, a middle or the last result, in
// order (Stream) or not (Each), reaches the caller's recover with its own
// value, after every worker stopped and every file was closed; the Hasher
// then hashes as before.
func TestPanicFn(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 16, 120, 9000)
	checkAll(t, &Hasher{}, paths, osData(t)) // what a process keeps open, opened
	for _, workers := range []int{1, 4} {
		for _, ordered := range []bool{true, false} {
			for _, at := range []int{1, len(paths) / 2, len(paths)} {
				t.Run(fmt.Sprintf("workers=%d/ordered=%v/at=%d", workers, ordered, at), func(t *testing.T) {
					h := &Hasher{Workers: workers}
					val := &panicValue{"fn"}
					calls := 0
					fn := func(Result) {
						if calls++; calls == at {
							panic(val)
						}
					}
					panicked(t, val, func() {
						if ordered {
							h.Stream(context.Background(), List(paths), fn)
						} else {
							h.Each(context.Background(), List(paths), fn)
						}
					})
					if calls != at {
						t.Errorf("fn called %d times, the last one panicking at %d", calls, at)
					}
					checkAll(t, h, paths, osData(t))
				})
			}
		}
	}
}

// TestPanicProgress: Progress panicking on its first call, or a later
// one (small files through the ring or plain reads, large ones mapped or
// read), is raised again on the caller's goroutine.
func TestPanicProgress(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 17, 150, 9000)
	checkAll(t, &Hasher{}, paths, osData(t)) // what a process keeps open, opened
	for _, workers := range []int{1, 4} {
		for _, plain := range []bool{false, true} {
			for _, at := range []int64{1, 3, 6} {
				t.Run(fmt.Sprintf("workers=%d/plain=%v/at=%d", workers, plain, at), func(t *testing.T) {
					val := &panicValue{"progress"}
					var calls atomic.Int64
					var on atomic.Bool
					on.Store(true)
					h := &Hasher{Workers: workers, PlainReads: plain, Progress: func(int64, int64) {
						if calls.Add(1) == at && on.Load() {
							panic(val)
						}
					}}
					panicked(t, val, func() { h.Hash(context.Background(), paths) })
					on.Store(false)
					panicked(t, val, func() {
						calls.Store(0)
						on.Store(true)
						h.Each(context.Background(), List(paths), func(Result) {})
					})
					on.Store(false)
					checkAll(t, h, paths, osData(t))
				})
			}
		}
	}
}

// TestPanicEntries: an entries iterator that panics before its first
// entry, after some, or after its last, is raised again on the caller's
// goroutine once the workers it started have stopped.
func TestPanicEntries(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 18, 600, 9000)
	checkAll(t, &Hasher{}, paths, osData(t)) // what a process keeps open, opened
	for _, workers := range []int{1, 4} {
		for _, ordered := range []bool{true, false} {
			for _, after := range []int{0, 100, 300, len(paths)} {
				t.Run(fmt.Sprintf("workers=%d/ordered=%v/after=%d", workers, ordered, after), func(t *testing.T) {
					val := &panicValue{"entries"}
					seq := func(yield func(Entry) bool) {
						for i, p := range paths {
							if i == after {
								panic(val)
							}
							if !yield(Entry{Path: p, Regular: i%2 == 0}) {
								return
							}
						}
						panic(val)
					}
					h := &Hasher{Workers: workers}
					panicked(t, val, func() {
						if ordered {
							h.Stream(context.Background(), seq, func(Result) {})
						} else {
							h.Each(context.Background(), seq, func(Result) {})
						}
					})
					checkAll(t, h, paths, osData(t))
				})
			}
		}
	}
}

// panicFS is an fs.FS whose Open, ReadDir, and files' Stat, Read and
// Close panic on the nth call for one path, while on; it counts the
// files open.
type panicFS struct {
	fsys  fstest.MapFS
	on    atomic.Bool
	op    string
	path  string
	nth   int32
	calls atomic.Int32
	val   any
	open  atomic.Int64
}

func (p *panicFS) hit(op, name string) {
	if p.on.Load() && op == p.op && name == p.path && p.calls.Add(1) == p.nth {
		if p.val == errGoexit {
			runtime.Goexit()
		}
		panic(p.val)
	}
}

func (p *panicFS) Open(name string) (fs.File, error) {
	p.hit("Open", name)
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	p.open.Add(1)
	return &panicFile{File: f, p: p, name: name}, nil
}

func (p *panicFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p.hit("ReadDir", name)
	return p.fsys.ReadDir(name)
}

type panicFile struct {
	fs.File
	p      *panicFS
	name   string
	closed bool
}

func (f *panicFile) Stat() (fs.FileInfo, error) {
	f.p.hit("Stat", f.name)
	return f.File.Stat()
}

func (f *panicFile) Read(b []byte) (int, error) {
	f.p.hit("Read", f.name)
	return f.File.Read(b)
}

func (f *panicFile) Close() error {
	if !f.closed {
		f.closed = true
		f.p.open.Add(-1)
	}
	f.p.hit("Close", f.name)
	return f.File.Close()
}

// panicTree is an FS of small files (read whole), large ones (streamed)
// and ones that are not regular (kept open from their sizing to be
// streamed), in two directories.
func panicTree() (fstest.MapFS, []string) {
	fsys := fstest.MapFS{}
	var paths []string
	r := rand.New(rand.NewPCG(19, 1))
	for i := range 300 {
		size := r.IntN(5000)
		var mode fs.FileMode
		switch {
		case i%50 == 20:
			size = 256<<10 + 1 + r.IntN(300<<10) // past smallMax: streamed
		case i%15 == 7:
			mode = fs.ModeNamedPipe
		}
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		p := fmt.Sprintf("d%d/f%03d", i%2, i)
		fsys[p] = &fstest.MapFile{Data: b, Mode: mode}
		paths = append(paths, p)
	}
	return fsys, paths
}

// TestPanicFS: an fs.FS whose Open, Stat, Read or Close panics, for a
// small, large or irregular file, at its sizing or streaming, has its panic
// raised again on the caller's goroutine, workers stopped and files closed;
// likewise TreeFS whose ReadDir panics.
func TestPanicFS(t *testing.T) {
	mfs, paths := panicTree()
	const small, large, pipe = "d1/f101", "d0/f170", "d1/f157"
	if len(mfs[small].Data) > 5000 || len(mfs[large].Data) <= 256<<10 || mfs[pipe].Mode != fs.ModeNamedPipe {
		t.Fatal("the tree is not as the test thinks")
	}
	cases := []struct {
		op, path string
		nth      int32
	}{
		{"Open", small, 1}, {"Stat", small, 1}, {"Stat", small, 2}, {"Read", small, 1}, {"Close", small, 1},
		{"Open", large, 1}, {"Open", large, 2}, {"Stat", large, 1}, {"Stat", large, 2}, {"Stat", large, 3},
		{"Read", large, 1}, {"Read", large, 3}, {"Close", large, 1}, {"Close", large, 2},
		{"Open", pipe, 1}, {"Stat", pipe, 1}, {"Read", pipe, 1}, {"Read", pipe, 2}, {"Close", pipe, 1},
	}
	data := func(p string) []byte { return mfs[p].Data }
	for _, workers := range []int{1, 4} {
		for _, c := range cases {
			for _, call := range []string{"Hash", "Each"} {
				t.Run(fmt.Sprintf("workers=%d/%s/%s#%d/%s", workers, c.op, c.path, c.nth, call), func(t *testing.T) {
					val := &panicValue{c.op}
					pfs := &panicFS{fsys: mfs, op: c.op, path: c.path, nth: c.nth, val: val}
					pfs.on.Store(true)
					h := &Hasher{Workers: workers, FS: pfs}
					panicked(t, val, func() {
						if call == "Hash" {
							h.Hash(context.Background(), paths)
						} else {
							h.Each(context.Background(), List(paths), func(Result) {})
						}
					})
					if n := pfs.open.Load(); n != 0 {
						t.Errorf("%d files left open", n)
					}
					pfs.on.Store(false)
					checkAll(t, h, paths, data)
					if n := pfs.open.Load(); n != 0 {
						t.Errorf("%d files left open after the normal calls", n)
					}
				})
			}
		}
		t.Run(fmt.Sprintf("workers=%d/TreeFS", workers), func(t *testing.T) {
			val := &panicValue{"ReadDir"}
			pfs := &panicFS{fsys: mfs, op: "ReadDir", path: "d1", nth: 1, val: val}
			pfs.on.Store(true)
			h := &Hasher{Workers: workers, FS: pfs}
			got := 0
			panicked(t, val, func() {
				h.Stream(context.Background(), TreeFS(pfs, "."), func(Result) { got++ })
			})
			if n := pfs.open.Load(); n != 0 {
				t.Errorf("%d files left open", n)
			}
			pfs.on.Store(false)
			var tree []string
			for e := range TreeFS(pfs, ".") {
				tree = append(tree, e.Path)
			}
			if want := len(paths) - len(paths)/15; len(tree) != want { // no pipes
				t.Fatalf("TreeFS: %d files, want %d", len(tree), want)
			}
			checkAll(t, h, tree, data)
		})
	}
}

// TestPanicCancelled: a panic and a cancellation of the same call: the
// panic wins, and the workers stop.
func TestPanicCancelled(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 20, 100, 9000)
	checkAll(t, &Hasher{}, paths, osData(t)) // what a process keeps open, opened
	ctx, cancel := context.WithCancel(context.Background())
	val := &panicValue{"fn"}
	h := &Hasher{Workers: 2}
	panicked(t, val, func() {
		h.Stream(ctx, List(paths), func(r Result) {
			if r.Index == 10 {
				cancel()
				panic(val)
			}
		})
	})
	checkAll(t, h, paths, osData(t))
}

// goexited runs call on a goroutine of its own and checks that it ends by
// runtime.Goexit within a few seconds, with what panicked checks after it.
func goexited(t *testing.T, call func()) {
	t.Helper()
	drainRings()
	goroutines, fds := runtime.NumGoroutine(), openFDs()
	ended := make(chan string, 1)
	go func() {
		how := "runtime.Goexit"
		defer func() {
			if e := recover(); e != nil {
				how = fmt.Sprintf("a panic: %v", e)
			}
			ended <- how
		}()
		call()
		how = "a return"
	}()
	select {
	case how := <-ended:
		if how != "runtime.Goexit" {
			t.Fatalf("the caller's goroutine ended by %s, not runtime.Goexit", how)
		}
	case <-time.After(10 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("the call has not ended after 10 s:\n%s", buf[:runtime.Stack(buf, true)])
	}
	if !settled(goroutines) {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
	}
	drainRings()
	if after := openFDs(); after > fds {
		t.Errorf("%d descriptors open after the call, %d before: %v", after, fds, fdLinks())
	}
	roomEmpty(t)
}

// errGoexit as a panicFS's value makes it call runtime.Goexit instead.
var errGoexit = &panicValue{"runtime.Goexit"}

// TestGoexit: runtime.Goexit in fn or Progress (on a hashing goroutine)
// or in entries (on the caller's) stops the call as a panic there does:
// its goroutines stop, its files close, and the caller's goroutine exits
// by runtime.Goexit too; the Hasher then hashes as before.
func TestGoexit(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 21, 600, 9000)
	checkAll(t, &Hasher{}, paths, osData(t)) // what a process keeps open, opened
	for _, workers := range []int{1, 4} {
		for _, ordered := range []bool{true, false} {
			call := func(h *Hasher, seq func(func(Entry) bool), fn func(Result)) {
				if ordered {
					h.Stream(context.Background(), seq, fn)
				} else {
					h.Each(context.Background(), seq, fn)
				}
			}
			for _, at := range []int{1, len(paths) / 2} {
				t.Run(fmt.Sprintf("workers=%d/ordered=%v/fn/at=%d", workers, ordered, at), func(t *testing.T) {
					h := &Hasher{Workers: workers}
					calls := 0
					goexited(t, func() {
						call(h, List(paths), func(Result) {
							if calls++; calls == at {
								runtime.Goexit()
							}
						})
					})
					if calls != at {
						t.Errorf("fn called %d times, the last one exiting at %d", calls, at)
					}
					checkAll(t, h, paths, osData(t))
				})
			}
			t.Run(fmt.Sprintf("workers=%d/ordered=%v/progress", workers, ordered), func(t *testing.T) {
				var calls atomic.Int64
				var on atomic.Bool
				on.Store(true)
				h := &Hasher{Workers: workers, Progress: func(int64, int64) {
					if calls.Add(1) == 2 && on.Load() {
						runtime.Goexit()
					}
				}}
				goexited(t, func() { call(h, List(paths), func(Result) {}) })
				on.Store(false)
				checkAll(t, h, paths, osData(t))
			})
			mfs, fsPaths := panicTree()
			for _, c := range []struct{ op, path string }{{"Read", "d1/f101"}, {"Read", "d0/f170"}, {"Stat", "d1/f157"}} {
				t.Run(fmt.Sprintf("workers=%d/ordered=%v/fs/%s/%s", workers, ordered, c.op, c.path), func(t *testing.T) {
					pfs := &panicFS{fsys: mfs, op: c.op, path: c.path, nth: 1, val: errGoexit}
					pfs.on.Store(true)
					h := &Hasher{Workers: workers, FS: pfs}
					goexited(t, func() { call(h, List(fsPaths), func(Result) {}) })
					if n := pfs.open.Load(); n != 0 {
						t.Errorf("%d files left open", n)
					}
					pfs.on.Store(false)
					checkAll(t, h, fsPaths, func(p string) []byte { return mfs[p].Data })
				})
			}
			for _, after := range []int{0, 300, len(paths)} {
				t.Run(fmt.Sprintf("workers=%d/ordered=%v/entries/after=%d", workers, ordered, after), func(t *testing.T) {
					// Each Goexit after a pause, the workers by then
					// waiting for batches.
					seq := func(yield func(Entry) bool) {
						for i, p := range paths {
							if i == after {
								time.Sleep(50 * time.Millisecond)
								runtime.Goexit()
							}
							if !yield(Entry{Path: p, Regular: i%2 == 0}) {
								return
							}
						}
						time.Sleep(50 * time.Millisecond)
						runtime.Goexit()
					}
					h := &Hasher{Workers: workers}
					goexited(t, func() { call(h, seq, func(Result) {}) })
					checkAll(t, h, paths, osData(t))
				})
			}
		}
	}
}
