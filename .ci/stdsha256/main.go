// Command stdsha256 runs Go's own crypto/sha256 tests against sha256x.New:
// the test file of the installed Go, taken from GOROOT at test time and never
// copied into this repository, with SHA-256 meaning sha256x and SHA-224
// staying on crypto/sha256. .ci/run builds it in its module (.ci) and runs
// it from the repository's root, in the main module:
//
//	go build -C .ci -o /tmp/stdsha256 ./stdsha256 && /tmp/stdsha256
//
// The test file is package sha256 and calls crypto/internal/cryptotest,
// which only the standard library may import. So it is compiled, through
// go test -overlay, as a package that exists only for the build:
// internal/stdsha256 of this module, holding
//
//	sha256_test.go   GOROOT's file; its one change: the cryptotest import
//	sha256.go        New, Sum256, Size, BlockSize from sha256x; New224,
//	                 Sum224, Size224 from crypto/sha256
//	cryptotest/      what the file calls of cryptotest: TestHash runs
//	                 GOROOT's internal/testhash (copied verbatim, it imports
//	                 nothing internal), NoExtraMethods GOROOT's methods.go
//	                 (verbatim) allowing Digest's Sum256, TestAllImplementations
//	                 runs the test on the kernel SHA256X_KERNEL forces
//
// The test binary then runs once dispatched and once per kernel this CPU
// runs. Every Test function of GOROOT's file must pass on every run; a skip
// is reported. If a later Go's file imports something else internal, or
// calls cryptotest for more, this fails at the build, loudly.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/sha256x/sha256x"
)

const (
	pkgPath    = "github.com/sha256x/sha256x/internal/stdsha256"
	cryptotest = "crypto/internal/cryptotest"
)

// The files of the virtual package and its helpers, relative to the module
// root, and where they come from: GOROOT (a path under GOROOT/src) or a
// shim below.
type file struct {
	dst    string // under the module root
	goroot string // under GOROOT/src, or ""
	shim   string // the file's text when goroot is ""
}

var files = []file{
	{dst: "internal/stdsha256/sha256_test.go", goroot: "crypto/sha256/sha256_test.go"},
	{dst: "internal/stdsha256/sha256.go", shim: shimSHA256},
	{dst: "internal/stdsha256/cryptotest/cryptotest.go", shim: shimCryptotest},
	{dst: "internal/stdsha256/cryptotest/race.go", shim: shimRace},
	{dst: "internal/stdsha256/cryptotest/norace.go", shim: shimNoRace},
	{dst: "internal/stdsha256/cryptotest/methods/methods.go", goroot: "crypto/internal/cryptotest/methods.go"},
	{dst: "internal/stdsha256/testhash/hash.go", goroot: "internal/testhash/hash.go"},
}

const shimSHA256 = `// Package sha256 is crypto/sha256's API as Go's own tests call it, with
// SHA-256 from sha256x and SHA-224 from crypto/sha256.
package sha256

import (
	"crypto/sha256"
	"hash"

	"github.com/sha256x/sha256x"
)

const (
	Size      = sha256x.Size
	Size224   = sha256.Size224
	BlockSize = sha256x.BlockSize
)

func New() hash.Hash                        { return sha256x.New() }
func Sum256(data []byte) [Size]byte         { return sha256x.Sum256(data) }
func New224() hash.Hash                     { return sha256.New224() }
func Sum224(data []byte) [Size224]byte      { return sha256.Sum224(data) }
`

const shimCryptotest = `// Package cryptotest is what Go's crypto/sha256 tests call of
// crypto/internal/cryptotest, for sha256x.
package cryptotest

import (
	"hash"
	"reflect"
	"testing"

	"github.com/sha256x/sha256x"
	methods "github.com/sha256x/sha256x/internal/stdsha256/cryptotest/methods"
	"github.com/sha256x/sha256x/internal/stdsha256/testhash"
)

// TestAllImplementations runs f on the kernel this process runs (chosen by
// SHA256X_KERNEL: the driver runs the binary once per kernel).
func TestAllImplementations(t *testing.T, pkg string, f func(t *testing.T)) {
	t.Run(sha256x.Kernel(), f)
}

// SkipTestAllocations skips where the race detector is on, as cryptotest's
// does for sanitizers.
func SkipTestAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("skipping allocations test with the race detector")
	}
}

// TestHash is cryptotest.TestHash without BoringCrypto: GOROOT's
// internal/testhash, with the Clone checks.
func TestHash(t *testing.T, mh func() hash.Hash) {
	testhash.TestHash(t, testhash.MakeHash(mh))
}

// NoExtraMethods is GOROOT's, allowing also sha256x.Digest's Sum256, the
// digest as an array: API of sha256x before New was.
func NoExtraMethods(t *testing.T, ms any, allowed ...string) {
	t.Helper()
	if v := reflect.ValueOf(ms); v.Kind() == reflect.Pointer && !v.Elem().IsNil() {
		if _, ok := v.Elem().Elem().Interface().(*sha256x.Digest); ok {
			allowed = append(allowed, "Sum256")
		}
	}
	methods.NoExtraMethods(t, ms, allowed...)
}
`

const shimRace = `//go:build race

package cryptotest

const raceEnabled = true
`

const shimNoRace = `//go:build !race

package cryptotest

const raceEnabled = false
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stdsha256:", err)
		os.Exit(1)
	}
}

func run() error {
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	gomod, err := goEnv("GOMOD")
	if err != nil {
		return err
	}
	root := filepath.Dir(gomod)
	tmp, err := os.MkdirTemp("", "stdsha256")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	overlay := map[string]string{}
	var tests []string // the Test functions of GOROOT's file
	for i, f := range files {
		var src []byte
		if f.goroot != "" {
			if src, err = os.ReadFile(filepath.Join(goroot, "src", f.goroot)); err != nil {
				return err
			}
			if src, err = checkImports(f.goroot, src); err != nil {
				return err
			}
			if strings.HasSuffix(f.goroot, "_test.go") {
				tests = testFuncs(src)
			}
		} else if src, err = format.Source([]byte(f.shim)); err != nil {
			return fmt.Errorf("shim %s: %v", f.dst, err)
		}
		tf := filepath.Join(tmp, strconv.Itoa(i)+".go")
		if err := os.WriteFile(tf, src, 0o644); err != nil {
			return err
		}
		overlay[filepath.Join(root, filepath.FromSlash(f.dst))] = tf
	}
	if len(tests) == 0 {
		return fmt.Errorf("no Test functions in GOROOT's crypto/sha256/sha256_test.go")
	}
	oj, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		return err
	}
	ofile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ofile, oj, 0o644); err != nil {
		return err
	}

	// The package exists only in the overlay, so go vet (run by go test,
	// which would chdir into its directory) is off and the binary runs in
	// tmp, not in the package's directory.
	bin := filepath.Join(tmp, "stdsha256.test")
	build := exec.Command("go", "test", "-c", "-vet=off", "-overlay", ofile, "-o", bin, pkgPath)
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c: %v\n%s", err, out)
	}

	v, _ := exec.LookPath("go")
	fmt.Printf("Go's crypto/sha256 tests (%s, %s) against sha256x.New: %d tests\n", runtimeVersion(goroot), v, len(tests))
	failed := false
	for _, k := range append([]string{""}, sha256x.Kernels()...) {
		cmd := exec.Command(bin, "-test.v", "-test.count=1")
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+k)
		out, err := cmd.CombinedOutput()
		name := k
		if k == "" {
			name = "dispatched"
		}
		passed, skipped, sub := results(out)
		var missing []string
		for _, t := range tests {
			if !passed[t] && !skipped[t] {
				missing = append(missing, t)
			}
		}
		if err != nil || len(missing) > 0 {
			failed = true
			fmt.Printf("FAIL  %-12s %v; not passed: %s\n%s\n", name, err, strings.Join(missing, ", "), out)
			continue
		}
		var sk []string
		for t := range skipped {
			sk = append(sk, t)
		}
		fmt.Printf("ok    %-12s %d tests and %d subtests passed", name, len(passed), sub)
		if len(sk) > 0 {
			fmt.Printf("; skipped: %s", strings.Join(sk, ", "))
		}
		fmt.Println()
	}
	if failed {
		return fmt.Errorf("crypto/sha256's tests fail against sha256x")
	}
	return nil
}

// checkImports checks that src imports nothing internal to the standard
// library but crypto/internal/cryptotest, and points that import at the shim.
func checkImports(name string, src []byte) ([]byte, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p == cryptotest {
			continue
		}
		if strings.Contains(p, ".") || p == "internal" || strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || strings.HasSuffix(p, "/internal") {
			return nil, fmt.Errorf("GOROOT/src/%s imports %q: this driver has no shim for it", name, p)
		}
	}
	q := []byte(strconv.Quote(cryptotest))
	if n := bytes.Count(src, q); n > 1 {
		return nil, fmt.Errorf("GOROOT/src/%s names %s %d times", name, cryptotest, n)
	}
	return bytes.Replace(src, q, []byte(strconv.Quote(pkgPath+"/cryptotest")), 1), nil
}

// testFuncs lists the Test functions of a test file.
func testFuncs(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var names []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
			names = append(names, fn.Name.Name)
		}
	}
	return names
}

// results reads go test -v output: the top-level tests that passed and were
// skipped, and how many subtests passed.
func results(out []byte) (passed, skipped map[string]bool, subtests int) {
	passed, skipped = map[string]bool{}, map[string]bool{}
	re := regexp.MustCompile(`(?m)^(\s*)--- (PASS|SKIP|FAIL): (\S+)`)
	for _, m := range re.FindAllSubmatch(out, -1) {
		name := string(m[3])
		if len(m[1]) > 0 || strings.Contains(name, "/") {
			if string(m[2]) == "PASS" {
				subtests++
			}
			continue
		}
		switch string(m[2]) {
		case "PASS":
			passed[name] = true
		case "SKIP":
			skipped[name] = true
		}
	}
	return passed, skipped, subtests
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", key, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" || v == os.DevNull {
		return "", fmt.Errorf("go env %s is empty: run from the module", key)
	}
	return v, nil
}

func runtimeVersion(goroot string) string {
	b, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return goroot
	}
	return strings.SplitN(string(b), "\n", 2)[0]
}
