// Package dirhash computes the hashes of Go module trees that go.sum and
// the checksum database record: a drop-in for
// golang.org/x/mod/sumdb/dirhash, with the same names, types, results and
// errors, that hashes a module's files many at once.
//
// Hash1 has the exact type of x/mod's dirhash.Hash and gives its "h1:"
// result byte for byte, so it can be passed to x/mod's HashDir and HashZip
// as well, where it is no slower than x/mod's own Hash1. This package's
// HashDir and HashZip, given this package's Hash1 (or DefaultHash), read
// and hash the files on every core: a directory through package files
// (io_uring on Linux), a zip file's entries inflated side by side; given
// any other Hash they do just what x/mod's do.
package dirhash

import (
	"archive/zip"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/files"
)

// A Hash is a directory hash function: given the file names and a way to
// open each, it returns the hash of the whole tree. It is the same type as
// x/mod's dirhash.Hash.
type Hash func(files []string, open func(string) (io.ReadCloser, error)) (string, error)

// DefaultHash is the hash function go.sum uses: Hash1.
var DefaultHash Hash = Hash1

// batchBytes bounds the file contents a collector holds in one batch before
// hashing them: a few hundred small files, many more than the widest
// kernel's lanes (BENCHMARKS.md, "Batches of the packages over the engine:
// nmt 256 shares, bitcoin 256 KiB, dirhash 2 MiB").
const batchBytes = 2 << 20

var errNewline = errors.New("dirhash: filenames with newlines are not supported")

// Hash1 is the "h1:" hash: SHA-256 over the lines "<hex SHA-256 of the
// file>  <name>\n" for the files sorted by name, base64-encoded after
// "h1:". It opens and reads the files one after another, in sorted order,
// as x/mod's Hash1 does (so open need not be safe for concurrent use), and
// returns the first error it meets; the files it has read are hashed a
// batch at a time with sha256x.HashMany, each batch on another goroutine
// while the next is read. Its buffers come from a pool, so that a call
// costs no more than reading and hashing the files.
func Hash1(files []string, open func(string) (io.ReadCloser, error)) (string, error) {
	files = slices.Clone(files)
	slices.Sort(files)
	c := newCollector(make([][sha256x.Size]byte, len(files)), runtime.GOMAXPROCS(0) > 1)
	defer c.release()
	for k, file := range files {
		if strings.Contains(file, "\n") {
			return "", errNewline
		}
		r, err := open(file)
		if err != nil {
			return "", err
		}
		err = c.add(k, r)
		r.Close()
		if err != nil {
			return "", err
		}
	}
	c.finish()
	return summary(files, c.sums), nil
}

// A batch is file contents read into an arena, to be hashed in one call.
type batch struct {
	arena []byte
	used  int
	msgs  [][]byte
	at    []int // the file of each message
	out   [][sha256x.Size]byte
}

// batches holds batches between calls: their arenas are the bulk of a
// call's memory, and allocating (and zeroing) them each time cost more than
// hashing a module's small files.
var batches = sync.Pool{New: func() any { return &batch{arena: make([]byte, batchBytes+readMax)} }}

// hash hashes the batch's messages into sums, and empties it.
func (b *batch) hash(sums [][sha256x.Size]byte) {
	b.out = slices.Grow(b.out[:0], len(b.msgs))[:len(b.msgs)]
	sha256x.HashMany(b.out, b.msgs)
	for i, k := range b.at {
		sums[k] = b.out[i]
	}
	clear(b.msgs) // no file's contents held past the call
	b.msgs, b.at, b.used = b.msgs[:0], b.at[:0], 0
}

// A collector reads files into a batch and hashes them a batch at a time:
// with async, each full batch on a goroutine of its own while the next
// fills, one batch hashing at a time.
type collector struct {
	cur   *batch // filling
	spare *batch // hashing (async), or nil
	busy  sync.WaitGroup
	async bool
	sums  [][sha256x.Size]byte // the files' digests, by index
	d     sha256x.Digest
}

// readMax is the longest file a collector holds whole; longer ones are
// hashed as streams (BENCHMARKS.md, "Constants that measured level").
const readMax = 256 << 10

func newCollector(sums [][sha256x.Size]byte, async bool) *collector {
	return &collector{cur: batches.Get().(*batch), async: async, sums: sums}
}

// add reads file k from r and records its digest, now or at the next
// flush. Its error is r's, as io.Copy would return it.
func (c *collector) add(k int, r io.Reader) error {
	b := c.cur
	if len(b.arena)-b.used < readMax {
		c.flush()
		b = c.cur
	}
	buf := b.arena[b.used : b.used+readMax]
	n, err := readFull(r, buf)
	switch err {
	case nil: // a long file
		c.d.Reset()
		c.d.Write(buf)
		if _, err := io.CopyBuffer(&c.d, r, buf); err != nil {
			return err
		}
		c.sums[k] = c.d.Sum256()
	case io.EOF:
		b.msgs = append(b.msgs, buf[:n])
		b.at = append(b.at, k)
		b.used += n
	default:
		return err
	}
	return nil
}

// readFull reads into buf until it is full (nil) or r returns an error:
// io.EOF where the file ends, or r's own error, io.ErrUnexpectedEOF
// included (flate's for a truncated stream), which io.ReadFull would
// report as a file that ends there.
func readFull(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// flush hashes the batch being filled: at once, or with async on a
// goroutine once the one before it is done, filling the other meanwhile.
func (c *collector) flush() {
	if len(c.cur.msgs) == 0 {
		return
	}
	if !c.async {
		c.cur.hash(c.sums)
		return
	}
	c.busy.Wait()
	full := c.cur
	if c.spare == nil {
		c.spare = batches.Get().(*batch)
	}
	c.cur, c.spare = c.spare, full
	c.busy.Add(1)
	go func() {
		defer c.busy.Done()
		full.hash(c.sums)
	}()
}

// finish hashes what is left; then every digest is in sums.
func (c *collector) finish() {
	c.busy.Wait()
	if len(c.cur.msgs) > 0 {
		c.cur.hash(c.sums)
	}
}

// release returns the batches to the pool, once no goroutine hashes one.
func (c *collector) release() {
	c.busy.Wait()
	for _, b := range []*batch{c.cur, c.spare} {
		if b != nil {
			clear(b.msgs)
			b.msgs, b.at, b.used = b.msgs[:0], b.at[:0], 0
			batches.Put(b)
		}
	}
	c.cur, c.spare = nil, nil
}

// summary is the h1: hash of the sorted files with their digests.
func summary(files []string, sums [][sha256x.Size]byte) string {
	var b []byte
	for k, f := range files {
		b = hex.AppendEncode(b, sums[k][:])
		b = append(b, "  "...)
		b = append(b, f...)
		b = append(b, '\n')
	}
	s := sha256x.Sum256(b)
	return "h1:" + base64.StdEncoding.EncodeToString(s[:])
}

// isHash1 reports whether hash is this package's Hash1, which HashDir and
// HashZip may then compute their own way, with the same result.
func isHash1(hash Hash) bool {
	return hash != nil && reflect.ValueOf(hash).Pointer() == reflect.ValueOf(Hash1).Pointer()
}

// HashDir returns the hash of the local file system directory dir, with
// the file names prefixed by prefix: hash(DirFiles(dir, prefix), open).
// With Hash1, the files are read and hashed on every core (package files),
// and the error, if any, is the one Hash1 would meet first.
func HashDir(dir, prefix string, hash Hash) (string, error) {
	if !isHash1(hash) {
		names, err := DirFiles(dir, prefix)
		if err != nil {
			return "", err
		}
		return hash(names, func(name string) (io.ReadCloser, error) {
			return os.Open(filepath.Join(dir, strings.TrimPrefix(name, prefix)))
		})
	}
	ents, names, err := dirEntries(dir, prefix)
	if err != nil {
		return "", err
	}
	// Hash1's order: by name.
	order := make([]int, len(names))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	stop := len(order) // Hash1 stops at a name with a newline
	for i, k := range order {
		if strings.Contains(names[k], "\n") {
			stop = i
			break
		}
	}
	res := make([]files.Result, len(ents))
	var h files.Hasher
	h.Each(context.Background(), slices.Values(ents), func(r files.Result) { res[r.Index] = r })
	sorted := make([]string, stop)
	sums := make([][sha256x.Size]byte, stop)
	for i, k := range order[:stop] {
		if res[k].Err != nil {
			return "", res[k].Err
		}
		sorted[i], sums[i] = names[k], res[k].Sum
	}
	if stop < len(order) {
		return "", errNewline
	}
	return summary(sorted, sums), nil
}

// dirEntries lists what DirFiles lists, from the directory entries' types
// (filepath.WalkDir) rather than an lstat of each file, with each file's
// path and whether it is regular.
func dirEntries(dir, prefix string) ([]files.Entry, []string, error) {
	var ents []files.Entry
	var names []string
	clean := filepath.Clean(dir)
	err := filepath.WalkDir(clean, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		} else if file == clean {
			return fmt.Errorf("%s is not a directory", clean)
		}
		rel := file
		if clean != "." {
			rel = file[len(clean)+1:]
		}
		name := filepath.ToSlash(filepath.Join(prefix, rel))
		names = append(names, name)
		// The file HashDir's open (x/mod's) opens for the name: the one
		// listed, but where joining prefix cleaned the name another path,
		// whose type the listing does not say.
		path := filepath.Join(dir, strings.TrimPrefix(name, prefix))
		listed := filepath.Join(dir, rel)
		ents = append(ents, files.Entry{Path: path, Regular: path == listed && d.Type().IsRegular()})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return ents, names, nil
}

// DirFiles returns the list of files in the tree rooted at dir, replacing
// the directory name dir with prefix in each name (slash-separated), as
// x/mod's DirFiles does: every entry that is not a directory (symbolic
// links are listed, not followed). If dir is not a directory, it returns an
// error.
func DirFiles(dir, prefix string) ([]string, error) {
	var names []string
	dir = filepath.Clean(dir)
	err := filepath.Walk(dir, func(file string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		} else if file == dir {
			return fmt.Errorf("%s is not a directory", dir)
		}
		rel := file
		if dir != "." {
			rel = file[len(dir)+1:]
		}
		names = append(names, filepath.ToSlash(filepath.Join(prefix, rel)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// HashZip returns the hash of the file names and contents in the zip file
// zipfile: hash(names, open) over its entries. With Hash1, the entries are
// inflated and hashed on every core, and the error, if any, is the one
// Hash1 would meet first.
func HashZip(zipfile string, hash Hash) (string, error) {
	z, err := zip.OpenReader(zipfile)
	if err != nil {
		return "", err
	}
	defer z.Close()
	var names []string
	zfiles := make(map[string]*zip.File)
	for _, file := range z.File {
		names = append(names, file.Name)
		zfiles[file.Name] = file
	}
	zipOpen := func(name string) (io.ReadCloser, error) {
		f := zfiles[name]
		if f == nil {
			return nil, fmt.Errorf("file %q not found in zip", name) // should never happen
		}
		return f.Open()
	}
	if !isHash1(hash) {
		return hash(names, zipOpen)
	}
	return hash1Parallel(names, zipOpen)
}

// hash1Parallel is Hash1 for an open that is safe for concurrent use:
// runtime.GOMAXPROCS(0) goroutines each take the next file, read it whole
// (a long one as a stream) and hash what they hold a batch at a time.
func hash1Parallel(names []string, open func(string) (io.ReadCloser, error)) (string, error) {
	names = slices.Clone(names)
	slices.Sort(names)
	stop := len(names) // Hash1 does not go past a name with a newline
	for k, n := range names {
		if strings.Contains(n, "\n") {
			stop = k
			break
		}
	}
	sums := make([][sha256x.Size]byte, stop)
	errs := make([]error, stop)
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := max(1, min(runtime.GOMAXPROCS(0), stop))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCollector(sums, false) // each worker writes only the files it took
			defer c.release()
			for {
				k := int(next.Add(1) - 1)
				if k >= stop {
					break
				}
				r, err := open(names[k])
				if err != nil {
					errs[k] = err
					continue
				}
				errs[k] = c.add(k, r)
				r.Close()
			}
			c.finish()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	if stop < len(names) {
		return "", errNewline
	}
	return summary(names, sums), nil
}
