package files

// One call of a Hasher (run.go): the caller's goroutine walks the input and
// cuts it into batches (produce, push); workers (config.workers goroutines)
// take them (work) and hand the Results back (deliver):
//
//   - a batch of small-file candidates (worker.go): each file is sized,
//     and the regular ones up to smallMax bytes are read whole into the
//     worker's arena and hashed together in one sha256x.HashManyPrefixed
//     call; the others go to the queue of large files;
//   - large files, and files that are not regular (stream.go), read a
//     chunk at a time and hashed side by side with sha256x.WriteMany, up
//     to streams files per worker; the queue is shared out so that a few
//     big files still keep every worker busy, and served first, so that
//     ordered results are not held up behind it.
//
// A worker holds its arena and its stream chunks and nothing else: memory
// stays within the budget whatever the files' sizes. The batches waiting,
// and (for ordered results) the files read ahead of the oldest not
// delivered, are bounded.

import (
	"context"
	"io"
	"io/fs"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// config is a Hasher's settings resolved for one call.
type config struct {
	workers  int
	smallMax int    // largest file read whole
	arenaMax int    // bytes of small files per HashMany call
	chunk    int    // bytes read from a large file at a time
	streams  int    // large files hashed side by side by one goroutine
	mapMin   int64  // smallest file mapped rather than read; 0: none
	mapWay   mapWay // as SHA256X_MMAP forces, or wayTrial
	prefix   []byte
	fsys     fs.FS
	plain    bool
	progress func(files, bytes int64)
}

func (h *Hasher) config(n int) config {
	// Sixteen large files a worker, each read a chunk of per/32 at a time,
	// at most 256 KiB: half the worker's memory. Sixteen fill the widest
	// lanes (BENCHMARKS.md, "Files: 16 large files a worker").
	c := config{workers: h.Workers, prefix: h.Prefix, fsys: h.FS, plain: h.PlainReads, progress: h.Progress, streams: 16}
	if c.workers <= 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	c.workers = min(c.workers, MaxWorkers())
	if h.Memory > 0 {
		c.workers = min(c.workers, max(1, h.Memory/MinMemory))
	}
	if n >= 0 {
		c.workers = max(1, min(c.workers, n))
	}
	per := DefaultMemory
	if h.Memory > 0 {
		// At most a batch of the largest small files an arena: more is
		// never used, and an io_uring buffer is refused over 1 GiB.
		per = min(max(MinMemory, h.Memory/c.workers), 4*batchMax*256<<10)
	}
	c.smallMax = min(256<<10, per/16)
	c.chunk = min(c.smallMax, per/32)
	c.arenaMax = per / 4
	c.mapWay = mapSetting()
	if !c.plain && c.fsys == nil && mapMinSize > 0 && c.mapWay != wayRead {
		c.mapMin = max(mapMinSize, int64(c.smallMax)+1)
	}
	return c
}

// trying says whether large files may be mapped, the way not forced: a
// trial decides it (trial.go).
func (c *config) trying() bool { return c.mapMin > 0 && c.mapWay == wayTrial }

// Batches, and how far an ordered call reads ahead: halving or doubling any
// of the three moved `sum -r` by no more than the noise (BENCHMARKS.md,
// "Files: batches of 256, from 64 when a worker waits, 8,192 ahead").
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
// page (bench/HISTORY.md, "fresh memory written first").
type slab struct {
	items []item
	live  atomic.Int32 // items not yet delivered, plus 1 while produce fills it
}

type run struct {
	c config
	// ctx is derived from the caller's context; cancel cancels it when a
	// goroutine of the call panics (fail).
	ctx    context.Context
	cancel context.CancelFunc
	// workers counts the workers running; handing, those yet to hand
	// back their rings and arenas (run).
	workers, handing sync.WaitGroup
	// ringDrops is room.ringDrops when the call started.
	ringDrops uint64

	mu        sync.Mutex
	cond      sync.Cond
	batches   [][]*item
	larges    []*item
	closed    bool // the input is exhausted
	pushing   bool // produce waits for room in batches
	busy      int  // workers on a batch, which may add large files
	streaming int  // workers on large files
	idle      atomic.Int32
	// found is how many files the call has: all of them once allFound is
	// set (from the start where their number is known), else those
	// queued so far (ringSetupMin).
	found    atomic.Int64
	allFound atomic.Bool

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
	pstop        bool  // the callback panicked: not called again (under pmu)

	// The first panic of the call (fail), under failMu, re-raised by run
	// once every goroutine of the call has stopped.
	failMu   sync.Mutex
	panicked bool
	panicVal any
	goexit   bool // what stopped it was runtime.Goexit on a worker

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
//
// A panic in the code the caller supplies (fn, Hasher.Progress, Hasher.FS
// and its files, seq) stops the call as a cancellation of ctx does: the
// first one is recorded (fail), the workers end, every file the call opened
// is closed, and then run panics with the value recovered, on the caller's
// goroutine.
func (h *Hasher) run(parent context.Context, seq iter.Seq[Entry], n int, ordered bool, fn func(Result)) error {
	if parent == nil {
		parent = context.Background()
	}
	if n == 0 {
		return parent.Err()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel() // after stop: the AfterFunc below is not run for it
	r := &run{c: h.config(n), ctx: ctx, cancel: cancel, ordered: ordered, fn: fn, ringDrops: room.ringDrops.Load()}
	r.cond.L = &r.mu
	r.dcond.L = &r.dmu
	if ordered {
		r.done = make([]*item, window)
		// Written first, a page at a time, as internal/sched's scratch is
		// (bench/HISTORY.md, "fresh memory written first"): deliver reads
		// the next slot.
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
		wakeRoom() // a worker waiting for a descriptor
	})
	defer stop()
	// Each worker hands its arena back for the next call once every worker
	// has stopped, when none of the call's files is open (a keeper's first
	// timer takes descriptors: kept.go), and the rings its workers parked.
	r.workers.Add(r.c.workers)
	r.handing.Add(r.c.workers)
	defer func() {
		r.handing.Wait()
		handBackRings(r) // those its workers parked (ring_linux.go)
	}()
	for range r.c.workers {
		go func() {
			w := newWorker(&r.c)
			defer func() {
				r.workers.Done()
				r.workers.Wait()
				if w.ended {
					w.close()
				}
				r.handing.Done()
			}()
			r.work(w)
		}()
	}
	produced := false
	defer func() {
		if !produced {
			// runtime.Goexit in seq, on this goroutine: the call stops as
			// for a panic, its goroutines ending and its files closed
			// before this goroutine does.
			r.cancel()
			r.workers.Wait()
			closeFiles(r.larges)
		}
	}()
	r.produceSafe(seq, n)
	produced = true
	r.workers.Wait()
	// Files left by a cancelled call (or one that panicked).
	if e := closeFiles(r.larges); e != nil {
		r.fail(e)
	}
	if r.panicked {
		if r.goexit {
			runtime.Goexit() // a worker's, in the caller's code, passed on
		}
		v := r.panicVal // the caller's own panic, passed on
		panic(v)
	}
	return parent.Err()
}

// produceSafe is produce, a panic of seq's (the caller's iterator, or the
// fs.FS that TreeFS walks) recorded to be raised again once the workers
// have stopped.
func (r *run) produceSafe(seq iter.Seq[Entry], n int) {
	defer func() {
		if e := recover(); e != nil {
			r.fail(e)
		}
	}()
	r.produce(seq, n)
}

// fail records a panic of the call (the first one is raised again by run)
// and stops the call as a cancellation of its context does.
func (r *run) fail(e any) {
	r.failMu.Lock()
	if !r.panicked {
		r.panicked, r.panicVal = true, e
	}
	r.failMu.Unlock()
	r.cancel()
}

// failGoexit is fail for a runtime.Goexit in the caller's code on a
// worker: run calls runtime.Goexit in its place.
func (r *run) failGoexit() {
	r.failMu.Lock()
	if !r.panicked {
		r.panicked, r.goexit = true, true
	}
	r.failMu.Unlock()
	r.cancel()
}

// closeFiles closes the files left open in items, each counted out of
// room.open, and returns the first panic of their Close methods, or nil.
func closeFiles(items []*item) (p any) {
	for _, it := range items {
		if f := it.file; f != nil {
			it.file = nil
			e := closeRecover(f)
			closed(&room.open)
			if e != nil && p == nil {
				p = e
			}
		}
	}
	return p
}

// queueLarge adds a batch's large files to the queue q, those it found open
// (pipes, held in room.open) at its head: behind others, they could hold
// the descriptors those wait for (room.go). The worker that queued them
// takes the head next, unless another one did.
func queueLarge(q, large []*item) []*item {
	open := 0
	for _, it := range large {
		if it.file != nil {
			open++
		}
	}
	if open == 0 {
		return append(q, large...)
	}
	nq := make([]*item, 0, len(q)+len(large))
	for _, it := range large {
		if it.file != nil {
			nq = append(nq, it)
		}
	}
	nq = append(nq, q...)
	for _, it := range large {
		if it.file == nil {
			nq = append(nq, it)
		}
	}
	return nq
}

// closeRecover closes f and returns what its Close panicked with, or nil.
func closeRecover(f io.Closer) (p any) {
	defer func() { p = recover() }()
	f.Close()
	return nil
}

// produce cuts the input into batches for the workers.
func (r *run) produce(seq iter.Seq[Entry], n int) {
	size := batchMax
	if n > 0 {
		// Known length: about four batches per worker, so that they end
		// together.
		size = max(16, min(batchMax, (n+4*r.c.workers-1)/(4*r.c.workers)))
	}
	if n >= 0 {
		r.found.Store(int64(n))
		r.allFound.Store(true)
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
			if n < 0 {
				r.found.Store(int64(i))
			}
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
	if n < 0 && r.ctx.Err() == nil {
		r.found.Store(int64(i))
		r.allFound.Store(true)
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
//
// A panic in the worker (fn, Hasher.Progress, Hasher.FS) is recovered at
// its end: with r.mu in the state locked says, r.pmu released if the
// progress callback panicked (deliver releases r.dmu itself), the files of
// the batch or large files it held closed, and its ring closed. Then the
// call is stopped (fail). So is a runtime.Goexit there (failGoexit).
func (r *run) work(w *worker) {
	locked, returned := false, false
	defer func() {
		if locked {
			r.mu.Unlock()
		}
		e := recover()
		switch {
		case e == nil && returned:
			w.ended = true // its ring and arena handed back by run
			return
		case e == nil:
			// runtime.Goexit in the caller's code: it stops the call as a
			// panic does, or the other workers wait for this one for ever.
			r.failGoexit()
		default:
			r.fail(e)
		}
		if w.inProgress {
			w.inProgress = false
			r.pstop = true
			r.pmu.Unlock()
		}
		if w.batching {
			w.batching = false
			closed(&room.batch)
		}
		closeFiles(w.cur)
		w.cur = nil
		w.discard()
	}()
	r.mu.Lock()
	locked = true
	for r.ctx.Err() == nil {
		if len(r.larges) > 0 {
			// A fair share among the workers not streaming already.
			free := max(1, r.c.workers-r.streaming)
			k := min(r.c.streams, (len(r.larges)+free-1)/free)
			part := r.larges[:k:k]
			r.larges = r.larges[k:]
			r.streaming++
			w.cur = part
			r.mu.Unlock()
			locked = false
			w.streams(r, part)
			r.deliver(part)
			w.cur = nil
			r.mu.Lock()
			locked = true
			r.streaming--
			continue
		}
		if len(r.batches) > 0 {
			b := r.batches[0]
			r.batches = r.batches[1:]
			r.busy++
			r.cond.Broadcast()
			yield := r.pushing
			w.cur = b
			r.mu.Unlock()
			locked = false
			if yield {
				// Let produce, just woken into this P's next slot, refill
				// the queue now, before the other P sleeps in the scheduler
				// (bench/HISTORY.md, "Probes without links, and the
				// producer's turn").
				runtime.Gosched()
			}
			room.batch.Add(1) // its small files' descriptors (room.go)
			w.batching = true
			large := w.smalls(r, b)
			w.batching = false
			// Its files have closed: a worker refused a descriptor while
			// they were open tries again.
			closed(&room.batch)
			r.deliver(b)
			w.cur = nil // its large files are in large
			r.putBatch(b)
			r.mu.Lock()
			locked = true
			r.busy--
			r.larges = queueLarge(r.larges, large)
			r.cond.Broadcast()
			continue
		}
		if r.closed && r.busy == 0 {
			returned = true
			return // unlocked by the deferred function
		}
		r.idle.Add(1)
		r.cond.Wait()
		r.idle.Add(-1)
	}
	returned = true
}

// deliver hands the finished items among items to fn: at once, or in
// input order once those before them are delivered. If fn panics, it is
// not called again (the worker's recovery then stops the call).
func (r *run) deliver(items []*item) {
	r.dmu.Lock()
	returned := false
	defer func() {
		if !returned {
			r.stopped = true // fn panicked
		}
		r.dmu.Unlock()
	}()
	if r.stopped || r.ctx.Err() != nil {
		returned = true
		return
	}
	if !r.ordered {
		for _, it := range items {
			if r.ctx.Err() != nil {
				break // cancelled by fn, say: fn is not called again
			}
			if !it.stream {
				r.fn(it.Result)
				r.release(it.slab)
			}
		}
		returned = true
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
		if it == nil || r.ctx.Err() != nil {
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
	returned = true
}

// progress adds to the totals and calls the progress callback, from
// worker w: if the callback panics, w.inProgress says that w holds r.pmu
// (work releases it).
func (r *run) progress(w *worker, files int, bytes int64) {
	if r.c.progress == nil {
		return
	}
	// Added under the lock that orders the calls, so that the totals reach
	// the callback in order.
	r.pmu.Lock()
	if r.pstop {
		r.pmu.Unlock()
		return
	}
	r.files += int64(files)
	r.bytes += bytes
	w.inProgress = true
	r.c.progress(r.files, r.bytes)
	w.inProgress = false
	r.pmu.Unlock()
}
