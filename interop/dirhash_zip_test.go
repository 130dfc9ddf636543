package interop

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sha256x/sha256x/dirhash"
	xdirhash "golang.org/x/mod/sumdb/dirhash"
)

// TestHashZipOddEntries: zips no module zip would be, hashed by HashZip as
// x/mod's HashZip hashes them (the same hash or the same error): a name
// twice with different contents (both take the last entry of the name), a
// directory entry, a name with a newline, no entries, an entry of a
// stored (not deflated) method, large and empty entries, entries in no
// order.
func TestHashZipOddEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 9))
	type entry struct {
		name  string
		size  int
		store bool
	}
	for i, entries := range [][]entry{
		{},
		{{"m@v1/a", 10, false}},
		{{"m@v1/a", 10, false}, {"m@v1/a", 20, false}},
		{{"m@v1/b", 5, false}, {"m@v1/a", 7, true}, {"m@v1/b", 9, true}, {"m@v1/c", 0, false}},
		{{"m@v1/d/", 0, false}, {"m@v1/d/e", 3, false}},
		{{"m@v1/x\ny", 3, false}, {"m@v1/a", 3, false}},
		{{"m@v1/a", 3, false}, {"m@v1/z\n", 3, false}},
		{{"m@v1/big", 3 << 20, false}, {"m@v1/empty", 0, true}, {"m@v1/big", 1 << 20, true}},
		{{"", 4, false}, {"/abs", 4, false}, {"../up", 4, false}},
	} {
		var b bytes.Buffer
		w := zip.NewWriter(&b)
		for _, e := range entries {
			h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
			if e.store {
				h.Method = zip.Store
			}
			fw, err := w.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			data := make([]byte, e.size)
			for k := range data {
				data[k] = byte(r.Uint32())
			}
			fw.Write(data)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		zf := filepath.Join(t.TempDir(), fmt.Sprintf("odd%d.zip", i))
		if err := os.WriteFile(zf, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		want, werr := xdirhash.HashZip(zf, xdirhash.Hash1)
		for _, h := range []struct {
			name string
			fn   dirhash.Hash
		}{{"Hash1", dirhash.Hash1}, {"x/mod's Hash1", dirhash.Hash(xdirhash.Hash1)}} {
			got, gerr := dirhash.HashZip(zf, h.fn)
			if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Errorf("zip %d, HashZip with %s: %q, %v; x/mod %q, %v", i, h.name, got, gerr, want, werr)
			}
		}
		if got, gerr := xdirhash.HashZip(zf, xdirhash.Hash(dirhash.Hash1)); got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("zip %d, x/mod's HashZip with our Hash1: %q, %v; x/mod %q, %v", i, got, gerr, want, werr)
		}
		if testing.Verbose() {
			t.Logf("zip %d: %q, %v", i, want, werr)
		}
	}
}
