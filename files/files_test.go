package files

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"testing/fstest"
	"time"
)

// settle waits until files just written are older than fineMargin
// (ringcheck_linux.go): younger ones the ring reads again the plain way.
func settle() { time.Sleep(25 * time.Millisecond) }

// randomTree writes files of random sizes up to max and the sizes around
// every limit of the package (probe reads, small files, stream chunks),
// and returns their paths under dir in Tree's order.
func randomTree(t testing.TB, dir string, seed uint64, n, max int) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	sizes := []int{0, 1, 63, 64, 65, 4095, 4096, 4097, 8192, 12288, probeMax - 1, probeMax, probeMax + 1, 256<<10 - 1, 256 << 10, 256<<10 + 1, 3<<18 + 77, 1 << 20, 1<<20 + 1}
	for len(sizes) < n {
		s := r.IntN(max + 1)
		if r.IntN(3) > 0 {
			s = r.IntN(9000)
		}
		sizes = append(sizes, s)
	}
	fill := rand.NewChaCha8([32]byte{byte(seed)})
	for i, s := range sizes {
		b := make([]byte, s)
		fill.Read(b)
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%5), fmt.Sprintf("f%04d", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settle()
	var paths []string
	for e := range Tree(dir) {
		if e.Err != nil || !e.Regular {
			t.Fatal(e)
		}
		paths = append(paths, e.Path)
	}
	if len(paths) != len(sizes) {
		t.Fatalf("Tree found %d files, want %d", len(paths), len(sizes))
	}
	return paths
}

func want(t testing.TB, prefix []byte, path string) [32]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(append(slices.Clone(prefix), data...))
}

// hashers are the configurations every test runs: the default (io_uring
// where the kernel allows), plain reads, one goroutine, the least memory,
// many goroutines, and a prefix.
var hashers = []struct {
	name string
	h    Hasher
}{
	{"default", Hasher{}},
	{"plain", Hasher{PlainReads: true}},
	{"one worker", Hasher{Workers: 1}},
	{"least memory", Hasher{Memory: 1}},
	{"16 workers", Hasher{Workers: 16, Memory: 16 * MinMemory}}, // capped at MaxWorkers: see TestManyWorkers
	{"prefix", Hasher{Prefix: []byte("\x00SOLANA_MERKLE_SHREDS_LEAF")}},
}

// TestHashRandomTree: every digest of a random tree of 0..1 MiB files is
// crypto/sha256's, in every configuration, with the ring reading files
// where the kernel allows it.
func TestHashRandomTree(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 1, 300, 1<<20)
	for _, c := range hashers {
		before, mapped := ringFiles.Load(), mapFiles.Load()
		readDecided := trialWay() == wayRead
		res, err := c.h.Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if r.Index != i || r.Path != paths[i] || r.Err != nil {
				t.Fatalf("%s: result %d: %+v", c.name, i, r)
			}
			if w := want(t, c.h.Prefix, r.Path); r.Sum != w {
				t.Fatalf("%s: %s (%d bytes): wrong digest", c.name, r.Path, r.Size)
			}
		}
		ring, mapped := ringFiles.Load()-before, mapFiles.Load()-mapped
		if c.name == "plain" && ring+mapped != 0 {
			t.Errorf("plain: %d files read through io_uring, %d mapped", ring, mapped)
		}
		if c.name == "default" && readDecided && mapped != 0 {
			t.Errorf("default: %d files mapped, but the trial had decided to read", mapped)
		}
		if c.name == "default" {
			if why := ringRefusedWhy(); why != "" {
				t.Logf("io_uring not used: %s", why)
			} else if ring == 0 {
				t.Errorf("default: no file read through io_uring")
			}
		}
	}
}

// TestStreamAndEach: Stream hands the results over in input order, Each
// hands over every one once; errors from the input come through.
func TestStreamAndEach(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 4, 1200, 64<<10)
	walkErr := errors.New("from the walk")
	seq := func(yield func(Entry) bool) {
		for i, p := range paths {
			e := Entry{Path: p, Regular: i%2 == 0}
			if i%97 == 5 {
				e.Err = walkErr
			}
			if !yield(e) {
				return
			}
		}
	}
	for _, c := range hashers[:3] {
		next := 0
		err := c.h.Stream(context.Background(), seq, func(r Result) {
			if r.Index != next || r.Path != paths[next] {
				t.Fatalf("%s: result %d (%s) after %d", c.name, r.Index, r.Path, next-1)
			}
			if (r.Index%97 == 5) != (r.Err == walkErr) {
				t.Errorf("%s: %d: err %v", c.name, r.Index, r.Err)
			}
			next++
		})
		if err != nil || next != len(paths) {
			t.Fatalf("%s: %v after %d of %d", c.name, err, next, len(paths))
		}
		seen := make([]bool, len(paths))
		err = c.h.Each(context.Background(), List(paths), func(r Result) {
			if seen[r.Index] || r.Err != nil || r.Sum != want(t, nil, r.Path) {
				t.Errorf("%s: Each: %+v", c.name, r)
			}
			seen[r.Index] = true
		})
		if err != nil || slices.Contains(seen, false) {
			t.Fatalf("%s: Each: %v, a file not reported", c.name, err)
		}
	}
}

// TestCancel: a cancelled call returns the context's error soon, the
// files not hashed carry it, and fn is not called after it.
func TestCancel(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 5, 2000, 9000)
	var ctx context.Context
	for _, each := range []bool{false, true} {
		c, cancel := context.WithCancel(context.Background())
		n, run := 0, (&Hasher{Workers: 2}).Stream
		if each {
			run = (&Hasher{Workers: 2}).Each
		}
		err := run(c, List(paths), func(Result) {
			if n++; n == 100 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || n != 100 {
			t.Errorf("Each %v: %v after %d calls of fn, want 100", each, err, n)
		}
		ctx = c
	}
	res, err := new(Hasher).Hash(ctx, paths)
	if !errors.Is(err, context.Canceled) || !errors.Is(res[0].Err, context.Canceled) {
		t.Errorf("Hash with a cancelled context: %v, %v", err, res[0].Err)
	}
	roomEmpty(t) // the cancelled call's files closed, counted out
}

// TestFS: a tree read through an fs.FS (a directory, and a map) hashes as
// the directory does, and TreeFS lists what Tree lists.
func TestFS(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 6, 200, 600<<10)
	os.Symlink("f0001", filepath.Join(dir, "d1", "link"))
	os.Symlink("nowhere", filepath.Join(dir, "d2", "dangling"))
	os.Symlink("../d3", filepath.Join(dir, "d4", "dirlink"))
	var want []Result
	new(Hasher).Stream(context.Background(), Tree(dir), func(r Result) { want = append(want, r) })
	fsys := os.DirFS(dir)
	var got []Result
	(&Hasher{FS: fsys}).Stream(context.Background(), TreeFS(fsys, "."), func(r Result) { got = append(got, r) })
	if len(got) != len(want) || len(want) != len(paths)+2 {
		t.Fatalf("TreeFS: %d results, Tree %d, want %d", len(got), len(want), len(paths)+2)
	}
	for i := range got {
		if dir+"/"+got[i].Path != want[i].Path || got[i].Sum != want[i].Sum || (got[i].Err == nil) != (want[i].Err == nil) {
			t.Errorf("%d: FS %s %x %v, dir %s %x %v", i, got[i].Path, got[i].Sum[:4], got[i].Err, want[i].Path, want[i].Sum[:4], want[i].Err)
		}
	}
	m := fstest.MapFS{"a": {Data: []byte("abc")}, "b/c": {Data: make([]byte, 300<<10)}, "b/d": {Mode: fs.ModeDir}}
	res, _ := (&Hasher{FS: m}).Hash(context.Background(), []string{"a", "b/c", "b/d", "nope"})
	if res[0].Sum != sha256.Sum256([]byte("abc")) || res[1].Sum != sha256.Sum256(make([]byte, 300<<10)) ||
		!errors.Is(res[2].Err, errIsDir) || !errors.Is(res[3].Err, fs.ErrNotExist) {
		t.Errorf("MapFS: %+v", res)
	}
}

// TestFSNegativeSize: a zip entry whose 64-bit size has its top bit set
// (a negative Stat size) is read to its end, not sliced by its size.
func TestFSNegativeSize(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "x", Method: zip.Store, UncompressedSize64: 1<<63 + 5, CompressedSize64: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("abc"))
	zw.Close()
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Hasher{FS: zr}).Hash(context.Background(), []string{"x"})
	if r := res[0]; err != nil || r.Err == nil && (r.Sum != sha256.Sum256([]byte("abc")) || r.Size != 3) {
		t.Errorf("an entry of a negative size: %v, %+v", err, r)
	}
}

// TestProgress: the totals never go back and reach every file and byte,
// also with more workers than cores and a callback that lets the others
// run while it holds them up.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 7, 300, 1<<20)
	var total int64
	for _, p := range paths {
		st, _ := os.Stat(p)
		total += st.Size()
	}
	for _, workers := range []int{0, 8} {
		var files, bytes int64
		calls := 0
		h := Hasher{Workers: workers, Memory: 8 * MinMemory, Progress: func(f, b int64) {
			if f < files || b < bytes {
				t.Errorf("workers %d: progress went back: %d, %d after %d, %d", workers, f, b, files, bytes)
			}
			files, bytes = f, b
			calls++
			runtime.Gosched()
		}}
		if _, err := h.Hash(context.Background(), paths); err != nil {
			t.Fatal(err)
		}
		if files != int64(len(paths)) || bytes != total || calls < 2 {
			t.Errorf("workers %d: progress: %d files, %d bytes in %d calls; want %d, %d", workers, files, bytes, calls, len(paths), total)
		}
	}
}

// TestEmpty: no paths, no call of fn.
func TestEmpty(t *testing.T) {
	res, err := new(Hasher).Hash(context.Background(), nil)
	if len(res) != 0 || err != nil {
		t.Errorf("Hash(nil): %v, %v", res, err)
	}
	if err := new(Hasher).Stream(context.Background(), List(nil), func(Result) { t.Error("called") }); err != nil {
		t.Error(err)
	}
}

// TestSlabsReused: items are used again once delivered, and every Result
// is still its own entry's, in order (Stream) and as each finishes (Each).
func TestSlabsReused(t *testing.T) {
	const n = 20000
	errs := make([]error, n)
	entries := func(yield func(Entry) bool) {
		for i := range n {
			errs[i] = fmt.Errorf("entry %d", i)
			if !yield(Entry{Path: fmt.Sprint(i), Err: errs[i]}) {
				return
			}
		}
	}
	for _, ordered := range []bool{true, false} {
		made := slabsMade.Load()
		seen := make([]bool, n)
		next := 0
		check := func(r Result) {
			if r.Path != fmt.Sprint(r.Index) || r.Err != errs[r.Index] || seen[r.Index] {
				t.Fatalf("ordered %v: result %+v", ordered, r)
			}
			if ordered && r.Index != next {
				t.Fatalf("ordered: result %d after %d", r.Index, next-1)
			}
			seen[r.Index] = true
			next++
		}
		var err error
		if ordered {
			err = (&Hasher{}).Stream(context.Background(), entries, check)
		} else {
			err = (&Hasher{}).Each(context.Background(), entries, check)
		}
		if err != nil || next != n {
			t.Fatalf("ordered %v: %d results, %v", ordered, next, err)
		}
		// n/batchMax slabs if none were used again.
		if made := slabsMade.Load() - made; made > n/batchMax/2 {
			t.Errorf("ordered %v: %d slabs of %d items made for %d entries", ordered, made, batchMax, n)
		}
	}
}

// TestWorkersCapped: Workers is capped at MaxWorkers, and by Memory where
// it is set; a call asked for a million workers runs no more goroutines
// than MaxWorkers and allocates no more than one asked for MaxWorkers.
func TestWorkersCapped(t *testing.T) {
	for _, c := range []struct {
		h    Hasher
		want int
	}{
		{Hasher{}, runtime.GOMAXPROCS(0)},
		{Hasher{Workers: 1 << 20}, MaxWorkers()},
		{Hasher{Workers: 1}, 1},
		{Hasher{Workers: 1 << 20, Memory: 3 * MinMemory}, min(3, MaxWorkers())},
		{Hasher{Workers: 1 << 20, Memory: 1}, 1},
	} {
		if got := c.h.config(-1).workers; got != c.want {
			t.Errorf("Workers %d, Memory %d: %d workers, want %d", c.h.Workers, c.h.Memory, got, c.want)
		}
	}
	dir := t.TempDir()
	paths := randomTree(t, dir, 7, 400, 1<<20)
	alloc := func(workers int) (bytes uint64, goroutines int) {
		base := runtime.NumGoroutine()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		h := Hasher{Workers: workers, Progress: func(int64, int64) {
			goroutines = max(goroutines, runtime.NumGoroutine()-base)
		}}
		if err := h.Each(context.Background(), List(paths), func(r Result) {
			if r.Err != nil {
				t.Error(r.Err)
			}
		}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, goroutines
	}
	alloc(MaxWorkers()) // rings and arenas kept from earlier tests alike
	capped, _ := alloc(MaxWorkers())
	huge, g := alloc(1 << 20)
	if g > MaxWorkers()+2 { // the workers, and a timer's
		t.Errorf("Workers 1<<20: %d goroutines more at once, want at most %d", g, MaxWorkers())
	}
	// An arena kept from the call before expires after a second, which a
	// slow run (-race) can pass between the calls: one made again (4 MiB)
	// is allowed, 8 bytes a worker asked for is not.
	if huge > capped+capped/2+4<<20 {
		t.Errorf("Workers 1<<20: %d bytes allocated, %d with Workers %d", huge, capped, MaxWorkers())
	}
	t.Logf("allocated: %d bytes capped, %d asked for 1<<20 workers; %d goroutines", capped, huge, g)
	// A Memory past what is used gets no more (no huge make).
	for _, m := range []int{math.MaxInt, math.MaxInt >> 23} {
		h := Hasher{Memory: m}
		res, _ := h.Hash(context.Background(), paths[:1])
		if a := h.config(1).arenaMax; a > 64<<20 || res[0].Err != nil || res[0].Sum != want(t, nil, paths[0]) {
			t.Errorf("Memory %d: arena %d, %v", m, a, res[0].Err)
		}
	}
}

// TestManyWorkers: 16 workers, where GOMAXPROCS allows them, on a tree
// of small and large files, give crypto/sha256's digests.
func TestManyWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	h := Hasher{Workers: 16, Memory: 16 * MinMemory}
	// js/wasm has one P whatever GOMAXPROCS is set to: one worker there.
	if w, want := h.config(-1).workers, min(16, MaxWorkers()); w != want {
		t.Fatalf("%d workers, want %d", w, want)
	}
	paths := randomTree(t, t.TempDir(), 8, 600, 1<<20)
	res, err := h.Hash(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Err != nil || r.Sum != want(t, nil, paths[i]) {
			t.Fatalf("%s: %v, digest right: %v", paths[i], r.Err, r.Sum == want(t, nil, paths[i]))
		}
	}
}

// TestFSTruncatedEntry: a zip entry whose deflated data is cut short reads
// as flate's io.ErrUnexpectedEOF: an unreadable file, whose Result has an
// error, not the digest of the bytes inflated before the cut; small and
// large entries both.
func TestFSTruncatedEntry(t *testing.T) {
	for _, size := range []int{10 << 10, 1 << 20} {
		data := make([]byte, size)
		r := rand.New(rand.NewPCG(uint64(size), 1))
		for i := range data {
			data[i] = byte('a' + r.IntN(4)) // compressible, not trivially
		}
		var z bytes.Buffer
		fw, _ := flate.NewWriter(&z, flate.DefaultCompression)
		fw.Write(data)
		fw.Close()
		cut := z.Bytes()[:z.Len()/2]
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "x", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(data),
			UncompressedSize64: uint64(size), CompressedSize64: uint64(len(cut))})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(cut)
		zw.Close()
		zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			t.Fatal(err)
		}
		res, err := (&Hasher{FS: zr}).Hash(context.Background(), []string{"x"})
		var pe *fs.PathError
		if r := res[0]; err != nil || !errors.Is(r.Err, io.ErrUnexpectedEOF) || !errors.As(r.Err, &pe) || pe.Path != "x" {
			t.Errorf("a truncated entry of %d bytes: %v, %#v (%d bytes hashed), want an *fs.PathError of io.ErrUnexpectedEOF", size, err, r.Err, r.Size)
		}
	}
}
