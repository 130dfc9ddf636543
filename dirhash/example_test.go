package dirhash_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/sha256x/sha256x/dirhash"
)

// Hash1 over files given by name and contents: the go.sum hash of a module
// with these two files (the same as printf's lines piped through sha256sum
// and base64 give).
func ExampleHash1() {
	files := map[string]string{
		"example.com/hello@v1.0.0/go.mod":   "module example.com/hello\n",
		"example.com/hello@v1.0.0/hello.go": "package hello\n",
	}
	names := []string{"example.com/hello@v1.0.0/hello.go", "example.com/hello@v1.0.0/go.mod"}
	h, err := dirhash.Hash1(names, func(name string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(files[name])), nil
	})
	fmt.Println(h, err)
	// Output: h1:v/u/g2S1hZaWZImyAVXAGG42N1pWX/UTgAYidytBT84= <nil>
}
