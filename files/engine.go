package files

// One call of a Hasher: the caller's goroutine walks the input and cuts it
// into batches; workers (config.workers goroutines) take them:
//
//   - a batch of small-file candidates: each file is sized, and the
//     regular ones up to smallMax bytes are read whole into the worker's
//     arena and hashed together in one sha256x.HashManyPrefixed call; the
//     others go to the queue of large files;
//   - large files, and files that are not regular (pipes, devices), read a
//     chunk at a time and hashed side by side with sha256x.WriteMany, up to
//     streams files per worker; the queue is shared out so that a few big
//     files still keep every worker busy, and it is served first, so that
//     ordered results are not held up behind it.
//
// A worker holds its arena and its stream chunks and nothing else: memory
// stays within the budget whatever the files' sizes. The batches waiting
// are bounded, and so (for ordered results) is the number of files
// between the oldest one not delivered and the newest one read.

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"iter"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/sha256x/sha256x"
)

const (
	batchMax = 256  // files per batch of small-file candidates
	batchMin = 64   // a batch handed over early when a worker is idle
	window   = 8192 // files read ahead of the oldest not yet delivered (ordered)
)

type item struct {
	Result
	stream  bool          // to be hashed as a large file
	regular bool          // listed as a regular file: may be probed unsized
	file    io.ReadCloser // a pipe or device found open, to stream
	slab    *slab
}

// A slab is a batch's items, allocated together and used again once every
// one of them is delivered: fresh items for every batch cost a page fault a
// page (`sum -r` of 10,000 small files on the Intel Xeon: 924 page faults,
// 747 with slabs reused; bench/HISTORY.md, "fresh memory written first").
type slab struct {
	items []item
	live  atomic.Int32 // items not yet delivered, plus 1 while produce fills it
}

type run struct {
	c   config
	ctx context.Context

	mu        sync.Mutex
	cond      sync.Cond
	batches   [][]*item
	larges    []*item
	closed    bool // the input is exhausted
	pushing   bool // produce waits for room in batches
	busy      int  // workers on a batch, which may add large files
	streaming int  // workers on large files
	idle      atomic.Int32

	dmu     sync.Mutex
	dcond   sync.Cond
	ordered bool
	fn      func(Result)
	// done holds the finished items waiting for those before them, item
	// i at i % window: produce keeps every item undelivered within a
	// window of the next one to deliver.
	done    []*item
	next    atomic.Int64 // the next index to deliver (ordered); set under dmu
	stopped bool

	pmu          sync.Mutex
	files, bytes int64 // totals for the progress callback, under pmu

	smu   sync.Mutex
	slabs []*slab   // free
	free  [][]*item // batches, free, for the same reason
}

// slabsMade counts the slabs allocated, for the tests.
var slabsMade atomic.Int64

// newSlab returns a free slab of size items, held by produce.
func (r *run) newSlab(size int) *slab {
	r.smu.Lock()
	defer r.smu.Unlock()
	for len(r.slabs) > 0 {
		s := r.slabs[len(r.slabs)-1]
		r.slabs = r.slabs[:len(r.slabs)-1]
		if len(s.items) == size {
			s.live.Store(1)
			return s
		}
	}
	slabsMade.Add(1)
	s := &slab{items: make([]item, size)}
	s.live.Store(1)
	return s
}

// newBatch returns an empty batch with room for size items.
func (r *run) newBatch(size int) []*item {
	r.smu.Lock()
	defer r.smu.Unlock()
	for len(r.free) > 0 {
		b := r.free[len(r.free)-1]
		r.free = r.free[:len(r.free)-1]
		if cap(b) >= size {
			return b[:0]
		}
	}
	return make([]*item, 0, size)
}

// putBatch returns a batch whose items are all delivered or queued
// elsewhere.
func (r *run) putBatch(b []*item) {
	clear(b)
	r.smu.Lock()
	r.free = append(r.free, b[:0])
	r.smu.Unlock()
}

// release drops one hold on s: an item delivered, or produce done with it.
func (r *run) release(s *slab) {
	if s.live.Add(-1) == 0 {
		r.smu.Lock()
		r.slabs = append(r.slabs, s)
		r.smu.Unlock()
	}
}

// run hashes what seq yields and hands every Result to fn. n is the number
// of files if known, else -1.
func (h *Hasher) run(ctx context.Context, seq iter.Seq[Entry], n int, ordered bool, fn func(Result)) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if n == 0 {
		return ctx.Err()
	}
	r := &run{c: h.config(n), ctx: ctx, ordered: ordered, fn: fn}
	r.cond.L = &r.mu
	r.dcond.L = &r.dmu
	if ordered {
		r.done = make([]*item, window)
		// Written first, a page at a time: read first (deliver looks at
		// the next slot), a page of fresh memory maps the shared zero
		// page, and the write that follows flushes the TLB of every CPU
		// the process runs on (bench/HISTORY.md, "fresh memory written
		// first").
		for i := 0; i < window; i += 4096 / int(unsafe.Sizeof(r.done[0])) {
			r.done[i] = nil
		}
	}
	stop := context.AfterFunc(ctx, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
		r.dmu.Lock()
		r.stopped = true
		r.dcond.Broadcast()
		r.dmu.Unlock()
	})
	defer stop()
	var wg sync.WaitGroup
	for range r.c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work()
		}()
	}
	r.produce(seq, n)
	wg.Wait()
	for _, it := range r.larges { // left by a cancelled call
		if it.file != nil {
			it.file.Close()
		}
	}
	return ctx.Err()
}

// produce cuts the input into batches for the workers.
func (r *run) produce(seq iter.Seq[Entry], n int) {
	size := batchMax
	if n > 0 {
		// Known length: about four batches per worker, so that they end
		// together.
		size = max(16, min(batchMax, (n+4*r.c.workers-1)/(4*r.c.workers)))
	}
	var b []*item
	var s *slab
	used := 0
	i := 0
	for e := range seq {
		if r.ctx.Err() != nil {
			break
		}
		if s == nil || used == size {
			if s != nil {
				r.release(s)
			}
			s, used = r.newSlab(size), 0
		}
		it := &s.items[used]
		used++
		s.live.Add(1)
		*it = item{Result: Result{Index: i, Path: e.Path, Err: e.Err}, regular: e.Regular, slab: s}
		if b == nil {
			b = r.newBatch(size)
		}
		b = append(b, it)
		i++
		if len(b) >= size || (n < 0 && len(b) >= batchMin && r.idle.Load() > 0) {
			r.push(b)
			b = nil
		}
		if r.ordered && i-int(r.next.Load()) >= window {
			r.dmu.Lock()
			for i-int(r.next.Load()) >= window && !r.stopped {
				r.dcond.Wait()
			}
			r.dmu.Unlock()
		}
	}
	if len(b) > 0 {
		r.push(b)
	}
	if s != nil {
		r.release(s)
	}
	r.mu.Lock()
	r.closed = true
	r.cond.Broadcast()
	r.mu.Unlock()
}

// push queues a batch, waiting while two per worker are queued already.
func (r *run) push(b []*item) {
	r.mu.Lock()
	for len(r.batches) >= 2*r.c.workers && r.ctx.Err() == nil {
		r.pushing = true
		r.cond.Wait()
	}
	r.pushing = false
	r.batches = append(r.batches, b)
	r.cond.Broadcast()
	r.mu.Unlock()
}

// work is a worker's loop: large files first, then batches, until the
// input is exhausted and no batch can add large files any more.
func (r *run) work() {
	w := newWorker(&r.c)
	defer w.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.ctx.Err() == nil {
		if len(r.larges) > 0 {
			// A fair share among the workers not streaming already.
			free := max(1, r.c.workers-r.streaming)
			k := min(r.c.streams, (len(r.larges)+free-1)/free)
			part := r.larges[:k:k]
			r.larges = r.larges[k:]
			r.streaming++
			r.mu.Unlock()
			w.streams(r, part)
			r.deliver(part)
			r.mu.Lock()
			r.streaming--
			continue
		}
		if len(r.batches) > 0 {
			b := r.batches[0]
			r.batches = r.batches[1:]
			r.busy++
			r.cond.Broadcast()
			yield := r.pushing
			r.mu.Unlock()
			if yield {
				// Let produce, just woken into this P's next slot, refill
				// the queue now: left there while this worker hashes, it
				// waited until the queue ran dry, and the other P, idle
				// by then, slept in the scheduler before taking it
				// (bench/HISTORY.md, "Probes without links, and the
				// producer's turn").
				runtime.Gosched()
			}
			large := w.smalls(r, b)
			r.deliver(b)
			r.putBatch(b)
			r.mu.Lock()
			r.busy--
			r.larges = append(r.larges, large...)
			r.cond.Broadcast()
			continue
		}
		if r.closed && r.busy == 0 {
			return
		}
		r.idle.Add(1)
		r.cond.Wait()
		r.idle.Add(-1)
	}
}

// deliver hands the finished items among items to fn: at once, or in
// input order once those before them are delivered.
func (r *run) deliver(items []*item) {
	r.dmu.Lock()
	defer r.dmu.Unlock()
	if r.stopped || r.ctx.Err() != nil {
		return
	}
	if !r.ordered {
		for _, it := range items {
			if !it.stream {
				r.fn(it.Result)
				r.release(it.slab)
			}
		}
		return
	}
	for _, it := range items {
		if !it.stream {
			r.done[it.Index%window] = it
		}
	}
	moved := false
	for next := r.next.Load(); ; next++ {
		it := r.done[next%window]
		if it == nil {
			r.next.Store(next)
			break
		}
		r.done[next%window] = nil
		r.fn(it.Result)
		r.release(it.slab)
		moved = true
	}
	if moved {
		r.dcond.Broadcast()
	}
}

func (r *run) progress(files int, bytes int64) {
	if r.c.progress == nil {
		return
	}
	// Added under the lock that orders the calls: added before it, two
	// workers' totals could reach the callback in the other order, the
	// second smaller than the first.
	r.pmu.Lock()
	r.files += int64(files)
	r.bytes += bytes
	r.c.progress(r.files, r.bytes)
	r.pmu.Unlock()
}

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
}

func newWorker(c *config) *worker {
	return &worker{c: c, noRing: c.plain || c.fsys != nil}
}

func (w *worker) close() { w.release() }

func (w *worker) arenaBuf() []byte {
	if w.arena == nil {
		w.arena = make([]byte, w.c.arenaMax+w.c.smallMax+1)
	}
	return w.arena
}

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
	r.progress(len(w.batch), bytes)
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
	if !w.noRing && len(todo) >= ringMin {
		todo, large = w.ringSmalls(r, todo)
	}
	return append(large, w.plainSmalls(r, todo)...)
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
		switch {
		case err != nil:
			it.Err = err
		case kind == isDir:
			it.Err = &fs.PathError{Op: "read", Path: it.Path, Err: errIsDir}
		case kind != isSmall:
			it.stream = true // large, grown or not a regular file
			large = append(large, it)
		default:
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

// readSmallFS is readSmall through an fs.FS.
func readSmallFS(fsys fs.FS, path string, buf []byte) (n int, kind fileKind, _ io.ReadCloser, err error) {
	f, err := fsys.Open(path)
	if err != nil {
		return 0, 0, nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return 0, 0, nil, err
	case !st.IsDir() && !st.Mode().IsRegular():
		return 0, isLarge, f, nil // kept open, as readSmall keeps it
	}
	defer f.Close()
	switch {
	case st.IsDir():
		return 0, isDir, nil, nil
	case st.Size() >= int64(len(buf)):
		return 0, isLarge, nil, nil
	}
	n, err = io.ReadFull(f, buf[:st.Size()+1])
	switch err {
	case nil:
		return 0, isLarge, nil, nil // grown
	case io.EOF, io.ErrUnexpectedEOF:
		return n, isSmall, nil, nil
	}
	return 0, 0, nil, err
}

func (w *worker) open(path string) (io.ReadCloser, error) {
	if w.c.fsys != nil {
		return w.c.fsys.Open(path)
	}
	return os.Open(path)
}

// A source is a large file being hashed: read a chunk at a time into the
// worker's buffer, or, for a regular file on Linux, taken from a window of
// it mapped into memory (map_linux.go).
type source struct {
	r   io.ReadCloser
	f   *os.File // r, if it is a file opened here by path: it can be mapped
	mp  mapping
	off int64 // bytes of the file taken
	// counted is the furthest off reported to the progress callback.
	counted int64
	// inMap says that this round's chunk is in the mapping.
	inMap bool
	done  bool
	err   error
}

// next returns the source's next chunk (empty at the end), in buf if it
// reads. It sets s.done after the last chunk, and s.err if reading fails.
func (s *source) next(buf []byte) []byte {
	s.inMap = false
	if s.mp.active() {
		if c := s.mapped(len(buf)); c != nil {
			s.off += int64(len(c))
			s.inMap = true
			return c
		}
		// Past the size it had when it was opened: read on to EOF, for a
		// file that grew, as sha256sum does.
		if _, err := s.f.Seek(s.off, io.SeekStart); err != nil {
			s.done, s.err = true, err
			return nil
		}
	}
	n, err := io.ReadFull(s.r, buf)
	s.off += int64(n)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		s.done = true
	default:
		s.done, s.err = true, err
		return nil
	}
	return buf[:n]
}

// mapFaults and mapChanged count the files hashed again because a mapping
// faulted or the file changed while mapped, for the tests.
var mapFaults, mapChanged atomic.Int64

// rewind starts the file again from its start, to be read, not mapped: it
// changed while it was mapped.
func (w *worker) rewind(s *source, d *sha256x.Digest) {
	s.mp.forget()
	s.off, s.done = 0, false
	d.Reset()
	d.Write(w.c.prefix)
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		s.done, s.err = true, err
	}
}

func (s *source) close() {
	s.mp.forget()
	if s.r != nil {
		s.r.Close()
	}
}

// streams hashes the files side by side, a chunk of each per WriteMany.
func (w *worker) streams(r *run, items []*item) {
	for len(w.bufs) < len(items) {
		w.bufs = append(w.bufs, make([]byte, w.c.chunk))
		w.ds = append(w.ds, new(sha256x.Digest))
		w.srcs = append(w.srcs, source{})
	}
	ds, srcs := w.ds[:len(items)], w.srcs[:len(items)]
	var idx []int // the items still being read
	for i, it := range items {
		it.stream = false
		s := &srcs[i]
		*s = source{r: it.file}
		it.file = nil
		if s.r == nil {
			f, err := w.open(it.Path)
			if err != nil {
				it.Err = err
				continue
			}
			s.r = f
			if f, ok := f.(*os.File); ok && w.c.mapMin > 0 {
				s.f = f
				s.mapFile(w.c.mapMin)
			}
		}
		defer s.close()
		ds[i].Reset()
		ds[i].Write(w.c.prefix)
		idx = append(idx, i)
	}
	for len(idx) > 0 {
		if r.ctx.Err() != nil {
			return
		}
		w.chunks, w.act, w.from = w.chunks[:0], w.act[:0], w.from[:0]
		for _, i := range idx {
			if c := srcs[i].next(w.bufs[i]); len(c) > 0 {
				w.chunks = append(w.chunks, c)
				w.act = append(w.act, ds[i])
				w.from = append(w.from, i)
			}
		}
		w.write(srcs, ds)
		var bytes int64
		for _, i := range w.from {
			// A file read again from its start counts only past where it
			// had been counted to.
			if s := &srcs[i]; s.off > s.counted {
				bytes += s.off - s.counted
				s.counted = s.off
			}
		}
		r.progress(0, bytes)
		next := idx[:0]
		for _, i := range idx {
			s := &srcs[i]
			if s.done && s.err == nil && s.mp.changed() {
				// It changed while mapped: perhaps it shrank, and a
				// mapped page past its new end read as zeros.
				mapChanged.Add(1)
				w.rewind(s, ds[i])
			}
			if s.err != nil {
				items[i].Err = s.err
			} else if !s.done {
				next = append(next, i)
			}
		}
		idx = next
	}
	files := 0
	for i, it := range items {
		if it.Err == nil {
			it.Sum = ds[i].Sum256()
			it.Size = srcs[i].off
			files++
		}
	}
	r.progress(files, 0)
}

// write hashes a round's chunks, w.chunks into w.act. If a mapped one
// faults (its file shrank), the digests are put back as they were, that
// file starts again by reading, and the round is hashed again.
func (w *worker) write(srcs []source, ds []*sha256x.Digest) {
	mapped := false
	for _, i := range w.from {
		mapped = mapped || srcs[i].inMap
	}
	if !mapped {
		sha256x.WriteMany(w.act, w.chunks)
		return
	}
	w.saved = w.saved[:0]
	for _, d := range w.act {
		w.saved = append(w.saved, *d)
	}
	for {
		f := w.writeMapped(srcs)
		if f == -1 {
			return
		}
		for k, d := range w.act {
			*d = w.saved[k]
		}
		for j, i := range w.from {
			if j != f && (f != anyMapped || !srcs[i].inMap) {
				continue
			}
			mapFaults.Add(1)
			w.rewind(&srcs[i], ds[i])
			if srcs[i].err == nil {
				w.chunks[j] = srcs[i].next(w.bufs[i])
			} else {
				w.chunks[j] = nil
			}
			w.saved[j] = *ds[i]
		}
	}
}

// writeMapped is WriteMany with faults turned into panics. It returns the
// index of the chunk that faulted (a read of a mapped page past the end of
// a file that has shrunk: SIGBUS), anyMapped if a fault's address names no
// chunk, or -1 if none faulted. A panic that is not the runtime's, or any
// with no chunk mapped, goes on.
func (w *worker) writeMapped(srcs []source) (faulted int) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		e := recover()
		if e == nil {
			return
		}
		if _, ok := e.(runtime.Error); !ok {
			panic(e)
		}
		faulted = -1
		for j, c := range w.chunks {
			if !srcs[w.from[j]].inMap {
				continue
			}
			faulted = anyMapped
			// From the start of the chunk's first page: s390x reports the
			// faulting page, not the byte.
			start := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
			lo := start &^ uintptr(os.Getpagesize()-1)
			if f, ok := e.(interface{ Addr() uintptr }); ok && f.Addr() >= lo && f.Addr() < start+uintptr(len(c)) {
				faulted = j
				return
			}
		}
		if faulted == -1 {
			panic(e)
		}
		// No address, or one that names no chunk (qemu's user-mode
		// emulation reports 0 on arm64 and amd64, and garbage on s390x):
		// every mapped file of the round is read again. A fault of
		// WriteMany's own faults again on the chunks read, and goes on.
	}()
	sha256x.WriteMany(w.act, w.chunks)
	return -1
}

// anyMapped is writeMapped's result for a fault in a mapped chunk it
// cannot tell.
const anyMapped = -2
