package main

// The file hasher behind sum, sum -c and merkle: package files, with
// standard input ("-") hashed here.

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/files"
)

// smallMax is the files package's largest file read whole, at its default
// memory budget (the tests make files on either side of it).
const smallMax = 256 << 10

// A job is one file to hash.
type job struct {
	path string // "-" is standard input
	sum  [sha256x.Size]byte
	err  error
}

// An engine hashes files with a files.Hasher and standard input itself.
type engine struct {
	h     files.Hasher
	stdin io.Reader
	// For the progress line: files and bytes hashed so far, and the
	// running call's totals as last reported.
	files, bytes atomic.Int64
	lastF, lastB int64
}

func newEngine(prefix []byte, stdin io.Reader) *engine {
	e := &engine{stdin: stdin}
	e.h.Prefix = prefix
	e.h.Progress = func(f, b int64) { // one call at a time
		e.files.Add(f - e.lastF)
		e.bytes.Add(b - e.lastB)
		e.lastF, e.lastB = f, b
	}
	return e
}

func (e *engine) close() {}

// done closes the books of one call for the progress line.
func (e *engine) done() { e.lastF, e.lastB = 0, 0 }

// hashStdin hashes standard input, read once: a later "-" sees it at EOF,
// as with sha256sum.
func (e *engine) hashStdin() ([sha256x.Size]byte, error) {
	var d sha256x.Digest
	d.Write(e.h.Prefix)
	n, err := io.CopyBuffer(&d, e.stdin, make([]byte, 256<<10))
	e.bytes.Add(n)
	e.files.Add(1)
	return d.Sum256(), err
}

// hash hashes the jobs and returns when all are done.
func (e *engine) hash(jobs []*job) {
	var paths []string
	var fs []*job
	var stdin []*job
	for _, j := range jobs {
		if j.path == "-" {
			stdin = append(stdin, j)
		} else {
			paths = append(paths, j.path)
			fs = append(fs, j)
		}
	}
	var wg sync.WaitGroup
	if len(stdin) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, j := range stdin {
				j.sum, j.err = e.hashStdin()
			}
		}()
	}
	res, _ := e.h.Hash(context.Background(), paths)
	wg.Wait()
	for i, r := range res {
		fs[i].sum, fs[i].err = r.Sum, r.Err
	}
	e.done()
}
