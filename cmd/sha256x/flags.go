package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
)

// parseFlagsAnywhere parses a subcommand's flags with fs wherever they come
// among its operands, as GNU getopt permutes them: "merkle e1 e2 -scheme
// rfc6962" is "merkle -scheme rfc6962 e1 e2"; "--" ends the flags, so that
// what follows is operands even where it starts with '-'; "-" alone is an
// operand (standard input). It returns the operands in order. -h and -help
// print usage to stdout and stop with status 0; a bad flag or value prints
// the complaint and usage to stderr and stops with status 2.
func parseFlagsAnywhere(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (operands []string, status int, ok bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			return nil, writeUsage(stdout, stderr, usage), false
		case err != nil:
			io.WriteString(stderr, usage)
			return nil, 2, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, 0, true
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(operands, rest...), 0, true
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// usageErrorf reports a bad value of a subcommand's flag, which the flag
// package took: "sha256x CMD: ..." and the usage on stderr, status 2 (as
// for a flag the flag package refuses).
func usageErrorf(stderr io.Writer, usage, format string, a ...any) int {
	fmt.Fprintf(stderr, format+"\n", a...)
	io.WriteString(stderr, usage)
	return 2
}

// writeUsage writes usage to stdout, as asked for by -h, --help or help:
// status 0, or 1 after "sha256x: write error: ..." when it could not be
// written.
func writeUsage(stdout, stderr io.Writer, usage string) int {
	_, err := io.WriteString(stdout, usage)
	return writeStatus(stderr, err, 0)
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// errWriter passes writes to w and keeps the first error, so that a command
// that prints as it goes can tell at the end whether its output reached
// stdout (a full disk, a closed descriptor), as sum does with "write error".
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// writeStatus is writeStatus of the first error a write to e met.
func (e *errWriter) writeStatus(stderr io.Writer, status int) int {
	return writeStatus(stderr, e.err, status)
}

// writeStatus is status if err, from writing standard output, is nil, else
// 1 after "sha256x: write error: ..." on stderr: output that did not
// reach stdout is not status 0.
func writeStatus(stderr io.Writer, err error, status int) int {
	if err != nil {
		fmt.Fprintf(stderr, "sha256x: write error: %s\n", errText(err))
		return 1
	}
	return status
}

// The commands' integer flags are read in decimal, one convention for all:
// flag.Int and flag.Uint64 read Go's literals, so that a zero-padded -proof
// was read as octal. The errors are the flag package's words.

type decimalInt struct{ p *int }

func (d decimalInt) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.Itoa(*d.p)
}

func (d decimalInt) Set(v string) error {
	n, err := strconv.ParseInt(v, 10, strconv.IntSize)
	if err != nil {
		return numError(err)
	}
	*d.p = int(n)
	return nil
}

type decimalUint64 struct{ p *uint64 }

func (d decimalUint64) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatUint(*d.p, 10)
}

func (d decimalUint64) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return numError(err)
	}
	*d.p = n
	return nil
}

func numError(err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return errors.New("value out of range")
	}
	return errors.New("parse error")
}

// intFlag defines a decimal int flag.
func intFlag(fs *flag.FlagSet, name string, value int, usage string) *int {
	p := &value
	fs.Var(decimalInt{p}, name, usage)
	return p
}

// uint64Flag defines a decimal uint64 flag.
func uint64Flag(fs *flag.FlagSet, name string, value uint64, usage string) *uint64 {
	p := &value
	fs.Var(decimalUint64{p}, name, usage)
	return p
}
