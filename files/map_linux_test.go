package files

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestMapChanges: a large file that changes while it is hashed from its
// mapping gets the digest of what a read of it gives afterwards, beside
// files that do not change: one that shrinks into a window not yet hashed
// (the mapping faults), one that shrinks within its last page (no fault:
// the page's tail reads as zeros), one that grows, one rewritten in place,
// one emptied. Each changes when a window of it at the given offset is
// mapped.
func TestMapChanges(t *testing.T) {
	type change struct {
		name   string
		size   int64
		at     int64                    // the window whose mapping triggers it
		do     func(*testing.T, string) // the change
		faults bool                     // the mapping must fault
		// either: the digest of the file before the change is right too
		// (a read loop past the changed bytes gives it), and the change
		// need not be seen: a rewrite in place changes neither size nor,
		// where timestamps are coarse, the times.
		either bool
	}
	t.Setenv("SHA256X_MMAP", "on")
	defer func(w int64) { mapWindow = w }(mapWindow)
	mapWindow = 4 << 20
	truncate := func(n int64) func(*testing.T, string) {
		return func(t *testing.T, p string) {
			if err := os.Truncate(p, n); err != nil {
				t.Error(err)
			}
		}
	}
	changes := []change{
		{"shrinks into the window", 10 << 20, mapWindow, truncate(5<<20 + 123), true, false},
		{"shrinks before the window", 10 << 20, 2 * mapWindow, truncate(3 << 20), true, false},
		{"shrinks within its last page", 10<<20 + 3000, 2 * mapWindow, truncate(10<<20 + 1000), false, false},
		{"emptied", 6 << 20, 0, truncate(0), true, false},
		{"grows", 6 << 20, mapWindow, func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			f.Write(make([]byte, 1<<20+17))
		}, false, false},
		{"rewritten", 9 << 20, 2 * mapWindow, func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			f.WriteAt([]byte("changed"), 100)
		}, false, true},
	}
	for _, c := range changes {
		for _, pre := range [][]byte{nil, []byte("leaf:")} {
			t.Run(c.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(c.size), 2))
				paths := randomFiles(t, r, 4, func(i int) int64 {
					if i == 2 {
						return c.size
					}
					return 5<<20 + r.Int64N(1<<20)
				})
				before := want(t, pre, paths[2])
				var sizes []int64
				for _, p := range paths {
					sizes = append(sizes, int64(len(mustRead(t, p))))
				}
				var once sync.Once
				mapHook = func(p string, off int64) {
					if p == paths[2] && off == c.at {
						once.Do(func() { c.do(t, p) })
					}
				}
				defer func() { mapHook = nil }()
				faults, changed := mapFaults.Load(), mapChanged.Load()
				var files, bytes int64
				h := Hasher{Workers: 1, Prefix: pre, Progress: func(f, b int64) { files, bytes = f, b }}
				res, err := h.Hash(context.Background(), paths)
				if err != nil {
					t.Fatal(err)
				}
				faults, changed = mapFaults.Load()-faults, mapChanged.Load()-changed
				// Progress counts each byte offset of a file once, even
				// for a file hashed again: at least what the results
				// hold, at most the larger of each file's sizes.
				var least, most int64
				for i, r := range res {
					least += r.Size
					most += max(r.Size, sizes[i])
				}
				if files != int64(len(paths)) || bytes < least || bytes > most {
					t.Errorf("progress: %d files, %d bytes; want %d files, %d to %d bytes", files, bytes, len(paths), least, most)
				}
				for i, r := range res {
					if r.Err != nil {
						t.Fatalf("%s: %v", paths[i], r.Err)
					}
					if w := want(t, pre, paths[i]); r.Sum != w && !(i == 2 && c.either && r.Sum == before) {
						t.Errorf("%s (%d bytes hashed): wrong digest", paths[i], r.Size)
					}
				}
				// One fault; under qemu, which reports no fault addresses
				// (.ci/cross sets SHA256X_TEST_QEMU), every mapped file of
				// the round counts one.
				wantFaults := faults == 1
				if os.Getenv("SHA256X_TEST_QEMU") != "" {
					wantFaults = faults >= 1
				}
				wantChanged := changed == 1
				if c.either {
					wantChanged = changed <= 1
				}
				if c.faults && (!wantFaults || changed != 0) || !c.faults && (faults != 0 || !wantChanged) {
					t.Errorf("%d faults, %d changes seen; want a fault: %v", faults, changed, c.faults)
				}
			})
		}
	}
}

// TestMapRefused: where a window cannot be mapped (a file system that does
// not map files gives ENODEV), the file is read from there on: refused at
// its start, and at its second window.
func TestMapRefused(t *testing.T) {
	t.Setenv("SHA256X_MMAP", "on")
	defer func(w int64) { mapWindow = w }(mapWindow)
	mapWindow = 1 << 20
	r := rand.New(rand.NewPCG(3, 3))
	paths := randomFiles(t, r, 3, func(int) int64 { return 3<<20 + r.Int64N(1<<20) })
	defer func() { mmap = syscall.Mmap }()
	for _, from := range []int64{0, 1 << 20} {
		var refused atomic.Int64
		mmap = func(fd int, off int64, n, prot, flags int) ([]byte, error) {
			if off >= from {
				refused.Add(1)
				return nil, syscall.ENODEV
			}
			return syscall.Mmap(fd, off, n, prot, flags)
		}
		res, err := new(Hasher).Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if r.Err != nil || r.Sum != want(t, nil, paths[i]) || r.Size != int64(len(mustRead(t, paths[i]))) {
				t.Errorf("refused from %d: %s: %v, %d bytes, digest right: %v", from, paths[i], r.Err, r.Size, r.Sum == want(t, nil, paths[i]))
			}
		}
		if refused.Load() != int64(len(paths)) {
			t.Errorf("refused from %d: %d windows refused, want one for each file", from, refused.Load())
		}
	}
}

// setMapWindow sets mapWindow to n and returns what puts it back.
func setMapWindow(n int64) (restore func()) {
	old := mapWindow
	mapWindow = n
	return func() { mapWindow = old }
}

// mapChosen says whether the probe has chosen to map large files.
func mapChosen() bool {
	mapProbe.Lock()
	defer mapProbe.Unlock()
	return mapProbe.done && mapProbe.v.mapped
}

// TestMapModes: SHA256X_MMAP=on maps every large file, off none, and
// unset the probe decides (once, on the first large file): the digests
// are crypto/sha256's every way.
func TestMapModes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	paths := randomFiles(t, r, 4, func(i int) int64 { return 1<<20 + r.Int64N(3<<20) })
	paths[0] = randomFiles(t, r, 1, func(int) int64 { return 7 << 20 })[0] // enough to measure
	for _, mode := range []string{"on", "off", "", "show"} {
		t.Setenv("SHA256X_MMAP", mode)
		mapped := mapFiles.Load()
		res, err := new(Hasher).Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		mapped = mapFiles.Load() - mapped
		for i, r := range res {
			if r.Err != nil || r.Sum != want(t, nil, paths[i]) {
				t.Errorf("SHA256X_MMAP=%q: %s: %v, digest right: %v", mode, paths[i], r.Err, r.Sum == want(t, nil, paths[i]))
			}
		}
		wantMapped := mode == "on" || mode != "off" && mapChosen()
		if (mapped == int64(len(paths))) != wantMapped || mapped != 0 && mapped != int64(len(paths)) {
			t.Errorf("SHA256X_MMAP=%q: %d of %d files mapped; want them mapped: %v", mode, mapped, len(paths), wantMapped)
		}
		if mode == "" {
			mapProbe.Lock()
			done, v := mapProbe.done, mapProbe.v
			mapProbe.Unlock()
			if !done {
				t.Errorf("SHA256X_MMAP unset: no verdict after hashing %d large files", len(paths))
			}
			t.Log(v)
		}
	}
}

// TestMapBetter: mapping is chosen only where its measured cost is a
// quarter less than reading's at least, and never from a zero timing.
func TestMapBetter(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		mapCost, readCost time.Duration
		want              bool
	}{
		{30 * us, 60 * us, true},    // the copy dominates (Xeon-like)
		{75 * us, 100 * us, true},   // exactly a quarter less
		{76 * us, 100 * us, false},  // less, but not by the margin
		{100 * us, 100 * us, false}, // a tie reads
		{300 * us, 60 * us, false},  // faults and TLB misses dominate (the Zen 5 guest)
		{0, 60 * us, false},
		{30 * us, 0, false},
	} {
		if got := mapBetter(c.mapCost, c.readCost); got != c.want {
			t.Errorf("mapBetter(%v, %v) = %v, want %v", c.mapCost, c.readCost, got, c.want)
		}
	}
}

// TestMeasureMapping: the probe measures both ways on a real file within
// its budget, gives up on a file too short or unreadable, and survives a
// file truncated under it (no SIGBUS).
func TestMeasureMapping(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	paths := randomFiles(t, r, 3, func(i int) int64 { return []int64{6 << 20, 100, 2 << 20}[i] })
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t0 := time.Now()
	v, ok := measureMapping(int(f.Fd()), 6<<20)
	took := time.Since(t0)
	if !ok || v.bytes != mapProbeBytes || v.mapCost <= 0 || v.readCost <= 0 || v.mapped != mapBetter(v.mapCost, v.readCost) {
		t.Fatalf("measureMapping: %+v, %v", v, ok)
	}
	t.Logf("%v; the probe took %v", v, took)
	if took > 50*time.Millisecond { // 1 ms on a quiet machine: a loose bound for shared CI
		t.Errorf("the probe took %v", took)
	}
	g, err := os.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, ok := measureMapping(int(g.Fd()), 100); ok {
		t.Errorf("measureMapping of a 100-byte file: a verdict")
	}
	h, err := os.Open(paths[2])
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if v, ok := measureMapping(int(h.Fd()), 2<<20); !ok || v.bytes != mapProbeBytes {
		t.Errorf("measureMapping of a 2 MiB file: %+v, %v", v, ok)
	}
	// The file is shorter than the size given: the mapping's touch
	// faults past its end, or the read comes up short; either way no
	// verdict, and no crash.
	if err := os.Truncate(paths[0], 5000); err != nil {
		t.Fatal(err)
	}
	if v, ok := measureMapping(int(f.Fd()), 6<<20); ok {
		t.Errorf("measureMapping of a truncated file: %+v", v)
	}
	if !touchMapped(nil) {
		t.Errorf("touchMapped(nil) faulted")
	}
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomFiles writes n files of random bytes, file i size(i) bytes long,
// into a temporary directory, and returns their paths.
func randomFiles(t *testing.T, r *rand.Rand, n int, size func(i int) int64) []string {
	dir := t.TempDir()
	var paths []string
	for i := range n {
		b := make([]byte, size(i))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		p := filepath.Join(dir, string(rune('a'+i)))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}
