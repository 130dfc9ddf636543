package main

// sha256x sum: sha256sum's output, many files at once.

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

func init() { commands["sum"] = sumMain }

const sumUsage = `usage: sha256x sum [OPTION]... [FILE|DIR]...
Print or check SHA-256 checksums, as sha256sum does, many files at once.
With no FILE, or when FILE is -, read standard input.

  -r, --recursive  hash the files under each DIR, depth first, the entries
                   of each directory in byte order of their names; symbolic
                   links to files are hashed, links to directories and
                   special files (pipes, devices, sockets) are left out
  -b, --binary     mark lines with '*' (binary mode; the same bytes are read)
  -t, --text       mark lines with ' ' (the default)
      --tag        BSD-style lines: SHA256 (FILE) = HEX
  -z, --zero       end lines with NUL, not newline, and escape no name
  -c, --check      read checksums from the FILEs and check them
The following options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet      don't print OK for each successfully verified file
      --status     don't output anything, status code shows success
      --strict     exit non-zero for improperly formatted checksum lines
  -w, --warn       warn about improperly formatted checksum lines

Output, messages and exit status are those of GNU coreutils 9.1 sha256sum,
with "sha256x" where sha256sum names itself.
`

type sumOpts struct {
	recursive, binary, tag, zero, check bool
	ignoreMissing, quiet, status        bool
	strict, warn                        bool
	files                               []string
}

// usageError writes a getopt-style complaint and returns status 1.
func usageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "sha256x: "+format+"\n", a...)
	fmt.Fprintf(stderr, "Try 'sha256x sum --help' for more information.\n")
	return 1
}

// parseSum parses GNU-style options, which may come after file names.
func parseSum(args []string, stdout, stderr io.Writer) (o sumOpts, status int, done bool) {
	long := map[string]*bool{
		"recursive": &o.recursive, "binary": &o.binary, "tag": &o.tag, "zero": &o.zero,
		"check": &o.check, "ignore-missing": &o.ignoreMissing, "quiet": &o.quiet,
		"status": &o.status, "strict": &o.strict, "warn": &o.warn,
	}
	short := map[byte]*bool{'r': &o.recursive, 'b': &o.binary, 'z': &o.zero, 'c': &o.check, 'w': &o.warn}
	var text bool
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.files = append(o.files, args[i+1:]...)
			i = len(args)
		case a == "--help" || a == "-h": // -h, which sha256sum lacks, as every sha256x command has it
			io.WriteString(stdout, sumUsage)
			return o, 0, true
		case a == "--text":
			text = true
		case strings.HasPrefix(a, "--"):
			// Unambiguous prefixes, as getopt_long takes them.
			var match []string
			for name := range long {
				if name == a[2:] {
					match = []string{name}
					break
				}
				if strings.HasPrefix(name, a[2:]) {
					match = append(match, name)
				}
			}
			if len(match) != 1 {
				if strings.HasPrefix("text", a[2:]) && len(match) == 0 {
					text = true
					continue
				}
				if len(match) > 1 {
					return o, usageError(stderr, "option '%s' is ambiguous", a), true
				}
				return o, usageError(stderr, "unrecognized option '%s'", a), true
			}
			*long[match[0]] = true
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				if a[k] == 't' {
					text = true
					continue
				}
				p := short[a[k]]
				if p == nil {
					return o, usageError(stderr, "invalid option -- '%c'", a[k]), true
				}
				*p = true
			}
		default:
			o.files = append(o.files, a)
		}
	}
	if text {
		o.binary = false
	}
	if !o.check {
		for _, c := range []struct {
			set  bool
			name string
		}{{o.ignoreMissing, "--ignore-missing"}, {o.status, "--status"}, {o.warn, "--warn"}, {o.quiet, "--quiet"}, {o.strict, "--strict"}} {
			if c.set {
				return o, usageError(stderr, "the %s option is meaningful only when verifying checksums", c.name), true
			}
		}
	}
	if o.check && (o.tag || o.recursive) {
		return o, usageError(stderr, "the --%s option is meaningless when verifying checksums", map[bool]string{true: "tag", false: "recursive"}[o.tag]), true
	}
	if len(o.files) == 0 {
		o.files = []string{"-"}
	}
	return o, 0, false
}

// output buffers standard output and keeps error messages in step with it.
type output struct {
	out    *bufio.Writer
	stderr io.Writer
	prog   *progress
}

func (o *output) errorf(format string, a ...any) {
	o.out.Flush()
	o.prog.write(o.stderr, fmt.Sprintf("sha256x: "+format+"\n", a...))
}

func sumMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, status, done := parseSum(args, stdout, stderr)
	if done {
		return status
	}
	out := &output{out: bufio.NewWriterSize(stdout, 64<<10), stderr: stderr}
	eng := newEngine(nil, stdin)
	defer eng.close()
	out.prog = startProgress(stderr, eng)
	defer out.prog.stop()
	if opts.check {
		status = checkFiles(opts, eng, out, stdin)
	} else {
		status = sumFiles(opts, eng, out)
	}
	out.prog.stop()
	if err := out.out.Flush(); err != nil {
		fmt.Fprintf(stderr, "sha256x: write error: %s\n", errText(err))
		return 1
	}
	return status
}

const window = 4096 // files hashed, then printed, at a time

func sumFiles(opts sumOpts, eng *engine, out *output) int {
	status := 0
	jobs := make(chan []*job, 16)
	go walkArgs(opts.files, opts.recursive, jobs)
	batch := make([]*job, 0, window)
	flush := func() {
		eng.hash(batch)
		for _, j := range batch {
			if j.err != nil {
				out.errorf("%s: %s", quoteName(j.path), errText(j.err))
				status = 1
				continue
			}
			writeSumLine(out.out, j.path, j.sum[:], opts)
		}
		batch = batch[:0]
	}
	for js := range jobs {
		if batch = append(batch, js...); len(batch) >= window {
			flush()
		}
	}
	flush()
	return status
}

// writeSumLine writes one line of sha256sum's output.
func writeSumLine(w *bufio.Writer, name string, sum []byte, opts sumOpts) {
	esc := false
	if !opts.zero {
		name, esc = escapeName(name, "\\\n\r")
	}
	if esc {
		w.WriteByte('\\')
	}
	if opts.tag {
		w.WriteString("SHA256 (")
		w.WriteString(name)
		w.WriteString(") = ")
	}
	var h [64]byte
	hex.Encode(h[:], sum)
	w.Write(h[:])
	if !opts.tag {
		if opts.binary {
			w.WriteString(" *")
		} else {
			w.WriteString("  ")
		}
		w.WriteString(name)
	}
	if opts.zero {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
}

// A walker sends jobs in slices: one channel operation per few hundred
// files, not per file.
type walker struct {
	out  chan<- []*job
	jobs []*job
}

func (w *walker) send(j *job) {
	w.jobs = append(w.jobs, j)
	if len(w.jobs) == 256 {
		w.flush()
	}
}

func (w *walker) flush() {
	if len(w.jobs) > 0 {
		w.out <- w.jobs
		w.jobs = nil
	}
}

// walkArgs sends a job for each argument, and with recursive for each file
// under each directory argument, in order.
func walkArgs(args []string, recursive bool, out chan<- []*job) {
	w := &walker{out: out}
	defer close(out)
	defer w.flush()
	for _, a := range args {
		if recursive && a != "-" {
			if st, err := os.Stat(a); err == nil && st.IsDir() {
				w.walkDir(a)
				continue
			}
		}
		w.send(&job{path: a})
	}
}

// walkDir sends the files under dir, depth first, each directory's entries
// in the byte order of their names (os.ReadDir sorts them).
func (w *walker) walkDir(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil && len(ents) == 0 {
		w.send(&job{path: dir, err: err})
		return
	}
	sep := "/"
	if strings.HasSuffix(dir, "/") {
		sep = ""
	}
	for _, e := range ents {
		p := dir + sep + e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			w.walkDir(p)
		case t.IsRegular():
			w.send(&job{path: p})
		case t&os.ModeSymlink != 0:
			st, err := os.Stat(p)
			switch {
			case err != nil:
				w.send(&job{path: p, err: err}) // dangling: reported
			case st.Mode().IsRegular():
				w.send(&job{path: p})
			}
		}
	}
	if err != nil {
		w.send(&job{path: dir, err: err})
	}
}
