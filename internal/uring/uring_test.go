//go:build linux

package uring

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// newRing sets up a ring or skips the test, saying why the kernel refused.
func newRing(t *testing.T, bufs [][]byte) *Ring {
	t.Helper()
	r, err := New(64, 8, bufs)
	if err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func cstr(s string) []byte { return append([]byte(s), 0) }

func reap(r *Ring) map[uint64]int32 {
	m := map[uint64]int32{}
	r.Reap(func(u uint64, res int32) { m[u] = res })
	return m
}

// TestDisabled: SHA256X_IOURING=off refuses the ring, as a seccomp
// profile would.
func TestDisabled(t *testing.T) {
	t.Setenv("SHA256X_IOURING", "off")
	if _, err := New(8, 8, nil); !errors.Is(err, ErrDisabled) {
		t.Fatalf("New: %v, want ErrDisabled", err)
	}
}

// TestSetupFlags: a flag the kernel refuses (EINVAL) is dropped, the
// newer first, and only the refused ones.
func TestSetupFlags(t *testing.T) {
	t.Setenv("SHA256X_IOURING", "")
	defer func(f func(uint32, *params) (int, error)) { setup = f }(setup)
	const both = setupSubmitAll | setupCoopTaskrun
	for known, want := range map[uint32][]uint32{both: {both}, setupSubmitAll: {both, setupSubmitAll}, 0: {both, setupSubmitAll, 0}} {
		var asked []uint32
		setup = func(_ uint32, p *params) (int, error) {
			asked = append(asked, p.flags)
			if p.flags&^known != 0 {
				return -1, unix.EINVAL
			}
			return -1, unix.ENOSYS
		}
		if _, err := New(8, 8, nil); !errors.Is(err, unix.ENOSYS) || !slices.Equal(asked, want) {
			t.Errorf("flags known %#x: asked %#x, then %v; want %#x", known, asked, err, want)
		}
	}
}

// TestChains: statx, then openat into a direct descriptor, two reads
// from the file's position (one of them into the registered buffer) and a
// close, linked; and a chain whose open fails cancels the rest.
func TestChains(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789"), 1000)
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for _, c := range []struct {
		reg    bool
		submit func(*Ring, int) error
	}{{true, (*Ring).Submit}, {false, (*Ring).Submit}, {true, (*Ring).SubmitInline}, {false, (*Ring).SubmitInline}} {
		reg := c.reg
		clear(buf)
		var r *Ring
		if reg {
			r = newRing(t, [][]byte{buf})
			if !r.Registered() {
				t.Log("buffers not registered (locked-memory limit): plain reads")
			}
		} else {
			r = newRing(t, nil)
		}
		var st unix.Statx_t
		r.Statx(unix.AT_FDCWD, cstr(path), &st, 1, false)
		if err := r.Submit(1); err != nil {
			t.Fatal(err)
		}
		if m := reap(r); m[1] != 0 || st.Size != uint64(len(data)) || st.Mode&unix.S_IFMT != unix.S_IFREG {
			t.Fatalf("statx: %v, size %d, mode %o", m, st.Size, st.Mode)
		}
		p := cstr(path)
		r.OpenDirect(unix.AT_FDCWD, p, 3, 10, true)
		r.ReadDirect(3, buf[:4096], -1, 0, 11, true)
		r.ReadDirect(3, buf[4096:], -1, 0, 12, true)
		r.ReadDirect(3, buf[:1], -1, 0, 13, true)
		r.CloseDirect(3, 14)
		missing := cstr(filepath.Join(dir, "missing"))
		r.OpenDirect(unix.AT_FDCWD, missing, 4, 20, true)
		r.ReadDirect(4, buf[:10], 0, -1, 21, true)
		r.CloseDirect(4, 22)
		if err := c.submit(r, 8); err != nil {
			t.Fatal(err)
		}
		m := reap(r)
		want := map[uint64]int32{10: 0, 11: 4096, 12: int32(len(data) - 4096), 13: 0, 14: 0,
			20: -int32(unix.ENOENT), 21: -int32(unix.ECANCELED), 22: -int32(unix.ECANCELED)}
		for u, res := range want {
			if m[u] != res {
				t.Errorf("registered %v: operation %d: %d (%v), want %d", reg, u, m[u], Errno(m[u]), res)
			}
		}
		if r.Inflight() != 0 || !bytes.Equal(buf[1:len(data)], data[1:]) || buf[0] != data[0] {
			t.Errorf("registered %v: %d in flight, or the data read is wrong", reg, r.Inflight())
		}
	}
}

// TestStackGrowth: a statx buffer and a read's buffer that are the
// caller's local variables, queued before the goroutine's stack grows (is
// copied elsewhere) and submitted after, are written where the caller
// reads them, not at the stack's old place.
func TestStackGrowth(t *testing.T) {
	data := []byte("0123456789abcdef")
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRing(t, nil)
	for try := range 20 {
		var st unix.Statx_t
		var buf [16]byte
		p := cstr(path)
		r.Statx(unix.AT_FDCWD, p, &st, 1, false)
		r.OpenDirect(unix.AT_FDCWD, p, 0, 2, true)
		r.ReadDirect(0, buf[:], 0, -1, 3, true)
		r.CloseDirect(0, 4)
		deep(200 << try % 4000)
		if err := r.Submit(4); err != nil {
			t.Fatal(err)
		}
		if m := reap(r); m[1] != 0 || m[3] != int32(len(data)) || st.Size != uint64(len(data)) || buf != [16]byte(data) {
			t.Fatalf("try %d: statx %d, size %d; read %d, %q", try, m[1], st.Size, m[3], buf)
		}
	}
}

// deep recurses n frames of a kilobyte, which grows the goroutine's stack.
//
//go:noinline
func deep(n int) byte {
	var b [1024]byte
	b[n%len(b)] = byte(n)
	if n == 0 {
		return b[0]
	}
	return deep(n-1) + b[n*7%len(b)]
}

// TestUnlinked: an open, a read and a close of one slot in one unlinked
// submission run in order. An open sent to io-wq (Async) mostly finishes
// after the read and close found the slot empty, leaving its file there
// for a second submission to read and close.
func TestUnlinked(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("abcdefgh"), 700)
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16<<10)
	r := newRing(t, [][]byte{buf})
	p := cstr(path)
	ebadf := -int32(unix.EBADF)
	late := 0
	for try := 0; try < 20 && late == 0; try++ {
		for _, async := range []bool{false, true} {
			clear(buf)
			r.OpenDirect(unix.AT_FDCWD, p, 2, 1, false)
			if async {
				r.Async()
			}
			r.ReadDirect(2, buf, 0, 0, 2, false)
			r.CloseDirect(2, 3)
			if err := r.SubmitInline(3); err != nil {
				t.Fatal(err)
			}
			m := reap(r)
			switch {
			case m[1] == 0 && m[2] == int32(len(data)) && m[3] == 0:
				if async {
					t.Logf("try %d: the io-wq thread opened the file before the read was issued", try)
				}
			case async && m[1] == 0 && m[2] == ebadf && m[3] == ebadf:
				late++
				r.ReadDirect(2, buf, 0, 0, 4, true)
				r.CloseDirect(2, 5)
				if err := r.SubmitInline(2); err != nil {
					t.Fatal(err)
				}
				if m := reap(r); m[4] != int32(len(data)) || m[5] != 0 {
					t.Fatalf("the late open's file: read %d (%v), close %d (%v)", m[4], Errno(m[4]), m[5], Errno(m[5]))
				}
			case async && m[1] == 0 && m[2] == ebadf && m[3] == 0:
				t.Logf("try %d: the io-wq thread opened the file between the read and the close", try)
				continue
			default:
				t.Fatalf("async %v: open %d (%v), read %d (%v), close %d (%v)", async, m[1], Errno(m[1]), m[2], Errno(m[2]), m[3], Errno(m[3]))
			}
			if !bytes.Equal(buf[:len(data)], data) {
				t.Fatalf("async %v: the data read is wrong", async)
			}
		}
	}
	if late == 0 {
		t.Error("no open sent to io-wq finished after its read in 20 tries")
	}
	// The slot is empty again.
	r.CloseDirect(2, 6)
	if err := r.Submit(1); err != nil {
		t.Fatal(err)
	}
	if m := reap(r); m[6] != ebadf {
		t.Errorf("close of the emptied slot: %d, want EBADF", m[6])
	}
}

// TestFull: the queue takes what it has room for, and Submit and
// SubmitInline wait for every completion asked for.
func TestFull(t *testing.T) {
	r := newRing(t, nil)
	queued := 0
	for r.Space() > 0 {
		r.Nop(uint64(queued), false)
		queued++
	}
	if err := r.SubmitInline(queued); err != nil {
		t.Fatal(err)
	}
	if got := r.Reap(func(uint64, int32) {}); got != queued || r.Inflight() != 0 {
		t.Fatalf("SubmitInline: %d completions of %d, %d in flight", got, queued, r.Inflight())
	}
	n := 0
	for r.Space() > 0 {
		r.Nop(uint64(n), false)
		n++
	}
	if n < 64 {
		t.Fatalf("room for %d operations, asked for 64", n)
	}
	if err := r.Submit(n); err != nil {
		t.Fatal(err)
	}
	if got := len(reap(r)); got != n {
		t.Fatalf("%d completions of %d", got, n)
	}
	defer func() {
		if recover() == nil {
			t.Error("queueing past the room did not panic")
		}
	}()
	for range n + 1 {
		r.Nop(0, false)
	}
}

// TestEnterRefused: io_uring_enter refused (EAGAIN) a few times in a row is
// made again until it submits; refused enterRefusedMax times in a row,
// Submit and SubmitInline return the error rather than spin.
func TestEnterRefused(t *testing.T) {
	defer func() { refuseEnter = nil }()
	for _, submit := range []func(*Ring, int) error{(*Ring).Submit, (*Ring).SubmitInline} {
		r := newRing(t, nil)
		left := 10
		refuseEnter = func() bool { left--; return left >= 0 }
		r.Nop(1, false)
		if err := submit(r, 1); err != nil {
			t.Fatalf("refused 10 times, then: %v", err)
		}
		if got := reap(r); len(got) != 1 {
			t.Fatalf("completions %v, want one", got)
		}
		calls := 0
		refuseEnter = func() bool { calls++; return true }
		r.Nop(2, false)
		if err := submit(r, 1); !errors.Is(err, unix.EAGAIN) || calls != enterRefusedMax {
			t.Fatalf("refused always: %v after %d calls, want EAGAIN after %d", err, calls, enterRefusedMax)
		}
	}
}

// TestSubmitInlinePending: an operation that cannot complete as it is
// submitted (a read of a FIFO before its writer writes) is waited for, and
// the next rawRetry SubmitInline calls go the ordinary way.
func TestSubmitInlinePending(t *testing.T) {
	r := newRing(t, nil)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r.OpenDirect(unix.AT_FDCWD, cstr(fifo), 0, 1, false)
	if err := r.Submit(1); err != nil {
		t.Fatal(err)
	}
	if m := reap(r); m[1] != 0 {
		t.Fatalf("open of the FIFO: %d (%v)", m[1], Errno(m[1]))
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	done := make(chan error, 1)
	go func() {
		time.Sleep(50 * time.Millisecond) // the read is pending by then
		_, err := w.Write([]byte{'x'})
		done <- err
	}()
	buf := make([]byte, 1)
	r.ReadDirect(0, buf, -1, 0, 2, false)
	if err := r.SubmitInline(1); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if m := reap(r); m[2] != 1 || buf[0] != 'x' {
		t.Fatalf("read of the FIFO: %d (%v), %q", m[2], Errno(m[2]), buf)
	}
	if r.waited != rawRetry {
		t.Fatalf("after a pending submission %d calls go the ordinary way, want %d", r.waited, rawRetry)
	}
	r.CloseDirect(0, 3)
	if err := r.SubmitInline(1); err != nil {
		t.Fatal(err)
	}
	if m := reap(r); m[3] != 0 || r.waited != rawRetry-1 {
		t.Fatalf("close: %d, %d ordinary calls left, want %d", m[3], r.waited, rawRetry-1)
	}
}

// TestRawSubmitChains: a raw submission of more than rawSubmitMax
// operations goes in several calls, each cut at the end of a chain, and
// every operation completes.
func TestRawSubmitChains(t *testing.T) {
	r, err := New(1024, 8, nil)
	if err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	defer r.Close()
	const chains, per = 100, 3
	for c := range chains {
		for k := range per {
			r.Nop(uint64(c*per+k), k < per-1)
		}
	}
	if got, want := r.chainsUpTo(rawSubmitMax), rawSubmitMax/per*per; got != want {
		t.Fatalf("chainsUpTo(%d) = %d, want %d (whole chains of %d)", rawSubmitMax, got, want, per)
	}
	if got := r.chainsUpTo(2); got != per {
		t.Fatalf("chainsUpTo(2) = %d, want the first chain whole, %d", got, per)
	}
	if err := r.SubmitInline(chains * per); err != nil {
		t.Fatal(err)
	}
	m := reap(r)
	if len(m) != chains*per {
		t.Fatalf("%d operations completed, want %d", len(m), chains*per)
	}
	for u, res := range m {
		if res != 0 {
			t.Fatalf("operation %d: %d (%v)", u, res, Errno(res))
		}
	}
}
