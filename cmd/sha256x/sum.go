package main

// sha256x sum: sha256sum's output, many files at once.

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
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
  -h, --help       print this and exit
      --version    print the version (as sha256x version) and exit

Options may follow file names ("--" ends them; with POSIXLY_CORRECT set,
the first file name does), long ones by any unambiguous prefix. Output,
messages and exit status are those of GNU coreutils 9.1 sha256sum, with
"sha256x" where sha256sum names itself: -z and --tag are refused with -c,
--text after --tag is refused.
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

// sumLong are sum's long options, in byte order of their names (the order
// getopt_long lists an ambiguous prefix's possibilities in): GNU
// sha256sum's, and --jobs and --recursive, which sha256sum lacks.
var sumLong = []struct {
	name string
	arg  bool // takes a value
}{
	{"binary", false}, {"check", false}, {"help", false}, {"ignore-missing", false},
	{"jobs", true}, {"quiet", false}, {"recursive", false}, {"status", false},
	{"strict", false}, {"tag", false}, {"text", false}, {"version", false},
	{"warn", false}, {"zero", false},
}

// parseSum parses GNU-style options, which may come after file names (as
// getopt permutes them; "--" ends them, or with POSIXLY_CORRECT the first
// file name), as GNU coreutils 9.1 sha256sum does: long options by any
// unambiguous prefix, "--help" and "--version" done where they come, the
// first error met the one reported, then the checks of the options together
// in sha256sum's order.
func parseSum(args []string, stdout, stderr io.Writer) (o sumOpts, status int, done bool) {
	binary := -1 // -1: neither -b nor -t; 1 binary; 0 text. --tag sets 1.
	// set applies one option; done: it printed and the command is over.
	set := func(name, value string) (status int, done bool) {
		switch name {
		case "binary":
			binary = 1
		case "text":
			binary = 0
		case "tag":
			o.tag, binary = true, 1
		case "check":
			o.check = true
		case "recursive":
			o.recursive = true
		case "zero":
			o.zero = true
		// --warn, --quiet and --status each turn the other two off, as in
		// sha256sum: the last of them given wins.
		case "warn":
			o.warn, o.quiet, o.status = true, false, false
		case "ignore-missing":
			o.ignoreMissing = true
		case "quiet":
			o.warn, o.quiet, o.status = false, true, false
		case "status":
			o.warn, o.quiet, o.status = false, false, true
		case "strict":
			o.strict = true
		case "jobs":
			if !parseJobs(&o, value) {
				return usageError(stderr, "invalid number of jobs: %s", quoteName(value)), true
			}
		case "help":
			return writeUsage(stdout, stderr, sumUsage), true
		case "version":
			return versionMain(nil, nil, stdout, stderr), true
		}
		return 0, false
	}
	shortNames := map[byte]string{'b': "binary", 't': "text", 'c': "check", 'r': "recursive",
		'z': "zero", 'w': "warn", 'h': "help", 'j': "jobs"} // -h, which sha256sum lacks, as every sha256x command has it
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.files = append(o.files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			key, value, hasValue := strings.Cut(a[2:], "=")
			var match []string
			arg := false
			for _, l := range sumLong {
				if l.name == key {
					match, arg = []string{l.name}, l.arg
					break
				}
				if strings.HasPrefix(l.name, key) {
					match, arg = append(match, l.name), l.arg
				}
			}
			switch {
			case len(match) == 0:
				return o, usageError(stderr, "unrecognized option '%s'", a), true
			case len(match) > 1:
				return o, usageError(stderr, "option '%s' is ambiguous; possibilities: '--%s'", a, strings.Join(match, "' '--")), true
			case hasValue && !arg:
				return o, usageError(stderr, "option '--%s' doesn't allow an argument", match[0]), true
			case arg && !hasValue:
				if i+1 == len(args) {
					return o, usageError(stderr, "option '--%s' requires an argument", match[0]), true
				}
				i++
				value = args[i]
			}
			if status, done := set(match[0], value); done {
				return o, status, true
			}
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				name := shortNames[a[k]]
				if name == "" {
					return o, usageError(stderr, "invalid option -- '%c'", a[k]), true
				}
				value := ""
				if name == "jobs" {
					value = a[k+1:]
					if value == "" {
						if i+1 == len(args) {
							return o, usageError(stderr, "option requires an argument -- 'j'"), true
						}
						i++
						value = args[i]
					}
					k = len(a)
				}
				if status, done := set(name, value); done {
					return o, status, true
				}
			}
		default:
			o.files = append(o.files, a)
			if posixlyCorrect {
				// getopt's order under POSIXLY_CORRECT, as sha256sum
				// takes it: the first operand ends the options.
				o.files = append(o.files, args[i+1:]...)
				i = len(args)
			}
		}
	}
	// The options together, in sha256sum's order.
	switch {
	case o.tag && binary == 0:
		return o, usageError(stderr, "--tag does not support --text mode"), true
	case o.zero && o.check:
		return o, usageError(stderr, "the --zero option is not supported when verifying checksums"), true
	case o.tag && o.check:
		return o, usageError(stderr, "the --tag option is meaningless when verifying checksums"), true
	case binary >= 0 && o.check:
		return o, usageError(stderr, "the --binary and --text options are meaningless when verifying checksums"), true
	case o.recursive && o.check:
		return o, usageError(stderr, "the --recursive option is meaningless when verifying checksums"), true
	}
	o.binary = binary == 1
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
	if len(o.files) == 0 {
		o.files = []string{"-"}
	}
	return o, 0, false
}

// posixlyCorrect: POSIXLY_CORRECT is set, whatever its value, as glibc's
// getopt asks, so that options end at the first operand.
var posixlyCorrect = func() bool {
	_, ok := os.LookupEnv("POSIXLY_CORRECT")
	return ok
}()

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
	tty    bool // standard output is a terminal
}

// endLine writes the lines so far where standard output is a terminal, as
// sha256sum's, buffered a line at a time there, are.
func (o *output) endLine() {
	if o.tty {
		o.out.Flush()
	}
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
	eng := newEngine(nil, stdin)
	eng.h.Workers = opts.jobs
	if m := files.MaxWorkers(); opts.jobs > m {
		// More would add memory and no speed (package files, MaxWorkers).
		fmt.Fprintf(stderr, "sha256x: %d jobs capped at %d (%d per core)\n", opts.jobs, m, files.WorkersPerCore)
	}
	defer eng.close()
	prog := startProgress(stderr, eng)
	defer prog.stop()
	out := &output{out: bufio.NewWriterSize(prog.stdout(stdout), 64<<10), stderr: stderr, prog: prog, tty: isTerminal(stdout)}
	if opts.check {
		status = checkFiles(opts, eng, out, stdin)
	} else {
		status = sumFiles(opts, eng, out)
	}
	out.prog.stop()
	return writeStatus(stderr, out.out.Flush(), status)
}

const window = 4096 // files hashed, then reported, at a time by merkle

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
		out.endLine()
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
// into the word's bytes, which become digits together, faster than a digit
// at a time (BenchmarkAppendHex; bench/HISTORY.md, "The walk's memory used
// again").
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
