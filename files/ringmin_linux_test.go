package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sha256x/sha256x/internal/docsaid"
)

// The tests set a ring up from ringMin files, as on a host of costly
// system calls, so that the ring's paths are covered by calls of any size
// on every host; TestRingSetupMin checks the rule itself.
func init() { ringSetupMin = func() int { return ringMin } }

// defaultRingSetupMin is ringSetupMin before init replaced it.
var defaultRingSetupMin = ringSetupMin

// TestRingSetupDefault: a ring is set up for a call that has all its files
// from 512 a goroutine where system calls are cheap, from 256 where they
// cost up to 1 µs, from ringMin where they cost more or SHA256X_IOURING=on.
func TestRingSetupDefault(t *testing.T) {
	for _, c := range []struct {
		cost time.Duration
		want int
	}{
		{75 * time.Nanosecond, 512}, // the Intel Xeon
		{untypedRingMin - 1, 512},
		{untypedRingMin, 256},
		{566 * time.Nanosecond, 256}, // Zen 3
		{time.Microsecond - 1, 256},
		{time.Microsecond, ringMin},
		{2 * time.Microsecond, ringMin}, // Zen 5's host
	} {
		if got := ringSetupFor(c.cost); got != c.want {
			t.Errorf("ringSetupFor(%v) = %d, want %d", c.cost, got, c.want)
		}
	}
	t.Setenv("SHA256X_IOURING", "")
	if got, want := defaultRingSetupMin(), ringSetupFor(syscallCostOnce()); got != want {
		t.Errorf("ringSetupMin() = %d, want %d (a system call %v)", got, want, syscallCostOnce())
	}
	t.Setenv("SHA256X_IOURING", "on")
	if got := defaultRingSetupMin(); got != ringMin {
		t.Errorf("with SHA256X_IOURING=on, ringSetupMin() = %d, want %d", got, ringMin)
	}
}

// TestRingSetupSaid: README.md and the package doc give ringSetupFor's
// thresholds.
func TestRingSetupSaid(t *testing.T) {
	wants := []string{
		fmt.Sprintf("fewer than %d", ringSetupFor(0)),
		fmt.Sprintf("%d where they cost up to 1 µs", ringSetupFor(untypedRingMin)),
	}
	docsaid.Check(t, []string{"../README.md", "files.go"}, wants...)
}

// smallDirs makes a directory of n files of 1 KiB for each n, changed long
// enough ago that no read of them is checked again.
func smallDirs(tb testing.TB, ns ...int) []string {
	data := make([]byte, 1024)
	dirs := make([]string, len(ns))
	for k, n := range ns {
		dirs[k] = tb.TempDir()
		for i := range n {
			data[0], data[1] = byte(i), byte(i>>8)
			if err := os.WriteFile(filepath.Join(dirs[k], fmt.Sprintf("f%03d", i)), data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	// A file changed less than a margin before its read is read again
	// the plain way, to see that it held still (ringcheck_linux.go).
	time.Sleep(coarseMargin + 100*time.Millisecond)
	return dirs
}

func hashDir(tb testing.TB, h *Hasher, dir string) int {
	files := 0
	err := h.Each(context.Background(), Tree(dir), func(r Result) {
		if r.Err != nil {
			tb.Fatal(r.Err)
		}
		files++
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestRingSetupMin: a call that has found fewer files than ringSetupMin
// sets up no ring; one that finds more does, and the ring kept from it
// reads the next call's few files.
func TestRingSetupMin(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	if testing.Short() {
		t.Skip("2 s for the files to settle")
	}
	saved := ringSetupMin
	ringSetupMin = func() int { return 300 }
	defer func() { ringSetupMin = saved }()
	drainRings()
	dirs := smallDirs(t, 40, 400)
	h := Hasher{Workers: 1}
	for i, c := range []struct {
		dir  string
		ring bool
	}{
		{dirs[0], false}, // no ring kept: plainly
		{dirs[1], true},  // 300 files found: a ring set up, and kept
		{dirs[0], true},  // the ring kept
	} {
		before := ringFiles.Load()
		n := hashDir(t, &h, c.dir)
		if ring := ringFiles.Load() - before; (ring > 0) != c.ring {
			t.Errorf("call %d: %d of %d files through the ring, want some: %v", i, ring, n, c.ring)
		}
	}
}

// BenchmarkRingMin times one worker hashing a call's n small files (1 KiB,
// one directory, found by Tree) through a ring and with plain system calls,
// with and without a ring or arena kept from the call before: where
// ringMin and ringSetupMin belong (BENCHMARKS.md, "Files: small files
// through the ring from 16"). Each variant checks which way its files went.
//
//	go test -run '^$' -bench RingMin -cpu 1 ./files
func BenchmarkRingMin(b *testing.B) {
	if why := ringRefusedWhy(); why != "" {
		b.Skip("io_uring not used:", why)
	}
	savedMin, savedSetup := ringMin, ringSetupMin
	ringMin, ringSetupMin = 1, func() int { return 1 }
	defer func() { ringMin, ringSetupMin = savedMin, savedSetup }()
	ns := []int{1, 4, 16, 32, 64, 128, 256, 512}
	dirs := smallDirs(b, ns...)
	for k, n := range ns {
		for _, way := range []string{"ring-kept", "ring-fresh", "plain-kept", "plain-fresh"} {
			h := Hasher{Workers: 1, PlainReads: way[0] == 'p'}
			fresh := way[len(way)-1] == 'h'
			b.Run(fmt.Sprintf("n=%d/%s", n, way), func(b *testing.B) {
				before := ringFiles.Load()
				files := 0
				for b.Loop() {
					if fresh {
						b.StopTimer()
						drainRings()
						arenas.drain()
						b.StartTimer()
					}
					files += hashDir(b, &h, dirs[k])
				}
				ring := int(ringFiles.Load() - before)
				if want := map[bool]int{true: files, false: 0}[way[0] == 'r']; ring != want {
					b.Fatalf("%d of %d files through the ring, want %d", ring, files, want)
				}
			})
		}
	}
}
