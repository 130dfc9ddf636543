//go:build !purego

package sha256x

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
	mem := pattern(64*16+64, 5)
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
			off := int(uintptrOf(p) - uintptrOf(&mem[0]))
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
		avx2LoadW((*[8]*byte)(ps), &w)
		check("avx2", ps, func(t, i int) uint32 { return w[t][i] })
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		ps := blocks(16)
		var w [16][16]uint32
		avx512LoadW((*[16]*byte)(ps), &w)
		check("avx512", ps, func(t, i int) uint32 { return w[t][i] })
	}
}

func uintptrOf(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) }

// TestSmallPairs checks what hashPairs assumes: every plan with smallPairs
// set ends its pairs stages with SHA-NI x2 and x1, the kernels hashPairs
// calls; and that the plans with SHA-NI pairs kernels set it.
func TestSmallPairs(t *testing.T) {
	for _, p := range testPlans() {
		pl, n := p.pl, len(p.pl.pairs)
		if pl.smallPairs && (pl.pairs[n-2].k != kShani2 || pl.pairs[n-1].k != kShani1) {
			t.Errorf("plan %s: smallPairs set, but its last pairs kernels are %d and %d, not SHA-NI x2 and x1", p.name, pl.pairs[n-2].k, pl.pairs[n-1].k)
		}
		if !pl.smallPairs && n > 0 && pl.pairs[n-1].k == kShani1 {
			t.Errorf("plan %s: ends its pairs with SHA-NI x1, but smallPairs is not set", p.name)
		}
	}
}
