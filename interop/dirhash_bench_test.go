package interop

import (
	"os"
	"path/filepath"
	"testing"

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
