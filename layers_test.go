package sha256x

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sha256x/sha256x"

// The engine's packages, from the bottom: each imports only those below it.
var engine = []string{"internal/kernel", "internal/plan", "internal/sched"}

// layers is what each package of the engine, the root and the door may
// import of this module (paths relative to it); every other package of the
// module may import no package of the engine (packagesAbove), and every
// other internal package none of the module (internalLeaves).
var layers = map[string][]string{
	"internal/kernel": {},
	"internal/plan":   {"internal/kernel"},
	"internal/sched":  {"internal/plan", "internal/kernel"},
	// The root: sched for every call; plan for plan.Active, the plan each
	// call hands to sched, and for Kernel and Kernels' names; kernel for
	// the compile-time check that its Size and BlockSize are the engine's.
	"": {"internal/sched", "internal/plan", "internal/kernel"},
	// The one door beside the root's API for the packages above it
	// (internal/door's package comment).
	"internal/door": {"internal/sched", "internal/plan", "internal/kernel"},
	// The plans tests run every kernel and width on: imported by tests
	// only, beside the engine's bottom two layers.
	"internal/plan/plantest": {"internal/plan", "internal/kernel"},
}

// layersSkip names packages the test passes over, and why: none.
var layersSkip = map[string]string{}

// TestLayers checks that imports run one way: root -> internal/sched ->
// internal/plan -> internal/kernel, and that the packages above the root
// reach the engine only through the root's public API or internal/door
// (CONTRIBUTING.md, "Conventions"). It asks go list for every package's
// imports (not its tests') on this platform, on arm64 and with purego,
// whose files differ.
func TestLayers(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no go command to run here")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	if b, err := os.ReadFile("go.mod"); err != nil || !bytes.HasPrefix(b, []byte("module "+module+"\n")) {
		t.Skip("not run from the module's root")
	}
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"this platform", nil, nil},
		{"linux/arm64", []string{"GOOS=linux", "GOARCH=arm64"}, nil},
		{"purego", nil, []string{"-tags", "purego"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(goCmd, append(append([]string{"list", "-json"}, c.args...), "./...")...)
			cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), c.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
			}
			pkgs := 0
			dec := json.NewDecoder(bytes.NewReader(out))
			for {
				var p struct {
					ImportPath string
					Imports    []string
				}
				if err := dec.Decode(&p); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				pkgs++
				for _, bad := range layerViolations(rel(p.ImportPath), p.Imports) {
					t.Error(bad)
				}
			}
			if pkgs < 10 {
				t.Fatalf("go list gave %d packages", pkgs)
			}
		})
	}
}

// rel returns the path of package path relative to the module: "" for the
// root, "-" for a package of another module.
func rel(path string) string {
	if path == module {
		return ""
	}
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return "-"
}

// layerViolations returns what is wrong with package pkg (relative to the
// module) importing imports (full paths).
func layerViolations(pkg string, imports []string) []string {
	if pkg == "-" {
		return nil
	}
	if _, ok := layersSkip[pkg]; ok {
		return nil
	}
	name := module
	if pkg != "" {
		name += "/" + pkg
	}
	var bad []string
	allowed, isLayer := layers[pkg]
	internal := strings.HasPrefix(pkg, "internal/")
	for _, imp := range imports {
		r := rel(imp)
		switch {
		case r == "-":
		case isLayer:
			if !slices.Contains(allowed, r) {
				bad = append(bad, name+" imports "+imp+": it may import only "+strings.Join(allowed, ", ")+" of this module")
			}
		case internal:
			// internal/shapes, internal/uring: leaves the packages above
			// the root use.
			bad = append(bad, name+" imports "+imp+": an internal package other than the engine imports none of the module")
		case slices.Contains(engine, r):
			bad = append(bad, name+" imports "+imp+": a package above the root reaches the engine through the root or internal/door")
		}
	}
	return bad
}

// TestLayerRules: the rules catch what they are for.
func TestLayerRules(t *testing.T) {
	for _, c := range []struct {
		pkg     string
		imports []string
		bad     bool
	}{
		{"hashtree", []string{module, module + "/internal/door", module + "/merkle", "unsafe"}, false},
		{"hashtree", []string{module, module + "/internal/sched"}, true},
		{"hashtree", []string{module + "/internal/plan"}, true},
		{"cmd/sha256x", []string{module + "/internal/kernel"}, true},
		{"internal/kernel", []string{module + "/internal/plan"}, true},
		{"internal/plan", []string{module + "/internal/sched"}, true},
		{"internal/plan", []string{module + "/internal/kernel", "os"}, false},
		{"internal/sched", []string{module}, true},
		{"internal/sched", []string{module + "/internal/door"}, true},
		{"internal/shapes", []string{module}, true},
		{"", []string{module + "/internal/door"}, true},
		{"", []string{module + "/merkle"}, true},
		{"", []string{module + "/internal/sched", module + "/internal/plan", module + "/internal/kernel"}, false},
	} {
		if got := layerViolations(c.pkg, c.imports); (len(got) > 0) != c.bad {
			t.Errorf("%q importing %v: %q, want a violation: %v", c.pkg, c.imports, got, c.bad)
		}
	}
}
