package main

// sha256x sum -c: sha256sum -c, the listed files hashed many at once.

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	"github.com/sha256x/sha256x/files"
)

// A checksum line: the file, the digest it should have, and its outcome;
// or the warning about an improperly formatted line, printed in its turn.
type checkLine struct {
	job
	want [32]byte
	warn string
}

// checkState counts one checksum file's outcomes, as sha256sum does.
type checkState struct {
	misformatted, formatted int
	unreadable, mismatched  int
	matched                 bool // a digest matched (sha256sum's matched_checksums)
	bsdReversed             *int // -1 unknown, 0 no, 1 yes: set by the first line, kept for the next files (a global in sha256sum)
	stdin                   bool // the checksum file is standard input: a line naming "-" is improperly formatted
}

func checkFiles(opts sumOpts, eng *engine, out *output, stdin io.Reader) int {
	status, bsdReversed := 0, -1
	for _, name := range opts.files {
		if !checkFile(name, opts, eng, out, stdin, &bsdReversed) {
			status = 1
		}
	}
	return status
}

// checkFile checks one checksum file and reports whether all was well.
func checkFile(name string, opts sumOpts, eng *engine, out *output, stdin io.Reader, bsdReversed *int) bool {
	display := name
	var r io.Reader = stdin
	if name == "-" {
		display = "standard input"
	} else {
		f, err := openList(name)
		if err != nil {
			out.errorf("%s: %s", quoteName(name), errText(err))
			return false
		}
		defer f.Close()
		r = f
	}
	st := checkState{bsdReversed: bsdReversed, stdin: name == "-"}
	br := bufio.NewReaderSize(r, 64<<10)
	readErr := false
	var mu sync.Mutex
	var queue []checkLine // yielded, not reported: no more than Stream reads ahead
	lines := func(yield func(files.Entry) bool) {
		// A line cut short by an error is checked, and ends the file, as
		// sha256sum's getline has it: read on, a transient error was lost.
		for lineno, more := 1, true; more; lineno++ {
			line, err := br.ReadString('\n')
			more, readErr = err == nil, err != nil && err != io.EOF
			if line == "" && err != nil {
				return
			}
			file, want, ok, skip := st.parse(line)
			l := checkLine{job: job{path: file}, want: want}
			switch {
			case skip:
				continue
			case ok:
				st.formatted++
			default:
				st.misformatted++
				if !opts.warn {
					continue
				}
				l.warn = fmt.Sprintf("%s: %d: improperly formatted SHA256 checksum line", quoteName(display), lineno)
			}
			e := files.Entry{Path: file}
			if !ok || file == "-" {
				e.Err = io.EOF // not to be opened
			}
			mu.Lock()
			queue = append(queue, l)
			mu.Unlock()
			if !yield(e) {
				return
			}
		}
	}
	eng.h.Stream(context.Background(), lines, func(r files.Result) {
		mu.Lock()
		l := queue[0]
		queue = queue[1:]
		mu.Unlock()
		l.sum, l.err = r.Sum, r.Err
		if l.path == "-" {
			l.sum, l.err = eng.hashStdin()
		}
		st.report(l, opts, out)
	})
	eng.done()
	if readErr {
		out.errorf("%s: read error", quoteName(display))
		return false
	}
	if st.formatted == 0 {
		out.errorf("%s: no properly formatted checksum lines found", quoteName(display))
		return false
	}
	if !opts.status {
		if st.misformatted > 0 {
			out.errorf("WARNING: %s improperly formatted", plural(st.misformatted, "line is", "lines are"))
		}
		if st.unreadable > 0 {
			out.errorf("WARNING: %s could not be read", plural(st.unreadable, "listed file", "listed files"))
		}
		if st.mismatched > 0 {
			out.errorf("WARNING: %s did NOT match", plural(st.mismatched, "computed checksum", "computed checksums"))
		}
		// As sha256sum: under --status, and whenever no digest matched
		// (a mismatch is not a verification).
		if opts.ignoreMissing && !st.matched {
			out.errorf("%s: no file was verified", quoteName(display))
		}
	}
	return st.matched && st.mismatched == 0 && st.unreadable == 0 && (!opts.strict || st.misformatted == 0)
}

// decodeDigest decodes digest, 64 hex digits, into want, reporting whether
// it was that.
func decodeDigest(want *[32]byte, digest string) bool {
	if len(digest) != 2*len(want) {
		return false
	}
	_, err := hex.Decode(want[:], []byte(digest))
	return err == nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// report prints the outcome of one checksum line.
func (st *checkState) report(l checkLine, opts sumOpts, out *output) {
	if l.warn != "" {
		out.errorf("%s", l.warn)
		return
	}
	name, esc := escapeName(l.path, "\n")
	if esc {
		name = `\` + name
	}
	say := ": OK\n"
	switch {
	case l.err != nil:
		if opts.ignoreMissing && errors.Is(l.err, fs.ErrNotExist) {
			return
		}
		out.errorf("%s: %s", quoteName(l.path), errText(l.err))
		st.unreadable++
		say = ": FAILED open or read\n"
	case l.sum != l.want:
		st.mismatched++
		say = ": FAILED\n"
	default:
		st.matched = true
		if opts.quiet {
			return
		}
	}
	if !opts.status {
		out.out.WriteString(name + say)
		out.endLine()
	}
}

// parse parses a line of a checksum file as sha256sum does: "HEX  FILE"
// (text) or "HEX *FILE" (binary), the BSD "SHA256 (FILE) = HEX", or, when
// the first such line of the checksum files has one space after the digest,
// "HEX FILE" throughout. A leading backslash marks an escaped name. skip is
// set for blank lines and comments.
func (st *checkState) parse(line string) (file string, want [32]byte, ok, skip bool) {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return "", want, false, true
	}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	escaped := false
	if i < len(line) && line[i] == '\\' {
		i++
		escaped = true
	}
	var digest string
	if rest, isBSD := strings.CutPrefix(line[i:], "SHA256"); isBSD {
		rest = strings.TrimPrefix(rest, " ")
		if !strings.HasPrefix(rest, "(") {
			return "", want, false, false
		}
		rest = rest[1:]
		end := strings.LastIndexByte(rest, ')')
		if end < 0 {
			return "", want, false, false
		}
		file = rest[:end]
		rest = strings.TrimLeft(rest[end+1:], " \t")
		if !strings.HasPrefix(rest, "=") {
			return "", want, false, false
		}
		digest = strings.TrimLeft(rest[1:], " \t")
		if k := strings.IndexByte(digest, 0); k >= 0 {
			digest = digest[:k] // sha256sum reads the digest as a C string
		}
		if !decodeDigest(&want, digest) {
			return "", want, false, false
		}
	} else {
		s := line[i:]
		// The digest, a blank, and at least one more character.
		if len(s) < 64+2 || (s[64] != ' ' && s[64] != '\t') {
			return "", want, false, false
		}
		digest, s = s[:64], s[65:]
		// The digest is checked before the line's form is taken as the
		// file's, as sha256sum does: a line with a bad digest does not
		// decide whether "HEX FILE" lines are allowed.
		if !decodeDigest(&want, digest) {
			return "", want, false, false
		}
		if len(s) == 1 || (s[0] != ' ' && s[0] != '*') {
			// "HEX FILE": allowed only if the first line was so.
			if *st.bsdReversed == 0 {
				return "", want, false, false
			}
			*st.bsdReversed = 1
		} else if *st.bsdReversed != 1 {
			*st.bsdReversed = 0
			s = s[1:]
		}
		file = s
	}
	if escaped {
		// unescapeName refuses a NUL, as sha256sum's filename_unescape.
		if file, ok = unescapeName(file); !ok {
			return "", want, false, false
		}
	} else if k := strings.IndexByte(file, 0); k >= 0 {
		file = file[:k] // sha256sum opens the name as a C string
	}
	// An empty name (possible in BSD lines, "SHA256 () = HEX") is kept:
	// sha256sum tries to open it and reports it unreadable.
	if st.stdin && file == "-" {
		return "", want, false, false
	}
	return file, want, true, false
}
