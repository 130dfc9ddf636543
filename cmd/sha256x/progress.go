package main

// A progress line on standard error, only when it is a terminal and the job
// runs past a second; nothing otherwise, so output to files and pipes is
// exactly sha256sum's.

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
	// midLine: the last write to standard output (through stdout) did
	// not end a line. The progress line is not drawn then: its \r would
	// put it over that part of a line on a terminal both share.
	midLine bool
	quit    chan struct{}
	done    sync.WaitGroup
	once    sync.Once
}

// startProgress returns nil (no progress line) unless w is a terminal and
// the process has three descriptors to spare: two for the runtime's poller,
// which the line's timer sets up and which ends the process without them,
// and one for the files.
func startProgress(w io.Writer, eng *engine) *progress {
	if !isTerminal(w) || !spareDescriptors(3) {
		return nil
	}
	p := &progress{w: w, quit: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		start := time.Now()
		delay := time.NewTimer(time.Second)
		defer delay.Stop()
		select {
		case <-p.quit:
			return
		case <-delay.C:
		}
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			b, n := eng.bytes.Load(), eng.files.Load()
			secs := time.Since(start).Seconds()
			p.mu.Lock()
			if !p.midLine {
				fmt.Fprintf(p.w, "\rsha256x: %d files, %.0f MiB, %.0f MiB/s\x1b[K", n, float64(b)/(1<<20), float64(b)/(1<<20)/secs)
				p.shown = true
			}
			p.mu.Unlock()
			select {
			case <-p.quit:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

// write writes a message to w, erasing the progress line first.
func (p *progress) write(w io.Writer, s string) {
	if p == nil {
		io.WriteString(w, s)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	io.WriteString(w, s)
}

// stdout returns w, standard output, written through p if it is a
// terminal too: each write erases the progress line first, so that output
// sharing its terminal does not land after it or under it.
func (p *progress) stdout(w io.Writer) io.Writer {
	if p == nil || !isTerminal(w) {
		return w
	}
	return progressOut{p, w}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

type progressOut struct {
	p *progress
	w io.Writer
}

func (o progressOut) Write(b []byte) (int, error) {
	o.p.mu.Lock()
	defer o.p.mu.Unlock()
	o.p.clearLocked()
	n, err := o.w.Write(b)
	if n > 0 {
		o.p.midLine = b[n-1] != '\n'
	}
	return n, err
}

func (p *progress) clearLocked() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.quit)
		p.done.Wait()
		p.clearLocked()
	})
}
