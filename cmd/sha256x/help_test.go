package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x"
)

func runCmd(args ...string) result {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return result{out.String(), errb.String(), code}
}

// TestDocs: every command has a doc, and every doc a command.
func TestDocs(t *testing.T) {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	docd := docNames()
	slices.Sort(docd)
	if !slices.Equal(names, docd) {
		t.Fatalf("commands %q, documented %q", names, docd)
	}
	for _, d := range docs {
		if d.summary == "" || len(d.examples) == 0 || !strings.HasPrefix(d.usage, "usage: sha256x "+d.name) {
			t.Errorf("doc of %q: summary %q, examples %q, usage %.40q", d.name, d.summary, d.examples, d.usage)
		}
	}
}

// TestHelp: sha256x, -h, --help and help print what the command is and
// every command with its line and examples; to stdout with status 0 when
// asked for, to stderr with status 2 when no command was given.
func TestHelp(t *testing.T) {
	want := runCmd("help")
	if want.code != 0 || want.stderr != "" || !strings.HasPrefix(want.stdout, "sha256x hashes files") {
		t.Fatalf("help: %+v", want)
	}
	for _, d := range docs {
		if !strings.Contains(want.stdout, "\n  "+d.name+" ") || !strings.Contains(want.stdout, d.summary+"\n") {
			t.Errorf("help does not list %q with %q", d.name, d.summary)
		}
		for _, e := range d.examples {
			if !strings.Contains(want.stdout, " "+e+"\n") {
				t.Errorf("help lacks the example %q", e)
			}
		}
	}
	for _, a := range []string{"-h", "-help", "--help"} {
		if got := runCmd(a); got != want {
			t.Errorf("%s: %+v, want help's", a, got)
		}
	}
	if got := runCmd(); got.code != 2 || got.stdout != "" || got.stderr != want.stdout {
		t.Errorf("no arguments: code %d, stdout %q, stderr %.60q; want 2, the help on stderr", got.code, got.stdout, got.stderr)
	}
}

// TestCommandUsage: "help NAME", "NAME -h" (and --help) print the command's
// usage, status 0.
func TestCommandUsage(t *testing.T) {
	for _, d := range docs {
		want := result{d.usage, "", 0}
		if got := runCmd("help", d.name); got != want {
			t.Errorf("help %s: %+v", d.name, got)
		}
		for _, h := range []string{"-h", "--help"} {
			if got := runCmd(d.name, h); got != want {
				t.Errorf("%s %s: %+v", d.name, h, got)
			}
		}
	}
	if got := runCmd("help", "--version"); got.stdout != versionUsage || got.code != 0 {
		t.Errorf("help --version: %+v", got)
	}
}

// TestMisuse: an unknown command says so and lists the commands; extra or
// bad arguments print the usage on stderr; all with status 2.
func TestMisuse(t *testing.T) {
	for _, args := range [][]string{{"frob"}, {"-x"}, {"help", "frob"}, {"SUM"}} {
		got := runCmd(args...)
		name := args[len(args)-1]
		if got.code != 2 || got.stdout != "" || !strings.HasPrefix(got.stderr, `sha256x: unknown command "`+name+`"`) ||
			!strings.Contains(got.stderr, "commands: "+strings.Join(docNames(), ", ")+"\n") {
			t.Errorf("%q: %+v", args, got)
		}
	}
	for _, c := range []struct {
		args  []string
		usage string
	}{
		{[]string{"help", "sum", "merkle"}, helpUsage},
		{[]string{"--version", "x"}, versionUsage},
		{[]string{"-t", "x"}, trialUsage},
		{[]string{"bench", "-rounds"}, benchUsage},
		{[]string{"merkle", "-x"}, merkleUsage},
	} {
		got := runCmd(c.args...)
		if got.code != 2 || got.stdout != "" || !strings.HasSuffix(got.stderr, c.usage) {
			t.Errorf("%q: %+v", c.args, got)
		}
	}
}

// TestVersion: the module version, Go's, and the kernel this CPU runs.
func TestVersion(t *testing.T) {
	got := runCmd("--version")
	if got2 := runCmd("version"); got2 != got {
		t.Errorf("version %+v, --version %+v", got2, got)
	}
	lines := strings.Split(got.stdout, "\n")
	if got.code != 0 || got.stderr != "" || len(lines) != 4 || lines[3] != "" {
		t.Fatalf("--version: %+v", got)
	}
	if lines[0] != "sha256x "+moduleVersion() || moduleVersion() == "" {
		t.Errorf("line 1 %q, want the module version %q", lines[0], moduleVersion())
	}
	if want := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH; lines[1] != want {
		t.Errorf("line 2 %q, want %q", lines[1], want)
	}
	if want := "kernel " + sha256x.Kernel() + " on " + cpuName() + "; this CPU runs " + strings.Join(sha256x.Kernels(), ", "); lines[2] != want {
		t.Errorf("line 3 %q, want %q", lines[2], want)
	}
}

// TestBinary builds the command as a user would from this checkout and
// checks its exit statuses through os.Exit, and that --version reports what
// the build info holds ("(devel)", or the version the go command stamped
// from the VCS), read back with "go version -m".
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "sha256x")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	info, err := exec.Command(goCmd, "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\tmod\tgithub.com/sha256x/sha256x\t(\S+)`).FindSubmatch(info)
	if m == nil {
		t.Fatalf("go version -m: no module line in\n%s", info)
	}
	for _, c := range []struct {
		args   []string
		code   int
		prefix string
	}{
		{nil, 2, ""},
		{[]string{"-h"}, 0, "sha256x hashes files"},
		{[]string{"help", "sum"}, 0, "usage: sha256x sum"},
		{[]string{"merkle", "-h"}, 0, "usage: sha256x merkle"},
		{[]string{"frob"}, 2, ""},
		{[]string{"--version"}, 0, "sha256x " + string(m[1])},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Stderr = new(bytes.Buffer)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		rest, ok := strings.CutPrefix(string(out), c.prefix)
		if c.args == nil {
			ok = len(out) == 0 && strings.HasPrefix(cmd.Stderr.(*bytes.Buffer).String(), "sha256x hashes files")
		} else if c.args[0] == "--version" {
			ok = ok && (strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, " (commit "))
		}
		if code != c.code || !ok {
			t.Errorf("sha256x %q: status %d, stdout %.60q; want %d, %q...", c.args, code, out, c.code, c.prefix)
		}
	}
}

// TestBenchSmall: the small-batch table has a row per call and size and a
// ratio per batch; -small and -pauses together are a usage error.
func TestBenchSmall(t *testing.T) {
	got := runCmd("bench", "-small", "-rounds", "1", "-time", "100us")
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("bench -small: %+v", got)
	}
	rows := 0
	for _, line := range strings.Split(got.stdout, "\n") {
		if strings.HasPrefix(line, "HashMany") || strings.HasPrefix(line, "Sum256") {
			rows++
			want := 7
			if strings.HasPrefix(line, "Sum256") {
				want = 1
			}
			if n := len(ratioRE.FindAllString(line, -1)); n != want {
				t.Errorf("row %q: %d ratios, want %d", line, n, want)
			}
		}
	}
	if rows != 9 {
		t.Errorf("bench -small: %d rows, want 9:\n%s", rows, got.stdout)
	}
	if got := runCmd("bench", "-small", "-pauses"); got.code != 2 || !strings.HasSuffix(got.stderr, benchUsage) {
		t.Errorf("bench -small -pauses: %+v", got)
	}
}

var ratioRE = regexp.MustCompile(`\b\d+\.\d\dx\b`)

// TestFormatVersion: what --version prints for each kind of build: a
// release, a checkout the go command stamped (pseudo-version, commit, time,
// modified), a checkout built without stamping ("(devel)", the one case it
// shows), and sha256x built into another module's binary.
func TestFormatVersion(t *testing.T) {
	const path = "github.com/sha256x/sha256x"
	vcs := func(rev, when, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: when}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0edbfb5abcdef0123456789abcdef0123456789a"
	for _, c := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"release", debug.BuildInfo{Main: debug.Module{Path: path, Version: "v1.2.0"}}, "v1.2.0"},
		{"stamped checkout", debug.BuildInfo{Main: debug.Module{Path: path, Version: "v0.0.0-20261203190516-0edbfb5abcde"},
			Settings: vcs(rev, "2026-12-03T19:05:16Z", "false")},
			"v0.0.0-20261203190516-0edbfb5abcde (commit 0edbfb5abcde 2026-12-03T19:05:16Z)"},
		{"modified checkout", debug.BuildInfo{Main: debug.Module{Path: path, Version: "v0.0.0-20261203190516-0edbfb5abcde+dirty"},
			Settings: vcs(rev, "2026-12-03T19:05:16Z", "true")},
			"v0.0.0-20261203190516-0edbfb5abcde+dirty (commit 0edbfb5abcde 2026-12-03T19:05:16Z, modified)"},
		{"checkout, VCS stamping off", debug.BuildInfo{Main: debug.Module{Path: path, Version: "(devel)"}}, "(devel)"},
		{"no version recorded", debug.BuildInfo{Main: debug.Module{Path: path}}, "(devel)"},
		{"a dependency", debug.BuildInfo{Main: debug.Module{Path: "example.com/tool", Version: "v0.3.0"},
			Deps:     []*debug.Module{{Path: "golang.org/x/sys", Version: "v0.50.0"}, {Path: path, Version: "v1.4.1"}},
			Settings: vcs(rev, "2026-12-03T19:05:16Z", "false")}, "v1.4.1"},
		{"a replaced dependency", debug.BuildInfo{Main: debug.Module{Path: "example.com/tool"},
			Deps: []*debug.Module{{Path: path, Version: "v1.4.1", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.4.2"}}}},
			"v1.4.2"},
		// Built from another module that requires this one: the main
		// package's module is this one, as required, and the code what
		// replaced it (a fork's version or "(devel)"), as go version -m shows.
		{"a replaced module, by a fork", debug.BuildInfo{Main: debug.Module{Path: path, Version: "v1.4.1",
			Replace: &debug.Module{Path: "example.com/fork", Version: "v1.4.2"}}}, "v1.4.2"},
		{"a replaced module, by a directory", debug.BuildInfo{Main: debug.Module{Path: path, Version: "v1.4.1",
			Replace: &debug.Module{Path: "../sha256x", Version: "(devel)"}}}, "(devel)"},
	} {
		if got := formatVersion(&c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
