package files

// What the host costs, measured once a process where a choice depends on
// it rather than on the CPU model.

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// untypedByRing reports whether files of unknown type (names given as
// arguments, not found by Tree) go through the ring. The ring must learn
// their types before it opens anything (a FIFO's data is read only by the
// stream that hashes it), from each directory's listing, which the plain
// way does without: it opens the file and asks fstat. On the Intel Xeon,
// where a system call costs 75 ns, 10,000 names took 6-9% longer through
// the ring than read plainly: about 0.85 µs of CPU a file against the 4.6
// system calls a file the ring saves, so the ring pays from about 0.18 µs a
// call. On the Zen 5 VM (about 2 µs) the ring took 1.44x less time
// (bench/HISTORY.md, "Names of unknown type: the ring or plain reads").
// SHA256X_IOURING=on sends them through the ring anyway. A variable for the
// tests.
var untypedByRing = func() bool {
	return os.Getenv("SHA256X_IOURING") == "on" || syscallsCostly()
}

var syscallsCostly = sync.OnceValue(func() bool { return syscallCost() >= untypedRingMin })

// untypedRingMin is the cost of a system call from which files of unknown
// type go through the ring.
const untypedRingMin = 200 * time.Nanosecond

// syscallCost is the time of a system call that does nothing (getppid),
// the least over a few rounds: 75 ns on the Intel Xeon, measured in 5 µs.
func syscallCost() time.Duration {
	best := time.Duration(math.MaxInt64)
	for range 3 {
		t0 := time.Now()
		for range 16 {
			unix.RawSyscall(unix.SYS_GETPPID, 0, 0, 0)
		}
		best = min(best, time.Since(t0)/16)
	}
	return best
}

// Mapped or read: the mapping's cost against the read's, measured on the
// first large file of a process (mapVerdict). Mapping saves copying every
// byte, but every page of a window is a fault to map, an entry in the TLB
// to miss, and one more to shoot down when the window is unmapped: on the
// Intel Xeon 8 files of 64 MiB took 154 ms mapped and 179 ms read, on the
// Zen 5 KVM guest 0.19 s mapped and 0.12 s read (BENCHMARKS.md, "Files:
// mapped or read, measured"). SHA256X_MMAP=on or off forces either way.

// mapProbeBytes is how much of the first large file the probe maps and
// reads each try, a different part each time: mapProbeTries times each
// way, the least of each way counting. A file shorter than 2 x
// mapProbeTries x mapProbeMin bytes is read, not measured: the next
// one is.
const (
	mapProbeBytes = 256 << 10
	mapProbeMin   = 128 << 10
	mapProbeTries = 3
)

// mapBetter says whether mapping, measured at mapCost, is cheap enough
// against reading at readCost: a quarter less at least, since the probe
// times only the part of hashing that differs, and a tie goes to reading.
func mapBetter(mapCost, readCost time.Duration) bool {
	return mapCost > 0 && readCost > 0 && 4*mapCost <= 3*readCost
}

// A verdict is the probe's outcome, or how SHA256X_MMAP forced it.
type verdict struct {
	mapped            bool
	forced            bool          // by SHA256X_MMAP; nothing measured
	bytes             int           // measured, each way
	mapCost, readCost time.Duration // the least of mapProbeTries
}

func (v verdict) String() string {
	how := "read"
	if v.mapped {
		how = "mapped"
	}
	if v.forced {
		return "sha256x: files: large files " + how + " (SHA256X_MMAP)"
	}
	return fmt.Sprintf("sha256x: files: large files %s: %d KiB mapped and touched in %v, read in %v (mapped if 4/3 x faster)",
		how, v.bytes>>10, v.mapCost, v.readCost)
}

var mapProbe struct {
	sync.Mutex
	done bool
	v    verdict
}

// mapMode reads SHA256X_MMAP: "on" or "off" force, "show" measures and
// prints the verdict to standard error once, anything else measures.
func mapMode() string { return os.Getenv("SHA256X_MMAP") }

// mapVerdict says whether large files are mapped, measuring it on the file
// open as fd (regular, size bytes) if no file has yet. A probe that fails
// (a read error, a file that cannot be mapped) decides nothing: this file
// is read, and the next one is measured.
func mapVerdict(fd int, size int64) verdict {
	switch mapMode() {
	case "on":
		return verdict{mapped: true, forced: true}
	case "off":
		return verdict{forced: true}
	}
	mapProbe.Lock()
	defer mapProbe.Unlock()
	if !mapProbe.done {
		v, ok := measureMapping(fd, size)
		if !ok {
			return verdict{}
		}
		mapProbe.v, mapProbe.done = v, true
		if mapMode() == "show" {
			fmt.Fprintln(os.Stderr, v)
		}
	}
	return mapProbe.v
}

// probeSink keeps the probe's loads from being optimized away.
//
//lint:ignore U1000 written, never read: so that the loads are made
var probeSink byte

// touch loads a byte of every 64 of b, as hashing it would bring each
// cache line in.
func touch(b []byte) {
	var s byte
	for i := 0; i < len(b); i += 64 {
		s += b[i]
	}
	probeSink += s
}

// measureMapping times parts of the file open as fd (size bytes long)
// both ways, the hashing left out: mapped (mmap, a load from every cache
// line, munmap: the faults, the TLB misses and the unmapping a window
// costs) and read (pread into a buffer of a stream's chunk size, a load
// from every cache line of it: the copy). Each try takes a part of the
// file not touched before, as hashing a large file does; the kernel is
// asked to read them all into the page cache first (FADV_WILLNEED), and
// a try that waits for the disk anyway is not the least. It takes about
// 0.1 ms for the 6 parts of 256 KiB on the Zen 5 guest, where mapping
// costs 2 µs a page.
func measureMapping(fd int, size int64) (verdict, bool) {
	page := os.Getpagesize()
	n := int(min(size/(2*mapProbeTries), mapProbeBytes)) &^ (page - 1)
	if n < mapProbeMin {
		return verdict{}, false
	}
	unix.Fadvise(fd, 0, int64(2*mapProbeTries*n), unix.FADV_WILLNEED)
	buf := make([]byte, min(n, 256<<10))
	read := func(at int64) bool {
		for off := 0; off < n; off += len(buf) {
			b := buf[:min(len(buf), n-off)]
			if k, err := unix.Pread(fd, b, at+int64(off)); err != nil || k != len(b) {
				return false
			}
			touch(b)
		}
		return true
	}
	mapped := func(at int64) bool {
		m, err := unix.Mmap(fd, at, n, unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			return false
		}
		ok := touchMapped(m)
		unix.Munmap(m)
		return ok
	}
	v := verdict{bytes: n, mapCost: math.MaxInt64, readCost: math.MaxInt64}
	at := int64(0)
	for i := range 2 * mapProbeTries {
		// Alternately mapped and read first, so that neither way gains
		// from what the other left in the caches.
		way, cost := mapped, &v.mapCost
		if i%4 == 1 || i%4 == 2 {
			way, cost = read, &v.readCost
		}
		t0 := time.Now()
		if !way(at) {
			return verdict{}, false
		}
		*cost = min(*cost, time.Since(t0))
		at += int64(n)
	}
	v.mapped = mapBetter(v.mapCost, v.readCost)
	return v, true
}

// touchMapped is touch of a mapping with faults turned into panics and
// recovered: the file may have shrunk since it was read (SIGBUS). It
// reports false if a load faulted.
func touchMapped(m []byte) (ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if _, rt := e.(runtime.Error); !rt {
				panic(e)
			}
			ok = false
		}
	}()
	touch(m)
	return true
}
