package files

// A worker's buffers, and the small files of a batch read the plain way
// (system calls, or an fs.FS's Open and Read) and hashed a few hundred at a
// time; on Linux most go through io_uring instead (ring_linux.go,
// ringread_linux.go).

import (
	"io"
	"io/fs"

	"github.com/sha256x/sha256x"
)

// A worker's buffers, kept from one batch to the next.
type worker struct {
	c      *config
	arena  []byte
	msgs   [][]byte
	out    [][sha256x.Size]byte
	batch  []*item
	bufs   [][]byte
	ds     []*sha256x.Digest
	chunks [][]byte
	act    []*sha256x.Digest
	from   []int // the source of each of chunks
	srcs   []source
	saved  []sha256x.Digest
	ring   *ringReader // nil until a batch is large enough, or where refused
	noRing bool
	turn   bool // this round of the trial reads (trial.go)
	// cur is the batch, or the large files, the worker holds: their files
	// left open are closed if it panics (run.work).
	cur        []*item
	inProgress bool // in the progress callback, holding run.pmu
	ended      bool // returned, not panicked: its ring and arena to keep
	batching   bool // counted in room.batch (room.go)
	// sized and longer count the regular files of the call's latest batches
	// whose size the worker learned, and those longer than a probe reads:
	// where a third or more are, the worker reads the plain way, as the
	// ring reads such files twice (BENCHMARKS.md, "Files: small files
	// through the ring from 16").
	sized, longer int
}

func newWorker(c *config) *worker {
	return &worker{c: c, noRing: c.plain || c.fsys != nil}
}

// close hands the worker's ring, with its arena, or else its arena back
// for the next call.
func (w *worker) close() {
	if w.ring != nil {
		w.release()
	} else if w.arena != nil {
		putArena(w.arena)
	}
	w.arena = nil
}

func (w *worker) arenaBuf() []byte {
	if w.arena == nil {
		w.arena = takeArena(w.c.arenaMax + w.c.smallMax + 1)
	}
	return w.arena
}

// Arenas of workers that read the plain way are kept between calls as rings
// are: a call that hashes one small file took ten times as long with an
// arena of its own (BENCHMARKS.md, "Files: small files through the ring
// from 16").
var arenas = keeper[[]byte]{drop: func([]byte) {}}

func takeArena(size int) []byte {
	if a, ok := arenas.take(func(a []byte) bool { return len(a) == size }); ok {
		return a
	}
	return make([]byte, size)
}

func putArena(buf []byte) { arenas.put(buf) }

// hash hashes the messages gathered in w.msgs for w.batch in one call.
func (w *worker) hash(r *run) {
	if len(w.batch) == 0 {
		return
	}
	if cap(w.out) < len(w.batch) {
		w.out = make([][sha256x.Size]byte, len(w.batch))
	}
	out := w.out[:len(w.batch)]
	sha256x.HashManyPrefixed(out, w.c.prefix, w.msgs)
	var bytes int64
	for i, it := range w.batch {
		it.Sum = out[i]
		it.Size = int64(len(w.msgs[i]))
		bytes += it.Size
	}
	r.progress(w, len(w.batch), bytes)
	w.msgs, w.batch = w.msgs[:0], w.batch[:0]
}

// smalls reads and hashes the small files of a batch and returns the
// others, marked for streaming.
func (w *worker) smalls(r *run, b []*item) (large []*item) {
	todo := make([]*item, 0, len(b))
	for _, it := range b {
		if it.Err == nil {
			todo = append(todo, it)
		}
	}
	w.unpark(r) // a ring, or its arena, for the batch (ring_linux.go)
	if !w.noRing && len(todo) >= ringMin && !w.mostlyLonger() {
		todo, large = w.ringSmalls(r, todo)
	}
	large = append(large, w.plainSmalls(r, todo)...)
	w.park(r)
	if w.sized >= longerWindow {
		w.sized, w.longer = w.sized/2, w.longer/2
	}
	return large
}

// longerWindow is about how many of the latest files sized and longer
// count: halved when they reach it.
const longerWindow = 1024

// mostlyLonger reports whether a third or more of the regular files the
// worker sized lately were longer than probeMax (from 32 files), where
// such files are read the plain way (longerPlain).
func (w *worker) mostlyLonger() bool {
	return w.sized >= 32 && 3*w.longer >= w.sized && longerPlain()
}

// sizedOne counts a regular file of size n in sized and longer.
func (w *worker) sizedOne(n int64) {
	w.sized++
	if n > probeMax {
		w.longer++
	}
}

// plainSmalls reads each file with plain system calls (or the FS's Open
// and Read), a few MiB of small files per HashMany call.
func (w *worker) plainSmalls(r *run, todo []*item) (large []*item) {
	arena := w.arenaBuf()
	used := 0
	for _, it := range todo {
		if used > w.c.arenaMax {
			w.hash(r)
			used = 0
		}
		buf := arena[used : used+w.c.smallMax+1]
		var n int
		var kind fileKind
		var err error
		if w.c.fsys != nil {
			n, kind, it.file, err = readSmallFS(w.c.fsys, it.Path, buf)
		} else {
			n, kind, it.file, err = readSmall(it.Path, buf)
		}
		if it.file != nil {
			room.open.Add(1) // a pipe found open, held until streamed (room.go)
		}
		// A file refused a descriptor is opened again as a large file is,
		// once others close (room.go). One append to large: a second one
		// kept large off the stack.
		refused := err != nil && outOfFiles(err)
		switch {
		case err != nil && !refused:
			it.Err = err
		case err == nil && kind == isDir:
			it.Err = &fs.PathError{Op: "read", Path: it.Path, Err: errIsDir}
		case refused || kind != isSmall:
			it.stream = true // refused, large, grown or not a regular file
			large = append(large, it)
			if kind == isLarge && it.file == nil {
				w.sizedOne(int64(w.c.smallMax) + 1) // past smallMax, or grown; not a pipe
			}
		default:
			w.sizedOne(int64(n))
			w.batch = append(w.batch, it)
			w.msgs = append(w.msgs, arena[used:used+n])
			used += n
		}
	}
	w.hash(r)
	return large
}

// What readSmall found.
type fileKind int

const (
	isSmall fileKind = iota + 1 // read whole
	isLarge                     // to stream: large, grown, or not a regular file
	isDir
)

// readSmallFS is readSmall through an fs.FS. A file whose size or
// modification time after the read differs from before is read again (if
// it can seek back), up to hashTries times.
func readSmallFS(fsys fs.FS, path string, buf []byte) (n int, kind fileKind, _ io.ReadCloser, err error) {
	f, err := fsys.Open(path)
	if err != nil {
		return 0, 0, nil, pathErr("open", path, err)
	}
	keep := false
	defer func() {
		if !keep { // closed too if Stat or Read panics
			f.Close()
		}
	}()
	st, err := f.Stat()
	switch {
	case err != nil:
		return 0, 0, nil, pathErr("stat", path, err)
	case !st.IsDir() && !st.Mode().IsRegular():
		keep = true
		return 0, isLarge, f, nil // kept open, as readSmall keeps it
	}
	if st.IsDir() {
		return 0, isDir, nil, nil
	}
	before := infoStamp(st)
	for try := 1; ; try++ {
		// A size out of range (an fs.FS's Stat may say a negative one) is
		// read as a large file's is, to its end.
		if before.size < 0 || before.size >= int64(len(buf)) {
			return 0, isLarge, nil, nil
		}
		n, err = readFull(f, buf[:before.size+1])
		switch err {
		case nil:
			return 0, isLarge, nil, nil // grown
		case io.EOF:
		default:
			return 0, 0, nil, pathErr("read", path, err)
		}
		if changeHook != nil {
			changeHook(path)
		}
		if st, err = f.Stat(); err != nil {
			return 0, 0, nil, pathErr("stat", path, err)
		}
		after := infoStamp(st)
		if after == before {
			return n, isSmall, nil, nil
		}
		readAgain.Add(1)
		sk, ok := f.(io.Seeker)
		if try == hashTries || !ok {
			return 0, 0, nil, changedErr(path)
		}
		if _, err := sk.Seek(0, io.SeekStart); err != nil {
			return 0, 0, nil, pathErr("seek", path, err)
		}
		before = after
	}
}

func (w *worker) open(path string) (io.ReadCloser, error) {
	if w.c.fsys != nil {
		return w.c.fsys.Open(path)
	}
	return openFile(path)
}
