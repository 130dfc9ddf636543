package sha256x

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// panicPrefix starts every panic message of the module (CONTRIBUTING.md,
// "Conventions").
const panicPrefix = "sha256x: "

// TestPanicPrefix reads every non-test Go file of this module (not the
// separate modules, not testdata) and checks each panic's message: a string
// literal, a concatenation, or fmt.Sprintf/fmt.Sprint/errors.New/fmt.Errorf
// of one must start with "sha256x: ". A bare variable is a recovered panic
// passed on (files' fault handler, merkle's split workers), which keeps the
// message it was raised with; any other argument fails the test, so that a
// new form of panic is looked at. The table tests of each package
// (merkle's TestPanics, hashtree's mustPanic, translog's TestPanics, ...)
// run the panic paths themselves.
func TestPanicPrefix(t *testing.T) {
	if b, err := os.ReadFile("go.mod"); err != nil || !bytes.HasPrefix(b, []byte("module "+module+"\n")) {
		t.Skip("not run from the module's root")
	}
	fset := token.NewFileSet()
	files, panics := 0, 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (name == "testdata" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "panic" {
				return true
			}
			panics++
			if msg, ok := message(call.Args[0]); !ok {
				t.Errorf("%s: panic(%s): not a message this test can read, nor a recovered panic passed on", fset.Position(call.Pos()), types.ExprString(call.Args[0]))
			} else if msg != "" && !strings.HasPrefix(msg, panicPrefix) {
				t.Errorf("%s: panic message %q does not start with %q", fset.Position(call.Pos()), msg, panicPrefix)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The module has about 70 panics: a walk that finds few went wrong.
	t.Logf("%d files, %d panics", files, panics)
	if files < 50 || panics < 50 {
		t.Fatalf("read %d files and %d panics: the walk missed the packages", files, panics)
	}
}

// message returns the literal start of a panic's argument, or "" and true
// for a bare variable (a recovered value passed on), or false for anything
// else.
func message(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		if s, ok := message(e.X); ok && s != "" {
			return s, true
		}
		return "", false
	case *ast.ParenExpr:
		return message(e.X)
	case *ast.Ident:
		return "", true
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || len(e.Args) == 0 {
			return "", false
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return "", false
		}
		switch pkg.Name + "." + sel.Sel.Name {
		case "fmt.Sprintf", "fmt.Sprint", "fmt.Errorf", "errors.New":
			if s, ok := message(e.Args[0]); ok && s != "" {
				return s, true
			}
		}
	}
	return "", false
}
