package files

// The io_uring rings of the workers: kept between calls (one per core at
// most, closed after a second unused), handed back when a worker ends, and
// given up after a failure of the ring itself. The files go through them in
// ringread_linux.go, named as ringdirs_linux.go lays them out;
// probe_linux.go measures whether files of unknown type go through them.

import (
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/uring"
)

// ringMin is the fewest small-file candidates in a batch for which a worker
// uses a ring (BENCHMARKS.md, "Files: small files through the ring from
// 16"). A variable for the tests.
var ringMin = 16

// ringSetupMin is the fewest files a worker for which a call that has all
// its files (their number known, or the walk done) sets a ring up where
// none is kept; a call still finding its files sets one up from ringMin.
// ringSetupFor says where setting up pays (BENCHMARKS.md, "Files: small
// files through the ring from 16"). SHA256X_IOURING=on sets one up from
// ringMin too. A variable for the tests.
var ringSetupMin = func() int {
	if os.Getenv("SHA256X_IOURING") == "on" {
		return ringMin
	}
	return ringSetupFor(syscallCostOnce())
}

// longerPlain says whether a worker whose files are mostly longer than a
// probe reads them the plain way (worker.mostlyLonger): where a system call
// costs under 1 µs, as through the ring such a file is opened and read
// twice (BENCHMARKS.md, "Files: small files through the ring from 16"). A
// variable for the tests.
var longerPlain = func() bool { return syscallCostOnce() < time.Microsecond }

// ringSetupFor is ringSetupMin on a host whose system calls cost c.
func ringSetupFor(c time.Duration) int {
	switch {
	case c < untypedRingMin:
		return 512
	case c < time.Microsecond:
		return 256
	}
	return ringMin
}

// ringRefused is set once the kernel has refused io_uring, or a ring was
// given up with operations in flight (close), so that no other worker asks
// again.
var ringRefused atomic.Bool

// ringFiles counts the files read whole through a ring, ringShort those
// taken whole from a short read alone (shortReadsEnd), and ringLate the
// unlinked opens that finished after their read, for the tests.
var ringFiles, ringShort, ringLate atomic.Int64

// asyncOpens sends the unlinked probes' opens to io-wq, so that each
// finishes after its read and close: for the tests.
var asyncOpens bool

type ringReader struct {
	ring    *uring.Ring
	arena   []byte // the worker's
	fixed   []byte // arena's head, registered with ring
	sts     []unix.Statx_t
	after   unix.Statx_t // a statx after a read (ringcheck_linux.go)
	res     []int32
	paths   []byte // the batch's names, each ending in NUL
	offs    []int
	dirs    []int  // directories opened for the batch; dirs[0] is AT_FDCWD
	ends    []bool // whether a short read ends a file in dirs[i] (shortReadsEnd)
	dirOf   []int  // the directory of each name
	dirents []byte
	cand    []int
	sized   []int
	reads   []int32
	more    []int32
	opens   []int32
	at      []int
	owner   *run // the call that parked it among the idle rings
}

// close closes the ring. A ring given up with operations in flight is kept
// from the collector for the life of the process, its arena and statx
// results with it: a read running on io-wq may still write into its buffer
// after close returns. No worker sets up a ring after that.
func (rr *ringReader) close() {
	if rr == nil {
		return
	}
	if rr.ring.Inflight() > 0 {
		abandoned.Lock()
		abandoned.rings = append(abandoned.rings, rr)
		abandoned.Unlock()
		ringRefused.Store(true)
	}
	rr.ring.Close()
}

// abandoned holds the rings closed with operations in flight (close).
var abandoned struct {
	sync.Mutex
	rings []*ringReader
}

// Rings are kept between calls (setting one up and tearing it down costs
// about as much as reading a few hundred small files the plain way), up to
// one per core, and closed after a second unused.
var rings = keeper[*ringReader]{drop: (*ringReader).close}

const ringIdle = keptFor

func takeRing(arena int) *ringReader {
	rr, _ := rings.take(func(rr *ringReader) bool { return len(rr.arena) == arena })
	return rr
}

func putRing(rr *ringReader) {
	// A ring with operations in flight is not handed to the next call,
	// whose completions they would be taken for; close keeps it.
	if rr.ring.Inflight() > 0 || !rings.put(rr) {
		rr.close()
	}
}

// dropKept closes the rings kept for the next call, and those of running
// calls between batches (idleRings), for their descriptors (room.go), and
// reports whether there were any.
func dropKept() bool {
	idle := dropIdleRings()
	if rings.kept() == 0 {
		return idle
	}
	rings.drain()
	return true
}

// idleRings holds the rings of running calls' workers between batches: a
// worker parks its ring there once it has read a batch, and takes one back
// for its next, so that a worker or a walk refused a descriptor can close
// it (dropKept).
var idleRings struct {
	sync.Mutex
	rings []*ringReader
}

// park puts the worker's ring, if it has one, among the idle rings, with
// its arena: the batch it read is done.
func (w *worker) park(r *run) {
	if w.ring == nil {
		return
	}
	if w.ring.ring.Inflight() > 0 {
		w.dropRing() // its completions would be taken for another batch's
		return
	}
	w.ring.owner = r
	idleRings.Lock()
	idleRings.rings = append(idleRings.rings, w.ring)
	idleRings.Unlock()
	w.ring, w.arena = nil, nil
}

// unpark gives the worker, about to read a batch, an idle ring and its
// arena if it has neither and one fits.
func (w *worker) unpark(r *run) {
	if w.ring != nil || w.arena != nil || w.noRing {
		return
	}
	size := w.c.arenaMax + w.c.smallMax + 1
	idleRings.Lock()
	for i := len(idleRings.rings) - 1; i >= 0; i-- {
		if rr := idleRings.rings[i]; len(rr.arena) == size {
			idleRings.rings = slices.Delete(idleRings.rings, i, i+1)
			rr.owner = r
			w.ring, w.arena = rr, rr.arena
			break
		}
	}
	idleRings.Unlock()
}

// handBackRings hands the idle rings r parked back for the next call, once
// its workers have stopped.
func handBackRings(r *run) {
	idleRings.Lock()
	defer idleRings.Unlock()
	keep := idleRings.rings[:0]
	for _, rr := range idleRings.rings {
		if rr.owner == r {
			rr.owner = nil
			putRing(rr)
		} else {
			keep = append(keep, rr)
		}
	}
	clear(idleRings.rings[len(keep):])
	idleRings.rings = keep
}

// dropIdleRings closes the idle rings, and reports whether there were any.
// The calls they were parked by set up no more (ringSmalls).
func dropIdleRings() bool {
	idleRings.Lock()
	defer idleRings.Unlock()
	if len(idleRings.rings) == 0 {
		return false
	}
	for _, rr := range idleRings.rings {
		rr.close()
	}
	clear(idleRings.rings)
	idleRings.rings = idleRings.rings[:0]
	room.ringDrops.Add(1)
	return true
}

// release hands the worker's ring back for the next call.
func (w *worker) release() {
	if w.ring != nil {
		putRing(w.ring)
		w.ring = nil
	}
}

// discard closes the worker's ring, not kept for the next call: the
// worker panicked (run.work).
func (w *worker) discard() {
	if w.ring != nil {
		w.dropRing()
	}
}

// dropRing gives up the ring after a failure of the ring itself (not of a
// file): the worker reads the plain way from then on.
func (w *worker) dropRing() {
	w.ring.close()
	w.ring = nil
	w.noRing = true
	w.arena = nil // the kernel may still hold the old one
}
