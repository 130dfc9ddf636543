//go:build sha256x_calltime

package sha256x_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/hashtree"
	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
	"github.com/sha256x/sha256x/merkle"
)

// maxCallTime is what TestCallTime allows the longest kernel call of an
// entry point on this CPU: twice the bound by time the calls are sized for
// (plan.CallTimeMicros at the slowest speed known for each kernel), room for
// a virtual machine's hiccups; SHA256X_MAXCALL (a duration) sets another.
const maxCallTime = 2 * plan.CallTimeMicros * time.Microsecond

// TestCallTime times every kernel call (this build records them) while each
// entry point hashes long input on the plan the API runs (SHA256X_KERNEL
// picks another), and reports the time of its largest calls (those within
// 10% of the most steps: the median of their times) and its longest call;
// it fails if the largest calls took longer than maxCallTime in each of 3
// runs. The time is the thread's CPU time (on Linux; elsewhere the wall
// clock), so other processes do not count; the wall time is reported
// beside it. go test -tags sha256x_calltime -run CallTime -v prints the
// table.
func TestCallTime(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes 64 MiB through each entry point, three times")
	}
	// The calls are timed by the thread's CPU time: keep to one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	limit := maxCallTime
	if s := os.Getenv("SHA256X_MAXCALL"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SHA256X_MAXCALL=%s: %v", s, err)
		}
		limit = d
	}
	const mib = 1 << 20
	buf := make([]byte, 64*mib)
	for i := range buf {
		buf[i] = byte(i*7 + i>>9)
	}
	var eight, mixed, leaves, pairs [][]byte
	for i := range 8 {
		eight = append(eight, buf[i*8*mib:][:8*mib])
	}
	for i, n := 0, 0; n+65536 < len(buf) && i < 1024; i++ {
		size := []int{32, 100, 1000, 4096, 65536}[i%5]
		mixed = append(mixed, buf[n:][:size])
		n += size
	}
	for i := range 1 << 16 {
		leaves = append(leaves, buf[100*i:][:100])
	}
	for i := range 1 << 19 {
		pairs = append(pairs, buf[64*i:][:64])
	}
	nodes := unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(&buf[0])), len(buf)/sha256x.Size)
	out := make([][sha256x.Size]byte, len(nodes)/2)
	digests := func(n int) []*sha256x.Digest {
		ds := make([]*sha256x.Digest, n)
		for i := range ds {
			ds[i] = new(sha256x.Digest)
		}
		return ds
	}
	states := make([][sha256x.Size]byte, 64)
	counts := make([]uint64, len(states))
	for i := range counts {
		counts[i] = 20000 + uint64(i)*100
	}
	binary := merkle.Binary
	binary.Workers = 1 // the log records one goroutine's calls
	cases := []struct {
		name string
		f    func()
	}{
		{"Sum256 64 MiB", func() { sha256x.Sum256(buf) }},
		{"HashMany 1 x 64 MiB", func() { sha256x.HashMany(out, [][]byte{buf}) }},
		{"HashMany 8 x 8 MiB", func() { sha256x.HashMany(out, eight) }},
		{"HashMany mixed", func() { sha256x.HashMany(out, mixed) }},
		{"HashMany 2^19 x 64 B", func() { sha256x.HashMany(out, pairs) }},
		{"HashManyPrefixed 8 x 8 MiB", func() { sha256x.HashManyPrefixed(out, buf[:100], eight) }},
		{"HashManyPrefixed 2^16 leaves", func() { sha256x.HashManyPrefixed(out, []byte{0}, leaves) }},
		{"Digest.Write 64 MiB", func() { new(sha256x.Digest).Write(buf) }},
		{"WriteMany 8 x 8 MiB", func() { sha256x.WriteMany(digests(8), eight) }},
		{"WriteMany mixed", func() { sha256x.WriteMany(digests(len(mixed)), mixed) }},
		{"Join{}.HashLevel 2^20 pairs", func() { sha256x.Join{}.HashLevel(out, nodes) }},
		{"Join{Double}.HashLevel 2^20", func() { sha256x.Join{Double: true}.HashLevel(out, nodes) }},
		{"RFC 6962 HashLevel 2^20", func() { sha256x.Join{Prefix: []byte{1}}.HashLevel(out, nodes) }},
		{"Chain 10^6 steps", func() { sha256x.Chain([sha256x.Size]byte{}, 1e6) }},
		{"Chains 64 x 2x10^4 steps", func() { sha256x.Chains(states, counts) }},
		{"merkle.Binary 2^21 chunks", func() { binary.RootNodes(nodes) }},
		{"hashtree.HashChunks 2^21", func() { hashtree.HashChunks(out, nodes) }},
	}
	t.Logf("kernel %s; the largest calls of each entry point (those within 10%% of the most steps), the median of their times, the least of 3 runs (limit %v); the longest call of any size, CPU and wall time", sha256x.Kernel(), limit)
	t.Logf("%-30s %-16s %6s %6s %7s %6s %10s %10s %10s", "entry point", "kernel", "blocks", "steps", "calls", "large", "median", "longest", "wall")
	for _, c := range cases {
		var best largest
		for r := range 3 {
			sched.Calls.Reset()
			c.f()
			if l := largestCalls(&sched.Calls); r == 0 || l.median < best.median {
				best = l
			}
		}
		name := "(Go only)"
		if best.calls > 0 {
			info := kernel.Lookup(best.call.K)
			name = fmt.Sprintf("%s-%s", info.Family, info.Variant)
		}
		t.Logf("%-30s %-16s %6d %6d %7d %6d %10v %10v %10v", c.name, name, best.call.Blocks, best.call.Steps, best.calls, best.n, best.median, best.longest.Time, best.longest.Wall)
		if best.calls > 0 && plan.CallBlocks(best.call.K) > 0 && best.median > limit {
			t.Errorf("%s: its largest calls (%s, %d blocks) took %v, more than %v, in each of 3 runs", c.name, name, best.call.Blocks, best.median, limit)
		}
	}
	// The scale the calls are held to, on this host in this process:
	// crypto/sha256's assembly takes at most 64 KiB a call; its longest
	// call shows what the host adds to any call.
	var ctl largest
	for r := range 3 {
		l := largest{calls: 1024, n: 1024}
		ts := make([]time.Duration, 0, 1024)
		for i := range 1024 {
			w0, t0 := time.Now(), sched.ThreadTime()
			sha256.Sum256(buf[i<<16:][:1<<16])
			c := sched.Call{Blocks: 1024, Steps: 1024, Time: sched.ThreadTime() - t0, Wall: time.Since(w0)}
			if c.Time > l.longest.Time {
				l.longest = c
			}
			ts = append(ts, c.Time)
		}
		slices.Sort(ts)
		l.call, l.median = l.longest, ts[len(ts)/2]
		if r == 0 || l.median < ctl.median {
			ctl = l
		}
	}
	t.Logf("%-30s %-16s %6d %6d %7d %6d %10v %10v %10v", "crypto/sha256 64 KiB", "(control)", ctl.call.Blocks, ctl.call.Steps, ctl.calls, ctl.n, ctl.median, ctl.longest.Time, ctl.longest.Wall)
}

// largest is what largestCalls finds in a log.
type largest struct {
	calls, n int
	call     sched.Call    // one of the largest calls
	median   time.Duration // the median time of the largest calls
	longest  sched.Call    // the longest call of any size
}

// largestCalls returns the calls of a log within 10% of the most steps,
// and the median of their times: a call sized too large takes long every
// time, while a host that interrupts a thread makes one call long now and
// then.
func largestCalls(l *sched.CallLog) largest {
	r := largest{calls: l.Calls, longest: l.Longest}
	most := 0
	for _, c := range l.All {
		most = max(most, c.Steps)
	}
	var ts []time.Duration
	for _, c := range l.All {
		if c.Steps*10 >= most*9 {
			ts = append(ts, c.Time)
			r.call = c
		}
	}
	if len(ts) > 0 {
		slices.Sort(ts)
		r.n, r.median = len(ts), ts[len(ts)/2]
	}
	return r
}
