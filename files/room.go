package files

// Descriptors, as the package doc promises: a file refused one while the
// package holds others waits for one of them to close (stream.go), and so
// does a directory of Tree.
//
// What the package holds is counted in three ways, each with the reason
// it will not be held for ever:
//
//   - open: the files being streamed, each from before it is opened, which
//     close as their workers read them to the end; and the pipes a batch
//     found open, from then on. Those wait at the head of the queue of
//     large files, which the worker that queued them takes next: behind
//     files waiting for a descriptor, none would take them.
//   - batching: the workers reading a batch of small files, each of which
//     is open only within readSmall; a file refused there is streamed.
//   - walking: Tree's directories being listed, one a walk.
//
// Rings' descriptors are not counted: a worker holds one only while it
// reads a batch (counted), and parks it among the idle rings in between
// (ring_linux.go), which a worker or a walk refused with nothing held
// closes before it tries again.
//
// Counted across calls: a call short of descriptors waits for another's
// files to close, as for its own. With plenty of descriptors the counting
// costs a few atomic operations a large file, batch or directory.

import (
	"io/fs"
	"sync"
	"sync/atomic"
)

var room struct {
	mu      sync.Mutex
	cond    sync.Cond // on mu: something counted ended, or a call was cancelled
	waiting atomic.Int32
	open    atomic.Int64
	batch   atomic.Int64
	walking atomic.Int64
	// closes counts the files and directories closed: one may be opened
	// again since.
	closes atomic.Uint64
	// ringDrops counts the times idle rings were closed (ring_linux.go).
	ringDrops atomic.Uint64
}

func init() { room.cond.L = &room.mu }

// held reports whether anything of the package that is counted is open,
// or may be.
func held() bool { return room.open.Load() > 0 || room.batch.Load() > 0 || room.walking.Load() > 0 }

// ended takes one from a count (an open refused) and wakes whoever waits
// for the counts to fall.
func ended(n *atomic.Int64) {
	n.Add(-1)
	// Seen as 0 here, a waiter's increment comes after the add above,
	// and it sees the count fallen (or closes risen) before it waits.
	if room.waiting.Load() > 0 {
		wakeRoom()
	}
}

// counted calls open, counted in n from before it starts: taken off again
// (ended) if it fails, or panics (an fs.FS's Open or ReadDir), which would
// leave others waiting for it.
func counted(n *atomic.Int64, open func() error) error {
	n.Add(1)
	ok := false
	defer func() {
		if !ok {
			ended(n)
		}
	}()
	err := open()
	ok = err == nil
	return err
}

// closed takes a file or directory closed, or a batch read (its files
// closed), from its count n.
func closed(n *atomic.Int64) {
	room.closes.Add(1)
	ended(n)
}

func wakeRoom() {
	room.mu.Lock()
	room.cond.Broadcast()
	room.mu.Unlock()
}

// awaitRoom waits until something closed since the count of closes was
// since, or nothing counted is held, or stop (asked under room.mu;
// whatever makes it true calls wakeRoom after) says to give up.
func awaitRoom(since uint64, stop func() bool) {
	room.mu.Lock()
	room.waiting.Add(1)
	for room.closes.Load() == since && held() && (stop == nil || !stop()) {
		room.cond.Wait()
	}
	room.waiting.Add(-1)
	room.mu.Unlock()
}

// refusedFinally reports whether an open refused a descriptor is to fail:
// nothing counted has closed since the count of closes was since, and
// nothing is held. Before it says so, it closes the idle rings and those
// kept for the next call, if any, and reports false: the open is to be
// tried again. Their closing counts as a close, under dropMu, so that
// another open refused meanwhile tries again too.
func refusedFinally(since uint64) bool {
	if room.closes.Load() != since || held() {
		return false
	}
	dropMu.Lock()
	dropped := dropKept()
	if dropped {
		room.closes.Add(1)
	}
	dropMu.Unlock()
	if dropped {
		if room.waiting.Load() > 0 {
			wakeRoom()
		}
		return false
	}
	return room.closes.Load() == since && !held()
}

// dropMu makes dropKept and the count of its closing one step.
var dropMu sync.Mutex

// walkOpen is Tree's open of a directory: open, counted in walking, made
// again while it is refused a descriptor and anything of the package is
// held. Once it has opened, walkClosed is to be called when the directory
// is closed.
func walkOpen(open func() error) (err error) {
	for {
		since := room.closes.Load()
		err = counted(&room.walking, open)
		if err == nil || !outOfFiles(err) {
			return err
		}
		if refusedFinally(since) {
			return err
		}
		awaitRoom(since, nil)
	}
}

// walkClosed counts out a directory walkOpen opened, now closed.
func walkClosed() { closed(&room.walking) }

// readDirRoom is readDir(dir) (os.ReadDir, an fs.FS's), made again as
// walkOpen opens while it is refused a descriptor before it reads an
// entry.
func readDirRoom(readDir func(string) ([]fs.DirEntry, error), dir string) ([]fs.DirEntry, error) {
	var ents []fs.DirEntry
	var last error
	err := walkOpen(func() error {
		ents, last = readDir(dir)
		if len(ents) == 0 {
			return last
		}
		return nil // cut short later, if last: the entries, and last
	})
	if err == nil {
		walkClosed()
		err = last
	}
	return ents, err
}
