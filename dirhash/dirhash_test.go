package dirhash

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// reference is the h1: hash written out with crypto/sha256, the file
// contents given.
func reference(contents map[string]string) string {
	var names []string
	for n := range contents {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256([]byte(contents[n])), n)
	}
	s := sha256.Sum256([]byte(b.String()))
	return "h1:" + base64.StdEncoding.EncodeToString(s[:])
}

func tree(t *testing.T, n int) (string, map[string]string) {
	dir := t.TempDir()
	contents := map[string]string{}
	for i := range n {
		rel := fmt.Sprintf("d%d/f%d.go", i%3, i)
		data := strings.Repeat(fmt.Sprintf("line %d\n", i), i*i%5000)
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		contents["example.com/m@v1.0.0/"+rel] = data
	}
	return dir, contents
}

// TestHashDirAndZip: HashDir and HashZip with Hash1, and Hash1 through a
// plain open, give the reference hash.
func TestHashDirAndZip(t *testing.T) {
	for _, n := range []int{0, 1, 2, 17, 300} {
		dir, contents := tree(t, n)
		want := reference(contents)
		const prefix = "example.com/m@v1.0.0"
		if got, err := HashDir(dir, prefix, Hash1); got != want || err != nil {
			t.Errorf("%d files: HashDir %s, %v; want %s", n, got, err, want)
		}
		// Another Hash: HashDir hands it the names and an open.
		var other Hash = func(files []string, open func(string) (io.ReadCloser, error)) (string, error) {
			return Hash1(files, open)
		}
		if got, err := HashDir(dir, prefix, other); got != want || err != nil {
			t.Errorf("%d files: HashDir, another Hash: %s, %v; want %s", n, got, err, want)
		}
		zf := filepath.Join(t.TempDir(), "m.zip")
		f, _ := os.Create(zf)
		w := zip.NewWriter(f)
		for name, data := range contents {
			fw, _ := w.Create(name)
			io.WriteString(fw, data)
		}
		w.Close()
		f.Close()
		if got, err := HashZip(zf, Hash1); got != want || err != nil {
			t.Errorf("%d files: HashZip %s, %v; want %s", n, got, err, want)
		}
		if got, err := HashZip(zf, other); got != want || err != nil {
			t.Errorf("%d files: HashZip, another Hash: %s, %v; want %s", n, got, err, want)
		}
	}
}

// TestErrors: a name with a newline, and a tree that is not a directory.
func TestErrors(t *testing.T) {
	open := func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("")), nil }
	if _, err := Hash1([]string{"a", "b\nc"}, open); err == nil || !strings.Contains(err.Error(), "newlines") {
		t.Errorf("newline: %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	if _, err := HashDir(f, "p", Hash1); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("HashDir of a file: %v", err)
	}
}

// TestHash1Batches: Hash1 over files that fill many batches (hashed on
// another goroutine while the next is read, with more than one P) and
// files longer than a batch holds whole, each way, against the reference;
// and an error mid-way, with a batch being hashed, returned as it is.
func TestHash1Batches(t *testing.T) {
	contents := map[string]string{}
	for i := range 400 {
		n := (i * 7919) % (24 << 10)
		if i%97 == 5 {
			n = readMax + i // streamed
		}
		contents[fmt.Sprintf("m@v1/f%03d", i)] = strings.Repeat(string(rune('a'+i%26)), n) + fmt.Sprint(i)
	}
	var names []string
	for n := range contents {
		names = append(names, n)
	}
	open := func(n string) (io.ReadCloser, error) {
		if n == "m@v1/f300" && contents[n] == "" {
			return nil, fmt.Errorf("open %s: no such file", n)
		}
		return io.NopCloser(strings.NewReader(contents[n])), nil
	}
	want := reference(contents)
	for _, procs := range []int{1, 2, 4} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		if got, err := Hash1(names, open); got != want || err != nil {
			t.Errorf("GOMAXPROCS %d: %q, %v; want %q", procs, got, err, want)
		}
	}
	contents["m@v1/f300"] = ""
	if got, err := Hash1(names, open); got != "" || err == nil || err.Error() != "open m@v1/f300: no such file" {
		t.Errorf("an open failing: %q, %v", got, err)
	}
}

// TestHash1Memory: a call's buffers come from a pool: hashing a small
// module allocates under 1 MiB a call, not a batch's arena each time.
func TestHash1Memory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var names []string
	for i := range 100 {
		names = append(names, fmt.Sprintf("m@v1/f%03d", i))
	}
	data := strings.Repeat("x", 4000)
	open := func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil }
	Hash1(names, open)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const calls = 10
	for range calls {
		Hash1(names, open)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / calls; per > 1<<20 {
		t.Errorf("Hash1 of 100 files allocated %d bytes a call", per)
	}
}

// TestHashDirOpen: HashDir with Hash1 opens, and so hashes or fails on,
// the files that HashDir's open hands another Hash (x/mod's:
// filepath.Join(dir, strings.TrimPrefix(name, prefix))), also where
// joining the prefix cleaned the names or dir is "".
func TestHashDirOpen(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("file"), 0o644)
	os.MkdirAll(filepath.Join(dir, "m", "v"), 0o755)
	os.WriteFile(filepath.Join(dir, "m", "f"), []byte("m/f"), 0o644)
	os.WriteFile(filepath.Join(dir, "m", "v", "f"), []byte("m/v/f"), 0o644)
	os.WriteFile(filepath.Join(dir, "m", "m"), []byte("m/m"), 0o644)
	var other Hash = func(files []string, open func(string) (io.ReadCloser, error)) (string, error) {
		return Hash1(files, open)
	}
	t.Chdir(dir)
	for _, tc := range []struct{ dir, prefix string }{
		{dir, "example.com/m@v1.0.0"},
		{dir, ""},
		{dir, "./m"},
		{dir, "a/../b"},
		{dir, "m//v"},
		{filepath.Join(dir, "m"), "./m"},
		{"", "p"},
		{".", "p"},
		{"", ""},
	} {
		want, werr := HashDir(tc.dir, tc.prefix, other)
		got, err := HashDir(tc.dir, tc.prefix, Hash1)
		if got != want || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("HashDir(%q, %q): %s, %v; another Hash %s, %v", tc.dir, tc.prefix, got, err, want, werr)
		}
	}
}

// FuzzHashZip: HashZip with Hash1 gives, for any zip file (entries
// duplicated, corrupt, cut short), the hash or the error of x/mod's Hash1
// written out with crypto/sha256 and handed the same entries.
func FuzzHashZip(f *testing.F) {
	var b strings.Builder
	w := zip.NewWriter(&b)
	for i, name := range []string{"b", "a/x.go", "b", "c\nd", "e"} {
		fw, _ := w.CreateHeader(&zip.FileHeader{Name: name, Method: uint16(i%2) * zip.Deflate})
		io.WriteString(fw, strings.Repeat(name, 50*i))
	}
	w.Close()
	f.Add([]byte(b.String()))
	f.Add([]byte(b.String()[:len(b.String())/2]))
	ref := func(files []string, open func(string) (io.ReadCloser, error)) (string, error) {
		files = slices.Sorted(slices.Values(files))
		h := sha256.New()
		for _, file := range files {
			if strings.Contains(file, "\n") {
				return "", errNewline
			}
			r, err := open(file)
			if err != nil {
				return "", err
			}
			hf := sha256.New()
			_, err = io.Copy(hf, r)
			r.Close()
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%x  %s\n", hf.Sum(nil), file)
		}
		return "h1:" + base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
	}
	zf := filepath.Join(f.TempDir(), "m.zip")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(zf, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, werr := HashZip(zf, ref)
		got, err := HashZip(zf, Hash1)
		if got != want || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("HashZip: %s, %v; want %s, %v", got, err, want, werr)
		}
	})
}
