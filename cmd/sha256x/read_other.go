//go:build !unix

package main

import (
	"errors"
	"io"
	"os"
	"time"
)

var errIsDir = errors.New("is a directory")

// readSmall opens the file at path and, if it is a regular file of at most
// len(buf)-1 bytes, reads it into buf.
func readSmall(path string, buf []byte) (n int, kind fileKind, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return 0, 0, err
	case st.IsDir():
		return 0, isDir, nil
	case !st.Mode().IsRegular() || st.Size() >= int64(len(buf)):
		return 0, isLarge, nil
	}
	n, err = io.ReadFull(f, buf)
	switch err {
	case nil:
		return 0, isLarge, nil
	case io.EOF, io.ErrUnexpectedEOF:
		return n, isSmall, nil
	}
	return 0, 0, err
}

var processStart = time.Now()

// userTime stands in for user CPU time with wall time where getrusage is
// missing.
func userTime() time.Duration { return time.Since(processStart) }
