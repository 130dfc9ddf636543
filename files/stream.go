package files

// Large files, and files that are not regular, hashed side by side a chunk
// of each per sha256x.WriteMany: read, or taken from mappings
// (map_linux.go), each regular file checked at its end against its stamp
// (changed.go).

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/sha256x/sha256x"
)

// A source is a large file's contents, a chunk at a time: read into the
// worker's buffer, or, for a regular file on Linux, taken from a window of
// it mapped into memory (map_linux.go).
type source struct {
	r   io.ReadCloser
	f   *os.File // r, if it is a file opened here by path: it can be mapped
	mp  mapping
	off int64 // bytes of the file taken
	// counted is the furthest off reported to the progress callback.
	counted int64
	// inMap says that this round's chunk is in the mapping; pread, that
	// it was read at off while the mapping stayed (a trial's read round).
	inMap, pread bool
	done         bool
	err          error
	// st is a regular file's stamp before this pass; tries counts them.
	st      stamp
	stamped bool
	tries   int
	// waiting says the file is yet to be opened: it was refused a
	// descriptor, or came after one that was (room.go).
	waiting bool
}

// next returns the source's next chunk (empty at the end), in buf if it
// reads: from the mapping, or read with pread if read is set. It sets
// s.done after the last chunk, and s.err if reading fails.
func (s *source) next(buf []byte, read bool) []byte {
	s.inMap, s.pread = false, false
	if s.done {
		return nil
	}
	if s.mp.active() {
		if read {
			return s.readAt(buf)
		}
		if c := s.mapped(len(buf)); c != nil {
			s.off += int64(len(c))
			s.inMap = true
			return c
		}
		// Past the size it had when it was opened: read on to EOF, for a
		// file that grew, as sha256sum does. Or the window could not be
		// mapped: read on from here.
		if s.unmap(); s.done {
			return nil
		}
	}
	n, err := readFull(s.r, buf)
	s.off += int64(n)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		s.done = true
	default:
		s.done, s.err = true, err
		return nil
	}
	return buf[:n]
}

// readFull reads into buf until it is full (nil) or r returns an error:
// io.EOF where the file ends, or r's own error, io.ErrUnexpectedEOF
// included (an fs.FS's zip entry cut short, as flate reports it), which
// io.ReadFull would pass off as a file that ends there.
func readFull(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// pathErr is err in an *fs.PathError of op and path, as Result.Err says,
// unless it is one already (an os.File's): an fs.FS's file may return its
// errors bare (a zip entry's io.ErrUnexpectedEOF).
func pathErr(op, path string, err error) error {
	if _, ok := err.(*fs.PathError); ok {
		return err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// readAt reads the chunk at s.off with pread, the mapping and the file's
// offset left as they are: a trial's read round.
func (s *source) readAt(buf []byte) []byte {
	n, err := s.f.ReadAt(buf, s.off) // until buf is full, or EOF
	s.off += int64(n)
	s.pread = true
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		s.done = true
	default:
		s.done, s.err = true, err
		return nil
	}
	return buf[:n]
}

// unmap ends s's mapping and reads on from s.off: a file hashed in part
// from its mapping is checked at its end all the same (recheck).
func (s *source) unmap() {
	s.mp.end()
	if _, err := s.f.Seek(s.off, io.SeekStart); err != nil {
		s.done, s.err = true, err
	}
}

// mapFaults and mapChanged count the files hashed again because a mapping
// faulted or the file changed while mapped, for the tests.
var mapFaults, mapChanged atomic.Int64

// rewind starts the file again from its start, to be read, not mapped,
// stamped anew: it changed while it was hashed.
func (w *worker) rewind(s *source, d *sha256x.Digest, path string) {
	s.mp.forget()
	s.off, s.done = 0, false
	d.Reset()
	d.Write(w.c.prefix)
	sk, ok := s.r.(io.Seeker)
	if !ok {
		s.done, s.err = true, changedErr(path)
		return
	}
	if _, err := sk.Seek(0, io.SeekStart); err != nil {
		s.done, s.err = true, err
		return
	}
	s.st, s.stamped = fileStamp(s.r)
}

// recheck stamps a file read to its end: if it changed (perhaps cut under
// the read, or under the mapping, whose pages past the new end read as
// zeros without a fault), it is hashed again, or given ErrChanged after
// hashTries passes.
func (w *worker) recheck(s *source, d *sha256x.Digest, path string) {
	if changeHook != nil {
		changeHook(path)
	}
	if st, ok := fileStamp(s.r); ok && st == s.st {
		return
	}
	if s.mp.used {
		mapChanged.Add(1)
	}
	readAgain.Add(1)
	if s.tries++; s.tries >= hashTries {
		s.err = changedErr(path)
		return
	}
	w.rewind(s, d, path)
}

// close closes s's file and then counts it out (room.go): counted out
// before, its descriptor could be refused to a worker that then sees
// nothing open. If Close panics, it is counted out all the same.
func (s *source) close() {
	s.mp.forget()
	if f := s.r; f != nil {
		s.r, s.f = nil, nil
		defer closed(&room.open)
		f.Close()
	}
}

// streams hashes the files side by side, a chunk of each per WriteMany.
// While the process's trial goes on (trial.go), the worker's rounds
// alternate between mapped and read, and are timed.
func (w *worker) streams(r *run, items []*item) {
	trying := w.c.trying() && trialWay() == wayTrial
	for len(w.bufs) < len(items) {
		b := make([]byte, w.c.chunk)
		if trying {
			// Its pages faulted in now, not in a timed read round.
			for j := 0; j < len(b); j += 4096 {
				b[j] = 0
			}
		}
		w.bufs = append(w.bufs, b)
		w.ds = append(w.ds, new(sha256x.Digest))
		w.srcs = append(w.srcs, source{})
	}
	ds, srcs := w.ds[:len(items)], w.srcs[:len(items)]
	// The items still being read: at most streams of them, on the stack
	// (admit appends to it).
	idx := make([]int, 0, 16)
	waiting := 0 // the items yet to be opened
	for i, it := range items {
		it.stream = false
		s := &srcs[i]
		*s = source{r: it.file}
		it.file = nil
		// Closed once read, or at the end, or if a panic (of an fs.FS's
		// Stat or Read, of the progress callback) leaves the hashing.
		defer s.close()
		if s.r == nil {
			s.waiting = true
			waiting++
			continue
		}
		ds[i].Reset() // a pipe found open, counted since (room.go)
		ds[i].Write(w.c.prefix)
		idx = append(idx, i)
	}
	idx, waiting, _ = w.admit(r, items, srcs, ds, idx, waiting)
	unmapped := false // the mappings ended, once the trial decided to read
	for len(idx) > 0 || waiting > 0 {
		if r.ctx.Err() != nil {
			return
		}
		if len(idx) == 0 {
			idx, waiting = w.noRoom(r, items, srcs, ds, idx, waiting)
			continue
		}
		way := w.c.mapWay
		if w.c.trying() {
			way = trialWay()
		}
		read, timed := way == wayRead, way == wayTrial && w.c.trying()
		if timed {
			w.turn = !w.turn
			read = w.turn
		}
		if way == wayRead && !unmapped {
			unmapped = true
			for _, i := range idx {
				if s := &srcs[i]; s.mp.active() {
					s.unmap()
				}
			}
		}
		var t0 time.Time
		if timed {
			t0 = time.Now()
		}
		w.chunks, w.act, w.from = w.chunks[:0], w.act[:0], w.from[:0]
		for _, i := range idx {
			if c := srcs[i].next(w.bufs[i], read); len(c) > 0 {
				w.chunks = append(w.chunks, c)
				w.act = append(w.act, ds[i])
				w.from = append(w.from, i)
			}
		}
		if !w.write(srcs, ds, items) && timed {
			w.timed(srcs, read, time.Since(t0))
		}
		var bytes int64
		for _, i := range w.from {
			// A file read again from its start counts only past where it
			// had been counted to.
			if s := &srcs[i]; s.off > s.counted {
				bytes += s.off - s.counted
				s.counted = s.off
			}
		}
		r.progress(w, 0, bytes)
		next := idx[:0]
		for _, i := range idx {
			s := &srcs[i]
			if s.done && s.err == nil && s.stamped {
				w.recheck(s, ds[i], items[i].Path)
			}
			if s.err != nil {
				items[i].Err = pathErr("read", items[i].Path, s.err)
			} else if !s.done {
				next = append(next, i)
				continue
			}
			s.close() // its descriptor for a file waiting
		}
		if waiting > 0 && len(next) < len(idx) {
			idx, waiting, _ = w.admit(r, items, srcs, ds, next, waiting)
		} else {
			idx = next
		}
	}
	files := 0
	for i, it := range items {
		if it.Err == nil {
			it.Sum = ds[i].Sum256()
			it.Size = srcs[i].off
			files++
		}
	}
	r.progress(w, files, 0)
}

// admit opens the files waiting, in order, adds those opened to idx and
// starts their digests, and gives the others that fail their Err, until one
// is refused a descriptor: it returns idx, the number still waiting, and
// the refusal, if any.
func (w *worker) admit(r *run, items []*item, srcs []source, ds []*sha256x.Digest, idx []int, waiting int) ([]int, int, error) {
	for i := 0; waiting > 0; i++ {
		s, it := &srcs[i], items[i]
		if !s.waiting {
			continue
		}
		var f io.ReadCloser
		err := counted(&room.open, func() (err error) {
			f, err = w.open(it.Path)
			return err
		})
		if err != nil && outOfFiles(err) {
			return idx, waiting, err
		}
		s.waiting = false
		waiting--
		if err != nil {
			it.Err = pathErr("open", it.Path, err)
			continue
		}
		s.r = f
		s.st, s.stamped = fileStamp(f)
		if f, ok := f.(*os.File); ok && w.c.mapMin > 0 {
			s.f = f
			if w.c.mapWay == wayMapped || trialWay() != wayRead {
				s.mapFile(w.c.mapMin)
			}
		}
		ds[i].Reset()
		ds[i].Write(w.c.prefix)
		idx = append(idx, i)
	}
	return idx, waiting, nil
}

// noRoom is admit for a worker with none of its files open. Refused, it
// tries again if anything closed meanwhile; else it waits for something to
// close while anything of the package is held (room.go); with nothing, it
// closes the idle rings, or those kept for the next call, and tries again.
// Refused with nothing of the package open, the first file waiting gets the
// refusal as its Err, as it would alone.
func (w *worker) noRoom(r *run, items []*item, srcs []source, ds []*sha256x.Digest, idx []int, waiting int) ([]int, int) {
	since := room.closes.Load()
	idx, waiting, err := w.admit(r, items, srcs, ds, idx[:0], waiting)
	if len(idx) > 0 || err == nil {
		return idx, waiting
	}
	switch {
	case room.closes.Load() != since:
	case held():
		awaitRoom(since, func() bool { return r.ctx.Err() != nil })
	case !refusedFinally(since):
	default:
		for i := range srcs {
			if s := &srcs[i]; s.waiting {
				s.waiting = false
				items[i].Err = pathErr("open", items[i].Path, err)
				return idx, waiting - 1
			}
		}
	}
	return idx, waiting
}

// timed records a trial round that took d to the trial, if every chunk of
// it came the way the round meant: from a mapping, or read with pread
// from a file with one (read).
func (w *worker) timed(srcs []source, read bool, d time.Duration) {
	bytes := 0
	for j, i := range w.from {
		if s := &srcs[i]; read && !s.pread || !read && !s.inMap {
			return
		}
		bytes += len(w.chunks[j])
	}
	trialRecord(!read, d, bytes)
}

// write hashes a round's chunks, w.chunks into w.act. If a mapped one
// faults (its file shrank), the digests are put back, that file starts
// again by reading, and the round is hashed again: it reports whether one
// faulted.
func (w *worker) write(srcs []source, ds []*sha256x.Digest, items []*item) (faulted bool) {
	mapped := false
	for _, i := range w.from {
		mapped = mapped || srcs[i].inMap
	}
	if !mapped {
		sha256x.WriteMany(w.act, w.chunks)
		return false
	}
	w.saved = w.saved[:0]
	for _, d := range w.act {
		w.saved = append(w.saved, *d)
	}
	for {
		f := w.writeMapped(srcs)
		if f == -1 {
			return faulted
		}
		faulted = true
		for k, d := range w.act {
			*d = w.saved[k]
		}
		for j, i := range w.from {
			if j != f && (f != anyMapped || !srcs[i].inMap) {
				continue
			}
			mapFaults.Add(1)
			w.rewind(&srcs[i], ds[i], items[i].Path)
			if srcs[i].err == nil {
				w.chunks[j] = srcs[i].next(w.bufs[i], true)
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
		// emulation): every mapped file of the round is read again. A fault
		// of WriteMany's own faults again on the chunks read, and goes on.
	}()
	sha256x.WriteMany(w.act, w.chunks)
	return -1
}

// anyMapped is writeMapped's result for a fault in a mapped chunk it
// cannot tell.
const anyMapped = -2
