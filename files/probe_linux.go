package files

// What the host costs, measured once a process where a choice depends on
// it rather than on the CPU model.

import (
	"math"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// untypedByRing reports whether files of unknown type (names not found by
// Tree) go through the ring, which must read each directory's listing for
// their types before it opens anything (a FIFO's data is read only by the
// stream that hashes it): it pays from about 0.1 µs a system call
// (BENCHMARKS.md, "Files: names of unknown type"). SHA256X_IOURING=on sends
// them through the ring anyway. A variable for the tests.
var untypedByRing = func() bool {
	return os.Getenv("SHA256X_IOURING") == "on" || syscallsCostly()
}

var syscallsCostly = func() bool { return syscallCostOnce() >= untypedRingMin }

// syscallCostOnce is syscallCost, measured once a process.
var syscallCostOnce = sync.OnceValue(syscallCost)

// untypedRingMin is the cost of a system call from which files of unknown
// type go through the ring: above the Xeon's, below Zen 4's.
const untypedRingMin = 120 * time.Nanosecond

// syscallCost is the time of a system call that does nothing (getppid), the
// least over a few rounds, measured in 5 µs.
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
