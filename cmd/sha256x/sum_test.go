package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// weirdNames are file names that sha256sum escapes or quotes.
var weirdNames = []string{
	`back\slash`, "new\nline", "carriage\rreturn", "both\\and\nnew", "sp ace", "it's",
	"a:b", "tab\there", "ünïcödé", "bad\xffbyte", "-dash", "*star", "#hash", "a#b",
	"{", "dollar$", "quote's $x", "trail\n",
}

// tree makes files of many sizes (some past smallMax, streamed) and weird
// names under dir, and returns their names in sum -r's order.
func tree(t testing.TB, dir string) []string {
	r := rand.New(rand.NewPCG(5, 6))
	write := func(name string, n int) {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range weirdNames {
		write(name, i*37)
	}
	for i := range 150 {
		write(fmt.Sprintf("d%d/f%03d", i%4, i), r.IntN(9000))
	}
	write("big/a", smallMax+1)
	write("big/b", 3*smallMax+77)
	write("big/c", smallMax)
	write("big/empty", 0)
	write("sub/deeper/x", 100)
	if err := os.Symlink("x", filepath.Join(dir, "sub/deeper/link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../d0", filepath.Join(dir, "sub/dirlink")); err != nil {
		t.Fatal(err)
	}
	// What sum -r lists: regular files and links to them, depth first,
	// each directory in name order (as filepath.WalkDir, written apart).
	var names []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	return names
}

// diff shows where got first differs from want.
func diff(got, want string) string {
	if got == want {
		return "same"
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("at byte %d: got %q, want %q", i, got[from:min(len(got), i+60)], want[from:min(len(want), i+60)])
}

type result struct {
	stdout, stderr string
	code           int
}

func sha256sum(t *testing.T, locale string, stdin []byte, args ...string) result {
	if runtime.GOARCH == "wasm" {
		t.Skip("wasm starts no processes")
	}
	path, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Args[0] = "sha256sum" // it names itself after argv[0]
	cmd.Env = append(os.Environ(), "LC_ALL="+locale)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// Ours names itself sha256x.
	e := strings.ReplaceAll(errb.String(), "sha256sum: ", "sha256x: ")
	e = strings.ReplaceAll(e, "'sha256sum --help'", "'sha256x sum --help'")
	return result{out.String(), e, code}
}

func ours(stdin []byte, args ...string) result {
	var out, errb bytes.Buffer
	code := sumMain(args, bytes.NewReader(stdin), &out, &errb)
	return result{out.String(), errb.String(), code}
}

func compare(t *testing.T, stdin []byte, args ...string) {
	t.Helper()
	for _, loc := range []string{"C.UTF-8", "C"} {
		utf8Locale = loc != "C"
		want := sha256sum(t, loc, stdin, args...)
		got := ours(stdin, args...)
		if got != want {
			t.Errorf("LC_ALL=%s sum %q: code %d, want %d\n stdout: %s\n stderr: %s",
				loc, args, got.code, want.code, diff(got.stdout, want.stdout), diff(got.stderr, want.stderr))
		}
	}
	utf8Locale = true
}

func TestSum(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	if err := os.Symlink("nowhere", "dangling"); err != nil {
		t.Fatal(err)
	}
	stdin := []byte("from standard input\n")
	compare(t, stdin, append([]string{"--"}, names...)...)
	compare(t, stdin, append([]string{"-b", "--"}, names[:20]...)...)
	compare(t, stdin, append([]string{"--tag", "--"}, names[:20]...)...)
	compare(t, stdin, append([]string{"-z", "--"}, names[:20]...)...)
	compare(t, stdin)
	compare(t, stdin, "-", "big/a", "-")
	// Errors amid files: reported in order, the rest still hashed.
	compare(t, stdin, "d0", "big/a", "missing", "new\nmissing", "it's missing", "dangling", "d1/f001", "ünï missing", "bad\xffmissing")
	compare(t, stdin, "-q")
	compare(t, stdin, "zw\u200bsp", "bom\ufeff", "pua\ue000", "\x7f$#'\x01", "nx/}?'\xc3", "it's\n")
	compare(t, stdin, "--quiet", "big/a")
	compare(t, stdin, "--bogus")
}

// TestSumRecursive: sum -r lists what the test's own walk finds, and each
// line is what sha256sum prints for that file.
func TestSumRecursive(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	for _, root := range []string{".", "./", "d1", "sub"} {
		var want []string
		for _, n := range names {
			switch {
			case root == "." || root == "./":
				want = append(want, "./"+n)
			case strings.HasPrefix(n, root+"/"):
				want = append(want, n)
			}
		}
		w := sha256sum(t, "C.UTF-8", nil, append([]string{"--"}, want...)...)
		got := ours(nil, "-r", root)
		if got.stdout != w.stdout || got.code != 0 || got.stderr != "" {
			t.Errorf("sum -r %s:\n got %q\n want %q\n stderr %q", root, got.stdout, w.stdout, got.stderr)
		}
	}
	// A file argument with -r is hashed as it is.
	if got, want := ours(nil, "-r", "big/a"), sha256sum(t, "C.UTF-8", nil, "big/a"); got != want {
		t.Errorf("sum -r FILE: %+v, want %+v", got, want)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	sums := sha256sum(t, "C.UTF-8", nil, append([]string{"--"}, names...)...).stdout
	tags := sha256sum(t, "C.UTF-8", nil, append([]string{"--tag", "--"}, names[:10]...)...).stdout
	write := func(name, s string) {
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SUMS", sums)
	write("TAGS", tags)
	// Damage: a changed file, a missing file, a directory, malformed and
	// odd lines.
	bad := sums + "garbage\n\n# a comment\n" + sums[:64] + "  -\n" +
		strings.Repeat("0", 64) + "  missing\n" +
		strings.Repeat("0", 64) + "  d0\n" +
		strings.ToUpper(sums[:64]) + " *" + names[0] + "\r\n" +
		`\` + strings.Repeat("a", 64) + `  bad\escape` + "\n" +
		strings.Repeat("g", 64) + "  x\n" +
		strings.Repeat("0", 63) + "  short\n" +
		"SHA256 (" + names[1] + ") = " + strings.Repeat("1", 64) + "\n"
	write("BAD", bad)
	write("MANY", strings.Repeat(bad, 55)) // 10,000 lines, past sum -c's old window
	write("EMPTY", "nothing here\n")
	write("REVERSED", sums[:64]+" "+names[0]+"\n"+sums[:64]+"  "+names[0]+"\n")
	compare(t, nil, "-c", "SUMS")
	compare(t, nil, "-c", "TAGS")
	compare(t, []byte(sums), "-c")
	compare(t, []byte(sums), "-c", "-", "TAGS")
	if err := os.WriteFile(names[3], []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove("big/a"); err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]string{
		{"-c"}, {"-c", "--quiet"}, {"-c", "--status"}, {"-c", "-w"}, {"--strict", "-c"},
		{"-c", "--ignore-missing"}, {"-c", "--ignore-missing", "--quiet"},
	} {
		compare(t, nil, append(opts, "SUMS", "BAD")...)
	}
	compare(t, nil, "-c", "-w", "EMPTY", "MANY")
	compare(t, nil, "-c", "nonexistent", "TAGS")
	compare(t, nil, "-c", "REVERSED")
	compare(t, []byte(strings.Repeat("0", 64)+"  missing\n"), "-c", "--ignore-missing")
	compare(t, nil, "-c", "--tag", "SUMS")
	compare(t, nil, "--status", "SUMS")
	// --warn, --quiet and --status: the last given wins, as in sha256sum.
	for _, opts := range [][]string{
		{"-c", "--quiet", "-w"}, {"-c", "-w", "--quiet"}, {"-c", "--status", "-w"},
		{"-c", "-w", "--status"}, {"-c", "--status", "--quiet"}, {"-c", "--quiet", "--status"},
		{"-c", "--ignore-missing", "--status"},
	} {
		compare(t, nil, append(opts, "SUMS", "BAD")...)
	}
	compare(t, nil, "--status", "-w", "SUMS")
	compare(t, nil, "--status", "--quiet", "SUMS")
	// --ignore-missing: a mismatch verifies no file.
	write("MISMATCH", strings.Repeat("0", 64)+"  "+names[0]+"\n"+strings.Repeat("0", 64)+"  missing\n")
	compare(t, nil, "-c", "--ignore-missing", "MISMATCH")
	// A line with a bad digest does not decide whether "HEX FILE" lines
	// are allowed; a "-" line read from standard input is misformatted;
	// a BSD line may name "".
	write("ODD", strings.Repeat("g", 64)+"  x\n"+sums[:64]+" "+names[0]+"\n"+
		"SHA256 () = "+strings.Repeat("0", 64)+"\n"+"SHA256 (x) = "+strings.Repeat("a", 100)+"\n")
	compare(t, nil, "-c", "-w", "ODD")
	compare(t, []byte(sums[:64]+"  -\n"+sums), "-c")
}

// errOnce reads parts in turn; an empty part is one read failing with EIO.
type errOnce []string

func (r *errOnce) Read(p []byte) (int, error) {
	if len(*r) == 0 {
		return 0, io.EOF
	}
	s := (*r)[0]
	*r = (*r)[1:]
	if s == "" {
		return 0, errors.New("input/output error")
	}
	return copy(p, s), nil
}

// TestCheckReadError: a read error ends the checksum file, the line it cut
// short checked, as sha256sum's getline does; nothing after it is read.
func TestCheckReadError(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := fmt.Sprintf("%x", sha256.Sum256([]byte("x")))
	for _, tail := range []string{"", "  f", "  f\n"} {
		in := errOnce{h + "  f\n" + h + tail, "", "\n" + h + "  f\n"}
		var out, errb bytes.Buffer
		code := sumMain([]string{"-c"}, &in, &out, &errb)
		want, wantErr := "f: OK\n", "sha256x: 'standard input': read error\n"
		if tail != "" {
			want += "f: OK\n"
		}
		if code != 1 || out.String() != want || errb.String() != wantErr {
			t.Errorf("tail %q: status %d, stdout %q, stderr %q; want 1, %q, %q", tail, code, out.String(), errb.String(), want, wantErr)
		}
	}
}

// TestCheckReversedAcrossFiles: whether "HEX FILE" lines are allowed is
// decided by the first line of the first checksum file, for all of them:
// sha256sum's bsd_reversed is a global.
func TestCheckReversedAcrossFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	h := fmt.Sprintf("%x", sha256.Sum256([]byte("x")))
	for name, s := range map[string]string{"f": "x", "TWO": h + "  f\n", "ONE": h + " f\n"} {
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// As sha256sum 9.1 printed them.
	for _, c := range []struct{ args, stdout, stderr string }{
		{"TWO ONE", "f: OK\n", "sha256x: ONE: 1: improperly formatted SHA256 checksum line\nsha256x: ONE: no properly formatted checksum lines found\n"},
		{"ONE TWO", "f: OK\n f: FAILED open or read\n", "sha256x: ' f': No such file or directory\nsha256x: WARNING: 1 listed file could not be read\n"},
	} {
		if got := ours(nil, append([]string{"-c", "-w"}, strings.Fields(c.args)...)...); got != (result{c.stdout, c.stderr, 1}) {
			t.Errorf("sum -c -w %s: %+v, want %q, %q, 1", c.args, got, c.stdout, c.stderr)
		}
	}
}

// TestEngine hashes many files of all kinds at once and checks each digest
// with crypto/sha256; with a prefix too (the merkle leaves).
func TestEngine(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	for _, prefix := range [][]byte{nil, []byte("\x00SOLANA_MERKLE_SHREDS_LEAF")} {
		eng := newEngine(prefix, bytes.NewReader([]byte("stdin")))
		var jobs []*job
		for _, n := range append(names, "-", "missing", "d0") {
			jobs = append(jobs, &job{path: n})
		}
		eng.hash(jobs)
		eng.close()
		for _, j := range jobs {
			var data []byte
			var err error
			if j.path == "-" {
				data = []byte("stdin")
			} else {
				data, err = os.ReadFile(j.path)
			}
			if (err != nil) != (j.err != nil) {
				t.Fatalf("%q: error %v, want %v", j.path, j.err, err)
			}
			if err == nil && j.sum != sha256.Sum256(append(append([]byte(nil), prefix...), data...)) {
				t.Fatalf("%q (%d bytes): wrong digest", j.path, len(data))
			}
		}
	}
}

func TestQuoteName(t *testing.T) {
	// Cases the comparisons above miss; the quoting is what coreutils 9.1
	// sha256sum printed, with LC_ALL=C.UTF-8.
	for in, want := range map[string]string{
		"":      "''",
		"plain": "plain",
		"~home": "'~home'",
		"a~b":   "a~b",
		"}":     "'}'",
		"a}":    "a}",
		"\nx":   `''$'\n''x'`,
		"x\n":   `'x'$'\n'`,
		"it's":  `"it's"`,
		"it's!": `'it'\''s!'`,
		// Printable to glibc's iswprint: a format character, private use.
		"x\u200b": "x\u200b",
		"x\ufeff": "x\ufeff",
		"x\ue000": "x\ue000",
		"x\u2028": `'x'$'\342\200\250'`,
		// gnulib's second pass over a name with a single quote, begun as
		// its first ended: after a last character escaped.
		"\x7f$#'\x01": `'\177''$#'\'''$'\001'`,
		"nx/}?'\xc3":  `'''nx/}?'\'''$'\303'`,
		"it's\n":      `'''it'\''s'$'\n'`,
	} {
		utf8Locale = true
		if got := quoteName(in); got != want {
			t.Errorf("quoteName(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestWriteSumLine: each form of line, as sha256sum writes it, and no
// allocation for a line of the plain form (10,000 small files write 10,000
// lines).
func TestWriteSumLine(t *testing.T) {
	sum := sha256.Sum256([]byte("abc"))
	hexSum := fmt.Sprintf("%x", sum)
	for _, tc := range []struct {
		name string
		opts sumOpts
		want string
	}{
		{"a/b", sumOpts{}, hexSum + "  a/b\n"},
		{"a/b", sumOpts{binary: true}, hexSum + " *a/b\n"},
		{"a/b", sumOpts{tag: true}, "SHA256 (a/b) = " + hexSum + "\n"},
		{"a/b", sumOpts{zero: true}, hexSum + "  a/b\x00"},
		{"a\nb\\", sumOpts{}, "\\" + hexSum + "  a\\nb\\\\\n"},
	} {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		writeSumLine(w, tc.name, sum[:], tc.opts)
		w.Flush()
		if buf.String() != tc.want {
			t.Errorf("writeSumLine(%q, %+v) = %q, want %q", tc.name, tc.opts, buf.String(), tc.want)
		}
	}
	// A small buffer, so that lines also cross a flush.
	w := bufio.NewWriterSize(io.Discard, 100)
	if n := testing.AllocsPerRun(1000, func() { writeSumLine(w, "dir/file", sum[:], sumOpts{}) }); n != 0 {
		t.Errorf("writeSumLine: %v allocations a line, want 0", n)
	}
}

// TestAppendHex: appendHex gives hex.AppendEncode's digits, after what dst
// holds, for every byte and for digests.
func TestAppendHex(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, src := range [][]byte{nil, all, all[:32], all[200:232]} {
		for _, dst := range [][]byte{nil, []byte("x "), make([]byte, 3, 100)} {
			want := hex.AppendEncode(slices.Clone(dst), src)
			if got := appendHex(slices.Clone(dst), src); !bytes.Equal(got, want) {
				t.Errorf("appendHex(%q, % x) = %q, want %q", dst, src, got, want)
			}
		}
	}
}

func BenchmarkAppendHex(b *testing.B) {
	sum := sha256.Sum256([]byte("a digest"))
	buf := make([]byte, 0, 64)
	b.Run("impl=appendHex", func(b *testing.B) {
		for b.Loop() {
			buf = appendHex(buf[:0], sum[:])
		}
	})
	b.Run("impl=hex.AppendEncode", func(b *testing.B) {
		for b.Loop() {
			buf = hex.AppendEncode(buf[:0], sum[:])
		}
	})
}

// TestSumOptions: sum's options as GNU coreutils 9.1 sha256sum takes them:
// each row holds what 9.1 prints (sha256x for sha256sum), checked against
// ours, and against the sha256sum here when it is 9.1. -r, -j and -h are
// sum's own.
func TestSumOptions(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("f", []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("%x  f\n", sha256.Sum256([]byte("hi\n")))
	if err := os.WriteFile("SUMS", []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	gnu9 := false
	if path, err := exec.LookPath("sha256sum"); err == nil {
		out, _ := exec.Command(path, "--version").Output()
		gnu9 = strings.HasPrefix(string(out), "sha256sum (GNU coreutils) 9.1\n")
	}
	try := "Try 'sha256x sum --help' for more information.\n"
	for _, c := range []struct {
		args   []string
		code   int
		stderr string // "" with code 0: stdout is line
	}{
		{[]string{"-c", "-z", "SUMS"}, 1, "sha256x: the --zero option is not supported when verifying checksums\n" + try},
		{[]string{"-cz", "SUMS"}, 1, "sha256x: the --zero option is not supported when verifying checksums\n" + try},
		{[]string{"-z", "-c", "--tag", "SUMS"}, 1, "sha256x: the --zero option is not supported when verifying checksums\n" + try},
		{[]string{"SUMS", "--check", "--zero"}, 1, "sha256x: the --zero option is not supported when verifying checksums\n" + try},
		{[]string{"--tag", "-t", "f"}, 1, "sha256x: --tag does not support --text mode\n" + try},
		{[]string{"--tag", "--text", "f"}, 1, "sha256x: --tag does not support --text mode\n" + try},
		{[]string{"f", "--tag", "--te"}, 1, "sha256x: --tag does not support --text mode\n" + try},
		{[]string{"-z", "-c", "--tag", "-t", "SUMS"}, 1, "sha256x: --tag does not support --text mode\n" + try},
		{[]string{"--tag", "-t", "-w", "f"}, 1, "sha256x: --tag does not support --text mode\n" + try},
		{[]string{"-w", "-t", "--tag", "f"}, 1, "sha256x: the --warn option is meaningful only when verifying checksums\n" + try},
		{[]string{"-c", "-t", "SUMS"}, 1, "sha256x: the --binary and --text options are meaningless when verifying checksums\n" + try},
		{[]string{"-tc", "SUMS"}, 1, "sha256x: the --binary and --text options are meaningless when verifying checksums\n" + try},
		{[]string{"-c", "-b", "SUMS"}, 1, "sha256x: the --binary and --text options are meaningless when verifying checksums\n" + try},
		{[]string{"-c", "--tag", "SUMS"}, 1, "sha256x: the --tag option is meaningless when verifying checksums\n" + try},
		{[]string{"--check=x", "SUMS"}, 1, "sha256x: option '--check' doesn't allow an argument\n" + try},
		{[]string{"--check=", "SUMS"}, 1, "sha256x: option '--check' doesn't allow an argument\n" + try},
		{[]string{"--ch=x", "SUMS"}, 1, "sha256x: option '--check' doesn't allow an argument\n" + try},
		{[]string{"--zero=", "f"}, 1, "sha256x: option '--zero' doesn't allow an argument\n" + try},
		{[]string{"--ver=1"}, 1, "sha256x: option '--version' doesn't allow an argument\n" + try},
		{[]string{"--t", "f"}, 1, "sha256x: option '--t' is ambiguous; possibilities: '--tag' '--text'\n" + try},
		{[]string{"--t=1", "f"}, 1, "sha256x: option '--t=1' is ambiguous; possibilities: '--tag' '--text'\n" + try},
		{[]string{"--st", "f"}, 1, "sha256x: option '--st' is ambiguous; possibilities: '--status' '--strict'\n" + try},
		{[]string{"--bogus=1", "f"}, 1, "sha256x: unrecognized option '--bogus=1'\n" + try},
		{[]string{"-x", "f"}, 1, "sha256x: invalid option -- 'x'\n" + try},
		{[]string{"-t", "--tag", "f"}, 0, ""},
		{[]string{"--b", "--c", "SUMS"}, 1, "sha256x: the --binary and --text options are meaningless when verifying checksums\n" + try},
		{[]string{"--c", "SUMS"}, 0, ""},
		{[]string{"f", "--", "--tag"}, 1, ""}, // "--tag" a file name: missing
	} {
		got := ours(nil, c.args...)
		switch {
		case c.args[0] == "--c":
			if got.code != 0 || got.stdout != "f: OK\n" || got.stderr != "" {
				t.Errorf("sum %q: %+v", c.args, got)
			}
		case c.args[0] == "-t":
			if got.code != 0 || got.stdout != fmt.Sprintf("SHA256 (f) = %x\n", sha256.Sum256([]byte("hi\n"))) || got.stderr != "" {
				t.Errorf("sum %q: %+v", c.args, got)
			}
		case len(c.args) > 1 && c.args[1] == "--":
			if got.code != 1 || got.stdout != line || !strings.Contains(got.stderr, "--tag: No such file or directory") {
				t.Errorf("sum %q: %+v", c.args, got)
			}
		default:
			if want := (result{"", c.stderr, c.code}); got != want {
				t.Errorf("sum %q: %+v, want %+v", c.args, got, want)
			}
		}
		if gnu9 {
			compare(t, nil, c.args...)
		}
	}
}

// TestSumVersion: sum --version (and --v, its prefix) prints the command's
// version, as sha256sum --version prints sha256sum's, where the first of
// --help and --version wins, as in getopt's order; an error before it wins.
func TestSumVersion(t *testing.T) {
	var want bytes.Buffer
	versionMain(nil, nil, &want, io.Discard)
	for _, args := range [][]string{{"--version"}, {"--v"}, {"f", "--version", "--help"}, {"--version", "-x"}} {
		if got := ours(nil, args...); got != (result{want.String(), "", 0}) {
			t.Errorf("sum %q: %+v, want the version", args, got)
		}
	}
	if got := ours(nil, "--help", "--version"); got.stdout != sumUsage || got.code != 0 {
		t.Errorf("sum --help --version: %+v, want the usage", got)
	}
	if got := ours(nil, "-x", "--version"); got.code != 1 || got.stdout != "" {
		t.Errorf("sum -x --version: %+v, want the error", got)
	}
	if path, err := exec.LookPath("sha256sum"); err == nil {
		for _, args := range [][]string{{"--version"}, {"--v"}, {"f", "--version", "--help"}, {"--version", "-x"}} {
			if err := exec.Command(path, args...).Run(); err != nil {
				t.Errorf("sha256sum %q: %v, where sum prints its version", args, err)
			}
		}
	}
}

// TestSumPosixlyCorrect: with POSIXLY_CORRECT in the environment, the
// first operand ends the options, "--" after it included, as sha256sum
// 9.1 takes them (getopt's order); without it, options may follow.
func TestSumPosixlyCorrect(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("f", []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte("hi\n")))
	plain, tag := sum+"  f\n", "SHA256 (f) = "+sum+"\n"
	missing := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "sha256x: %s: No such file or directory\n", n)
		}
		return b.String()
	}
	_, lookErr := exec.LookPath("sha256sum")
	defer func(v bool) { posixlyCorrect = v }(posixlyCorrect)
	for _, c := range []struct {
		posix bool
		args  []string
		want  result
	}{
		{false, []string{"f", "--tag"}, result{tag, "", 0}},
		{true, []string{"f", "--tag"}, result{plain, missing("--tag"), 1}},
		{true, []string{"--tag", "f", "-b"}, result{tag, missing("-b"), 1}},
		{true, []string{"f", "--", "-b"}, result{plain, missing("--", "-b"), 1}},
		{true, []string{"--", "f", "--"}, result{plain, missing("--"), 1}},
		{true, []string{"f", "-c"}, result{plain, missing("-c"), 1}},
		{true, []string{"f", "-x"}, result{plain, missing("-x"), 1}},
	} {
		t.Run(fmt.Sprint(c.posix, c.args), func(t *testing.T) {
			posixlyCorrect = c.posix
			if got := ours(nil, c.args...); got != c.want {
				t.Errorf("sum %q: %+v, want %+v", c.args, got, c.want)
			}
			if lookErr != nil {
				return
			}
			if c.posix {
				t.Setenv("POSIXLY_CORRECT", "1")
			}
			if w := sha256sum(t, "C.UTF-8", nil, c.args...); w != c.want {
				t.Errorf("sha256sum %q: %+v, want %+v", c.args, w, c.want)
			}
		})
	}
}

// TestProgressOut: standard output sharing the progress line's terminal
// erases the line before each write, and a write that ends mid-line keeps
// the line from being drawn over it until one ends the line.
func TestProgressOut(t *testing.T) {
	var term, out bytes.Buffer
	p := &progress{w: &term, shown: true}
	o := progressOut{p, &out}
	o.Write([]byte("abc  x\ndef"))
	if term.String() != "\r\x1b[K" || p.shown || !p.midLine {
		t.Fatalf("after a write ending mid-line: terminal %q, shown %v, midLine %v", term.String(), p.shown, p.midLine)
	}
	o.Write([]byte("  y\n"))
	if p.midLine || out.String() != "abc  x\ndef  y\n" {
		t.Fatalf("after a write ending a line: midLine %v, output %q", p.midLine, out.String())
	}
}
