// Command typecheck type-checks this module's packages and their tests for
// other platforms from source, as the compiler would see each platform's
// files, and with -vet runs go vet's analyzers over them too. It is what
// .ci/cross asks of the platforms it does not build: go vet compiles the
// standard library for each platform it runs on, 45-52 s of CPU on a cold
// build cache (bench/data/zen3-2026-12-07f/ci-typecheck.txt), where this
// takes 2-4 s.
//
//	go build -C .ci -o /tmp/typecheck ./typecheck
//	/tmp/typecheck [-tags list] [-vet] [-skip "GOOS/GOARCH ..."] all|GOOS/GOARCH...
//
// Run from the module's root, it checks ./... there. It also reports what
// the compiler rejects and go/types does not: a function without a body in
// a package of this module with no assembly; and what the go command
// rejects as it writes a test's main, a test function of the wrong
// signature. The compiler's other checks (a //go:noescape on a function
// with a body) it does not make.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/asmdecl"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/buildtag"
	"golang.org/x/tools/go/analysis/passes/cgocall"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/directive"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/framepointer"
	"golang.org/x/tools/go/analysis/passes/hostport"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/slog"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stdversion"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unsafeptr"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
	"golang.org/x/tools/go/packages"
)

// vetSuite is cmd/vet's suite (src/cmd/vet/main.go), from the x/tools
// version the toolchain vendors (go.mod pins the same).
var vetSuite = []*analysis.Analyzer{
	appends.Analyzer, asmdecl.Analyzer, assign.Analyzer, atomic.Analyzer,
	bools.Analyzer, buildtag.Analyzer, cgocall.Analyzer, composite.Analyzer,
	copylock.Analyzer, defers.Analyzer, directive.Analyzer, errorsas.Analyzer,
	framepointer.Analyzer, httpresponse.Analyzer, hostport.Analyzer,
	ifaceassert.Analyzer, loopclosure.Analyzer, lostcancel.Analyzer,
	nilfunc.Analyzer, printf.Analyzer, shift.Analyzer, sigchanyzer.Analyzer,
	slog.Analyzer, stdmethods.Analyzer, stdversion.Analyzer,
	stringintconv.Analyzer, structtag.Analyzer, tests.Analyzer,
	testinggoroutine.Analyzer, timeformat.Analyzer, unmarshal.Analyzer,
	unreachable.Analyzer, unsafeptr.Analyzer, unusedresult.Analyzer,
	waitgroup.Analyzer,
}

func main() {
	tags := flag.String("tags", "", "build tags, as go build's -tags")
	vet := flag.Bool("vet", false, "run go vet's analyzers too")
	skip := flag.String("skip", "", "platforms `all` leaves out, space-separated")
	flag.Parse()
	platforms := flag.Args()
	if len(platforms) == 1 && platforms[0] == "all" {
		out, err := exec.Command("go", "tool", "dist", "list").Output()
		if err != nil {
			fail(err)
		}
		platforms = slices.DeleteFunc(strings.Fields(string(out)), func(p string) bool {
			return slices.Contains(strings.Fields(*skip), p)
		})
	}
	if len(platforms) == 0 {
		fail(fmt.Errorf("no platform named"))
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		fail(err)
	}
	c := &run{fset: token.NewFileSet(), goroot: filepath.Clean(strings.TrimSpace(string(goroot))) + string(filepath.Separator), vet: *vet}
	bad := 0
	for _, p := range platforms {
		n := c.check(p, *tags)
		if n > 0 {
			fmt.Fprintf(os.Stderr, "typecheck %s: %d errors\n", p, n)
			bad++
		}
	}
	what := "type-checked"
	if *vet {
		what = "type-checked and vetted"
	}
	fmt.Printf("%d platforms %s, %d failed\n", len(platforms), what, bad)
	if bad > 0 {
		os.Exit(1)
	}
}

type run struct {
	fset   *token.FileSet
	goroot string
	vet    bool
	parsed sync.Map // file name -> *ast.File, shared by every platform
}

// parse parses a file once for every platform. Without -vet, the standard
// library's function bodies are dropped: only its declarations type this
// module's code, and the bodies took most of the checking.
func (c *run) parse(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	if f, ok := c.parsed.Load(name); ok {
		return f.(*ast.File), nil
	}
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return f, err
	}
	if !c.vet && strings.HasPrefix(name, c.goroot) {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
	}
	kept, _ := c.parsed.LoadOrStore(name, f)
	return kept.(*ast.File), nil
}

// check loads and checks the module's packages for one GOOS/GOARCH and
// returns how many errors it printed.
func (c *run) check(platform, tags string) int {
	goos, goarch, ok := strings.Cut(platform, "/")
	if !ok {
		fail(fmt.Errorf("%q is not GOOS/GOARCH", platform))
	}
	cfg := &packages.Config{
		Mode:       packages.LoadAllSyntax | packages.NeedModule,
		Tests:      true,
		Fset:       c.fset,
		ParseFile:  c.parse,
		Env:        append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0"),
		BuildFlags: []string{"-tags=" + tags},
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	report := func(msg string) {
		if !seen[msg] { // a package and its test variant share files
			seen[msg] = true
			fmt.Fprintf(os.Stderr, "%s: %s\n", platform, msg)
		}
	}
	var ours []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if strings.HasSuffix(p.PkgPath, ".test") {
			// A test's generated main: no file of ours, but the go
			// command's errors in writing it are (a test function of
			// the wrong signature), which go vet and go test report.
			for _, e := range p.Errors {
				report(e.Error())
			}
			return
		}
		if p.Module == nil || !p.Module.Main {
			return // the standard library's
		}
		ours = append(ours, p)
		for _, e := range p.Errors {
			report(e.Error())
		}
		if slices.ContainsFunc(p.OtherFiles, func(f string) bool { return strings.HasSuffix(f, ".s") }) {
			return
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
					report(fmt.Sprintf("%s: missing function body (no assembly in %s)", c.fset.Position(fd.Pos()), p.PkgPath))
				}
			}
		}
	})
	if c.vet && len(seen) == 0 {
		g, err := checker.Analyze(vetSuite, ours, nil)
		if err != nil {
			fail(err)
		}
		for act := range g.All() {
			if !slices.Contains(ours, act.Package) {
				continue // a dependency's, run for its facts
			}
			if act.Err != nil {
				report(fmt.Sprintf("%s: %s: %v", act.Package.PkgPath, act.Analyzer.Name, act.Err))
			}
			for _, d := range act.Diagnostics {
				report(fmt.Sprintf("%s: %s", c.fset.Position(d.Pos), d.Message))
			}
		}
	}
	return len(seen)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "typecheck:", err)
	os.Exit(2)
}
