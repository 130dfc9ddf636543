package files

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestMapChanges: a large file that changes while hashed from its mapping,
// when its window at the given offset is mapped, gets the digest a later
// read gives: shrunk past a window not yet hashed (a fault), within its
// last page (no fault: zeros), grown, rewritten in place, emptied.
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
	// Sizes in units of 128 KiB, windows of four: past mapMinSize and
	// smallMax, quick under qemu (.ci/cross).
	const unit = 128 << 10
	defer setMapWindow(4 * unit)()
	truncate := func(n int64) func(*testing.T, string) {
		return func(t *testing.T, p string) {
			if err := os.Truncate(p, n); err != nil {
				t.Error(err)
			}
		}
	}
	changes := []change{
		{"shrinks into the window", 10 * unit, mapWindow, truncate(5*unit + 123), true, false},
		{"shrinks before the window", 10 * unit, 2 * mapWindow, truncate(3 * unit), true, false},
		{"shrinks within its last page", 10*unit + 3000, 2 * mapWindow, truncate(10*unit + 1000), false, false},
		{"emptied", 6 * unit, 0, truncate(0), true, false},
		{"grows", 6 * unit, mapWindow, func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			f.Write(make([]byte, unit+17))
		}, false, false},
		{"rewritten", 10 * unit, 2 * mapWindow, func(t *testing.T, p string) {
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
		for _, m := range []struct{ name, mmap string }{{"mapped", "on"}, {"trial", ""}} {
			if m.mmap == "" && os.Getenv("SHA256X_TEST_QEMU") != "" {
				continue // emulated (.ci/cross): the faults on each architecture; the trial is the same Go everywhere
			}
			for _, pre := range [][]byte{nil, []byte("leaf:")} {
				if raceEnabled && (m.mmap == "" || pre != nil) {
					// Under -race the fault's path in one way: the trial and a
					// prefix start no other goroutine (all run without -race).
					continue
				}
				t.Run(m.name+"/"+c.name, func(t *testing.T) {
					t.Setenv("SHA256X_MMAP", m.mmap)
					// Undecided throughout: rounds read and mapped by
					// turns, a unit of each file (two in the window at
					// "at"), the change made in a mapped one.
					resetTrial(t, 1<<20, nil)
					r := rand.New(rand.NewPCG(uint64(c.size), 2))
					paths := randomFiles(t, r, 4, func(i int) int64 {
						if i == 2 {
							return c.size
						}
						return 5*unit + r.Int64N(unit)
					})
					before := want(t, pre, paths[2])
					var sizes []int64
					for _, p := range paths {
						sizes = append(sizes, int64(len(mustRead(t, p))))
					}
					var made bool
					mapHook = func(p string, off int64) {
						if p == paths[2] && off == c.at && !made {
							made = true
							c.do(t, p)
						}
					}
					defer func() { mapHook = nil }()
					faults, changed := mapFaults.Load(), mapChanged.Load()
					var files, bytes int64
					h := Hasher{Workers: 1, Prefix: pre, Progress: func(f, b int64) { files, bytes = f, b }}
					res, err := h.Hash(context.Background(), paths)
					if err != nil || !made {
						t.Fatal(err, "made:", made)
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
					// One fault; under qemu (SHA256X_TEST_QEMU), with no
					// fault addresses, every mapped file of the round one.
					wantFaults := faults == 1
					if os.Getenv("SHA256X_TEST_QEMU") != "" {
						wantFaults = faults >= 1
					}
					wantChanged := changed == 1
					if c.either {
						wantChanged = changed <= 1
					}
					if m.mmap == "" && c.faults {
						// A read round may meet the new end first: then
						// the change is seen there, with no fault.
						wantFaults = wantFaults || faults == 0 && changed == 1
						changed = 0
					}
					if c.faults && (!wantFaults || changed != 0) || !c.faults && (faults != 0 || !wantChanged) {
						t.Errorf("%d faults, %d changes seen; want a fault: %v", faults, changed, c.faults)
					}
					if trialWay() != wayTrial {
						t.Errorf("the trial decided")
					}
				})
			}
		}
	}
}

// TestMapRefused: where a window cannot be mapped (a file system that does
// not map files gives ENODEV), the file is read from there on: refused at
// its start, and at its second window.
func TestMapRefused(t *testing.T) {
	t.Setenv("SHA256X_MMAP", "on")
	defer setMapWindow(1 << 20)()
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

// TestMapModes: SHA256X_MMAP=on maps every large file, off none, and
// unset (or show) a trial on the run's rounds decides, and files opened
// after it follow its decision: the digests are crypto/sha256's every way,
// and show prints the decision once.
func TestMapModes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	paths := randomFiles(t, r, 4, func(i int) int64 { return 1<<20 + r.Int64N(3<<20) })
	paths[0] = randomFiles(t, r, 1, func(int) int64 { return 7 << 20 })[0] // enough rounds to decide
	hash := func(mode string) (mapped int64) {
		t.Helper()
		mapped = mapFiles.Load()
		res, err := new(Hasher).Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if r.Err != nil || r.Sum != want(t, nil, paths[i]) {
				t.Errorf("SHA256X_MMAP=%q: %s: %v, digest right: %v", mode, paths[i], r.Err, r.Sum == want(t, nil, paths[i]))
			}
		}
		return mapFiles.Load() - mapped
	}
	for _, mode := range []string{"on", "off", "", "show"} {
		t.Run("SHA256X_MMAP="+mode, func(t *testing.T) {
			t.Setenv("SHA256X_MMAP", mode)
			resetTrial(t, 6, nil)
			stderr := os.Stderr
			out, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			os.Stderr = out
			mapped := hash(mode)
			os.Stderr = stderr
			shown := string(mustRead(t, out.Name()))
			out.Close()
			switch mode {
			case "on", "off":
				if want := map[string]int64{"on": int64(len(paths))}[mode]; mapped != want {
					t.Errorf("%d of %d files mapped, want %d", mapped, len(paths), want)
				}
				if trialWay() != wayTrial {
					t.Errorf("a trial decided, with the way forced")
				}
				return
			}
			way := trialWay()
			if way == wayTrial || mapped == 0 {
				t.Fatalf("undecided (%d) after hashing %d large files, %d of them set up to be mapped", way, len(paths), mapped)
			}
			t.Log(trial.result)
			wantShown := ""
			if mode == "show" {
				wantShown = trial.result.String() + "\n"
			}
			if shown != wantShown {
				t.Errorf("standard error: %q, want %q", shown, wantShown)
			}
			// Decided: the next files follow, every one mapped or none.
			if mapped, want := hash(mode), map[mapWay]int64{wayMapped: int64(len(paths))}[way]; mapped != want {
				t.Errorf("decided %d: the next call mapped %d of %d files, want %d", way, mapped, len(paths), want)
			}
		})
	}
}

// TestTrialDecides: a trial over several large files, on every worker,
// gives crypto/sha256's digests whichever way it decides (forced by the
// hook), with the files' rounds from before the decision mapped and read
// by turns, and those after it the decided way.
func TestTrialDecides(t *testing.T) {
	t.Setenv("SHA256X_MMAP", "")
	r := rand.New(rand.NewPCG(7, 7))
	paths := randomFiles(t, r, 6, func(int) int64 { return 3<<20 + r.Int64N(2<<20) })
	for _, pre := range [][]byte{nil, []byte("leaf:")} {
		for _, mapped := range []bool{true, false} {
			decided := 0
			resetTrial(t, 6, func(trialResult) bool { decided++; return mapped })
			for _, h := range []Hasher{{Prefix: pre}, {Prefix: pre, Workers: 1}} {
				res, err := h.Hash(context.Background(), paths)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range res {
					if r.Err != nil || r.Sum != want(t, pre, paths[i]) || r.Size != int64(len(mustRead(t, paths[i]))) {
						t.Errorf("decided mapped %v, %d workers: %s: %v, %d bytes, digest right: %v", mapped, h.Workers, paths[i], r.Err, r.Size, r.Sum == want(t, pre, paths[i]))
					}
				}
			}
			if want := map[bool]mapWay{true: wayMapped, false: wayRead}[mapped]; decided != 1 || trialWay() != want {
				t.Errorf("decided %d times, way %d; want once, %d", decided, trialWay(), want)
			}
		}
	}
}

// TestTrialReadUnmaps: once the trial decides to read, a mapped source
// reads on, leaving its mapping, and a file that changed after chunks were
// taken from it is caught at its end and read again: here one truncated at
// the decision, which a source still mapped would fault on (SIGBUS).
func TestTrialReadUnmaps(t *testing.T) {
	t.Setenv("SHA256X_MMAP", "")
	r := rand.New(rand.NewPCG(8, 8))
	paths := randomFiles(t, r, 3, func(int) int64 { return 12 << 20 })
	var windows, late atomic.Int64
	mapHook = func(string, int64) {
		windows.Add(1)
		if trialWay() != wayTrial {
			late.Add(1)
		}
	}
	defer func() { mapHook = nil }()
	resetTrial(t, 3, func(trialResult) bool {
		if err := os.Truncate(paths[1], 6<<20); err != nil {
			t.Error(err)
		}
		return false
	})
	// From the second round after the decision on (the decision comes
	// within a round, and the next one follows it), no file is mapped.
	after, mappedAfter := 0, 0
	progress := func(int64, int64) {
		if trialWay() == wayTrial {
			return
		}
		if after++; after < 2 {
			return
		}
		maps := string(mustRead(t, "/proc/self/maps"))
		for _, p := range paths {
			if strings.Contains(maps, p) {
				mappedAfter++
			}
		}
	}
	faults, changed := mapFaults.Load(), mapChanged.Load()
	res, err := (&Hasher{Workers: 1, Progress: progress}).Hash(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	faults, changed = mapFaults.Load()-faults, mapChanged.Load()-changed
	if after < 2 || mappedAfter != 0 {
		t.Errorf("%d rounds after the decision, and %d times a file was still mapped", after, mappedAfter)
	}
	for i, r := range res {
		if r.Err != nil || r.Sum != want(t, nil, paths[i]) || r.Size != int64(len(mustRead(t, paths[i]))) {
			t.Errorf("%s: %v, %d bytes, digest right: %v", paths[i], r.Err, r.Size, r.Sum == want(t, nil, paths[i]))
		}
	}
	if trialWay() != wayRead || windows.Load() != int64(len(paths)) || late.Load() != 0 {
		t.Errorf("way %d; %d windows mapped, %d after the decision; want read, one a file before it", trialWay(), windows.Load(), late.Load())
	}
	if faults != 0 || changed != 1 {
		t.Errorf("%d faults, %d changes seen; want none, one", faults, changed)
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
		// ChaCha8 fills b in assembly on amd64 and arm64: a loop of draws
		// took most of the tests' time under -race and qemu.
		var seed [32]byte
		for j := range 4 {
			binary.LittleEndian.PutUint64(seed[8*j:], r.Uint64())
		}
		rand.NewChaCha8(seed).Read(b)
		p := filepath.Join(dir, string(rune('a'+i)))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}
