//go:build !purego

package kernel

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestLoadW checks the wide kernels' block load, transpose and byte swap,
// the exact code the kernels run, against a scalar model: word t of lane i
// is the big-endian dword at 4t of lane i's block.
func TestLoadW(t *testing.T) {
	mem := make([]byte, 64*16+64)
	for i := range mem {
		mem[i] = byte(i*7 + i>>8)
	}
	blocks := func(n int) []*byte {
		ps := make([]*byte, n)
		for i := range ps {
			// Each lane a different block, unaligned and out of order.
			ps[i] = &mem[64*((i*7)%n)+i%5]
		}
		return ps
	}
	check := func(name string, ps []*byte, got func(t, i int) uint32) {
		for i, p := range ps {
			off := int(uintptr(unsafe.Pointer(p)) - uintptr(unsafe.Pointer(&mem[0])))
			for w := range 16 {
				if g, want := got(w, i), binary.BigEndian.Uint32(mem[off+4*w:]); g != want {
					t.Errorf("%s: lane %d word %d = %#08x, want %#08x", name, i, w, g, want)
				}
			}
		}
	}
	if cpu.X86.HasAVX2 {
		ps := blocks(8)
		var w [16][8]uint32
		avx2X8LoadW((*[8]*byte)(ps), &w)
		check("avx2", ps, func(t, i int) uint32 { return w[t][i] })
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		ps := blocks(16)
		var w [16][16]uint32
		avx512X16LoadW((*[16]*byte)(ps), &w)
		check("avx512", ps, func(t, i int) uint32 { return w[t][i] })
	}
}
