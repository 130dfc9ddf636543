package files

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
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
	for _, f := range []string{"../README.md", "files.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s does not say %q", f, want)
		}
	}
}
