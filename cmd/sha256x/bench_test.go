package main

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/shapes"
)

// TestMain lets this test binary stand in for the command as bench
// -kernels' child process, which it starts from os.Executable, and as the
// command under a limit of open files (nofileChild).
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "bench" && os.Args[2] == "-child" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if nofileChild != nil {
		nofileChild()
	}
	os.Exit(m.Run())
}

// nofileChild, where set (Linux), runs the command and exits if the
// environment asks for it under a limit of open files.
var nofileChild func()

// TestBenchTable: bench with a tiny time budget prints the CPU, the kernel,
// what the ratio compares, a line per shape saying what it is, then a row
// per shape with a ratio (and with -kernels a row per kernel under each);
// no line is wider than 100 columns.
func TestBenchTable(t *testing.T) {
	runs := [][]string{{"bench", "-rounds", "1", "-time", "100us"}}
	if !testing.Short() {
		// A child process for each kernel, each making the shapes again
		// (16 MiB of them): seconds under the race detector or emulation.
		runs = append(runs, []string{"bench", "-rounds", "1", "-time", "100us", "-kernels"})
	}
	for _, args := range runs {
		got := runCmd(args...)
		if got.code != 0 || got.stderr != "" {
			t.Fatalf("%q: %+v", args, got)
		}
		lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("%q: a line of %d columns: %q", args, n, l)
			}
		}
		out := got.stdout
		for _, want := range []string{
			"CPU: " + cpuName() + "\n",
			"kernel: " + sha256x.Kernel() + " (",
			"ratio: sha256x MB/s over crypto/sha256's, crypto/sha256 hashing the same messages\n" +
				"       one after another",
			"\nshape ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: no %q in\n%s", args, want, out)
			}
		}
		// The legend, then the table: a line and a row for each shape, in
		// that order, each row with a ratio.
		rows := map[string]string{}
		legend := map[string]bool{}
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			if strings.HasPrefix(l, "  ") && len(f) > 1 {
				legend[f[0]] = true
			} else if ratioRE.MatchString(l) {
				rows[f[0]] = l
			}
		}
		for _, s := range shapes.All() {
			if !legend[s.Name] || !strings.Contains(out, "  "+pad(s.Name, 12)+" "+s.What+"\n") {
				t.Errorf("%q: the legend does not say what %s is", args, s.Name)
			}
			if rows[s.Name] == "" {
				t.Errorf("%q: no row for %s", args, s.Name)
			}
			if strings.Index(out, "\n"+s.Name+" ") < strings.Index(out, "\nshape ") {
				t.Errorf("%q: the row of %s before the table's head", args, s.Name)
			}
		}
		if args[len(args)-1] == "-kernels" {
			for _, k := range sha256x.Kernels() {
				if n := strings.Count(out, "\n  kernel "+k+" "); n != len(shapes.All()) {
					t.Errorf("%q: %d rows of kernel %s, want one per shape", args, n, k)
				}
			}
		}
	}
}

// TestBenchHow: the header says why its kernel runs: SHA256X_KERNEL, the
// build tag that pins it (go test -tags sha256x_generic), or the
// dispatcher, which it names only for the plan the dispatcher chose.
func TestBenchHow(t *testing.T) {
	var b strings.Builder
	benchHeader(&b, shapes.All()[:1], 1, time.Millisecond, time.Millisecond, false)
	head := b.String()
	want := "kernel: " + sha256x.Kernel() + " (dispatched)"
	switch {
	case os.Getenv("SHA256X_KERNEL") != "":
		want = "kernel: " + sha256x.Kernel() + " (SHA256X_KERNEL)"
	case plan.Active != plan.Choose("", ""):
		want = "kernel: " + sha256x.Kernel() + " (build tag sha256x_"
	}
	if !strings.Contains(head, want) {
		t.Errorf("the header says %q, want %q", strings.SplitN(strings.SplitN(head, "kernel: ", 2)[1], "\n", 2)[0], want)
	}
}

func pad(s string, n int) string { return s + strings.Repeat(" ", max(n-len(s), 0)) }

// TestBenchLong: -long sets a longer run unless -rounds or -time says
// otherwise, and the header says how long.
func TestBenchLong(t *testing.T) {
	got := runCmd("bench", "-long", "-rounds", "1", "-time", "50us")
	if got.code != 0 || !strings.Contains(got.stdout, "medians of 1 measurements of 50µs each") {
		t.Errorf("bench -long -rounds 1 -time 50us: %+v", got)
	}
}

// TestBenchOperands: bench takes no operands; one is a usage error with
// status 2, as with chain, -t and version.
func TestBenchOperands(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-rounds", "1", "-time", "100us", "small"},
		{"bench", "-rounds", "1", "-time", "100us", "x", "-small"},
	} {
		got := runCmd(args...)
		if got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, "sha256x bench: no operands, but ") ||
			!strings.HasSuffix(got.stderr, benchUsage) {
			t.Errorf("%q: %+v; want status 2, nothing on stdout, the usage on stderr", args, got)
		}
	}
}

// TestBenchBadValues: -rounds below 1 and -time of 0 or less are usage
// errors with status 2, not quietly taken as the least.
func TestBenchBadValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"bench", "-rounds", "0"}, "sha256x bench: -rounds 0: at least 1"},
		{[]string{"bench", "-rounds", "0x3"}, "invalid value \"0x3\" for flag -rounds: parse error"},
		{[]string{"bench", "-small", "-rounds", "-3"}, "sha256x bench: -rounds -3: at least 1"},
		{[]string{"bench", "-time", "-1s"}, "sha256x bench: -time -1s: more than 0"},
		{[]string{"bench", "-pauses", "-time", "0s"}, "sha256x bench: -time 0s: more than 0"},
	} {
		got := runCmd(c.args...)
		if got.code != 2 || got.stdout != "" || !strings.HasPrefix(got.stderr, c.msg+"\n") || !strings.HasSuffix(got.stderr, benchUsage) {
			t.Errorf("%q: %+v; want status 2, nothing on stdout, %q and the usage on stderr", c.args, got, c.msg)
		}
	}
}

// TestBenchHeaderPrefix: the header says how crypto/sha256 hashes a
// shape with a prefix as measure does it (shapes.HashCrypto: a hash.Hash
// reused, Reset, Write of the prefix and of the message, Sum), not Sum256.
func TestBenchHeaderPrefix(t *testing.T) {
	var b strings.Builder
	s := &shapes.Shape{Name: "p", Prefix: []byte("LEAF"), Msgs: [][]byte{{1}}, What: "a prefixed shape"}
	benchHeader(&b, []*shapes.Shape{s}, 1, time.Millisecond, time.Millisecond, false)
	if !strings.Contains(b.String(), "Write(prefix)") {
		t.Errorf("the header does not say how crypto/sha256 hashes a prefixed shape:\n%s", b.String())
	}
}
