// Command typecheck type-checks the packages named, their tests and every
// dependency from source for the GOOS/GOARCH of its environment, as the
// compiler would see that platform's files; and reports, in this module, a
// function without a body in a package without assembly, which the
// compiler rejects and go/types does not. It is what .ci/cross asks of the
// platforms that go vet does not run on: go vet compiles the standard
// library for each, about 27 s of CPU a platform, this about one second.
//
//	GOOS=plan9 GOARCH=arm CGO_ENABLED=0 go run ./.ci/typecheck ./...
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string // with -test, a test variant's include its _test.go files
	SFiles     []string
	ImportMap  map[string]string
	Standard   bool
	Module     *struct{ Main bool }
	Error      *struct{ Err string }

	types *types.Package
}

func main() {
	args := append([]string{"list", "-e", "-json", "-deps", "-test"}, os.Args[1:]...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	byPath := map[string]*pkg{}
	var order []*pkg
	dec := json.NewDecoder(out)
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			fail(err)
		}
		byPath[p.ImportPath] = p
		order = append(order, p)
	}
	if err := cmd.Wait(); err != nil {
		fail(err)
	}
	fset := token.NewFileSet()
	bad := 0
	goarch := os.Getenv("GOARCH")
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	sizes := types.SizesFor("gc", goarch)
	for _, p := range order { // go list -deps lists dependencies first
		if strings.HasSuffix(p.ImportPath, ".test") {
			// A test's generated main, and its link: nothing of ours.
			continue
		}
		if p.Error != nil {
			fmt.Fprintf(os.Stderr, "%s: %s\n", p.ImportPath, p.Error.Err)
			bad++
			continue
		}
		if p.ImportPath == "unsafe" {
			p.types = types.Unsafe
			continue
		}
		var files []*ast.File
		for _, f := range p.GoFiles { // CGO_ENABLED=0: no cgo files
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				bad++
				continue
			}
			files = append(files, af)
		}
		conf := types.Config{
			Importer: importer(func(path string) (*types.Package, error) {
				if q, ok := p.ImportMap[path]; ok {
					path = q
				}
				d := byPath[path]
				if d == nil || d.types == nil {
					return nil, fmt.Errorf("%s: import %q not checked", p.ImportPath, path)
				}
				return d.types, nil
			}),
			FakeImportC: true,
			// The platform's int and pointer sizes: a constant that
			// overflows a 32-bit int is an error only with them.
			Sizes: sizes,
			Error: func(err error) {
				if !p.Standard {
					fmt.Fprintln(os.Stderr, err)
					bad++
				}
			},
		}
		p.types, _ = conf.Check(p.ImportPath, fset, files, nil)
		if p.Module != nil && p.Module.Main && len(p.SFiles) == 0 {
			// What the compiler reports and go/types does not: a function
			// without a body where no assembly gives it one.
			for _, f := range files {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
						fmt.Fprintf(os.Stderr, "%s: missing function body (no assembly in %s)\n", fset.Position(fd.Pos()), p.ImportPath)
						bad++
					}
				}
			}
		}
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "typecheck %s/%s: %d errors\n", os.Getenv("GOOS"), os.Getenv("GOARCH"), bad)
		os.Exit(1)
	}
}

type importer func(string) (*types.Package, error)

func (f importer) Import(path string) (*types.Package, error) { return f(path) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "typecheck:", err)
	os.Exit(2)
}
