package main

// The file hasher behind sum, sum -c and merkle: many files at once, on
// every core, in bounded memory.
//
// A batch of jobs (a window of a few thousand files) becomes units that
// workers (one per core) take from a queue:
//
//   - first, a few hundred files per unit: the worker opens each file and
//     fstats it; a small one (regular, up to smallMax bytes) is read whole
//     into the worker's arena, and the arena, a few MiB of files, is hashed
//     in one sha256x.HashMany call; the others are marked for streaming;
//   - then the large files, and files that are not regular (pipes,
//     devices), read in chunks and hashed side by side with
//     sha256x.WriteMany, one stream per file, up to streamsPer files per
//     unit; they are dealt out to as many units as there are workers, so a
//     few big files still keep every core busy;
//   - standard input is a unit of its own, read in chunks.
//
// A worker holds at most its arena or streamsPer chunks: memory is bounded
// whatever the files' sizes. The results land in the jobs, which the caller
// prints in order once the batch is done.

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sha256x/sha256x"
)

const (
	smallMax   = 256 << 10 // largest file read whole
	arenaMax   = 1 << 20   // bytes of small files per HashMany call
	smallFiles = 512       // files per HashMany call
	chunkSize  = 256 << 10
	streamsPer = 8 // files hashed side by side by one worker
)

// A job is one file to hash.
type job struct {
	path   string // "-" is standard input
	sum    [sha256x.Size]byte
	err    error // set before hashing: the job is skipped and the error kept
	stream bool  // too large to read whole, or not a regular file
}

// An engine hashes batches of jobs with its workers.
type engine struct {
	prefix  []byte // hashed before every file: SHA-256(prefix || contents)
	workers int
	units   chan func(*worker)
	wg      sync.WaitGroup
	bytes   atomic.Int64 // hashed so far, for the progress line
	files   atomic.Int64
	stdin   io.Reader
}

type worker struct {
	arena  []byte
	msgs   [][]byte
	out    [][sha256x.Size]byte
	chunks [][]byte
	bufs   [][]byte
	ds     []*sha256x.Digest
	act    []*sha256x.Digest
}

func newEngine(prefix []byte, stdin io.Reader) *engine {
	e := &engine{prefix: prefix, workers: max(1, runtime.GOMAXPROCS(0)), units: make(chan func(*worker)), stdin: stdin}
	for range e.workers {
		go func() {
			w := new(worker)
			for u := range e.units {
				u(w)
				e.wg.Done()
			}
		}()
	}
	return e
}

func (e *engine) close() { close(e.units) }

func (e *engine) run(u func(*worker)) {
	e.wg.Add(1)
	e.units <- u
}

// hash hashes every job whose err is nil, and returns when all are done.
func (e *engine) hash(jobs []*job) {
	var stdin, files []*job
	for _, j := range jobs {
		switch {
		case j.err != nil:
		case j.path == "-":
			stdin = append(stdin, j)
		default:
			files = append(files, j)
		}
	}
	if len(stdin) > 0 {
		// Standard input, read once: later "-" jobs see it at EOF, as
		// with sha256sum.
		e.run(func(w *worker) {
			for _, j := range stdin {
				e.streams(w, []*job{j}, []io.Reader{e.stdin})
			}
		})
	}
	// First every file is opened by a worker, and read and hashed there
	// if it is small; the rest are marked for streaming.
	for len(files) > 0 {
		part := files[:min(len(files), smallFiles)]
		files = files[len(part):]
		e.run(func(w *worker) { e.smalls(w, part) })
	}
	e.wg.Wait()
	var stream []*job
	for _, j := range jobs {
		if j.stream {
			stream = append(stream, j)
		}
	}
	// Then the large files, dealt out so that every worker gets some.
	groups := (len(stream) + streamsPer - 1) / streamsPer
	groups = max(groups, min(len(stream), e.workers))
	for g := range groups {
		var part []*job
		for i := g; i < len(stream); i += groups {
			part = append(part, stream[i])
		}
		e.run(func(w *worker) { e.openStreams(w, part) })
	}
	e.wg.Wait()
}

// smalls reads each small file whole into the arena and hashes them a few
// MiB at a time in one call; it marks the others for streaming. A file that
// grew past its size is finished as a stream.
func (e *engine) smalls(w *worker, jobs []*job) {
	if cap(w.arena) < arenaMax+smallMax+1 {
		w.arena = make([]byte, arenaMax+smallMax+1)
	}
	arena := w.arena[:cap(w.arena)]
	used := 0
	w.msgs = w.msgs[:0]
	batch := jobs[:0:0]
	flush := func() {
		if cap(w.out) < len(batch) {
			w.out = make([][sha256x.Size]byte, len(batch))
		}
		out := w.out[:len(batch)]
		sha256x.HashManyPrefixed(out, e.prefix, w.msgs)
		for i, j := range batch {
			j.sum = out[i]
		}
		w.msgs, batch, used = w.msgs[:0], batch[:0], 0
	}
	for _, j := range jobs {
		if used > arenaMax {
			flush()
		}
		n, st, err := readSmall(j.path, arena[used:used+smallMax+1])
		switch {
		case err != nil:
			j.err = err
		case st == isDir:
			j.err = &os.PathError{Op: "read", Path: j.path, Err: errIsDir}
		case st != isSmall:
			j.stream = true // large, grown or not a regular file
		default:
			batch = append(batch, j)
			w.msgs = append(w.msgs, arena[used:used+n])
			used += n
			e.bytes.Add(int64(n))
			e.files.Add(1)
		}
	}
	flush()
}

func (e *engine) openStreams(w *worker, jobs []*job) {
	rs := make([]io.Reader, 0, len(jobs))
	open := jobs[:0:0]
	for _, j := range jobs {
		f, err := os.Open(j.path)
		if err != nil {
			j.err = err
			continue
		}
		defer f.Close()
		rs = append(rs, f)
		open = append(open, j)
	}
	e.streams(w, open, rs)
}

// streams hashes the readers side by side, a chunk of each per WriteMany.
func (e *engine) streams(w *worker, jobs []*job, rs []io.Reader) {
	for len(w.bufs) < len(jobs) {
		w.bufs = append(w.bufs, make([]byte, chunkSize))
		w.ds = append(w.ds, new(sha256x.Digest))
	}
	ds := w.ds[:len(jobs)]
	for _, d := range ds {
		d.Reset()
	}
	if len(e.prefix) > 0 {
		for _, d := range ds {
			d.Write(e.prefix)
		}
	}
	idx := make([]int, len(jobs)) // the job of each active stream
	for i := range idx {
		idx[i] = i
	}
	for len(idx) > 0 {
		w.chunks, w.act = w.chunks[:0], w.act[:0]
		next := idx[:0]
		for _, i := range idx {
			n, err := io.ReadFull(rs[i], w.bufs[i])
			switch {
			case err == nil:
				next = append(next, i)
			case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
				err = nil
			default:
				jobs[i].err = err
			}
			if jobs[i].err == nil && n > 0 {
				w.chunks = append(w.chunks, w.bufs[i][:n])
				w.act = append(w.act, ds[i])
			}
			e.bytes.Add(int64(n))
		}
		sha256x.WriteMany(w.act, w.chunks)
		idx = next
	}
	for i, j := range jobs {
		if j.err == nil {
			j.sum = ds[i].Sum256()
		}
	}
	e.files.Add(int64(len(jobs)))
}

// What readSmall found.
type fileKind int

const (
	isSmall fileKind = iota + 1 // read whole
	isLarge                     // to stream: large, grown, or not a regular file
	isDir
)
