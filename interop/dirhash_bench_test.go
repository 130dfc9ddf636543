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
// with x/mod's HashDir and with this module's, page cache warm, every core;
// and with x/mod's HashDir handed this module's Hash1 (impl=x-mod+our-hash1),
// the one-identifier switch, which must be no slower than x/mod's own.
//
//	go test -run '^$' -bench 'HashDir|HashZip' -count 10 | benchstat -col /impl -
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
		{"impl=x-mod+our-hash1", func() (string, error) { return xdirhash.HashDir(dir, prefix, dirhash.Hash1) }},
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

// BenchmarkHashZip hashes golang.org/x/sys's module zip in the module
// cache, as BenchmarkHashDir its tree: x/mod's HashZip with x/mod's Hash1,
// with this module's Hash1, and this module's HashZip.
func BenchmarkHashZip(b *testing.B) {
	zips, _ := filepath.Glob(filepath.Join(modCache(&testing.T{}), "cache", "download", "golang.org", "x", "sys", "@v", "*.zip"))
	if len(zips) == 0 {
		b.Skip("golang.org/x/sys's zip is not in the module cache")
	}
	z := zips[len(zips)-1]
	fi, err := os.Stat(z)
	if err != nil {
		b.Fatal(err)
	}
	want, err := xdirhash.HashZip(z, xdirhash.Hash1)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func() (string, error)
	}{
		{"impl=x-mod", func() (string, error) { return xdirhash.HashZip(z, xdirhash.Hash1) }},
		{"impl=x-mod+our-hash1", func() (string, error) { return xdirhash.HashZip(z, dirhash.Hash1) }},
		{"impl=sha256x", func() (string, error) { return dirhash.HashZip(z, dirhash.Hash1) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(fi.Size())
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
// ratio, the median and the worst; and x/mod's HashDir handed our Hash1,
// against x/mod's with its own. It runs only with SHA256X_ROUNDS=N.
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
	var ratios, switched []float64
	var theirs, mine, hash1 []time.Duration
	for range n {
		a := time1(xdirhash.HashDir, xdirhash.Hash1)
		b := time1(ours, dirhash.Hash1)
		c := time1(xdirhash.HashDir, dirhash.Hash1)
		theirs, mine, hash1 = append(theirs, a), append(mine, b), append(hash1, c)
		ratios = append(ratios, float64(a)/float64(b))
		switched = append(switched, float64(a)/float64(c))
	}
	slices.Sort(ratios)
	slices.Sort(switched)
	slices.Sort(theirs)
	slices.Sort(mine)
	slices.Sort(hash1)
	t.Logf("%s, %d rounds of %d calls each: x/mod median %v, sha256x median %v; ratio median %.2fx, worst %.2fx, best %.2fx",
		prefix, n, calls, theirs[n/2], mine[n/2], ratios[n/2], ratios[0], ratios[n-1])
	t.Logf("x/mod's HashDir with our Hash1: median %v; x/mod's own over it: median %.2fx, worst %.2fx, best %.2fx",
		hash1[n/2], switched[n/2], switched[0], switched[n-1])
}
