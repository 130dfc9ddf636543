package merkle

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// forceSplit makes every tree of at least 2 leaves split into subtrees of
// sub leaves (or more: perWorker per worker) for the rest of the test, and
// GOMAXPROCS at least 8, so that Workers up to 8 count.
func forceSplit(t testing.TB, sub, perWorker int) {
	a, b, c := splitMin, minSubtree, subtreesPerWorker
	splitMin, minSubtree, subtreesPerWorker = 2, sub, perWorker
	procs := runtime.GOMAXPROCS(max(8, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() {
		splitMin, minSubtree, subtreesPerWorker = a, b, c
		runtime.GOMAXPROCS(procs)
	})
}

// serialOf returns s with one worker: the unsplit path.
func serialOf(s *Scheme) *Scheme {
	c := *s
	c.Workers = 1
	return &c
}

// TestSplit: split trees, in subtrees of 2 to 64 leaves on 2 to 7
// workers, have the roots, levels and proofs of the serial code and of the
// reference implementations, for every scheme and every size 0..70 and
// some ragged larger ones.
func TestSplit(t *testing.T) {
	ns := []int{}
	for n := range 71 {
		ns = append(ns, n)
	}
	ns = append(ns, 127, 129, 255, 1000, 1025)
	if !testing.Short() && !raceEnabled {
		ns = append(ns, 4097, 1<<14+3)
	}
	for _, ts := range testSchemes {
		t.Run(ts.name, func(t *testing.T) {
			serial := serialOf(ts.s)
			type want struct {
				root   [Size]byte
				levels [][][Size]byte
			}
			wants := map[int]want{}
			for _, n := range ns {
				if n == 0 && ts.s.NoEmpty {
					continue
				}
				leaves := ts.leaves(n)
				root := ts.ref(leaves)
				if got := serial.Root(leaves); got != root {
					t.Fatalf("%d leaves: serial root %x, reference %x", n, got, root)
				}
				wants[n] = want{root, serial.Build(leaves).Levels()}
			}
			subs, workerCounts := []int{2, 4, 8, 64}, []int{2, 3, 7}
			if raceEnabled {
				subs, workerCounts = []int{2, 8}, []int{2, 3}
			}
			for _, sub := range subs {
				for _, workers := range workerCounts {
					forceSplit(t, sub, 1)
					s := *ts.s
					s.Workers = workers
					for _, n := range ns {
						w, ok := wants[n]
						if !ok {
							continue
						}
						leaves := ts.leaves(n)
						nodes := make([][Size]byte, n)
						for i, l := range leaves {
							nodes[i] = s.LeafHash(l)
						}
						where := fmt.Sprintf("%d leaves, subtrees of %d, %d workers", n, sub, workers)
						for name, got := range map[string][Size]byte{
							"Root":      s.Root(leaves),
							"RootNodes": s.RootNodes(nodes),
						} {
							if got != w.root {
								t.Fatalf("%s: %s %x, want %x", where, name, got, w.root)
							}
						}
						tree, treeNodes := s.Build(leaves), s.BuildNodes(nodes)
						for name, lv := range map[string][][][Size]byte{
							"Build":      tree.Levels(),
							"BuildNodes": treeNodes.Levels(),
						} {
							if !slices.EqualFunc(lv, w.levels, slices.Equal) {
								t.Fatalf("%s: %s's levels differ from the serial tree's", where, name)
							}
						}
						if n > 0 {
							serialTree := &Tree{s: *serial, levels: w.levels}
							for _, i := range []int{0, n / 2, n - 1} {
								p, q := tree.Proof(i), serialTree.Proof(i)
								if !slices.Equal(p.Path, q.Path) || s.Verify(w.root, leaves[i], p) != nil {
									t.Fatalf("%s: the proof of leaf %d differs from the serial one's", where, i)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestSplitDefault: with the real thresholds, the default Workers splits a
// large tree on a machine of several cores and not a small one, and
// Workers = 1 never splits.
func TestSplitDefault(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if w, _ := Binary.plan(1<<20, nil); w != min(procs, w) || (procs > 1 && w < 2) {
		t.Errorf("a tree of 2^20 leaves on GOMAXPROCS %d: %d workers", procs, w)
	}
	if w, _ := Binary.plan(splitMin-1, nil); w != 1 {
		t.Errorf("a tree of %d leaves: %d workers", splitMin-1, w)
	}
	if w, _ := serialOf(&Binary).plan(1<<20, nil); w != 1 {
		t.Errorf("Workers = 1: %d workers", w)
	}
	long := make([][]byte, 1000)
	for i := range long {
		long[i] = make([]byte, 4096)
	}
	if w, k := RFC6962.plan(len(long), long); procs > 1 && (w < 2 || 1<<k > 1000/w) {
		t.Errorf("1,000 leaves of 4 KiB: %d workers, subtrees of 2^%d", w, k)
	}
	if w, _ := RFC6962.plan(1000, data(1000)); w != 1 {
		t.Errorf("1,000 leaves of about 100 bytes: %d workers", w)
	}
	s := Binary
	s.Workers = 3
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	if runtime.GOMAXPROCS(0) != 4 {
		t.Skipf("GOMAXPROCS is %d, set to 4 (js/wasm has one P)", runtime.GOMAXPROCS(0))
	}
	if w, k := s.plan(1<<20, nil); w != 3 || 1<<k < minSubtree || (1<<20)>>k < 3*subtreesPerWorker {
		t.Errorf("Workers = 3, GOMAXPROCS 4, 2^20 leaves: %d workers, subtrees of 2^%d", w, k)
	}
	s.Workers = 8
	if w, _ := s.plan(1<<20, nil); w != 4 {
		t.Errorf("Workers = 8, GOMAXPROCS 4: %d workers", w)
	}
}

// TestSplitPanics: a bad leaf, or a bad Scheme, panics in the caller with
// the serial code's message, even when the helper goroutines meet it; with
// several bad leaves, the first one's.
func TestSplitPanics(t *testing.T) {
	forceSplit(t, 4, 4)
	leaves := chunks(100)
	leaves[37] = leaves[37][:31]
	leaves[90] = leaves[90][:30]
	bad := Bitcoin
	bad.Workers = 4
	wide := RFC6962
	wide.Node.Width = 33
	wide.Workers = 3
	for _, c := range []struct {
		name, msg string
		f         func()
	}{
		{"Root", "sha256x: merkle: leaf 37 has 31 bytes in a scheme of 32-byte leaves", func() { bad.Root(leaves) }},
		{"Build", "sha256x: merkle: leaf 37 has 31 bytes in a scheme of 32-byte leaves", func() { bad.Build(leaves) }},
		{"width", "sha256x: Join.Width = 33, not in 0..32", func() { wide.Root(data(50)) }},
		{"workers", "sha256x: merkle: Scheme.Workers = -1, less than 0", func() { (&Scheme{Workers: -1}).Root(data(50)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Errorf("panic %q, want %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
	// The pooled scratch still works after a panic.
	if got, want := bad.Root(chunks(100)), refBitcoin(nodesOf(chunks(100))); got != want {
		t.Errorf("after a panic: root %x, want %x", got, want)
	}
}

// TestSplitAllocs: a split tree allocates once for each goroutine it
// starts (16 bytes: the go statement's closure), and nothing per node.
func TestSplitAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	leaves := chunks(1 << 10)
	nodes := nodesOf(leaves)
	for _, workers := range []int{2, 4, 8} {
		forceSplit(t, 64, 2)
		for _, ts := range testSchemes {
			s := *ts.s
			s.Workers = workers
			l := leaves
			if !s.RawLeaves {
				l = data(1 << 10)
			}
			for name, f := range map[string]func(){
				"Root":      func() { s.Root(l) },
				"RootNodes": func() { s.RootNodes(nodes) },
				"Build":     func() { s.Build(l) },
			} {
				f()
				a := testing.AllocsPerRun(20, f)
				want := workers - 1 // the go statements' closures
				if name == "Build" {
					want += 3 // the nodes, the level headers, the Tree
				}
				if a > float64(want) {
					t.Errorf("%s %s, %d workers: %v allocations per call, want %d", ts.name, name, workers, a, want)
				}
			}
		}
	}
}

// TestSplitConcurrent: split trees built from several goroutines at once
// (for -race), each its own size.
func TestSplitConcurrent(t *testing.T) {
	forceSplit(t, 8, 2)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 200 + 37*g
			leaves := data(n)
			want := refRFC6962(leaves)
			s := RFC6962
			s.Workers = 2 + g%3
			for range 10 {
				if r := s.Root(leaves); r != want {
					errs <- fmt.Sprintf("%d leaves: root %x, want %x", n, r, want)
					return
				}
				if r := s.Build(leaves).Root(); r != want {
					errs <- fmt.Sprintf("%d leaves: Build root %x, want %x", n, r, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	var msgs []string
	for e := range errs {
		msgs = append(msgs, e)
	}
	if len(msgs) > 0 {
		t.Fatal(strings.Join(msgs, "\n"))
	}
}
