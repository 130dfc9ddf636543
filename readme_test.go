package sha256x_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestReadme compiles every ```go block of README.md, and runs those marked
// to run, so no example drifts from the API; a failure names the line.
//
// A block is a function body, with its own import lines where it shows
// them; packages it uses unimported are found from its identifiers
// (readmeImports, and this module's public packages). What it needs
// declared and does not show (chunks, ctx, a file name) goes in an HTML
// comment right above it, hidden when rendered:
//
//	<!-- readme_test: run
//	chunks := make([][32]byte, 5)
//	-->
//	```go
//
// "run" runs the block too (it must not panic, nor assign an error to err
// at top level unless "errors" follows); the other lines are statements
// placed before it. A block starting "package" is a whole program.
//
// The blocks are built in the interop module, which requires this one and
// the peers a block may name; the test is skipped where it is absent (this
// module downloaded alone) and in -short mode.
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the README's blocks with the go command")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := readmeBlocks(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	if _, err := os.Stat(filepath.Join("interop", "go.mod")); err != nil {
		t.Skip("no interop module here to build the blocks in:", err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	interop, err := filepath.Abs("interop")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	var files []string
	var mainBody strings.Builder
	for i, b := range blocks {
		if b.program {
			// A whole program: its own directory.
			pdir := filepath.Join(dir, fmt.Sprintf("program%d", i))
			os.Mkdir(pdir, 0o755)
			src := fmt.Sprintf("//line README.md:%d\n%s", b.line, b.code)
			f := filepath.Join(pdir, "main.go")
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			verb := "build"
			args := []string{"build", "-o", os.DevNull, f}
			if b.run {
				verb, args = "run", []string{"run", f}
			}
			cmd := exec.Command(goCmd, args...)
			cmd.Dir = interop
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("README.md:%d: the program does not %s: %v\n%s", b.line, verb, err, out)
			}
			continue
		}
		src, err := readmeFile(i, b)
		if err != nil {
			t.Errorf("README.md:%d: %v", b.line, err)
			continue
		}
		f := filepath.Join(dir, fmt.Sprintf("block%d.go", i))
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		if b.run {
			fmt.Fprintf(&mainBody, "\tblock%d()\n\tfmt.Println(\"README.md:%d ran\")\n", i, b.line)
		}
	}
	if len(files) == 0 {
		return
	}
	mainSrc := "package main\n\nimport \"fmt\"\n\nvar _ = fmt.Println\n\nfunc main() {\n" + mainBody.String() + "}\n"
	f := filepath.Join(dir, "main.go")
	if err := os.WriteFile(f, []byte(mainSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, append([]string{"run", f}, files...)...)
	cmd.Dir = interop
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the README's blocks do not compile or run: %v\n%s%s", err, out, stderr.Bytes())
	}
	for _, b := range blocks {
		if b.run && !b.program && !bytes.Contains(out, []byte(fmt.Sprintf("README.md:%d ran\n", b.line))) {
			t.Errorf("README.md:%d: the block did not run:\n%s", b.line, out)
		}
	}
}

// A readmeBlock is one ```go block of README.md.
type readmeBlock struct {
	line       int    // README.md's line of the block's first line of code
	code       string // the block's lines
	prelude    string // the statements of its readme_test comment
	preludeAt  int    // README.md's line of the prelude's first line
	run        bool   // run it, not only compile it
	program    bool   // a whole program (starts with "package")
	errors     bool   // its calls may return errors: err is not checked
	hasComment bool
}

// readmeBlocks finds the ```go blocks of a README and their readme_test
// comments.
func readmeBlocks(readme string) ([]readmeBlock, error) {
	lines := strings.Split(readme, "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "```go") {
				return nil, fmt.Errorf("README.md:%d: a Go block's fence with more than \"```go\": %q", i+1, lines[i])
			}
			continue
		}
		b := readmeBlock{line: i + 2}
		// Its comment: the lines right above, "<!-- readme_test:" to "-->".
		if i > 0 && strings.TrimSpace(lines[i-1]) == "-->" {
			j := i - 2
			for j >= 0 && !strings.HasPrefix(lines[j], "<!-- readme_test:") {
				j--
			}
			if j < 0 {
				return nil, fmt.Errorf("README.md:%d: a comment above a Go block that is not <!-- readme_test: ... -->", i)
			}
			for _, w := range strings.Fields(strings.TrimPrefix(lines[j], "<!-- readme_test:")) {
				switch w {
				case "run":
					b.run = true
				case "errors":
					b.errors = true
				default:
					return nil, fmt.Errorf("README.md:%d: readme_test: unknown word %q (run or errors)", j+1, w)
				}
			}
			b.prelude = strings.Join(lines[j+1:i-1], "\n")
			b.preludeAt = j + 2
			b.hasComment = true
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("README.md:%d: a Go block that does not end", i+1)
		}
		b.code = strings.Join(lines[i+1:end], "\n")
		b.program = strings.HasPrefix(strings.TrimSpace(b.code), "package ")
		blocks = append(blocks, b)
		i = end
	}
	return blocks, nil
}

// readmeImports are the packages a block may use without importing them,
// by the name it uses.
var readmeImports = map[string]string{
	"sha256x":  "github.com/sha256x/sha256x",
	"merkle":   "github.com/sha256x/sha256x/merkle",
	"translog": "github.com/sha256x/sha256x/merkle/translog",
	"hashtree": "github.com/sha256x/sha256x/hashtree",
	"files":    "github.com/sha256x/sha256x/files",
	"dirhash":  "github.com/sha256x/sha256x/dirhash",
	"logadapt": "github.com/sha256x/sha256x/logadapt",
	"ssz":      "github.com/ferranbt/fastssz",
	"tlog":     "golang.org/x/mod/sumdb/tlog",
	"sha256":   "crypto/sha256",
	"bytes":    "bytes",
	"context":  "context",
	"errors":   "errors",
	"fmt":      "fmt",
	"hash":     "hash",
	"io":       "io",
	"fs":       "io/fs",
	"os":       "os",
	"filepath": "path/filepath",
	"strings":  "strings",
	"time":     "time",
}

// modulePackages maps the name of each public package of this module (not
// internal, not in a module of its own) to its import path, for the
// packages a block uses that readmeImports does not list.
var modulePackages = sync.OnceValue(func() map[string]string {
	pkgs := map[string]string{}
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "internal") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != "." {
			return filepath.SkipDir // a module of its own
		}
		files, _ := filepath.Glob(filepath.Join(p, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly); err == nil && af.Name.Name != "main" {
				pkgs[af.Name.Name] = path.Join("github.com/sha256x/sha256x", filepath.ToSlash(p))
				break
			}
		}
		return nil
	})
	return pkgs
})

var readmeImportRE = regexp.MustCompile(`^import\s+(?:([A-Za-z_][A-Za-z0-9_]*)\s+)?("[^"]+")\s*(//.*)?$`)

// readmeFile turns block i into a file of package main holding func
// block<i>: its import lines and the imports it needs, its prelude, its
// code, and a use of every variable it declares (a README shows a result
// without using it). Line directives point compile errors at README.md.
func readmeFile(i int, b readmeBlock) (string, error) {
	// The block's import lines become the file's; blank lines keep the
	// lines of the rest.
	imports := map[string]string{} // name -> path
	var explicit []string
	code := strings.Split(b.code, "\n")
	for k, l := range code {
		m := readmeImportRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		path, err := strconv.Unquote(m[2])
		if err != nil {
			return "", err
		}
		name := m[1]
		if name == "" {
			name = path[strings.LastIndex(path, "/")+1:]
		}
		imports[name] = path
		explicit = append(explicit, m[1]+" "+m[2])
		code[k] = ""
	}
	body := fmt.Sprintf("//line README.md:%d\n%s\n", b.line, strings.Join(code, "\n"))
	if b.hasComment {
		body = fmt.Sprintf("//line README.md:%d\n%s\n", b.preludeAt, b.prelude) + body
	}
	fn := fmt.Sprintf("func block%d() {\n%s}\n", i, body)

	// The names it uses without declaring: the packages to import.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "README.md", "package main\n"+fn, 0)
	if err != nil {
		return "", err
	}
	need := map[string]string{}
	for _, id := range f.Unresolved {
		if _, ok := imports[id.Name]; ok {
			continue
		}
		if path := readmeImports[id.Name]; path != "" {
			need[id.Name] = path
		} else if path := modulePackages()[id.Name]; path != "" {
			need[id.Name] = path
		}
	}
	var lines []string
	for _, e := range explicit {
		lines = append(lines, "\t"+e)
	}
	for name, path := range need {
		lines = append(lines, "\t"+name+" "+strconv.Quote(path))
	}
	slices.Sort(lines)

	// Every variable declared at the block's top level, used once.
	var declared []string
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
						declared = append(declared, id.Name)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, s := range g.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if id.Name != "_" {
							declared = append(declared, id.Name)
						}
					}
				}
			}
		}
	}
	slices.Sort(declared)
	declared = slices.Compact(declared)

	// In a block that runs, an error a top-level statement assigns to err
	// panics there (an example failing quietly shows what the API does
	// not do), unless marked "errors". The check goes on the statement's
	// line, keeping line numbers.
	if b.run && !b.errors {
		head := len("package main\n") + len(fmt.Sprintf("func block%d() {\n", i))
		var ends []int
		for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
			if st, ok := st.(*ast.AssignStmt); ok && slices.ContainsFunc(st.Lhs, func(e ast.Expr) bool {
				id, ok := e.(*ast.Ident)
				return ok && id.Name == "err"
			}) {
				ends = append(ends, fset.Position(st.End()).Offset-head)
			}
		}
		for k := len(ends) - 1; k >= 0; k-- {
			body = body[:ends[k]] + "; if err != nil { panic(err) }" + body[ends[k]:]
		}
	}
	use := ""
	for _, d := range declared {
		use += "\t_ = " + d + "\n"
	}
	fn = fmt.Sprintf("func block%d() {\n%s//line readme_test.go:1\n%s}\n", i, body, use)
	return "package main\n\nimport (\n" + strings.Join(lines, "\n") + "\n)\n\n" + fn, nil
}
