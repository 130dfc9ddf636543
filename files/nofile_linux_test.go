package files

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sha256x/sha256x/internal/fdlimit"
)

// The child of TestShortOfDescriptors is this test binary run again with
// nofileEnv set to "spare way dir": it leaves itself spare descriptors
// (fdlimit.Leave), hashes the files of dir (way "list": Hash of their paths;
// "tree": Stream of Tree(dir)), and prints a line for each Result.
const nofileEnv = "SHA256X_TEST_NOFILE"

// nofileChild is the child's part of TestShortOfDescriptors.
func nofileChild(t *testing.T, arg string) {
	var spare int
	var way, dir string
	if _, err := fmt.Sscan(arg, &spare, &way, &dir); err != nil {
		t.Fatal(err)
	}
	var paths []string
	if way == "list" {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	if err := fdlimit.Leave(spare); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	print := func(r Result) {
		e := ""
		if r.Err != nil {
			e = r.Err.Error()
			if !errors.Is(r.Err, syscall.EMFILE) {
				e = "other: " + e
			}
		}
		fmt.Fprintf(out, "nofile\t%s\t%x\t%s\n", r.Path, r.Sum, e)
	}
	var h Hasher
	switch way {
	case "list":
		res, err := h.Hash(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			print(r)
		}
	case "tree":
		if err := h.Stream(context.Background(), Tree(dir), print); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	// Done: what the testing package does after a test may start the
	// process's first timer, and with it the runtime's poller, which
	// needs descriptors this process may not have (it does under -race).
	os.Exit(0)
}

// TestShortOfDescriptors: with the limit of open files leaving one
// descriptor, or a few, to spare, every file of many large ones (read or
// mapped, with io_uring or without) and of a tree of small and large ones
// gets crypto/sha256's digest; with none to spare, every file gets an
// error of its own, EMFILE. Each runs in a child process, whose limit it
// sets itself.
func TestShortOfDescriptors(t *testing.T) {
	if arg := os.Getenv(nofileEnv); arg != "" {
		nofileChild(t, arg)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	// Past smallMax (256 KiB) and mapMinSize, to be streamed and mapped:
	// three chunks of 128 KiB each.
	large := func(int) int64 { return 256<<10 + 1 + r.Int64N(64<<10) }
	list := filepath.Dir(randomFiles(t, r, 32, large)[0])
	tree := t.TempDir()
	for i := range 3 {
		sub := filepath.Join(tree, fmt.Sprintf("d%d", i), "sub")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for j, p := range randomFiles(t, r, 40, func(int) int64 { return r.Int64N(5000) }) {
			if err := os.Rename(p, filepath.Join(sub, "..", fmt.Sprintf("s%02d", j))); err != nil {
				t.Fatal(err)
			}
		}
		for j, p := range randomFiles(t, r, 6, large) {
			if err := os.Rename(p, filepath.Join(sub, fmt.Sprintf("l%d", j))); err != nil {
				t.Fatal(err)
			}
		}
	}
	var wantList, wantTree []string
	filepath.WalkDir(list, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			wantList = append(wantList, p)
		}
		return nil
	})
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			wantTree = append(wantTree, p)
		}
		return nil
	})
	cases := []struct {
		way, iouring, mmap string
		spare              int
	}{
		{"list", "on", "", 1},
		{"list", "on", "on", 1},
		{"list", "off", "off", 1},
		{"list", "off", "on", 8},
		{"list", "on", "off", 8},
		{"list", "", "", 20},
		{"tree", "on", "", 1},
		{"tree", "off", "", 1},
		{"tree", "", "", 8},
		{"list", "", "", 0},
		{"list", "off", "", 0},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/spare=%d/IOURING=%s/MMAP=%s", c.way, c.spare, c.iouring, c.mmap)
		t.Run(name, func(t *testing.T) {
			dir, paths := list, wantList
			if c.way == "tree" {
				dir, paths = tree, wantTree
			}
			cmd := exec.Command(exe, "-test.run=^TestShortOfDescriptors$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %s %s", nofileEnv, c.spare, c.way, dir),
				"SHA256X_IOURING="+c.iouring, "SHA256X_MMAP="+c.mmap)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
			}
			got := map[string][2]string{}
			for line := range strings.Lines(stdout.String()) {
				f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
				if len(f) == 4 && f[0] == "nofile" {
					got[f[1]] = [2]string{f[2], f[3]}
				}
			}
			if len(got) != len(paths) {
				t.Errorf("%d results, want %d\n%s", len(got), len(paths), stdout.Bytes())
			}
			for _, p := range paths {
				g, ok := got[p]
				switch {
				case !ok:
					t.Errorf("%s: no result", p)
				case c.spare == 0:
					// Nothing can be opened: an error of its own, and no digest.
					if g[1] == "" || strings.HasPrefix(g[1], "other: ") {
						t.Errorf("%s: error %q, want EMFILE", p, g[1])
					}
				case g[1] != "":
					t.Errorf("%s: %s", p, g[1])
				default:
					w := want(t, nil, p)
					if g[0] != hex.EncodeToString(w[:]) {
						t.Errorf("%s: digest %s, want %x", p, g[0], w)
					}
				}
			}
		})
	}
}

// ringsEnv names the directory whose files the child of TestIdleRingsClosed
// hashes.
const ringsEnv = "SHA256X_TEST_RINGS"

// TestIdleRingsClosed: in a process whose limit of open files is high
// enough for io_uring rings (their tables of 256 files count against it)
// but that has one descriptor to spare, a worker's ring, set up for a
// batch of small files, is closed for another worker's file refused a
// descriptor while the first waits for more files or has stopped: kept by
// that worker, the ring held the one descriptor, and the other worker's
// files failed with EMFILE, 8 to 72 of 96 in every run, nothing of the
// package being open that could close. Small files first, then large
// ones, on two workers, in four child processes.
func TestIdleRingsClosed(t *testing.T) {
	if dir := os.Getenv(ringsEnv); dir != "" {
		idleRingsChild(t, dir)
		return
	}
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 11))
	dir := t.TempDir()
	write := func(name string, size int64) {
		for _, p := range randomFiles(t, r, 1, func(int) int64 { return size }) {
			if err := os.Rename(p, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 64 {
		write(fmt.Sprintf("s%02d", i), 100+r.Int64N(3000))
	}
	for i := range 32 {
		write(fmt.Sprintf("t%02d", i), 256<<10+1+r.Int64N(64<<10))
	}
	for run := range 4 {
		cmd := exec.Command(exe, "-test.run=^TestIdleRingsClosed$", "-test.count=1")
		cmd.Env = append(os.Environ(), ringsEnv+"="+dir, "SHA256X_IOURING=on", "GOMAXPROCS=2")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		n := 0
		for line := range strings.Lines(string(out)) {
			f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
			if len(f) != 4 || f[0] != "nofile" {
				continue
			}
			n++
			if w := want(t, nil, f[1]); f[3] != "" || f[2] != hex.EncodeToString(w[:]) {
				t.Errorf("run %d: %s: %s, or a wrong digest", run, f[1], f[3])
			}
		}
		if n != 96 {
			t.Fatalf("run %d: %d results, want 96\n%s", run, n, out)
		}
	}
}

// idleRingsChild is the child's part of TestIdleRingsClosed: 300
// descriptors open (the limit then room for rings' tables), one to spare.
func idleRingsChild(t *testing.T, dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range ents {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	for range 300 {
		if _, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := fdlimit.Leave(1); err != nil {
		t.Fatal(err)
	}
	res, err := (&Hasher{Workers: 2}).Hash(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	for _, r := range res {
		e := ""
		if r.Err != nil {
			e = r.Err.Error()
		}
		fmt.Fprintf(out, "nofile\t%s\t%x\t%s\n", r.Path, r.Sum, e)
	}
	out.Flush()
	os.Exit(0) // before the testing package's timer: see nofileChild
}
