package files

// Large regular files may be hashed from the page cache through a window of
// the file mapped into memory, which saves a copy (BENCHMARKS.md, "Files:
// large files mapped"); a trial decides whether it pays (trial.go).
//
// A file that shrinks while it is mapped faults (SIGBUS) on a read past its
// new end: worker.write recovers, puts the round's digests back, and hashes
// that file again by reading it, as it does a file whose stamp differs at
// its end (worker.recheck).

import (
	"sync/atomic"
	"syscall"
)

// mapWindow is how much of one file is mapped at once: a worker maps at
// most streams windows, whatever the files' sizes; larger windows gained
// nothing (BENCHMARKS.md, "Files: large files mapped"). A variable for the
// tests.
var mapWindow int64 = 16 << 20

// mapMinSize is the smallest file mapped. Mapping paid for every size tried
// (BENCHMARKS.md, "Files: large files mapped"); below 256 KiB files are
// read whole as small ones anyway, with the default memory.
const mapMinSize = 256 << 10

// mapFiles counts the files set up to be mapped, for the tests.
var mapFiles atomic.Int64

// mmap is syscall.Mmap; tests make it fail, as file systems that cannot
// map files do (ENODEV).
var mmap = syscall.Mmap

// mapHook, if set (by tests), is called after each window is mapped, with
// the window's offset in the file.
var mapHook func(path string, off int64)

// A mapping is the window of a file mapped now, and what the file was
// when it was opened.
type mapping struct {
	fd     int
	size   int64 // the file's size when opened; 0 once the mapping has ended
	win    []byte
	winOff int64 // the file offset of win
	used   bool  // a chunk was taken from the mapping
}

func (m *mapping) active() bool { return m.size > 0 }

// mapFile sets s up to be mapped, if its file is regular (stamped) and at
// least minSize bytes long.
func (s *source) mapFile(minSize int64) {
	if !s.stamped || s.st.size < minSize {
		return
	}
	s.mp = mapping{fd: int(s.f.Fd()), size: s.st.size}
	mapFiles.Add(1)
}

// mapped returns up to n bytes of the file at s.off from the mapping,
// mapping the window s.off is in if need be, or nil past the mapped size or
// if the window cannot be mapped: the caller then reads from s.off.
func (s *source) mapped(n int) []byte {
	m := &s.mp
	if s.off < m.winOff || s.off >= m.winOff+int64(len(m.win)) {
		m.unmapWindow()
		if s.off >= m.size {
			return nil
		}
		// Windows start at multiples of mapWindow (page aligned), the
		// same whichever rounds of a trial read: a chunk ends at its
		// window's end.
		at := s.off - s.off%mapWindow
		win, err := mmap(m.fd, at, int(min(mapWindow, m.size-at)), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			return nil
		}
		m.win, m.winOff = win, at
		if mapHook != nil {
			mapHook(s.f.Name(), at)
		}
	}
	m.used = true
	c := m.win[s.off-m.winOff:]
	return c[:min(len(c), n)]
}

func (m *mapping) unmapWindow() {
	if m.win != nil {
		syscall.Munmap(m.win)
		m.win = nil
	}
}

// end unmaps the window and ends the mapping, keeping what changed needs.
func (m *mapping) end() {
	m.unmapWindow()
	m.size = 0
}

// forget unmaps the window and forgets the file was mapped.
func (m *mapping) forget() {
	m.unmapWindow()
	*m = mapping{}
}
