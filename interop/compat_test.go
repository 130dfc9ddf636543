package interop

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	xdirhash "golang.org/x/mod/sumdb/dirhash"

	"github.com/sha256x/sha256x/dirhash"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// The README's claims that a switch is one import line, checked by the
// compiler and by the names the packages export.

// same compiles only if ours has ref's type: the drop-in's functions can
// take the reference's place wherever a value of its type is expected.
func same[T any](ref, ours T) {}

// TestDropInSignatures: Hash, HashChunks and HashByteSlice have
// gohashtree's types, and Hash and HashByteSlice hashtree's bindings'.
func TestDropInSignatures(t *testing.T) {
	same(gohashtree.Hash, sszx.Hash)
	same(gohashtree.HashChunks, sszx.HashChunks)
	same(gohashtree.HashByteSlice, sszx.HashByteSlice)
	same(hashtree.Hash, sszx.Hash)
	same(hashtree.HashByteSlice, sszx.HashByteSlice)
}

// TestDirhashNames: the dirhash package has every exported name of x/mod's
// sumdb/dirhash (read from its source, so a name x/mod adds fails here),
// each of the same type but for the package of the Hash type (both are
// package dirhash, so the types print alike), so that a program switches by
// its import path.
func TestDirhashNames(t *testing.T) {
	ours := map[string]any{
		"Hash":        dirhash.Hash(nil),
		"DefaultHash": dirhash.DefaultHash,
		"Hash1":       dirhash.Hash1,
		"HashDir":     dirhash.HashDir,
		"DirFiles":    dirhash.DirFiles,
		"HashZip":     dirhash.HashZip,
	}
	theirs := map[string]any{
		"Hash":        xdirhash.Hash(nil),
		"DefaultHash": xdirhash.DefaultHash,
		"Hash1":       xdirhash.Hash1,
		"HashDir":     xdirhash.HashDir,
		"DirFiles":    xdirhash.DirFiles,
		"HashZip":     xdirhash.HashZip,
	}
	for name, v := range theirs {
		if got, want := reflect.TypeOf(ours[name]).String(), reflect.TypeOf(v).String(); got != want {
			t.Errorf("%s: %s, x/mod's %s", name, got, want)
		}
	}
	same(xdirhash.Hash1, dirhash.Hash1)
	var _ xdirhash.Hash = dirhash.Hash1

	// x/mod's exported names, from its source.
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "golang.org/x/mod/sumdb/dirhash").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := strings.TrimSpace(string(out))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		t.Fatal("no exported names found in x/mod's dirhash")
	}
	for _, n := range names {
		if _, ok := theirs[n]; !ok {
			t.Errorf("x/mod's dirhash exports %s, which this test (and perhaps sha256x's dirhash) lacks", n)
		}
	}
}
