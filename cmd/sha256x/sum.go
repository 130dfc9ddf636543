package main

// sha256x sum: sha256sum's output, many files at once.

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sha256x/sha256x/files"
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
  -j, --jobs=N     hash with at most N goroutines (default, and most: one
                   per core; a larger N is capped, with a note)
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
	jobs                                int // 0: one per core
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
		case a == "-j" || isJobs(a):
			if i+1 == len(args) {
				return o, usageError(stderr, "option requires an argument -- 'j'"), true
			}
			i++
			if !parseJobs(&o, args[i]) {
				return o, usageError(stderr, "invalid number of jobs: %s", quoteName(args[i])), true
			}
		case strings.Contains(a, "=") && isJobs(a[:strings.IndexByte(a, '=')]):
			v := a[strings.IndexByte(a, '=')+1:]
			if !parseJobs(&o, v) {
				return o, usageError(stderr, "invalid number of jobs: %s", quoteName(v)), true
			}
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
				if a[k] == 'j' {
					v := a[k+1:]
					if v == "" {
						if i+1 == len(args) {
							return o, usageError(stderr, "option requires an argument -- 'j'"), true
						}
						i++
						v = args[i]
					}
					if !parseJobs(&o, v) {
						return o, usageError(stderr, "invalid number of jobs: %s", quoteName(v)), true
					}
					break
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

// isJobs reports whether a names --jobs, or an unambiguous prefix of it.
func isJobs(a string) bool { return len(a) > 2 && strings.HasPrefix("--jobs", a) }

// parseJobs sets o.jobs from the argument of -j, a positive number.
func parseJobs(o *sumOpts, v string) bool {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return false
	}
	o.jobs = n
	return true
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
	eng.h.Workers = opts.jobs
	if m := files.MaxWorkers(); opts.jobs > m {
		// More would add memory and no speed (package files, MaxWorkers).
		fmt.Fprintf(stderr, "sha256x: %d jobs capped at %d (%d per core)\n", opts.jobs, m, files.WorkersPerCore)
	}
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

const window = 4096 // files hashed, then reported, at a time by sum -c and merkle

// sumFiles hashes the arguments (with -r, the files under the directories
// among them) and prints a line for each, in order, as they finish. Runs of
// files between "-" arguments stream through the files package; "-" is
// hashed here, in its turn.
func sumFiles(opts sumOpts, eng *engine, out *output) int {
	status := 0
	report := func(path string, sum []byte, err error) {
		if err != nil {
			out.errorf("%s: %s", quoteName(path), errText(err))
			status = 1
			return
		}
		writeSumLine(out.out, path, sum, opts)
	}
	for args := opts.files; len(args) > 0; {
		if args[0] == "-" {
			sum, err := eng.hashStdin()
			report("-", sum[:], err)
			args = args[1:]
			continue
		}
		k := slices.Index(args, "-")
		if k < 0 {
			k = len(args)
		}
		run := args[:k]
		args = args[k:]
		seq := files.List(run)
		if opts.recursive {
			seq = func(yield func(files.Entry) bool) {
				for _, a := range run {
					for e := range files.Tree(a) {
						if !yield(e) {
							return
						}
					}
				}
			}
		}
		eng.h.Stream(context.Background(), seq, func(r files.Result) { report(r.Path, r.Sum[:], r.Err) })
		eng.done()
	}
	return status
}

// appendHex is hex.AppendEncode four bytes to a word: their nibbles spread
// into the word's bytes, which become digits together. A digit at a time,
// hex.AppendEncode was 0.6% of `sum -r` of 10,000 small files on the Intel
// Xeon; 35 ns a digest against 21 (BenchmarkAppendHex; BENCHMARKS.md, "The
// walk's memory used again").
func appendHex(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 2*len(src))[:n+2*len(src)]
	out := dst[n:]
	for len(src) >= 8 {
		v := binary.BigEndian.Uint64(src)
		binary.BigEndian.PutUint64(out, hexWord(v>>32))
		binary.BigEndian.PutUint64(out[8:], hexWord(v&0xffffffff))
		src, out = src[8:], out[16:]
	}
	const digits = "0123456789abcdef"
	for i, b := range src { // the last 0-7 bytes
		out[2*i], out[2*i+1] = digits[b>>4], digits[b&15]
	}
	return dst
}

// hexWord is the 8 hex digits of the 32 bits of x, in a word to store
// big-endian.
func hexWord(x uint64) uint64 {
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f // a nibble a byte, in order
	ten := (x + 0x0606060606060606) >> 4 & 0x0101010101010101
	return x + 0x3030303030303030 + ten*('a'-'0'-10)
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
	// Encoded in the writer's own buffer: an array here would escape
	// through Write, one allocation a line.
	if w.Available() < hex.EncodedLen(len(sum)) {
		w.Flush() // an error sticks, and the last Flush reports it
	}
	w.Write(appendHex(w.AvailableBuffer(), sum))
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
