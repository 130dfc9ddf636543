//go:build linux || darwin

package sha256x

import (
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/guardmem"
	"github.com/sha256x/sha256x/internal/plan"
)

// guarded returns n bytes (whole pages, a pattern in them) with an
// unmapped page right before and right after them: a kernel that reads a
// byte outside a slice that starts or ends there faults.
func guarded(t *testing.T, n int) []byte {
	b := guardmem.Mem(t, n)
	copy(b, pattern(len(b), 77))
	return b
}

func guardLengths() []int {
	var ls []int
	for n := 0; n <= 300; n++ {
		ls = append(ls, n)
	}
	return append(ls, 511, 512, 513, 1000, 4095, 4096, 4097, 8191, 8192)
}

// TestGuardPages hashes messages, prefixes, Merkle nodes and stream chunks
// that end exactly at an unmapped page or start right after one.
func TestGuardPages(t *testing.T) {
	mem := guarded(t, 8192)
	var msgs [][]byte
	for _, n := range guardLengths() {
		msgs = append(msgs, mem[len(mem)-n:], mem[:n])
	}
	nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&mem[len(mem)-64*Size])), 64)
	var edge64 [][]byte // 64-byte messages, for the pairs kernels
	for i := range 40 {
		edge64 = append(edge64, mem[len(mem)-64*(i%3+1):][:64], mem[64*(i%5):][:64])
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		check(t, pl, nil, msgs, nil)
		check(t, pl, nil, edge64, nil)
		check(t, pl, nil, edge64[:3], nil) // odd counts: the three-stream pairs kernels
		check(t, pl, nil, edge64[:19], nil)
		check(t, pl, nil, edge64[:12], nil) // partial groups of the pairs lanes (runPairsPart)
		check(t, pl, nil, edge64[:29], nil)
		for _, pn := range []int{0, 1, 26, 55, 56, 63, 64, 65, 130, 4096} {
			check(t, pl, mem[len(mem)-pn:], msgs[:40], nil)
			check(t, pl, mem[:pn], msgs[len(msgs)-40:], nil)
		}
		for _, m := range msgs {
			if got := sum256(pl, m); got != want(nil, m) {
				t.Fatalf("sum256 of %d bytes at a page edge: got %x", len(m), got)
			}
		}
		for _, j := range testJoins {
			for _, np := range []int{3, 12, 19, 29, 32} { // odd counts (three SHA-NI streams), partial groups of the lanes
				level := nodes[len(nodes)-2*np:]
				out := make([][Size]byte, np)
				hashLevel(pl, out, j, level)
				for i := range out {
					if out[i] != joinWant(j, level[2*i], level[2*i+1]) {
						t.Fatalf("join %+v of %d pairs at a page edge: pair %d wrong", j, np, i)
					}
				}
			}
		}
		ds := make([]*Digest, 0, len(msgs))
		for range msgs {
			ds = append(ds, new(Digest))
		}
		writeMany(pl, ds, msgs, false)
		for i, d := range ds {
			if d.Sum256() != want(nil, msgs[i]) {
				t.Fatalf("writeMany of a %d-byte chunk at a page edge: wrong digest", len(msgs[i]))
			}
		}
	})
}

// TestGuardPagesSmall puts the nodes and messages of the one-, two- and
// four-pair paths of Join.HashLevel, HashMany and Sum256 (which go straight
// to the dispatched plan's pairs kernels) against an unmapped page on either
// side.
func TestGuardPagesSmall(t *testing.T) {
	mem := guarded(t, 4096)
	for _, n := range []int{1, 2, 4} {
		for _, e := range [][][Size]byte{
			unsafe.Slice((*[Size]byte)(unsafe.Pointer(&mem[len(mem)-2*n*Size])), 2*n),
			unsafe.Slice((*[Size]byte)(unsafe.Pointer(&mem[0])), 2*n),
		} {
			for _, j := range testJoins {
				out := make([][Size]byte, n)
				j.HashLevel(out, e)
				for i := range out {
					if out[i] != joinWant(j, e[2*i], e[2*i+1]) {
						t.Fatalf("join %+v, %d pairs at a page edge: pair %d wrong", j, n, i)
					}
				}
			}
		}
	}
	for _, msgs := range [][][]byte{
		{mem[len(mem)-64:]},
		{mem[:64], mem[len(mem)-64:]},
		{mem[len(mem)-64:], mem[:64]},
	} {
		out := make([][Size]byte, len(msgs))
		HashMany(out, msgs)
		for i, m := range msgs {
			if w := want(nil, m); out[i] != w || Sum256(m) != w {
				t.Fatalf("%d 64-byte messages at a page edge: digest %d wrong", len(msgs), i)
			}
		}
	}
}
