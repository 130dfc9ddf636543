// Package files hashes files with SHA-256, many at once, on every core, in
// bounded memory.
//
// A Hasher takes a list of paths, or the files of a directory tree (Tree)
// or of an fs.FS (TreeFS), and gives each file's digest, in input order
// (Hash, Stream) or as each finishes (Each). Small files are read whole into
// a per-goroutine arena and hashed a few hundred at a time with one
// sha256x.HashMany call; large files, and files that are not regular
// (pipes, devices), are read in chunks and hashed side by side with
// sha256x.WriteMany. An unreadable file gives an error in its Result and
// does not stop the others.
//
// Memory is bounded whatever is asked: a call runs at most MaxWorkers
// goroutines (WorkersPerCore a core), each holding its share of
// Hasher.Memory, or DefaultMemory each if Memory is 0 (so at most 4 MiB of
// file contents a core by default), and its io_uring ring on Linux.
//
// File descriptors are not bounded so: each goroutine holds up to 16 large
// files open side by side, and a ring while it reads a batch. A process
// short of them (EMFILE or ENFILE) is not failed for it while any file of
// the package, of any call, is open: the file refused (large, small, or a
// directory Tree lists) waits for one to close and is opened again, and a
// goroutine refused with nothing open closes the rings not reading a batch.
// A file gets the error only when it is refused with nothing of the package
// open, as from sha256sum, which holds one file at a time. Files are opened
// without the runtime's poller, and a ring or arena is kept for the next
// call only with the descriptors to spare that the poller opens (two on
// Linux, up to three elsewhere): it ends the process without them. On Linux
// one more stays open once a ring has read small files:
// /proc/self/mountinfo, watched for the mounts that decide where a short
// read ends a file.
//
// On Linux the small files of a batch are opened, read and closed through
// io_uring, up to 64 files a system call at the default Memory (256 at
// most, from 16 MiB a goroutine: each file takes 16 KiB of its arena).
// Files whose type is not known from a directory listing (List's names) go
// through the ring only where a system call costs 0.12 µs or more, measured
// once: the ring must read their directories' listings first, so that no
// pipe is read before its type is known, which pays only where system calls
// cost that much. Where the kernel or a seccomp profile refuses io_uring,
// or with PlainReads or SHA256X_IOURING=off, files are read with plain
// system calls; either way every file gets the same outcome as from
// sha256sum. Up to one ring and its arena per core, and one arena per core
// of the plain way, are kept for a second after a call. A call that has all
// its files and fewer than 512 a goroutine where system calls are cheap,
// 256 where they cost up to 1 µs, reads them plainly unless a ring is kept:
// setting one up costs more than it saves on so few (BENCHMARKS.md, "Files:
// small files through the ring from 16"). SHA256X_IOURING=on sets a ring up
// anyway, and sends files of unknown type through it.
//
// On Linux, large regular files (over 256 KiB) are either read in chunks or
// hashed from memory mappings of the page cache, up to 16 MiB of each file
// at a time, which saves a copy but costs a page fault and a TLB miss a
// page. A trial on a process's first large files decides which: their
// rounds alternate between mapped and read chunks, each timed, and after 6
// rounds each way mapping is taken only if its median round is 3% faster a
// byte or more (BENCHMARKS.md, "Files: mapped or read, measured").
// SHA256X_MMAP=on or off forces either way, and SHA256X_MMAP=show prints
// the decision and its figures to standard error. The mapped pages count in
// the process's resident memory, not against Hasher.Memory. With
// PlainReads, files are read, never mapped.
//
// A file changed while hashed gets the digest of contents it held at one
// time, or an error: never of bytes never held at once. Each regular file
// is stamped (size, inode, times) before and after it is read or mapped,
// and hashed again if they differ; after 3 such passes its Err wraps
// ErrChanged. One read through io_uring is stamped after only, by name, and
// read again plainly unless its change time is 20 ms older than the read (2
// s without nanoseconds). The check trusts the file system's times: since
// Linux 6.13, ext4, XFS, Btrfs and tmpfs give a change after a stat a time
// of its own; elsewhere a truncation undone within a clock tick can go
// unseen. An fs.FS's files, and off Unix every file, are compared by size
// and modification time alone.
package files

import (
	"context"
	"io/fs"
	"iter"
	"runtime"

	"github.com/sha256x/sha256x"
)

// A Hasher hashes files. The zero Hasher is ready to use: every core,
// DefaultMemory per goroutine, the digests of the files' contents. A
// Hasher's methods may be called concurrently.
type Hasher struct {
	// Workers bounds the goroutines that read and hash at once; 0 means
	// runtime.GOMAXPROCS(0). It is capped at MaxWorkers, and where Memory
	// is set at Memory/MinMemory (at least 1). Each goroutine holds up to
	// 16 large files open at once, fewer where the process is short of
	// descriptors (see the package doc).
	Workers int

	// Memory bounds the bytes of file contents held at once by all the
	// goroutines of one call; 0 means DefaultMemory per goroutine. Each
	// goroutine gets Memory/Workers (at least MinMemory, at most 256 MiB):
	// an arena of a quarter of it for small files, half of it for the
	// chunks of up to 16 large files hashed side by side. Memory also sets
	// which files are small: those up to 1/16 of a goroutine's share, at
	// most 256 KiB.
	Memory int

	// Prefix, if set, is hashed before every file's contents: each digest
	// is SHA-256(Prefix || contents), as for the leaves of a Merkle tree.
	Prefix []byte

	// FS, if set, is where paths are opened (with FS.Open); the paths are
	// then fs.FS paths ("dir/file"). Files of an FS are read with its Open
	// and Read, never through io_uring. A panic in FS's methods or its
	// files' is re-raised in the caller's goroutine after the call's
	// goroutines have stopped and the files it opened are closed.
	FS fs.FS

	// PlainReads, if set, reads every file with plain system calls, never
	// through io_uring or a memory mapping.
	PlainReads bool

	// Progress, if set, is called with the running totals of files and
	// bytes hashed, after every batch of small files and every few MiB of
	// large ones. A file hashed again because it changed while it was
	// hashed counts its bytes once, up to the furthest point read. It is
	// called from the hashing goroutines, one call at a time, and should
	// return quickly. A panic in Progress is re-raised in the caller's
	// goroutine after the call's goroutines have stopped and the files it
	// opened are closed; Progress is not called again by that call.
	Progress func(files, bytes int64)
}

const (
	// DefaultMemory is the memory budget per goroutine when Hasher.Memory
	// is 0.
	DefaultMemory = 4 << 20
	// MinMemory is the least memory a goroutine gets, whatever
	// Hasher.Memory says.
	MinMemory = 128 << 10
)

// WorkersPerCore is the most goroutines a Hasher runs per core
// (runtime.GOMAXPROCS): each holds an arena, stream chunks and an io_uring
// ring, and one more a core added half again the memory (BENCHMARKS.md,
// "Files: workers capped").
const WorkersPerCore = 1

// MaxWorkers is the most goroutines a Hasher runs at once, whatever
// Workers says: WorkersPerCore x runtime.GOMAXPROCS(0).
func MaxWorkers() int { return WorkersPerCore * runtime.GOMAXPROCS(0) }

// A Result is the outcome for one file.
type Result struct {
	// Index is the file's position in the input, from 0.
	Index int
	// Path is the path as given.
	Path string
	// Sum is the SHA-256 digest of Prefix || contents, if Err is nil.
	Sum [sha256x.Size]byte
	// Size is the number of bytes of the file that were hashed.
	Size int64
	// Err is why the file could not be hashed: an *fs.PathError from
	// opening or reading it, a directory ("is a directory"), one wrapping
	// ErrChanged for a file that changed each time it was hashed, the
	// error a Tree or TreeFS walk gave in the file's place, or the
	// context's error for files left when the call was cancelled.
	Err error
}

// An Entry is one file to hash, as List, Tree and TreeFS yield them.
type Entry struct {
	Path string
	// Err, if set, is why the file cannot be hashed (an error of the walk
	// that found it): its Result carries Err, and the file is not opened.
	Err error
	// Regular says that the file was a regular file when it was listed (its
	// directory entry said so, or stat did), which lets the Hasher read it
	// without sizing it first. Set it only from such a listing: a Regular
	// entry is read before its type is known, which would take data out of
	// a pipe.
	Regular bool
}

// List yields the paths as Entries: the input of Stream and Each for a
// plain list.
func List(paths []string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for _, p := range paths {
			if !yield(Entry{Path: p}) {
				return
			}
		}
	}
}

// Hash hashes the files at paths and returns a Result for each, in the
// order of paths. The error is non-nil only if ctx was cancelled first;
// the files not hashed by then have its error in their Results.
//
// A pipe or device is opened and read with blocking system calls, as
// sha256sum reads it: a named pipe with no writer, or whose writer writes
// nothing, holds Hash, Stream and Each until it is written or closed, past
// ctx's cancellation. Tree leaves such files out; a List of names from
// elsewhere may name one.
//
// A panic in h.Progress or h.FS is re-raised in the caller's goroutine,
// with the value recovered, after the call's goroutines have stopped and
// the files it opened are closed.
func (h *Hasher) Hash(ctx context.Context, paths []string) ([]Result, error) {
	res := make([]Result, len(paths))
	got := make([]bool, len(paths))
	err := h.run(ctx, List(paths), len(paths), false, func(r Result) {
		res[r.Index] = r
		got[r.Index] = true
	})
	for i, p := range paths {
		if !got[i] {
			res[i] = Result{Index: i, Path: p, Err: err}
		}
	}
	return res, err
}

// Stream hashes the files that entries yields and calls fn with each
// Result in input order, as soon as it and those before it are done. An
// Entry with an Err is not opened: its Result carries the error. fn is
// called from the hashing goroutines, one call at a time. The error is
// non-nil only if ctx was cancelled, and then fn is not called again.
//
// A panic in fn, or in entries (which runs on the caller's goroutine), is
// re-raised in the caller's goroutine, with the value recovered, after the
// call's goroutines have stopped and the files it opened are closed; fn is
// not called again. So is one in h.Progress or h.FS. A runtime.Goexit in
// any of them ends the caller's goroutine with runtime.Goexit, likewise
// once the call's goroutines have stopped and its files are closed.
func (h *Hasher) Stream(ctx context.Context, entries iter.Seq[Entry], fn func(Result)) error {
	return h.run(ctx, entries, -1, true, fn)
}

// Each is Stream with the Results handed to fn as each file finishes, in no
// particular order (Result.Index tells which file it is). A panic in fn or
// entries (or h.Progress, h.FS) is re-raised as for Stream.
func (h *Hasher) Each(ctx context.Context, entries iter.Seq[Entry], fn func(Result)) error {
	return h.run(ctx, entries, -1, false, fn)
}
