package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/docsaid"
	"github.com/sha256x/sha256x/internal/uring"
)

func TestSyscallCost(t *testing.T) {
	c := syscallCost()
	t.Logf("a system call costs %v here: files of unknown type go through the ring: %v", c, c >= untypedRingMin)
	if c <= 0 || c > time.Millisecond {
		t.Errorf("syscallCost = %v", c)
	}
}

// TestUntypedPlain: where files of unknown type go the plain way, a list
// of names is read with no file through the ring, and the same files found
// by Tree still go through it; the digests are crypto/sha256's either way.
func TestUntypedPlain(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	saved := untypedByRing
	untypedByRing = func() bool { return false }
	defer func() { untypedByRing = saved }()
	dir := t.TempDir()
	paths := randomTree(t, dir, 11, 300, 20000)
	for _, listed := range []bool{true, false} {
		before := ringFiles.Load()
		var res []Result
		var err error
		if listed {
			res, err = (&Hasher{}).Hash(context.Background(), paths)
		} else {
			err = (&Hasher{}).Stream(context.Background(), Tree(dir), func(r Result) { res = append(res, r) })
		}
		if err != nil || len(res) != len(paths) {
			t.Fatalf("listed %v: %d results, %v", listed, len(res), err)
		}
		for i, r := range res {
			if r.Path != paths[i] || r.Err != nil || r.Sum != want(t, nil, r.Path) {
				t.Fatalf("listed %v: result %d: %s, %v, or a wrong digest", listed, i, r.Path, r.Err)
			}
		}
		ring := ringFiles.Load() - before
		t.Logf("listed %v: %d of %d files through the ring", listed, ring, len(paths))
		if listed && ring != 0 {
			t.Errorf("names given: %d files read through the ring", ring)
		}
		if !listed && ring == 0 {
			t.Errorf("Tree: no file read through the ring")
		}
	}
}

// TestUntypedRingMinSaid: README.md and the package doc give the threshold
// untypedRingMin is.
func TestUntypedRingMinSaid(t *testing.T) {
	want := "a system call costs " + strconv.FormatFloat(untypedRingMin.Seconds()*1e6, 'f', -1, 64) + " µs or more"
	docsaid.Check(t, []string{"../README.md", "files.go"}, want)
}

// TestReadTypes: readTypes marks regular the files its directory's entries
// say are regular, and only them, in either byte order (s390x's), in a
// directory larger than one read of its entries.
func TestReadTypes(t *testing.T) {
	dir := t.TempDir()
	var items []*item
	for i := range 600 {
		name := fmt.Sprintf("file-with-a-long-name-%04d", i)
		var err error
		if i%3 == 0 {
			err = os.Mkdir(filepath.Join(dir, name), 0o755)
		} else {
			err = os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, &item{Result: Result{Path: dir + "/" + name}})
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var rr ringReader
	rr.readTypes(fd, items)
	for i, it := range items {
		if want := i%3 != 0; it.regular != want {
			t.Fatalf("%s: regular %v, want %v", it.Path, it.regular, want)
		}
	}
}

// TestRingIdleSecond: a ring handed back is closed a second after, even
// when an earlier ring's return set the timer: rings returned at 0 and 0.5
// s are both closed by 1.75 s.
func TestRingIdleSecond(t *testing.T) {
	if testing.Short() {
		t.Skip("3 s of timers")
	}
	newRing := func() *ringReader {
		arena := make([]byte, 64<<10)
		ring, err := uring.New(8, 8, [][]byte{arena})
		if err != nil {
			t.Skip("no io_uring:", err)
		}
		return &ringReader{ring: ring, arena: arena, fixed: arena}
	}
	drainRings()
	// The timer of an earlier test's rings, if any, goes off first.
	time.Sleep(ringIdle + ringIdle/4)
	a, b := newRing(), newRing()
	defer b.close() // if the test fails and it is still open
	putRing(a)
	time.Sleep(ringIdle / 2)
	putRing(b)
	time.Sleep(ringIdle + ringIdle/4) // b unused 1.25 s
	left := rings.kept()
	if left != 0 {
		t.Fatalf("%d rings kept %v after they were handed back, longer than ringIdle (%v)", left, ringIdle+ringIdle/4, ringIdle)
	}
}

// TestCloseInflight: a ring closed with operations in flight is kept, with
// its buffers, since a read running on io-wq may still write them, and no
// worker sets up a ring after it; one closed with none in flight is not
// kept.
func TestCloseInflight(t *testing.T) {
	refused := ringRefused.Load()
	defer ringRefused.Store(refused)
	for _, inflight := range []bool{false, true} {
		arena := make([]byte, 64<<10)
		ring, err := uring.New(8, 8, [][]byte{arena})
		if err != nil {
			t.Skip("no io_uring:", err)
		}
		rr := &ringReader{ring: ring, arena: arena, fixed: arena}
		ringRefused.Store(false)
		if inflight {
			ring.Nop(1, false)
			if err := ring.Submit(1); err != nil {
				t.Fatal(err)
			}
		}
		rr.close()
		abandoned.Lock()
		kept := slices.Contains(abandoned.rings, rr)
		abandoned.rings = slices.DeleteFunc(abandoned.rings, func(r *ringReader) bool { return r == rr })
		abandoned.Unlock()
		if kept != inflight || ringRefused.Load() != inflight {
			t.Errorf("closed with operations in flight %v: kept %v, rings refused after %v", inflight, kept, ringRefused.Load())
		}
	}
}

// TestRingBatchSaid: README.md and the package doc give the most files one
// submission of the ring opens and reads (a probe's 16 KiB of the arena a
// file), at the default Memory and at most.
func TestRingBatchSaid(t *testing.T) {
	slots := func(h Hasher) int { return min(batchMax, h.config(-1).arenaMax/probeMax) }
	def := slots(Hasher{})
	most := slots(Hasher{Workers: 1, Memory: 1 << 30})
	from := batchMax * probeMax * 4 // a goroutine's share whose arena (a quarter) holds batchMax probes
	if slots(Hasher{Workers: 1, Memory: from}) != most || slots(Hasher{Workers: 1, Memory: from - 1}) == most {
		t.Fatalf("the most files a submission takes are reached at a share other than %d bytes", from)
	}
	want := "up to " + strconv.Itoa(def) + " files a system call at the default Memory (" +
		strconv.Itoa(most) + " at most, from " + strconv.Itoa(from>>20) + " MiB a goroutine"
	docsaid.Check(t, []string{"../README.md", "files.go"}, want)
}

// TestLongerPlain: where longerPlain says so, a worker whose files are
// mostly longer than a probe reads reads its later batches the plain way,
// and one whose files are short keeps the ring; the digests are
// crypto/sha256's either way.
func TestLongerPlain(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	if testing.Short() {
		t.Skip("2 s for the files to settle")
	}
	saved, savedPlain := ringSetupMin, longerPlain
	ringSetupMin, longerPlain = func() int { return 1 }, func() bool { return true }
	defer func() { ringSetupMin, longerPlain = saved, savedPlain }()
	const n = 1000
	sizes := []int{probeMax/2 + 100, 3*probeMax + 100} // not a multiple of 4096 (probed)
	dirs := make([]string, len(sizes))
	for k, size := range sizes {
		dirs[k] = t.TempDir()
		data := make([]byte, size)
		for i := range n {
			data[0], data[1] = byte(i), byte(i>>8)
			if err := os.WriteFile(filepath.Join(dirs[k], fmt.Sprintf("f%04d", i)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	time.Sleep(coarseMargin + 100*time.Millisecond) // settled (ringcheck_linux.go)
	h := Hasher{Workers: 1}
	for k, size := range sizes {
		before := ringFiles.Load()
		var res []Result
		if err := h.Stream(context.Background(), Tree(dirs[k]), func(r Result) { res = append(res, r) }); err != nil || len(res) != n {
			t.Fatalf("size %d: %d results, %v", size, len(res), err)
		}
		for _, r := range res {
			if r.Err != nil || r.Sum != want(t, nil, r.Path) {
				t.Fatalf("size %d: %s: %v, or a wrong digest", size, r.Path, r.Err)
			}
		}
		ring := ringFiles.Load() - before
		t.Logf("files of %d bytes: %d of %d through the ring", size, ring, n)
		if size <= probeMax && ring != n || size > probeMax && (ring == 0 || ring > n/2) {
			t.Errorf("files of %d bytes: %d of %d through the ring", size, ring, n)
		}
	}
	// 32 files each counted once, by what is known of its size: plainly
	// past a smallMax below probeMax, not longer (a probe reads it whole);
	// changed while the ring read it, where read again.
	seen := map[string]bool{}
	changeHook = func(p string) { seen[p] = seen[p] || os.Chtimes(p, time.Time{}, time.Now()) == nil }
	defer func() { changeHook = nil }()
	for k, m := range []int{MinMemory, 0} {
		c := (&Hasher{Memory: m}).config(1)
		r, w := &run{c: c, ringDrops: room.ringDrops.Load()}, newWorker(&c)
		w.noRing = k == 0
		var b []*item
		for i := range 32 {
			b = append(b, &item{Result: Result{Path: filepath.Join(dirs[k], fmt.Sprintf("f%04d", i))}, regular: true})
		}
		w.smalls(r, b)
		handBackRings(r)
		if w.sized != 32 || w.longer != 32*k {
			t.Errorf("files of %d bytes: %d of %d longer", sizes[k], w.longer, w.sized)
		}
	}
}
