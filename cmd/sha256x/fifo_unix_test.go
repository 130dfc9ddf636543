//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSumFIFO: a named pipe whose only writer opens it once is read to its
// end, as sha256sum reads it, with io_uring and without.
func TestSumFIFO(t *testing.T) {
	dir := t.TempDir()
	names := tree(t, dir)
	t.Chdir(dir)
	data := strings.Repeat("through the pipe\n", 10000)
	var fifo string
	// withWriter runs f with a new pipe and its writer, which writes once.
	withWriter := func(f func() result) result {
		os.Remove(fifo)
		if err := unix.Mkfifo(fifo, 0o644); err != nil {
			t.Skip(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			w.WriteString(data)
			w.Close()
		}()
		r := f()
		// Release the writer if f never opened the pipe.
		if rd, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			rd.Close()
		}
		return r
	}
	// The pipe alone in the working directory, and amid files of its own
	// directory (whose entries tell the file types apart).
	var d0 []string
	for _, n := range names {
		if strings.HasPrefix(n, "d0/") {
			d0 = append(d0, n)
		}
	}
	for _, fifo = range []string{"fifo", "d0/fifo"} {
		args := append([]string{"--", names[0], fifo}, names[1:30]...)
		if fifo != "fifo" {
			args = append(append(append([]string{"--"}, d0[:20]...), fifo), d0[20:]...)
		}
		want := withWriter(func() result { return sha256sum(t, "C.UTF-8", nil, args...) })
		if !strings.Contains(want.stdout, "  "+fifo+"\n") {
			t.Fatalf("sha256sum: %+v", want)
		}
		ringModes(t, func(t *testing.T) {
			if got := withWriter(func() result { return ours(nil, args...) }); got != want {
				t.Errorf("sum with a pipe %s: %s", fifo, diff(got.stdout+got.stderr, want.stdout+want.stderr))
			}
		})
	}
}
