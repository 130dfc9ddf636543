package files

// Small files through io_uring, in two passes over a batch, each a few
// submissions of chains (an open, reads, a close) for up to a few hundred
// files:
//
//   - probe, for files a directory listing says are regular: openat into
//     a direct descriptor, a read of up to probeMax bytes into the worker's
//     registered arena, a read of one more byte, and a close, all inline.
//     A second read that finds nothing proves the first one read the whole
//     file, with no statx. Where short reads end files (shortReadsEnd), the
//     second read is left out, a first read that stops at a multiple of
//     4096 bytes is not taken as whole, and the chain is not linked (probe
//     says why).
//   - sized, for the files of unknown type (which may be pipes: nothing is
//     read before their type is known) and those the probe did not settle
//     that may be longer than probeMax: statx, then for the small regular
//     ones openat, a read of size+1 bytes and a close, linked. statx runs
//     on io-wq, slower, so only these pay for it.
//
// Nothing here decides an error: a file whose open or read fails or comes
// up short is read again the plain way, which gives it the outcome it has
// without io_uring; only whole reads are taken from the ring.

import (
	"errors"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/uring"
)

// probeMax is the size of a probe read: files up to it need no statx.
const probeMax = 16 << 10

// ringSmalls reads and hashes the small regular files of todo through the
// ring; it returns the files to read the plain way (rest) and those to
// stream (large).
func (w *worker) ringSmalls(r *run, todo []*item) (rest, large []*item) {
	n := 0
	for _, it := range todo {
		if it.regular {
			n++
		}
	}
	if n < len(todo) && !untypedByRing() {
		// Only the files a listing said are regular: the others go the
		// plain way, which learns their type from the open file.
		if n < ringMin {
			return todo, nil
		}
		typed := make([]*item, 0, n)
		for _, it := range todo {
			if it.regular {
				typed = append(typed, it)
			} else {
				rest = append(rest, it)
			}
		}
		todo = typed
	}
	if w.ring == nil {
		if ringRefused.Load() || uring.Disabled() { // kept rings too
			w.noRing = true
			return append(rest, todo...), nil
		}
		if rr := takeRing(w.c.arenaMax + w.c.smallMax + 1); rr != nil {
			w.ring, w.arena = rr, rr.arena
		} else if r.allFound.Load() && r.found.Load() < int64(r.c.workers*ringSetupMin()) {
			// The call has all its files, too few a worker to repay a
			// ring's setup: plainly.
			return append(rest, todo...), nil
		} else if room.ringDrops.Load() != r.ringDrops {
			// Idle rings were closed for their descriptors during the
			// call: none set up again, to be closed again.
			w.noRing = true
			return append(rest, todo...), nil
		}
	}
	if w.ring == nil {
		// Registered, a buffer's pages are pinned, each faulted in. The
		// probes' slots and the sized reads use arenaMax and a page more;
		// the rest of the arena is room for a plain read of smallMax
		// (bench/HISTORY.md, "The walk's memory used again").
		arena := w.arenaBuf()
		fixed := arena[:min(len(arena), w.c.arenaMax+4096)]
		ring, err := uring.New(4*batchMax, batchMax, [][]byte{fixed})
		if err != nil {
			// Refused for good (ENOSYS, EPERM, a kernel without what the
			// ring needs), or for now (out of memory or descriptors, or
			// SHA256X_IOURING=off, which the next call reads again).
			w.noRing = true
			if !errors.Is(err, unix.ENOMEM) && !errors.Is(err, unix.EMFILE) && !errors.Is(err, unix.ENFILE) && !errors.Is(err, uring.ErrDisabled) {
				ringRefused.Store(true)
			}
			return append(rest, todo...), nil
		}
		w.ring = &ringReader{
			ring: ring, arena: arena, fixed: fixed, sts: make([]unix.Statx_t, batchMax), res: make([]int32, batchMax),
			reads: make([]int32, batchMax), more: make([]int32, batchMax), opens: make([]int32, batchMax), at: make([]int, batchMax),
		}
	}
	rr := w.ring
	if len(todo) > batchMax {
		rest = append(rest, todo[batchMax:]...)
		todo = todo[:batchMax]
	}
	rr.setPaths(todo)
	defer rr.closeDirs()
	// A path with a NUL byte inside is left to the plain way, which
	// refuses it as the system call wrappers do.
	rr.cand, rr.sized = rr.cand[:0], rr.sized[:0]
	for k, it := range todo {
		switch {
		case strings.IndexByte(it.Path, 0) >= 0:
			rest = append(rest, it)
		case it.regular:
			rr.cand = append(rr.cand, k)
		default:
			rr.sized = append(rr.sized, k) // maybe a pipe: no reads before statx
		}
	}
	if !w.probe(r, todo, &rest) {
		for _, k := range rr.sized {
			rest = append(rest, todo[k])
		}
		return rest, nil
	}
	if len(rr.sized) == 0 {
		return rest, nil
	}
	rr.cand = append(rr.cand[:0], rr.sized...)
	return w.sizedReads(r, todo, rest)
}

// probe reads the candidates rr.cand of todo with probe chains; it hashes
// the files read whole, appends the failures to rest, and leaves in
// rr.sized those that need their size. It reports false if the ring
// failed (the unsettled files are then in rest).
//
// In a directory where short reads end files, a probe's open, read and
// close go in one submission without links: io_uring issues them in order,
// each inline where it can, and a read sent to io-wq keeps its file after
// the close empties the slot; linked, each waited for task work
// (bench/HISTORY.md, "Probes without links, and the producer's turn"). An
// open that must block goes to io-wq and finishes after its read and close
// found the slot empty (EBADF); those files are read and closed in a second
// submission.
func (w *worker) probe(r *run, todo []*item, rest *[]*item) bool {
	rr := w.ring
	arena := rr.fixed
	slots := min(batchMax, w.c.arenaMax/probeMax)
	scratch := arena[len(arena)-slots:]
	for i := 0; i < len(rr.cand); {
		start := i
		m, ops := 0, 0
		t0 := time.Now().UnixNano() // before any open: ringcheck_linux.go
		for ; i < len(rr.cand) && m < slots; i++ {
			k := rr.cand[i]
			u := uint64(m) << 2
			dir, name := rr.path(k)
			if rr.ends[rr.dirOf[k]] {
				// Not linked: see above.
				rr.ring.OpenDirect(dir, name, m, u, false)
				if asyncOpens {
					rr.ring.Async()
				}
				rr.ring.ReadDirect(m, arena[m*probeMax:(m+1)*probeMax], 0, 0, u|1, false)
			} else {
				rr.ring.OpenDirect(dir, name, m, u, true)
				rr.ring.ReadDirect(m, arena[m*probeMax:(m+1)*probeMax], -1, 0, u|1, true)
				rr.ring.ReadDirect(m, scratch[m:m+1], -1, 0, u|2, true)
				ops++
			}
			rr.ring.CloseDirect(m, u|3)
			ops += 3
			m++
		}
		reap := func(user uint64, res int32) {
			switch s := user >> 2; user & 3 {
			case 0:
				rr.opens[s] = res
			case 1:
				rr.reads[s] = res
			case 2:
				rr.more[s] = res
			}
		}
		err := rr.ring.SubmitInline(ops)
		if err == nil {
			rr.ring.Reap(reap)
			// An open that went to io-wq finished after its read and close
			// found the slot empty: read and close the file it left there.
			late := 0
			for s := range m {
				if rr.ends[rr.dirOf[rr.cand[start+s]]] && rr.opens[s] >= 0 && rr.reads[s] == -int32(unix.EBADF) {
					u := uint64(s) << 2
					rr.ring.ReadDirect(s, arena[s*probeMax:(s+1)*probeMax], 0, 0, u|1, true)
					rr.ring.CloseDirect(s, u|3)
					late++
				}
			}
			if late > 0 {
				ringLate.Add(int64(late))
				if err = rr.ring.SubmitInline(2 * late); err == nil {
					rr.ring.Reap(reap)
				}
			}
		}
		if err != nil {
			w.dropRing()
			for _, k := range rr.cand[start:] {
				*rest = append(*rest, todo[k])
			}
			return false
		}
		whole, short, unsettled := 0, 0, 0
		for s := range m {
			k := rr.cand[start+s]
			it := todo[k]
			ends := rr.ends[rr.dirOf[k]]
			p := probed(rr.opens[s], rr.reads[s], rr.more[s], ends)
			if p == probeWhole && !rr.settled(k, it.Path, int(rr.reads[s]), t0) {
				p = probePlain
				unsettled++
			}
			switch p {
			case probePlain:
				*rest = append(*rest, it)
			case probeSized:
				if rr.reads[s] < probeMax {
					// Empty, or read to a multiple of 4096 bytes: rare, and
					// a statx would wait for an io-wq thread.
					*rest = append(*rest, it)
				} else {
					rr.sized = append(rr.sized, k)
				}
			case probeWhole:
				w.sizedOne(int64(rr.reads[s]))
				w.batch = append(w.batch, it)
				w.msgs = append(w.msgs, arena[s*probeMax:s*probeMax+int(rr.reads[s])])
				whole++
				if ends {
					short++
				}
			}
		}
		// Counted once a round, not an atomic add a file on a line every
		// worker writes.
		ringFiles.Add(int64(whole))
		ringShort.Add(int64(short))
		ringUnsettled.Add(int64(unsettled))
		w.hash(r)
	}
	return true
}

// What a probe chain's results make of a file.
const (
	probePlain = iota // to read the plain way: the open or a read failed
	probeSized        // to size with statx: empty, longer, or not proved whole
	probeWhole        // read whole
)

// probed judges a probe chain from its open's, its read's and, unless ends
// (shortReadsEnd) left it out, its read of one more byte's results.
func probed(open, n, more int32, ends bool) int {
	switch {
	case open < 0, n < 0, !ends && more < 0:
		return probePlain
	case n == 0, !ends && more > 0:
		return probeSized
	case ends && n%folioAlign == 0:
		return probeSized // maybe cut short at a folio, or longer
	}
	return probeWhole
}

// sizedReads sizes the candidates rr.cand of todo with statx and reads the
// small regular ones whole, by their size; it returns the files to read
// the plain way and those to stream.
func (w *worker) sizedReads(r *run, todo, rest []*item) (_, large []*item) {
	rr := w.ring
	for _, k := range rr.cand {
		dir, name := rr.path(k)
		rr.ring.Statx(dir, name, &rr.sts[k], uint64(k), false)
	}
	if err := rr.ring.Submit(len(rr.cand)); err != nil {
		w.dropRing()
		for _, k := range rr.cand {
			rest = append(rest, todo[k])
		}
		return rest, nil
	}
	rr.ring.Reap(func(user uint64, res int32) { rr.res[user] = res })
	cand := rr.cand[:0]
	for _, k := range rr.cand {
		it, st := todo[k], &rr.sts[k]
		// Each file counted once, where the ring is done with it: one it
		// hands back by plainSmalls.
		switch {
		case rr.res[k] < 0, st.Mode&unix.S_IFMT == unix.S_IFDIR:
			rest = append(rest, it)
		case st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size > uint64(w.c.smallMax):
			w.sizedOne(int64(st.Size))
			fallthrough
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			it.stream = true
			large = append(large, it)
		default:
			cand = append(cand, k)
		}
	}
	rr.cand = cand

	// Open, read and close as many as the arena holds, round after round.
	arena := rr.fixed
	for i := 0; i < len(rr.cand); {
		start, used, m := i, 0, 0
		for ; i < len(rr.cand); i++ {
			k := rr.cand[i]
			n := int(rr.sts[k].Size) + 1
			if used+n > len(arena) {
				break
			}
			dir, name := rr.path(k)
			rr.ring.OpenDirect(dir, name, m, uint64(m)<<2, true)
			rr.ring.ReadDirect(m, arena[used:used+n], 0, 0, uint64(m)<<2|1, true)
			rr.ring.CloseDirect(m, uint64(m)<<2|2)
			rr.at[m] = used
			used += n
			m++
		}
		if err := rr.ring.SubmitInline(3 * m); err != nil {
			w.dropRing()
			for _, k := range rr.cand[start:] {
				rest = append(rest, todo[k])
			}
			return rest, large
		}
		rr.ring.Reap(func(user uint64, res int32) {
			switch s := user >> 2; user & 3 {
			case 0:
				rr.opens[s] = res
			case 1:
				rr.reads[s] = res
			}
		})
		for s := range m {
			k := rr.cand[start+s]
			it, size := todo[k], int(rr.sts[k].Size)
			switch {
			case rr.opens[s] < 0:
				rest = append(rest, it)
			case int(rr.reads[s]) == size && !rr.unchanged(k, it.Path):
				ringUnsettled.Add(1)
				rest = append(rest, it) // the plain way reads it again
			case int(rr.reads[s]) == size:
				w.sizedOne(int64(size))
				w.batch = append(w.batch, it)
				w.msgs = append(w.msgs, arena[rr.at[s]:rr.at[s]+size])
				ringFiles.Add(1)
			case int(rr.reads[s]) == size+1:
				w.sizedOne(int64(size) + 1)
				it.stream = true // grown since it was sized
				large = append(large, it)
			default:
				rest = append(rest, it) // failed or short: truncated, or a short read
			}
		}
		w.hash(r)
	}
	return rest, large
}
