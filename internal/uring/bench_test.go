//go:build linux

package uring

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkSmallFiles reads 1,000 files of 0..8 KiB (page cache warm, one
// goroutine, no hashing) the ways package files could: four system calls
// a file (open, fstat, read, close); statx as a system call, then openat,
// read and close chained in a ring; statx in the ring too (it runs on the
// kernel's io-wq threads); and the probe chain of openat, read, read and
// close with no statx.
//
//	go test -run '^$' -bench SmallFiles -count 6 ./internal/uring
func BenchmarkSmallFiles(b *testing.B) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var paths [][]byte
	for i := range 1000 {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i/100), fmt.Sprintf("f%d", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, make([]byte, r.IntN(8193)), 0o644)
		paths = append(paths, append([]byte(p), 0))
	}
	const batch = 64
	buf := make([]byte, batch*16<<10+batch)
	ring, err := New(4*batch, batch, [][]byte{buf})
	if err != nil {
		b.Skipf("io_uring refused: %v", err)
	}
	defer ring.Close()
	sts := make([]unix.Statx_t, batch)
	check := func(res int32) {
		if res < 0 {
			b.Fatal(Errno(res))
		}
	}
	chains := func(part [][]byte) {
		off := 0
		for k, p := range part {
			n := int(sts[k].Size) + 1
			ring.OpenDirect(unix.AT_FDCWD, p, k, 0, true)
			ring.ReadDirect(k, buf[off:off+n], 0, 0, 1, true)
			ring.CloseDirect(k, 2)
			off += n
		}
		if err := ring.Submit(3 * len(part)); err != nil {
			b.Fatal(err)
		}
		ring.Reap(func(u uint64, res int32) { check(res) })
	}
	for _, c := range []struct {
		name string
		f    func(part [][]byte)
	}{
		{"impl=syscalls", func(part [][]byte) {
			for _, p := range part {
				fd, err := syscall.Open(string(p[:len(p)-1]), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
				if err != nil {
					b.Fatal(err)
				}
				var st syscall.Stat_t
				syscall.Fstat(fd, &st)
				syscall.Read(fd, buf[:st.Size+1])
				syscall.Close(fd)
			}
		}},
		{"impl=statx+ring", func(part [][]byte) {
			for k, p := range part {
				if err := unix.Statx(unix.AT_FDCWD, string(p[:len(p)-1]), 0, unix.STATX_TYPE|unix.STATX_SIZE, &sts[k]); err != nil {
					b.Fatal(err)
				}
			}
			chains(part)
		}},
		{"impl=ring-statx+ring", func(part [][]byte) {
			for k, p := range part {
				ring.Statx(unix.AT_FDCWD, p, &sts[k], 0, false)
			}
			if err := ring.Submit(len(part)); err != nil {
				b.Fatal(err)
			}
			ring.Reap(func(u uint64, res int32) { check(res) })
			chains(part)
		}},
		{"impl=ring-probe", func(part [][]byte) {
			for k, p := range part {
				ring.OpenDirect(unix.AT_FDCWD, p, k, 0, true)
				ring.ReadDirect(k, buf[k*16<<10:(k+1)*16<<10], -1, 0, 1, true)
				ring.ReadDirect(k, buf[batch*16<<10+k:batch*16<<10+k+1], -1, 0, 2, true)
				ring.CloseDirect(k, 3)
			}
			if err := ring.Submit(4 * len(part)); err != nil {
				b.Fatal(err)
			}
			ring.Reap(func(u uint64, res int32) { check(res) })
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for i := 0; i < len(paths); i += batch {
					c.f(paths[i:min(i+batch, len(paths))])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/file")
		})
	}
}
