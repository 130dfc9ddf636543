package interop

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	xdirhash "golang.org/x/mod/sumdb/dirhash"

	"github.com/sha256x/sha256x/dirhash"
)

// BenchmarkHashDir hashes the tree of golang.org/x/sys in the module cache
// with x/mod's HashDir and with this module's, page cache warm, every core.
//
//	go test -run '^$' -bench HashDir -count 10 | benchstat -col /impl -
func BenchmarkHashDir(b *testing.B) {
	root := modCache(&testing.T{})
	mods, _ := filepath.Glob(filepath.Join(root, "golang.org", "x", "sys@*"))
	if len(mods) == 0 {
		b.Skip("golang.org/x/sys is not in the module cache")
	}
	dir := mods[len(mods)-1]
	rel, _ := filepath.Rel(root, dir)
	prefix := filepath.ToSlash(rel)
	var size int64
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if fi, err := e.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	want, err := xdirhash.HashDir(dir, prefix, xdirhash.Hash1)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d bytes", prefix, size)
	for _, c := range []struct {
		name string
		f    func() (string, error)
	}{
		{"impl=x-mod", func() (string, error) { return xdirhash.HashDir(dir, prefix, xdirhash.Hash1) }},
		{"impl=sha256x", func() (string, error) { return dirhash.HashDir(dir, prefix, dirhash.Hash1) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if got, err := c.f(); got != want || err != nil {
					b.Fatal(got, err)
				}
			}
		})
	}
}

// TestHashDirRounds times x/mod's HashDir and this module's on
// golang.org/x/sys round by round, interleaved, and logs each round's
// ratio, the median and the worst. It runs only with SHA256X_ROUNDS=N.
//
//	SHA256X_ROUNDS=20 go test -run HashDirRounds -v
func TestHashDirRounds(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SHA256X_ROUNDS"))
	if n <= 0 {
		t.Skip("set SHA256X_ROUNDS=N to time N rounds")
	}
	mods, _ := filepath.Glob(filepath.Join(modCache(t), "golang.org", "x", "sys@*"))
	if len(mods) == 0 {
		t.Skip("golang.org/x/sys is not in the module cache")
	}
	dir := mods[len(mods)-1]
	prefix := "golang.org/x/" + filepath.Base(dir)
	const calls = 5
	time1 := func(f func(string, string, xdirhash.Hash) (string, error), h xdirhash.Hash) time.Duration {
		start := time.Now()
		for range calls {
			if _, err := f(dir, prefix, h); err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(start) / calls
	}
	ours := func(d, p string, h xdirhash.Hash) (string, error) { return dirhash.HashDir(d, p, dirhash.Hash(h)) }
	time1(xdirhash.HashDir, xdirhash.Hash1) // warm the page cache
	var ratios []float64
	var theirs, mine []time.Duration
	for range n {
		a := time1(xdirhash.HashDir, xdirhash.Hash1)
		b := time1(ours, dirhash.Hash1)
		theirs, mine = append(theirs, a), append(mine, b)
		ratios = append(ratios, float64(a)/float64(b))
	}
	slices.Sort(ratios)
	slices.Sort(theirs)
	slices.Sort(mine)
	t.Logf("%s, %d rounds of %d calls each: x/mod median %v, sha256x median %v; ratio median %.2fx, worst %.2fx, best %.2fx",
		prefix, n, calls, theirs[n/2], mine[n/2], ratios[n/2], ratios[0], ratios[n-1])
}
