package dirhash

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestPageSizedFiles: files whose sizes are whole pages (a mapped file's
// last byte then ends its mapping, the next page unmapped or another
// mapping's), or a byte or a padding length around them, through HashDir,
// Hash1 and HashZip's Hash1, against the reference.
func TestPageSizedFiles(t *testing.T) {
	ps := os.Getpagesize()
	dir := t.TempDir()
	contents := map[string]string{}
	sizes := []int{0, 1, 55, 56, 63, 64, 65, ps - 1, ps, ps + 1, 256<<10 - 1, 256 << 10, 256<<10 + 1, 256<<10 + ps, 512 << 10, 1 << 20, 1<<20 + 64, 3 << 20}
	for i, n := range sizes {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(j*7 + i + j>>12)
		}
		rel := fmt.Sprintf("f%02d", i)
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
		contents["m@v1/"+rel] = string(b)
	}
	want := reference(contents)
	for round := range 3 { // the files package's trial may map the later rounds
		if got, err := HashDir(dir, "m@v1", Hash1); got != want || err != nil {
			t.Fatalf("round %d: HashDir %s, %v; want %s", round, got, err, want)
		}
	}
	names, err := DirFiles(dir, "m@v1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Hash1(names, func(name string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(dir, name[len("m@v1/"):]))
	})
	if got != want || err != nil {
		t.Fatalf("Hash1 %s, %v; want %s", got, err, want)
	}
}
