// Package abtest times the public API alone, so that it builds at any
// commit: bench/ab.sh builds it against two commits and runs the binaries
// in alternating processes, for benchstat. BenchmarkAB is every row a
// change to the engine must not slow (BENCHMARKS.md, "Nothing slower");
// BenchmarkDepth the small calls from 16 call depths, compared depth by
// depth.
package abtest

import (
	"fmt"
	"testing"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/shapes"
	"github.com/sha256x/sha256x/merkle"
)

func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed*13 + i>>8)
	}
	return b
}

func BenchmarkAB(b *testing.B) {
	for _, s := range shapes.All() {
		out := make([][32]byte, len(s.Msgs))
		b.Run("shape="+s.Name, func(b *testing.B) {
			b.SetBytes(s.Bytes())
			for b.Loop() {
				if s.Single {
					out[0] = sha256x.Sum256(s.Msgs[0])
				} else {
					sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs)
				}
			}
		})
	}
	for _, size := range []int{64, 1024} {
		for n := 1; n <= 8; n++ {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = pattern(size, i)
			}
			out := make([][32]byte, n)
			b.Run(fmt.Sprintf("many/size=%d/n=%d", size, n), func(b *testing.B) {
				for b.Loop() {
					sha256x.HashMany(out, msgs)
				}
			})
		}
	}
	for _, size := range []int{64, 1 << 20} {
		m := pattern(size, 1)
		var d [32]byte
		b.Run(fmt.Sprintf("sum256/size=%d", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				d = sha256x.Sum256(m)
			}
		})
		_ = d
	}
	joins := []struct {
		name string
		j    sha256x.Join
	}{{"plain", sha256x.Join{}}, {"rfc6962", sha256x.Join{Prefix: []byte{1}}}, {"double", sha256x.Join{Double: true}}}
	for _, j := range joins {
		for _, n := range []int{1, 2, 16, 1024, 65536} {
			nodes := make([][32]byte, 2*n)
			for i := range nodes {
				copy(nodes[i][:], pattern(32, i))
			}
			out := make([][32]byte, n)
			b.Run(fmt.Sprintf("level/join=%s/pairs=%d", j.name, n), func(b *testing.B) {
				for b.Loop() {
					j.j.HashLevel(out, nodes)
				}
			})
		}
	}
	chunks := make([][32]byte, 16384)
	for i := range chunks {
		copy(chunks[i][:], pattern(32, i))
	}
	one := merkle.Binary
	one.Workers = 1
	b.Run("ssz/chunks=16384", func(b *testing.B) {
		for b.Loop() {
			one.RootNodes(chunks)
		}
	})
	b.Run("chain/steps=4096", func(b *testing.B) {
		var d [32]byte
		for b.Loop() {
			d = sha256x.Chain(d, 4096)
		}
	})
	states := make([][32]byte, 64)
	counts := make([]uint64, 64)
	for i := range counts {
		counts[i] = 4096
	}
	b.Run("chains/n=64/steps=4096", func(b *testing.B) {
		for b.Loop() {
			sha256x.Chains(states, counts)
		}
	})
	for _, n := range []int{1, 8} {
		ds := make([]*sha256x.Digest, n)
		cs := make([][]byte, n)
		for i := range ds {
			ds[i] = new(sha256x.Digest)
			cs[i] = pattern(64<<10+13, i)
		}
		b.Run(fmt.Sprintf("writemany/n=%d/chunk=64KiB", n), func(b *testing.B) {
			b.SetBytes(int64(n) * int64(len(cs[0])))
			for b.Loop() {
				sha256x.WriteMany(ds, cs)
			}
		})
	}
	b.Run("digest/size=64", func(b *testing.B) {
		m := pattern(64, 2)
		var sum [32]byte
		for b.Loop() {
			h := sha256x.New()
			h.Write(m)
			h.Sum(sum[:0])
		}
	})
}

// BenchmarkDepth runs the small calls from 16 call depths, each about 100
// bytes deeper: a frame that moves moves a small call's stack buffers
// against its data (4 KiB aliasing), so builds are compared over depths.
func BenchmarkDepth(b *testing.B) {
	m64 := [][]byte{pattern(64, 1)}
	m5 := [][]byte{pattern(64, 1), pattern(64, 2), pattern(64, 3), pattern(64, 4), pattern(64, 5)}
	out := make([][32]byte, 8)
	nodes := make([][32]byte, 32)
	for i := range nodes {
		copy(nodes[i][:], pattern(32, i))
	}
	var sink [32]byte
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"many64n1", func() { sha256x.HashMany(out, m64) }},
		{"many64n5", func() { sha256x.HashMany(out, m5) }},
		{"sum64", func() { sink = sha256x.Sum256(m64[0]) }},
		{"plain1", func() { sha256x.Join{}.HashLevel(out, nodes[:2]) }},
		{"plain2", func() { sha256x.Join{}.HashLevel(out, nodes[:4]) }},
		{"plain16", func() { sha256x.Join{}.HashLevel(make16, nodes) }},
		{"rfc1", func() { sha256x.Join{Prefix: one}.HashLevel(out, nodes[:2]) }},
		{"rfc2", func() { sha256x.Join{Prefix: one}.HashLevel(out, nodes[:4]) }},
		{"double1", func() { sha256x.Join{Double: true}.HashLevel(out, nodes[:2]) }},
		{"double2", func() { sha256x.Join{Double: true}.HashLevel(out, nodes[:4]) }},
		{"digest64", func() { h := sha256x.New(); h.Write(m64[0]); h.Sum(sink[:0]) }},
	} {
		for d := range 16 {
			b.Run(fmt.Sprintf("call=%s/depth=%02d", c.name, d), func(b *testing.B) {
				atDepth(d, func() {
					for b.Loop() {
						c.f()
					}
				})
			})
		}
	}
	_ = sink
}

var (
	one    = []byte{1}
	make16 = make([][32]byte, 16)
)

//go:noinline
func atDepth(d int, f func()) byte {
	var frame [96]byte
	frame[d%96] = byte(d)
	if d == 0 {
		f()
		return frame[0]
	}
	return atDepth(d-1, f) + frame[d%96]
}
