package bench

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
)

// levelPairs are the level sizes of the level table (issue 9): a tree's
// tiny top levels (odd ones and partial lane groups too) to a quarter
// million pairs.
var levelPairs = []int{1, 2, 3, 5, 12, 16, 28, 64, 1024, 16384, 1 << 18}

// treeChunks are the SSZ tree sizes of the whole-tree table.
var treeChunks = []int{64, 1024, 1 << 16, 1 << 20}

// BenchmarkLevel: one level of n pairs, every implementation; compare with
// benchstat -col /impl. The peers run only without SHA256X_KERNEL, as in
// BenchmarkShapes.
func BenchmarkLevel(b *testing.B) {
	for _, n := range levelPairs {
		l := NewLevel(n)
		for _, im := range LevelImpls(peers) {
			b.Run(fmt.Sprintf("pairs=%d/impl=%s", n, im.Name), func(b *testing.B) {
				for b.Loop() {
					im.Fn(l.Out, l.Nodes, l.Msgs)
				}
			})
		}
	}
}

// chunksOf returns n pseudo-random 32-byte chunks, the same for the same n.
func chunksOf(n int) [][32]byte {
	r := rand.New(rand.NewPCG(uint64(n), 10))
	c := make([][32]byte, n)
	for i := range c {
		for j := 0; j < 32; j += 8 {
			v := r.Uint64()
			for k := range 8 {
				c[i][j+k] = byte(v >> (8 * k))
			}
		}
	}
	return c
}

// BenchmarkSSZTree: the root of a whole SSZ tree of n chunks, sha256x's
// merkle.Binary.RootNodes on one goroutine and on every core, and the
// others level by level.
func BenchmarkSSZTree(b *testing.B) {
	for _, n := range treeChunks {
		chunks := chunksOf(n)
		for _, tr := range TreeImpls(peers) {
			b.Run(fmt.Sprintf("chunks=%d/impl=%s", n, tr.Name), func(b *testing.B) {
				for b.Loop() {
					tr.Root(chunks)
				}
			})
		}
	}
}

// refPairs hashes a level node by node with plain crypto/sha256, no unsafe.
func refPairs(nodes [][32]byte) [][32]byte {
	out := make([][32]byte, len(nodes)/2)
	for i := range out {
		out[i] = sha256.Sum256(append(nodes[2*i][:], nodes[2*i+1][:]...))
	}
	return out
}

// TestLevelDigests: every implementation of the level benchmarks, peers
// included, gives crypto/sha256's digests, on every level size 0..40 and
// those of the table.
func TestLevelDigests(t *testing.T) {
	ns := append([]int{}, levelPairs...)
	for n := range 41 {
		ns = append(ns, n)
	}
	if !cgoEnabled {
		t.Log("no cgo: hashtree is its Go fallback")
	}
	for _, n := range ns {
		l := NewLevel(n)
		want := refPairs(l.Nodes)
		for _, im := range LevelImpls(true) {
			clear(l.Out)
			im.Fn(l.Out, l.Nodes, l.Msgs)
			for i := range want {
				if l.Out[i] != want[i] {
					t.Fatalf("%s, %d pairs: pair %d is %x, want %x", im.Name, n, i, l.Out[i], want[i])
				}
			}
		}
	}
}

// TestTreeRoots: every implementation of the tree benchmarks gives the
// root of the plain recursive SSZ tree.
func TestTreeRoots(t *testing.T) {
	for k := range 21 {
		n := 1 << k
		if n > 1<<16 && testing.Short() {
			break
		}
		chunks := chunksOf(n)
		level := append([][32]byte{}, chunks...)
		for len(level) > 1 {
			level = refPairs(level)
		}
		for _, tr := range TreeImpls(true) {
			if got := tr.Root(chunks); got != level[0] {
				t.Fatalf("%s, %d chunks: root %x, want %x", tr.Name, n, got, level[0])
			}
		}
	}
}
