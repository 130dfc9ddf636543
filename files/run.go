package files

// One call of a Hasher (run.go): the caller's goroutine walks the input and
// cuts it into batches (produce, push); workers (config.workers
// goroutines) take them (work) and hand the Results back (deliver):
//
//   - a batch of small-file candidates (worker.go): each file is sized,
//     and the regular ones up to smallMax bytes are read whole into the
//     worker's arena and hashed together in one sha256x.HashManyPrefixed
//     call; the others go to the queue of large files;
//   - large files, and files that are not regular (pipes, devices)
//     (stream.go), read a chunk at a time and hashed side by side with
//     sha256x.WriteMany, up to streams files per worker; the queue is
//     shared out so that a few big files still keep every worker busy,
//     and it is served first, so that ordered results are not held up
//     behind it.
//
// A worker holds its arena and its stream chunks and nothing else: memory
// stays within the budget whatever the files' sizes. The batches waiting
// are bounded, and so (for ordered results) is the number of files
// between the oldest one not delivered and the newest one read.

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
	c := config{workers: h.Workers, prefix: h.Prefix, fsys: h.FS, plain: h.PlainReads, progress: h.Progress, streams: 8}
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
		per = max(MinMemory, h.Memory/c.workers)
	}
	c.smallMax = min(256<<10, per/16)
	c.chunk = c.smallMax
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
