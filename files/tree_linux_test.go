package files

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTreeUntypedInterrupted: on a file system whose directory entries
// give no type (DT_UNKNOWN: ext2 without filetype, some FUSE and network
// ones), Tree lstats each entry, and an lstat interrupted by a signal
// (EINTR, as FUSE, NFS or CIFS give for the runtime's SIGURG) is made
// again, as os.ReadDir makes it: Tree lists what the reference walk lists.
func TestTreeUntypedInterrupted(t *testing.T) {
	dir := t.TempDir()
	randomTree(t, dir, 29, 60, 5000)
	if err := os.Symlink("d0/f0000", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	savedDents, savedStat := getdents, fstatat
	defer func() { getdents, fstatat = savedDents, savedStat }()
	getdents = func(fd int, buf []byte) (int, error) {
		n, err := savedDents(fd, buf)
		for b := buf[:max(n, 0)]; len(b) >= 19; b = b[direntReclen(b):] {
			b[18] = unix.DT_UNKNOWN
		}
		return n, err
	}
	var calls, interrupted atomic.Int64
	fstatat = func(dirfd int, path string, st *unix.Stat_t, flags int) error {
		if calls.Add(1)%3 != 0 { // two calls of three interrupted
			interrupted.Add(1)
			return unix.EINTR
		}
		return savedStat(dirfd, path, st, flags)
	}
	got := slices.Collect(Tree(dir))
	want := referenceTree(dir)
	if interrupted.Load() == 0 {
		t.Fatal("no lstat interrupted")
	}
	if len(got) != len(want) {
		t.Fatalf("Tree: %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i := range got {
		if got[i].Path != want[i].Path || got[i].Regular != want[i].Regular || fmt.Sprint(got[i].Err) != fmt.Sprint(want[i].Err) {
			t.Fatalf("Tree entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestSortByName: sortByName orders names as a sort of the strings does,
// where names share prefixes shorter and longer than a key, where one is
// the start of another, with bytes above 0x7f, and in directories whose
// indexes take one byte, two, and more.
func TestSortByName(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', 'b', '0', '9', 0x01, 0x7f, 0x80, 0xff}
	prefixes := []string{"", "f", "file-with-a-long-name-", "\xff\xfe"}
	var r dirReader
	for round := range 2001 {
		prefix := prefixes[round%len(prefixes)]
		seen := map[string]bool{}
		var ents []dent
		size := 1 + rng.IntN(300)
		if round == 2000 {
			size = 70000 // more than an index of two bytes counts
		}
		for range size {
			b := []byte(prefix)
			for range rng.IntN(12) {
				b = append(b, alphabet[rng.IntN(len(alphabet))])
			}
			if name := string(b); name != "" && !seen[name] {
				seen[name] = true
				ents = append(ents, dent{name: name})
			}
		}
		var want []string
		for _, e := range ents {
			want = append(want, e.name)
		}
		slices.Sort(want)
		r.sortByName(ents)
		for i, e := range ents {
			if e.name != want[i] {
				t.Fatalf("round %d: entry %d is %q, want %q", round, i, e.name, want[i])
			}
		}
	}
}

// BenchmarkSortByName sorts a directory of 100 short names, as in
// bench/smallfiles.pl's tree, by sortByName and by strings.Compare.
func BenchmarkSortByName(b *testing.B) {
	var names []dent
	for i := range 100 {
		names = append(names, dent{name: fmt.Sprintf("f%02d", i)})
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	ents := make([]dent, len(names))
	var r dirReader
	b.Run("impl=sortByName", func(b *testing.B) {
		for b.Loop() {
			copy(ents, names)
			r.sortByName(ents)
		}
	})
	b.Run("impl=strings.Compare", func(b *testing.B) {
		for b.Loop() {
			copy(ents, names)
			slices.SortFunc(ents, compareNames)
		}
	})
}
