//go:build unix

package files

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
)

// TestFIFO: a named pipe is opened once and read to its end, as sha256sum
// reads it, though its only writer is gone by then.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	paths := randomTree(t, dir, 3, 30, 3000)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	paths = append(paths[:10:10], append([]string{fifo}, paths[10:]...)...)
	for _, c := range hashers {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			f.Write(data)
			f.Close()
		}()
		res, err := c.h.Hash(context.Background(), paths)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		w := sha256.Sum256(append(slices.Clone(c.h.Prefix), data...))
		if r := res[10]; r.Err != nil || r.Sum != w || r.Size != int64(len(data)) {
			t.Errorf("%s: fifo: %+v", c.name, r)
		}
	}
}
