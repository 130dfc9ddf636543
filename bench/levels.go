package bench

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"unsafe"

	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

// A Level is one level of a binary Merkle tree: N pairs of 32-byte nodes,
// each pair hashed into one 32-byte node of Out.
type Level struct {
	Nodes [][32]byte // 2N nodes, pseudo-random, the same for the same N
	Msgs  [][]byte   // pair i, Nodes[2i] and Nodes[2i+1], as one 64-byte message
	Out   [][32]byte // N
}

// NewLevel returns a level of n pairs.
func NewLevel(n int) *Level {
	r := rand.New(rand.NewPCG(uint64(n), 9))
	l := &Level{Nodes: make([][32]byte, 2*n), Msgs: make([][]byte, n), Out: make([][32]byte, n)}
	for i := range l.Nodes {
		for j := range l.Nodes[i] {
			l.Nodes[i][j] = byte(r.Uint32())
		}
	}
	for i := range l.Msgs {
		// Nodes is one array: a pair is 64 contiguous bytes.
		l.Msgs[i] = unsafe.Slice(&l.Nodes[2*i][0], 64)
	}
	return l
}

// An Impl hashes a level into its Out, or a whole tree.
type Impl struct {
	Name string
	Fn   func(out, nodes [][32]byte, msgs [][]byte)
}

// HashtreeName is hashtree's name in the tables: "hashtree" when cgo links
// its C and assembly library, "hashtree-purego" when the bindings fall back
// to their Go code (CGO_ENABLED=0 or no C compiler).
var HashtreeName = map[bool]string{true: "hashtree", false: "hashtree-purego"}[cgoEnabled]

// LevelImpls are the ways to hash one level of pairs: crypto/sha256 node by
// node, sha256x's Join{}.HashLevel and HashMany over the 64-byte pairs
// (named after the kernel or plan this process runs), and, with peers, the
// two libraries made for pairs, each called as its README shows. msgs is
// used by HashMany only.
func LevelImpls(peers bool) []Impl {
	k := "sha256x-" + sha256x.Kernel()
	impls := []Impl{
		{k, func(out, nodes [][32]byte, _ [][]byte) { sha256x.Join{}.HashLevel(out, nodes) }},
		{k + "-many", func(out, _ [][32]byte, msgs [][]byte) { sha256x.HashMany(out, msgs) }},
	}
	if !peers {
		return impls
	}
	return append([]Impl{{"crypto", func(out, nodes [][32]byte, _ [][]byte) {
		for i := range out {
			out[i] = sha256.Sum256(unsafe.Slice(&nodes[2*i][0], 64))
		}
	}}}, append(impls,
		Impl{"gohashtree", func(out, nodes [][32]byte, _ [][]byte) {
			if err := gohashtree.Hash(out, nodes); err != nil {
				panic("bench: gohashtree: " + err.Error())
			}
		}},
		Impl{HashtreeName, func(out, nodes [][32]byte, _ [][]byte) {
			if err := hashtree.Hash(out, nodes); err != nil {
				panic("bench: hashtree: " + err.Error())
			}
		}},
	)...)
}

// A Tree hashes the SSZ tree (merkle.Binary) of 2^k 32-byte chunks to its
// root.
type Tree struct {
	Name string
	Root func(chunks [][32]byte) [32]byte
}

// TreeImpls are the ways to build a whole tree: sha256x's
// merkle.Binary.RootNodes on one goroutine (Workers 1) and, named
// "-cores", on every core (Workers 0, the default); with peers,
// crypto/sha256, gohashtree and hashtree level by level, each level's
// nodes hashed by one call into a second buffer, the two buffers taking
// turns.
func TreeImpls(peers bool) []Tree {
	k := "sha256x-" + sha256x.Kernel()
	one := merkle.Binary
	one.Workers = 1
	trees := []Tree{
		{k, one.RootNodes},
		{k + "-cores", merkle.Binary.RootNodes},
	}
	if !peers {
		return trees
	}
	var all []Tree
	for _, im := range LevelImpls(true) {
		switch im.Name {
		case "crypto", "gohashtree", HashtreeName:
			all = append(all, Tree{im.Name, levelByLevel(im.Fn)})
		}
	}
	return append(all, trees...)
}

// levelByLevel builds a tree of 2^k chunks with a level function.
func levelByLevel(level func(out, nodes [][32]byte, msgs [][]byte)) func([][32]byte) [32]byte {
	var a, b [][32]byte
	return func(chunks [][32]byte) [32]byte {
		n := len(chunks)
		if n&(n-1) != 0 || n == 0 {
			panic(fmt.Sprintf("bench: a tree of %d chunks, not a power of two", n))
		}
		if len(a) < n/2 {
			a, b = make([][32]byte, n/2), make([][32]byte, n/4+1)
		}
		in, out, spare := chunks, a, b
		for m := n; m > 1; m /= 2 {
			level(out[:m/2], in[:m], nil)
			in, out, spare = out, spare, out
		}
		return in[0]
	}
}
