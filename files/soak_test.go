package files

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak hashes a tree again and again while other goroutines truncate,
// extend, replace, rename away and back, and delete and recreate its
// files, with io_uring and without, mapped, read, and in a never-decided
// trial alternating the two: every Result is an error or the digest of
// bytes the file held at once; untouched files get their digests.
//
// The mutators keep every content a reader can see on record. Between
// replacements (a generation) a file is a prefix of one byte stream G: a
// truncation shortens it, an extension writes G's next bytes, so a racing
// read still reads a prefix of G. A generation (G's seed, its least and
// greatest lengths) is recorded before the change that shows it; a Result
// must be G[:Size] for a generation the file had during the call, Size
// within its lengths. Zeros past a truncated mapping's end, bytes of two
// generations, or a Size outside the lengths would not match.
//
// It runs about 20 s (4 s with -short); SHA256X_SOAK=30m sets the time,
// shared among the four ways, and SHA256X_SOAK_OUT=file writes the counts
// there as well as to the log.
func TestSoak(t *testing.T) {
	total := 20 * time.Second
	if testing.Short() {
		total = 4 * time.Second
	}
	if s := os.Getenv("SHA256X_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SHA256X_SOAK=%s: %v", s, err)
		}
		total = d
	}
	defer setMapWindow(256 << 10)() // large files span several windows
	modes := []struct {
		name         string
		ring, mmap   string
		plainReads   bool
		linuxOnlyRun bool
	}{
		{"io_uring, mapped", "on", "on", false, true},
		{"io_uring, read", "on", "off", false, true},
		{"system calls, mapped", "off", "on", false, true},
		{"io_uring, trial", "on", "", false, true},
		{"PlainReads", "", "", true, false},
	}
	var report strings.Builder
	for _, m := range modes {
		if m.linuxOnlyRun && runtime.GOOS != "linux" {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			t.Setenv("SHA256X_IOURING", m.ring)
			t.Setenv("SHA256X_MMAP", m.mmap)
			// Undecided throughout: a file read by turns may have had
			// no chunk from its mapping, and is checked as a read one.
			resetTrial(t, 1<<30, nil)
			c := soak(t, Hasher{PlainReads: m.plainReads, Prefix: []byte("soak:")}, total/time.Duration(len(modes)))
			fmt.Fprintf(&report, "%s: %s\n", m.name, c)
		})
	}
	t.Logf("soak, %v in all:\n%s", total, report.String())
	if p := os.Getenv("SHA256X_SOAK_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(fmt.Sprintf("TestSoak, %v in all, %s/%s, GOMAXPROCS %d\n%s", total, runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), report.String())), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// A generation is one content stream of a file: G is gen(seed), and the
// file held G[:n] for every n from least to most.
type generation struct {
	seed        uint64
	least, most int
}

func gen(seed uint64, n int) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24), byte(seed >> 32), 1}).Read(b)
	return b
}

// A soakFile is one file of the tree and its record.
type soakFile struct {
	path   string
	max    int  // its size class's greatest length
	stable bool // never changed: its digest must be exact
	mu     sync.Mutex
	gens   []generation
	// pub is the index of the newest generation known on disk: one
	// recorded after it may be on disk too (the rename that puts it
	// there is under way), none before it is any more.
	pub int
}

func (f *soakFile) record(g generation) {
	f.mu.Lock()
	f.gens = append(f.gens, g)
	f.mu.Unlock()
}

// widen records that the current generation now reaches length n.
func (f *soakFile) widen(n int) {
	f.mu.Lock()
	g := &f.gens[len(f.gens)-1]
	g.least, g.most = min(g.least, n), max(g.most, n)
	f.mu.Unlock()
}

func (f *soakFile) published() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pub
}

// since returns the generations from the index from on, as recorded now.
func (f *soakFile) since(from int) []generation {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]generation(nil), f.gens[from:]...)
}

type soakCounts struct {
	calls, results, matched, prefixes, stale, errs  atomic.Int64
	replaced, truncated, extended, renamed, deleted atomic.Int64
	errKinds                                        sync.Map // string -> *atomic.Int64
	faults, changed                                 int64    // mapFaults, mapChanged during the run
	again, gaveUp, unsettled                        int64    // readAgain, gaveUp, ringUnsettled during the run
}

func (c *soakCounts) String() string {
	var kinds []string
	c.errKinds.Range(func(k, v any) bool {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, v.(*atomic.Int64).Load()))
		return true
	})
	return fmt.Sprintf("%d calls, %d results: %d digests of contents held (%d of a length between two recorded, %d of a generation replaced since the call began), %d errors (%s); mutations: %d replaced, %d truncated, %d extended, %d renamed away and back, %d deleted and made again; %d mapped files read again after a fault; %d passes again after a change (%d mapped), %d ErrChanged, %d through io_uring read again plainly",
		c.calls.Load(), c.results.Load(), c.matched.Load(), c.prefixes.Load(), c.stale.Load(), c.errs.Load(), strings.Join(kinds, ", "),
		c.replaced.Load(), c.truncated.Load(), c.extended.Load(), c.renamed.Load(), c.deleted.Load(), c.faults, c.again, c.changed, c.gaveUp, c.unsettled)
}

// errKind names an error by its cause, for the counts.
func errKind(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

func soak(t *testing.T, h Hasher, d time.Duration) *soakCounts {
	dir := t.TempDir()
	root, tmp := filepath.Join(dir, "tree"), filepath.Join(dir, "tmp")
	for _, p := range []string{root, tmp} {
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	classes := []int{20 << 10, 200 << 10, 1536 << 10} // probe reads, sized reads, streamed
	var fls []*soakFile
	byPath := map[string]*soakFile{}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	seed := uint64(1)
	for i := range 36 {
		f := &soakFile{path: filepath.Join(root, []string{"", "sub"}[i%2], fmt.Sprintf("f%02d", i)), max: classes[i%3], stable: i%6 == 5}
		n := r.IntN(f.max + 1)
		if err := os.WriteFile(f.path, gen(seed, n), 0o644); err != nil {
			t.Fatal(err)
		}
		f.gens = []generation{{seed: seed, least: n, most: n}}
		seed++
		fls = append(fls, f)
		byPath[f.path] = f
	}
	var c soakCounts
	faults, changed := mapFaults.Load(), mapChanged.Load()
	again, gaveUps, unsettled := readAgain.Load(), gaveUp.Load(), ringUnsettled.Load()
	var seeds atomic.Uint64
	seeds.Store(seed << 8)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const mutators = 4
	for k := range mutators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mutate(t, fls, k, mutators, tmp, &seeds, &c, stop)
		}()
	}
	deadline := time.Now().Add(d)
	for i := 0; time.Now().Before(deadline) && !t.Failed(); i++ {
		before := make([]int, len(fls))
		for j, f := range fls {
			before[j] = f.published()
		}
		var results []Result
		var err error
		if i%2 == 0 {
			paths := make([]string, len(fls))
			for j, f := range fls {
				paths[j] = f.path
			}
			results, err = h.Hash(context.Background(), paths)
		} else {
			err = h.Each(context.Background(), Tree(root), func(r Result) { results = append(results, r) })
		}
		if err != nil {
			t.Fatal(err)
		}
		c.calls.Add(1)
		for _, res := range results {
			f := byPath[res.Path]
			if f == nil {
				if res.Err == nil {
					t.Errorf("%s: a result for a name never made", res.Path)
				}
				continue
			}
			c.results.Add(1)
			if res.Err != nil {
				if f.stable {
					t.Errorf("%s, never changed: %v", res.Path, res.Err)
				}
				c.errs.Add(1)
				v, _ := c.errKinds.LoadOrStore(errKind(res.Err), new(atomic.Int64))
				v.(*atomic.Int64).Add(1)
				continue
			}
			gens := f.since(before[slicesIndex(fls, f)])
			found := false
			for k, g := range gens {
				if int(res.Size) < g.least || int(res.Size) > g.most {
					continue
				}
				held := sha256.Sum256(append(append([]byte(nil), h.Prefix...), gen(g.seed, int(res.Size))...)) == res.Sum
				if held {
					found = true
					c.matched.Add(1)
					if int(res.Size) != g.least && int(res.Size) != g.most {
						c.prefixes.Add(1)
					}
					if k < len(gens)-1 {
						c.stale.Add(1)
					}
					break
				}
			}
			if !found {
				t.Errorf("%s: %d bytes, a digest of no content it held (generations %+v)", res.Path, res.Size, gens)
			}
		}
	}
	close(stop)
	wg.Wait()
	c.faults, c.changed = mapFaults.Load()-faults, mapChanged.Load()-changed
	c.again, c.gaveUp, c.unsettled = readAgain.Load()-again, gaveUp.Load()-gaveUps, ringUnsettled.Load()-unsettled
	t.Logf("%s", &c)
	return &c
}

func slicesIndex(fls []*soakFile, f *soakFile) int {
	for i, g := range fls {
		if g == f {
			return i
		}
	}
	return -1
}

// mutate changes the files k, k+n, k+2n, ... (each file has one mutator)
// until stop is closed. Every change is recorded before it is made.
func mutate(t *testing.T, fls []*soakFile, k, n int, tmp string, seeds *atomic.Uint64, c *soakCounts, stop chan struct{}) {
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(k)))
	pause := func() { time.Sleep(time.Duration(r.IntN(300)) * time.Microsecond) }
	// cur is the length of each file's current generation now.
	cur := map[*soakFile]int{}
	for i := k; i < len(fls); i += n {
		cur[fls[i]] = fls[i].gens[0].most
	}
	replace := func(f *soakFile) {
		s := seeds.Add(1)
		size := r.IntN(f.max + 1)
		p := filepath.Join(tmp, filepath.Base(f.path)+".new")
		if err := os.WriteFile(p, gen(s, size), 0o644); err != nil {
			t.Error(err)
			return
		}
		f.record(generation{seed: s, least: size, most: size})
		if err := os.Rename(p, f.path); err != nil {
			t.Error(err)
			return
		}
		f.mu.Lock()
		f.pub = len(f.gens) - 1
		f.mu.Unlock()
		cur[f] = size
	}
	for {
		select {
		case <-stop:
			return
		default:
		}
		f := fls[k+n*r.IntN((len(fls)-k+n-1)/n)]
		if f.stable {
			pause()
			continue
		}
		f.mu.Lock()
		g := f.gens[len(f.gens)-1]
		f.mu.Unlock()
		switch op := r.IntN(100); {
		case op < 25, op >= 45 && op < 65 && g.most >= f.max:
			replace(f)
			c.replaced.Add(1)
		case op < 45: // truncate
			to := r.IntN(cur[f] + 1)
			if r.IntN(2) == 0 {
				// Within the last page, often: a mapping's page past
				// the new end reads as zeros there, without a fault.
				to = max(0, cur[f]-r.IntN(4096))
			}
			f.widen(to)
			if err := os.Truncate(f.path, int64(to)); err != nil {
				t.Error(err)
				return
			}
			cur[f] = to
			c.truncated.Add(1)
		case op < 65 && g.most < f.max: // extend with G's next bytes
			// Past every length the generation had: a file whose size
			// comes back to its size at open is told changed by its
			// times only, which may be too coarse to see a truncation
			// and an extension within one tick.
			to := g.most + 1 + r.IntN(f.max-g.most)
			if r.IntN(2) == 0 {
				to = min(f.max, g.most+1+r.IntN(4096))
			}
			f.widen(to)
			w, err := os.OpenFile(f.path, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			_, err = w.WriteAt(gen(g.seed, to)[cur[f]:], int64(cur[f]))
			w.Close()
			if err != nil {
				t.Error(err)
				return
			}
			cur[f] = to
			c.extended.Add(1)
		case op < 80: // renamed away and back
			away := filepath.Join(tmp, filepath.Base(f.path)+".away")
			if err := os.Rename(f.path, away); err != nil {
				t.Error(err)
				return
			}
			pause()
			if err := os.Rename(away, f.path); err != nil {
				t.Error(err)
				return
			}
			c.renamed.Add(1)
		default: // deleted, and made again
			if err := os.Remove(f.path); err != nil {
				t.Error(err)
				return
			}
			pause()
			replace(f)
			c.deleted.Add(1)
		}
		pause()
	}
}
