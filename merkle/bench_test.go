package merkle

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/internal/shapes"
)

// cryptoRoot is the tree built one node at a time with crypto/sha256, as
// plain code would: a reused hash.Hash for the leaves, Sum256 over a
// reused buffer for the nodes, levels reduced in place.
func cryptoRoot(s *Scheme, leaves [][]byte, level [][Size]byte) [Size]byte {
	h := sha256.New()
	for i, l := range leaves {
		if s.RawLeaves {
			level[i] = [Size]byte(l)
			continue
		}
		h.Reset()
		h.Write(s.LeafPrefix)
		h.Write(l)
		h.Sum(level[i][:0])
	}
	w := s.width()
	buf := make([]byte, 0, 192)
	join := func(l, r *[Size]byte) [Size]byte {
		buf = append(append(append(append(buf[:0], s.Node.Prefix...), l[:w]...), s.Node.Infix...), r[:w]...)
		return sha256.Sum256(buf)
	}
	var zero [Size]byte
	for m := len(leaves); m > 1; m = (m + 1) / 2 {
		for i := 0; i < m/2; i++ {
			level[i] = join(&level[2*i], &level[2*i+1])
		}
		if m%2 == 1 {
			switch s.Odd {
			case Promote:
				level[m/2] = level[m-1]
			case Duplicate:
				level[m/2] = join(&level[m-1], &level[m-1])
			case ZeroPad:
				level[m/2] = join(&level[m-1], &zero)
			}
		}
		zero = join(&zero, &zero)
	}
	return level[0]
}

// BenchmarkTree: a whole tree, with crypto/sha256 one node at a time and
// with this package; compare with benchstat -col /impl. solana: the 64 shreds of ~1 KB of the "solana" shape;
// binary-65536: 2^16 32-byte chunks.
func BenchmarkTree(b *testing.B) {
	var solana *shapes.Shape
	for _, s := range shapes.All() {
		if s.Name == "solana" {
			solana = s
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	chunks := make([][]byte, 1<<16)
	for i := range chunks {
		chunks[i] = make([]byte, Size)
		for j := range chunks[i] {
			chunks[i][j] = byte(r.Uint32())
		}
	}
	for _, c := range []struct {
		name   string
		s      *Scheme
		leaves [][]byte
		bytes  int64
	}{
		{"solana", &Solana, solana.Msgs, solana.Bytes()},
		{"binary-65536", &Binary, chunks, 32 << 16},
	} {
		level := make([][Size]byte, len(c.leaves))
		if c.s.Root(c.leaves) != cryptoRoot(c.s, c.leaves, level) {
			b.Fatalf("%s: the roots differ", c.name)
		}
		b.Run("tree="+c.name+"/impl=crypto", func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				cryptoRoot(c.s, c.leaves, level)
			}
		})
		b.Run("tree="+c.name+"/impl=sha256x", func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				c.s.Root(c.leaves)
			}
		})
	}
}

// BenchmarkSplit: the SSZ tree of n chunks (RootNodes) on the calling
// goroutine alone (impl=serial, Workers 1) and cut into subtrees for
// GOMAXPROCS goroutines whatever its size (impl=split): where split wins
// is splitMin. Run with -cpu 2 (or more) and compare with benchstat -col
// /impl.
func BenchmarkSplit(b *testing.B) {
	for lg := 11; lg <= 20; lg++ {
		n := 1 << lg
		if n > 1<<16 && testing.Short() {
			break
		}
		nodes := nodesOf(chunks(n))
		b.Run(fmt.Sprintf("chunks=%d/impl=serial", n), func(b *testing.B) {
			s := serialOf(&Binary)
			b.SetBytes(int64(32 * n))
			b.ReportAllocs()
			for b.Loop() {
				s.RootNodes(nodes)
			}
		})
		b.Run(fmt.Sprintf("chunks=%d/impl=split", n), func(b *testing.B) {
			a := splitMin
			splitMin = 2
			defer func() { splitMin = a }()
			b.SetBytes(int64(32 * n))
			b.ReportAllocs()
			for b.Loop() {
				Binary.RootNodes(nodes)
			}
		})
	}
}

// BenchmarkSplitFrom: SSZ trees from splitMin chunks to 8 times it, as
// they run by default on -cpu 2: where a worker's subtrees are held to
// minSubtree leaves rather than a 16th of its share (BENCHMARKS.md,
// "Constants that measured level").
func BenchmarkSplitFrom(b *testing.B) {
	for n := splitMin; n <= 8*splitMin; n *= 2 {
		nodes := nodesOf(chunks(n))
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			b.SetBytes(int64(32 * n))
			for b.Loop() {
				Binary.RootNodes(nodes)
			}
		})
	}
}

// BenchmarkSmall: trees below the split threshold (and RFC 6962's of 4,095
// leaves of about 100 bytes, just above it), as they run by default: none
// may be slower than unsplit (this file at 699b2ff).
func BenchmarkSmall(b *testing.B) {
	for _, n := range []int{64, 1024, 4095} {
		nodes := nodesOf(chunks(n))
		b.Run(fmt.Sprintf("tree=binary-nodes-%d", n), func(b *testing.B) {
			for b.Loop() {
				Binary.RootNodes(nodes)
			}
		})
	}
	for _, n := range []int{64, 1000, 4095} {
		d := data(n)
		b.Run(fmt.Sprintf("tree=rfc6962-%d", n), func(b *testing.B) {
			for b.Loop() {
				RFC6962.Root(d)
			}
		})
	}
	c := chunks(2000)
	b.Run("tree=bitcoin-2000", func(b *testing.B) {
		for b.Loop() {
			Bitcoin.Root(c)
		}
	})
	d := data(64)
	b.Run("tree=solana-64", func(b *testing.B) {
		for b.Loop() {
			Solana.Root(d)
		}
	})
	b.Run("tree=build-rfc6962-1000", func(b *testing.B) {
		d := data(1000)
		for b.Loop() {
			RFC6962.Build(d)
		}
	})
}

// BenchmarkMutableChanges: k leaves of a 2^20-leaf tree replaced, the root
// recomputed; each operation changes a fresh set of leaves (a ring of sets
// over about 2^18 leaves), not paths left in the caches.
func BenchmarkMutableChanges(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(39, 7))
	nodes := make([][Size]byte, n)
	for i := range nodes {
		for j := range nodes[i] {
			nodes[i][j] = byte(r.Uint32())
		}
	}
	for _, sc := range []struct {
		name string
		s    *Scheme
	}{{"rfc6962", &RFC6962}, {"binary", &Binary}} {
		m := sc.s.NewMutableNodes(nodes)
		for _, k := range []int{512, 8192} {
			perm := r.Perm(n)
			sets := max(1, (1<<18)/k)
			b.Run(fmt.Sprintf("scheme=%s/k=%d", sc.name, k), func(b *testing.B) {
				b.ReportAllocs()
				it := 0
				for b.Loop() {
					set := perm[it%sets*k : (it%sets+1)*k]
					it++
					for _, i := range set {
						m.SetNode(i, nodes[(i+it)%n])
					}
					m.Root()
				}
			})
		}
	}
}
