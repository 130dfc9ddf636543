package files

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sha256x/sha256x/internal/uring"
)

// BenchmarkChangedCheck hashes a tree of 10,000 files of 0..8 KiB in 100
// directories (as bench/smallfiles.pl makes it, other bytes) through the
// ring and the plain way, with the check for a change under the read off,
// linked after the ring's read, and as system calls after it: run it with
// -cpu 1 and -count alternating the six.
func BenchmarkChangedCheck(b *testing.B) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(2026, 1))
	for d := range 100 {
		if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("d%02d", d)), 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			buf := make([]byte, r.IntN(8193))
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%02d/f%02d", d, f)), buf, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	time.Sleep(settleWait)
	saved := ringCheck
	defer func() { ringCheck = saved }()
	for _, way := range []string{"ring", "plain"} {
		for _, check := range []struct {
			name string
			c    int
		}{{"off", checkOff}, {"linked", checkLinked}, {"calls", checkCalls}} {
			if way == "plain" && check.c >= checkCalls {
				continue // the same as linked: the plain way stats by calls
			}
			b.Run(way+"/"+check.name, func(b *testing.B) {
				if way == "ring" && uring.Disabled() {
					b.Skip("SHA256X_IOURING=off")
				}
				ringCheck = check.c
				h := Hasher{PlainReads: way == "plain"}
				unsettled := ringUnsettled.Load()
				cpu0 := cpuTime()
				n := 0
				for b.Loop() {
					n = 0
					if err := h.Each(context.Background(), Tree(dir), func(r Result) {
						if r.Err != nil {
							b.Fatal(r.Err)
						}
						n++
					}); err != nil {
						b.Fatal(err)
					}
				}
				if n != 10000 {
					b.Fatalf("%d files", n)
				}
				b.ReportMetric(float64(ringUnsettled.Load()-unsettled)/float64(b.N), "unsettled/op")
				// The process's CPU time, its io-wq threads' included.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestRingChecked: files read whole through the ring are taken if a statx
// after the read finds them settled; one changed after its read, or
// written just before the call, is read again the plain way.
func TestRingChecked(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	for name, dir := range fsDirs(t) {
		for _, young := range []bool{false, true} {
			var paths []string
			for i := range 40 {
				p := filepath.Join(dir, fmt.Sprintf("f%02d", i))
				if err := os.WriteFile(p, bytes.Repeat([]byte{byte(i)}, 100+i*300), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			if !young {
				settle()
			}
			calls := 0
			changeHook = func(p string) {
				if p == paths[3] && calls == 0 {
					calls++
					if err := os.WriteFile(p, []byte("changed"), 0o644); err != nil {
						t.Error(err)
					}
				}
			}
			ring, unsettled := ringFiles.Load(), ringUnsettled.Load()
			var res []Result
			err := (&Hasher{}).Stream(context.Background(), Tree(dir), func(r Result) { res = append(res, r) })
			changeHook = nil
			if err != nil {
				t.Fatal(err)
			}
			ring, unsettled = ringFiles.Load()-ring, ringUnsettled.Load()-unsettled
			for _, r := range res {
				if r.Err != nil || r.Sum != want(t, nil, r.Path) {
					t.Errorf("%s, young %v: %s: %v, or a wrong digest", name, young, r.Path, r.Err)
				}
			}
			t.Logf("%s, young %v: %d files through the ring, %d unsettled", name, young, ring, unsettled)
			if len(res) != 40 || calls != 1 || young && (ring != 0 || unsettled != 40) || !young && (ring != 39 || unsettled != 1) {
				t.Errorf("%s, young %v: %d files, %d through the ring, %d unsettled, changed %d times; want 40, %d, %d, 1", name, young, len(res), ring, unsettled, calls, map[bool]int{false: 39}[young], map[bool]int{false: 1, true: 40}[young])
			}
		}
	}
}
