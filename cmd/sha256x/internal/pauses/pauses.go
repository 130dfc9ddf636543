// Package pauses measures what a long computation costs the rest of a Go
// process: how long the runtime takes to stop the world for a GC while it
// runs (/sched/pauses/stopping/gc:seconds), and how late a goroutine that
// sleeps 100 us at a time wakes. Go cannot preempt assembly, so a kernel
// call that runs long shows here. TestPauses and `sha256x bench -pauses`
// both measure with it, on the same entry points. It lives under the
// command, not in the module's internal/: it imports the root, and
// nothing under internal/ imports upward.
package pauses

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
	"unsafe"

	"github.com/sha256x/sha256x"
)

// A Case is one entry point of sha256x hashing a long input.
type Case struct {
	Name string
	Hash func()
}

// EntryPoints returns every entry point hashing buf, whose length must be a
// multiple of 8 * 64 bytes: whole, as eight messages, prefixed, streamed,
// and as a Merkle level of its 32-byte nodes.
func EntryPoints(buf []byte) []Case {
	n := len(buf) / 8
	var eight [][]byte
	for i := range 8 {
		eight = append(eight, buf[i*n:][:n])
	}
	out := make([][sha256x.Size]byte, 8)
	// The level's digests are allocated here, once, as every other case's
	// out is: allocating 256 MiB inside the measured call measured the
	// runtime's large allocation (its stops and stalls were as long with no
	// hashing at all), not HashLevel.
	nodes := unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)/sha256x.Size)
	digests := func() []*sha256x.Digest {
		ds := make([]*sha256x.Digest, 8)
		for i := range ds {
			ds[i] = new(sha256x.Digest)
		}
		return ds
	}
	parents := make([][sha256x.Size]byte, len(nodes)/2)
	mib := func(n int) int { return n >> 20 }
	return []Case{
		{"Sum256", func() { sha256x.Sum256(buf) }},
		{fmt.Sprintf("HashMany 1 x %d MiB", mib(len(buf))), func() { sha256x.HashMany(out, [][]byte{buf}) }},
		{fmt.Sprintf("HashMany 8 x %d MiB", mib(n)), func() { sha256x.HashMany(out, eight) }},
		{fmt.Sprintf("HashManyPrefixed 8 x %d MiB", mib(n)), func() { sha256x.HashManyPrefixed(out, buf[:100], eight) }},
		{"Digest.Write", func() { new(sha256x.Digest).Write(buf) }},
		{fmt.Sprintf("WriteMany 8 x %d MiB", mib(n)), func() { sha256x.WriteMany(digests(), eight) }},
		{fmt.Sprintf("HashLevel of %d MiB", mib(len(buf))), func() { sha256x.Join{}.HashLevel(parents, nodes) }},
	}
}

// A Run is what Measure saw while its function ran.
type Run struct {
	Stop  time.Duration // the worst GC stop: the upper edge of its histogram bucket
	Long  int           // GC stops that may have been longer than Measure's bound
	Stops int           // GC stops (two a GC)
	Stall time.Duration // the worst oversleep
	GCs   int
}

func (r Run) String() string {
	return fmt.Sprintf("worst GC stop %v (%d of %d stops long, %d GCs), worst oversleep %v", r.Stop, r.Long, r.Stops, r.GCs, r.Stall)
}

// Measure runs f while one goroutine forces a GC every millisecond and
// another sleeps 100 us at a time. A GC stop counts as long if its
// histogram bucket reaches past bound.
func Measure(f func(), bound time.Duration) (r Run) {
	const name = "/sched/pauses/stopping/gc:seconds"
	sample := []metrics.Sample{{Name: name}}
	metrics.Read(sample)
	before := append([]uint64(nil), sample[0].Value.Float64Histogram().Counts...)

	done := make(chan struct{})
	var wg sync.WaitGroup
	until := func(step func()) {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
				step()
			}
		}
	}
	wg.Add(2)
	go until(func() {
		runtime.GC()
		r.GCs++
		time.Sleep(time.Millisecond)
	})
	go until(func() {
		t0 := time.Now()
		time.Sleep(100 * time.Microsecond)
		r.Stall = max(r.Stall, time.Since(t0)-100*time.Microsecond)
	})
	time.Sleep(5 * time.Millisecond)
	f()
	close(done)
	wg.Wait()

	metrics.Read(sample)
	after := sample[0].Value.Float64Histogram()
	for i, c := range after.Counts {
		if n := c - before[i]; n > 0 {
			r.Stops += int(n)
			r.Stop = time.Duration(after.Buckets[i+1] * float64(time.Second))
			if r.Stop > bound {
				r.Long += int(n)
			}
		}
	}
	return r
}
