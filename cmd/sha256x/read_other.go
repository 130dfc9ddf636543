//go:build !unix

package main

import (
	"errors"
	"io"
	"os"
	"time"
)

var errIsDir = errors.New("is a directory")

// readSmall reads the file at path into buf, which is one byte longer than
// the file's size when stat'ed: grew reports a file that filled buf.
func readSmall(path string, buf []byte) (n int, grew bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	n, err = io.ReadFull(f, buf)
	switch err {
	case nil:
		return n, true, nil
	case io.EOF, io.ErrUnexpectedEOF:
		return n, false, nil
	}
	return 0, false, err
}

var processStart = time.Now()

// userTime stands in for user CPU time with wall time where getrusage is
// missing.
func userTime() time.Duration { return time.Since(processStart) }
