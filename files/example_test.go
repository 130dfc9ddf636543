package files_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sha256x/sha256x/files"
)

// Hash a list of files; each Result carries its digest or its error.
func ExampleHasher_Hash() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "abc"), []byte("abc"), 0o644)

	var h files.Hasher // every core, the default memory budget
	res, _ := h.Hash(context.Background(), []string{filepath.Join(dir, "abc"), filepath.Join(dir, "missing")})
	for _, r := range res {
		if r.Err != nil {
			fmt.Println(filepath.Base(r.Path), "error")
			continue
		}
		fmt.Printf("%s %x\n", filepath.Base(r.Path), r.Sum)
	}
	// Output:
	// abc ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	// missing error
}

// Hash a directory tree on two goroutines, the results in the tree's
// order as they finish.
func ExampleHasher_Stream() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "empty"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "a"), []byte("abc"), 0o644)

	h := files.Hasher{Workers: 2}
	h.Stream(context.Background(), files.Tree(dir), func(r files.Result) {
		rel, _ := filepath.Rel(dir, r.Path)
		fmt.Printf("%x  %s\n", r.Sum, rel)
	})
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  sub/empty
}
