package interop

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	xdirhash "golang.org/x/mod/sumdb/dirhash"

	"github.com/sha256x/sha256x/dirhash"
	"github.com/sha256x/sha256x/files"
)

// Hash1 has the exact type x/mod's functions take.
var _ xdirhash.Hash = dirhash.Hash1

// modCache is the machine's module cache (GOMODCACHE).
func modCache(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestModuleZips: for every module zip in the module cache, HashZip gives
// what x/mod's HashZip gives and what the cache's .ziphash file records,
// with either package's HashZip and either package's Hash1.
func TestModuleZips(t *testing.T) {
	root := filepath.Join(modCache(t), "cache", "download")
	var zips []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zip") {
			zips = append(zips, p)
		}
		return nil
	})
	if len(zips) == 0 {
		t.Fatalf("no module zips under %s", root)
	}
	for _, z := range zips {
		want, err := xdirhash.HashZip(z, xdirhash.Hash1)
		if err != nil {
			t.Errorf("%s: x/mod: %v", z, err)
			continue
		}
		if rec, err := os.ReadFile(strings.TrimSuffix(z, ".zip") + ".ziphash"); err == nil {
			if got := strings.TrimSpace(string(rec)); got != want {
				t.Errorf("%s: .ziphash %s, x/mod computes %s", z, got, want)
			}
		}
		for name, f := range map[string]func() (string, error){
			"ours":                func() (string, error) { return dirhash.HashZip(z, dirhash.Hash1) },
			"ours, x/mod's Hash1": func() (string, error) { return dirhash.HashZip(z, dirhash.Hash(xdirhash.Hash1)) },
			"x/mod's, our Hash1":  func() (string, error) { return xdirhash.HashZip(z, dirhash.Hash1) },
		} {
			if got, err := f(); got != want || err != nil {
				t.Errorf("%s: %s: %s, %v; want %s", z, name, got, err, want)
			}
		}
	}
	t.Logf("%d module zips", len(zips))
}

// TestModuleDirs: every extracted module tree in the cache hashes as x/mod
// hashes it (prefix module@version, as go mod verify does).
func TestModuleDirs(t *testing.T) {
	root := modCache(t)
	var dirs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p == filepath.Join(root, "cache") {
			return filepath.SkipDir
		}
		if strings.Contains(d.Name(), "@") {
			dirs = append(dirs, p)
			return filepath.SkipDir
		}
		return nil
	})
	if len(dirs) == 0 {
		t.Fatalf("no module trees under %s", root)
	}
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		prefix := filepath.ToSlash(rel)
		want, werr := xdirhash.HashDir(d, prefix, xdirhash.Hash1)
		got, gerr := dirhash.HashDir(d, prefix, dirhash.Hash1)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%s: %s, %v; x/mod %s, %v", d, got, gerr, want, werr)
		}
	}
	t.Logf("%d module trees", len(dirs))
}

// randomTree writes n files of 0..max bytes, some nested, under dir.
func randomTree(t *testing.T, dir string, seed uint64, n, max int) []string {
	r := rand.New(rand.NewPCG(seed, 9))
	fill := rand.NewChaCha8([32]byte{byte(seed)})
	var names []string
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		for range r.IntN(3) {
			name = fmt.Sprintf("d%d/%s", r.IntN(4), name)
		}
		if r.IntN(5) == 0 {
			name += " with spaces"
		}
		size := r.IntN(max + 1)
		if r.IntN(4) == 0 {
			size = r.IntN(300) // many small ones
		}
		b := make([]byte, size)
		fill.Read(b)
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// TestRandomTrees: random trees, their zips, and trees with files that
// cannot be hashed: the same hash, or the same error, as x/mod.
func TestRandomTrees(t *testing.T) {
	for seed := range uint64(6) {
		dir := t.TempDir()
		n, max := 1+int(seed)*40, 1<<20
		if seed%2 == 0 {
			max = 5000
		}
		randomTree(t, dir, seed, n, max)
		switch seed {
		case 3: // a link to a directory: listed, and unreadable
			os.Symlink("d0", filepath.Join(dir, "zlink"))
		case 4: // a dangling link
			os.Symlink("nowhere", filepath.Join(dir, "dangling"))
		case 5: // a name with a newline
			os.WriteFile(filepath.Join(dir, "new\nline"), []byte("x"), 0o644)
		}
		prefix := fmt.Sprintf("example.com/m%d@v1.0.0", seed)
		want, werr := xdirhash.HashDir(dir, prefix, xdirhash.Hash1)
		got, gerr := dirhash.HashDir(dir, prefix, dirhash.Hash1)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("seed %d: HashDir %s, %v; x/mod %s, %v", seed, got, gerr, want, werr)
		}
		if got, gerr := xdirhash.HashDir(dir, prefix, dirhash.Hash1); got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("seed %d: x/mod's HashDir with our Hash1: %s, %v; want %s, %v", seed, got, gerr, want, werr)
		}
		if werr != nil {
			t.Logf("seed %d: both fail with %v", seed, werr)
			continue
		}
		// The same tree as a module zip.
		zf := filepath.Join(t.TempDir(), "m.zip")
		writeZip(t, zf, dir, prefix, false)
		zwant, err := xdirhash.HashZip(zf, xdirhash.Hash1)
		if err != nil || zwant != want {
			t.Fatalf("seed %d: x/mod HashZip %s, %v; HashDir %s", seed, zwant, err, want)
		}
		if got, err := dirhash.HashZip(zf, dirhash.Hash1); got != want || err != nil {
			t.Errorf("seed %d: HashZip %s, %v; want %s", seed, got, err, want)
		}
		// A zip with a damaged entry: the same error.
		writeZip(t, zf, dir, prefix, true)
		_, werr = xdirhash.HashZip(zf, xdirhash.Hash1)
		_, gerr = dirhash.HashZip(zf, dirhash.Hash1)
		if werr == nil || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("seed %d: damaged zip: %v; x/mod %v", seed, gerr, werr)
		}
	}
}

// writeZip zips dir's files under prefix; with damage, the last entry's
// stored CRC is wrong.
func writeZip(t *testing.T, zf, dir, prefix string, damage bool) {
	names, err := xdirhash.DirFiles(dir, prefix)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(n, prefix)))
		if err != nil {
			t.Fatal(err)
		}
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		if damage && i == len(names)-1 {
			h.Method = zip.Store
			h.CRC32 = 12345
			h.UncompressedSize64 = uint64(len(data))
			h.CompressedSize64 = uint64(len(data))
			fw, err := w.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			fw.Write(data)
			continue
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zf, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHash1Errors: Hash1 with an open that fails, and a reader that fails,
// returns what x/mod's returns.
func TestHash1Errors(t *testing.T) {
	names := []string{"b", "a", "c", "d"}
	content := map[string]string{"a": "alpha", "b": strings.Repeat("b", 300<<10), "c": "", "d": "delta"}
	for _, bad := range []string{"", "a", "b", "c", "d"} {
		open := func(name string) (io.ReadCloser, error) {
			if name == bad && bad < "c" {
				return nil, fmt.Errorf("cannot open %s", name)
			}
			r := io.Reader(strings.NewReader(content[name]))
			if name == bad {
				r = io.MultiReader(r, iotestErr{})
			}
			return io.NopCloser(r), nil
		}
		want, werr := xdirhash.Hash1(names, open)
		got, gerr := dirhash.Hash1(names, open)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("bad %q: %s, %v; x/mod %s, %v", bad, got, gerr, want, werr)
		}
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, fmt.Errorf("read failed") }

// TestFilesAgainstCryptoSHA256: the files package's digests of a random
// tree of 0..1 MiB files are crypto/sha256's.
func TestFilesAgainstCryptoSHA256(t *testing.T) {
	dir := t.TempDir()
	names := randomTree(t, dir, 77, 120, 1<<20)
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = filepath.Join(dir, n)
	}
	for _, h := range []files.Hasher{{}, {PlainReads: true}, {Workers: 1, Memory: 1 << 20}} {
		res, err := h.Hash(t.Context(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			data, err := os.ReadFile(paths[i])
			if err != nil || r.Err != nil || r.Sum != sha256.Sum256(data) || r.Size != int64(len(data)) {
				t.Fatalf("%+v: %s: wrong (size %d, err %v)", h, names[i], r.Size, r.Err)
			}
		}
	}
}

// TestHash1UnexpectedEOF: a reader that fails with io.ErrUnexpectedEOF
// (flate's error for a truncated stream) fails Hash1 and HashZip as it
// fails x/mod's, whose io.Copy returns it: it is not a file that ends
// there.
func TestHash1UnexpectedEOF(t *testing.T) {
	names := []string{"a", "b"}
	for _, n := range []int{0, 5} {
		open := func(name string) (io.ReadCloser, error) {
			r := io.Reader(strings.NewReader("hello"))
			if name == "b" {
				r = io.MultiReader(strings.NewReader("truncated"[:n]), unexpectedEOF{})
			}
			return io.NopCloser(r), nil
		}
		want, werr := xdirhash.Hash1(names, open)
		got, gerr := dirhash.Hash1(names, open)
		if werr == nil || got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%d bytes, then io.ErrUnexpectedEOF: %q, %v; x/mod %q, %v", n, got, gerr, want, werr)
		}
	}

	// A zip whose deflated entry is cut short, its sizes saying so.
	var data bytes.Buffer
	fw := flateWriter(&data)
	fw.Write(bytes.Repeat([]byte("some module file\n"), 500))
	fw.Close()
	cut := data.Bytes()[:data.Len()/2]
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	ok, _ := w.Create("m@v1/a.go")
	ok.Write([]byte("package a\n"))
	raw, err := w.CreateRaw(&zip.FileHeader{Name: "m@v1/b.go", Method: zip.Deflate, CRC32: 1,
		CompressedSize64: uint64(len(cut)), UncompressedSize64: 500 * 17})
	if err != nil {
		t.Fatal(err)
	}
	raw.Write(cut)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	zf := filepath.Join(t.TempDir(), "m.zip")
	if err := os.WriteFile(zf, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, werr := xdirhash.HashZip(zf, xdirhash.Hash1)
	got, gerr := dirhash.HashZip(zf, dirhash.Hash1)
	if werr == nil || got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Errorf("a truncated zip entry: %q, %v; x/mod %q, %v", got, gerr, want, werr)
	}
}

type unexpectedEOF struct{}

func (unexpectedEOF) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func flateWriter(w io.Writer) io.WriteCloser {
	fw, _ := flate.NewWriter(w, flate.DefaultCompression)
	return fw
}

// TestHashDirPrefixes: HashDir with Hash1 hashes, or fails on, the files
// x/mod's HashDir opens, also where joining the prefix cleans the names
// ("./m", "a/../b", "m//v") or dir is "" (x/mod then opens "/" + name).
func TestHashDirPrefixes(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"f", "m/f", "m/v/f", "m/m"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)
	}
	t.Chdir(dir)
	for _, c := range []struct{ dir, prefix string }{
		{dir, "example.com/m@v1.0.0"}, {dir, ""}, {dir, "./m"}, {dir, "a/../b"}, {dir, "m//v"},
		{filepath.Join(dir, "m"), "./m"}, {"", "p"}, {".", "p"}, {"", ""},
	} {
		want, werr := xdirhash.HashDir(c.dir, c.prefix, xdirhash.Hash1)
		got, gerr := dirhash.HashDir(c.dir, c.prefix, dirhash.Hash1)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("HashDir(%q, %q): %s, %v; x/mod %s, %v", c.dir, c.prefix, got, gerr, want, werr)
		}
	}
}
