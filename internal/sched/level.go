package sched

import (
	"crypto/sha256"
	"strconv"
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
)

// A Join is sha256x.Join's layout, which the root converts to: how a node
// is made from its two children, SHA-256(Prefix || left[:Width] || Infix ||
// right[:Width]), hashed twice with Double.
type Join struct {
	Prefix []byte
	Infix  []byte
	Width  int
	Double bool
}

// MaxJoin bounds len(Prefix) + len(Infix) + 2*Width: a node is staged
// whole, in at most three blocks.
const MaxJoin = 3*BlockSize - 9

// HashLevel is Join.HashLevel on plan pl; pairs says the join is of plain
// pairs but for Double (no Prefix or Infix, Width 32), which the caller
// folds to a constant for a literal Join. The Join comes by address: by
// value it sends out and nodes to the stack (bench/HISTORY.md, "Merkle
// levels and trees against gohashtree and hashtree").
func HashLevel(pl *plan.Plan, pairs bool, jn *Join, out, nodes [][Size]byte) {
	if n2 := len(nodes) / 2; pairs && (len(nodes) == 2 || len(nodes) == 4 || len(nodes) == 8 && pl.Small4) && len(out) >= n2 && pl.SmallPairs {
		// One, two or (Small4) four Merkle pairs (SHA-256d or not), the top
		// of every tree, unless out overlaps the nodes other than in place:
		// straight to the kernel of that many, from a function with a small
		// frame (bench/HISTORY.md, "The house").
		o, n := uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&nodes[0]))
		if o == n || o+uintptr(n2)*Size <= n || n+uintptr(n2)*2*Size <= o {
			if jn.Double {
				kernel.HashDouble(pl.Small[n2], &out[0], &nodes[0][0], n2)
			} else {
				kernel.HashAdjacent(pl.Small[n2], &out[0], &nodes[0][0], n2)
			}
			return
		}
	}
	hashLevel(pl, pairs, jn, out, nodes)
}

// SmallPairs hashes n (1 or 2; 4 where pl.Small4) adjacent pairs at in into
// out on the plan's kernel of n pairs; the plan must have it
// (pl.SmallPairs, pl.Small4), and out must be in place or apart from in. It
// inlines, so that a caller with its own checks (the SSZ drop-in, through
// internal/door) reaches the kernel one frame sooner (bench/HISTORY.md,
// "SSZ").
func SmallPairs(pl *plan.Plan, out *[Size]byte, in *byte, n int) {
	kernel.HashAdjacent(pl.Small[n], out, in, n)
}

// hashLevel is HashLevel past its one- and two-pair path: every other level,
// and the joins other than pairs.
func hashLevel(pl *plan.Plan, pairs bool, jn *Join, out, nodes [][Size]byte) {
	first := -1 // how many pairs the pairs kernels hashed, once they ran
	if n2 := len(nodes) / 2; pairs && len(nodes)&1 == 0 && n2 > 0 && len(out) >= n2 && !pl.Stdlib {
		// Merkle pairs (SHA-256d or not), unless out overlaps the nodes
		// other than in place: to the pairs kernels, with no more checks
		// than these.
		o, n := uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&nodes[0]))
		if o == n || o+uintptr(n2)*Size <= n || n+uintptr(n2)*2*Size <= o {
			c := kernel.Adjacent
			if jn.Double {
				c = kernel.Double
			}
			if pl.PairsWide.Width != 0 {
				first = hashAdjacent(pl, c, &out[0], &nodes[0][0], n2)
			} else {
				first = hashPairs(pl, c, &out[0], &nodes[0][0], nil, nil, n2)
			}
			if first == n2 {
				return
			}
		}
	}
	w := jn.Width
	if w == 0 {
		w = Size
	}
	switch {
	case len(nodes)%2 != 0:
		panic("sha256x: HashLevel of an odd number of nodes (" + strconv.Itoa(len(nodes)) + ")")
	case len(out) < len(nodes)/2:
		panic("sha256x: len(out) = " + strconv.Itoa(len(out)) + " < len(nodes)/2 = " + strconv.Itoa(len(nodes)/2))
	case w < 1 || w > Size:
		panic("sha256x: Join.Width = " + strconv.Itoa(jn.Width) + ", not in 0..32")
	case len(jn.Prefix)+len(jn.Infix)+2*w > MaxJoin:
		panic("sha256x: Join of " + strconv.Itoa(len(jn.Prefix)+len(jn.Infix)+2*w) + " bytes, more than 183")
	case len(nodes) == 0:
		return
	}
	n2 := len(nodes) / 2
	lo := uintptr(unsafe.Pointer(&out[0]))
	nodeBytes := unsafe.Slice(&nodes[0][0], len(nodes)*Size)
	if overlaps(lo, lo+uintptr(n2)*Size, nodeBytes) && &out[0] != &nodes[0] {
		panic("sha256x: out overlaps nodes, other than in place")
	}
	// Prefix and Infix are read for node after node, some after digests
	// before them are written: as HashManyPrefixed's prefix, neither may
	// lie in out (a pairs join has neither, and took the path above).
	if overlaps(lo, lo+uintptr(n2)*Size, jn.Prefix) || overlaps(lo, lo+uintptr(n2)*Size, jn.Infix) {
		panic("sha256x: out overlaps Join.Prefix or Join.Infix")
	}
	if pl.Stdlib {
		levelStdlib(out, jn, w, nodes)
		return
	}
	// In place is safe on every path: a node's digest is written after its
	// children are read (staged or in registers), and lies before every
	// child read after it.
	contiguous := w == Size && len(jn.Infix) == 0
	call := kernel.Staged
	if contiguous && len(jn.Prefix) == 0 {
		call = kernel.Adjacent // Merkle pairs, read in place
		if jn.Double {
			call = kernel.Double
		}
	}
	nb := (len(jn.Prefix)+len(jn.Infix)+2*w+8)/BlockSize + 1
	if call == kernel.Staged && n2 <= 2 && !jn.Double && pl.SmallPairs {
		// One or two nodes of another join (the top of an RFC 6962 log, a
		// proof's path): staged on the stack, straight to the one- or
		// two-stream kernel.
		var buf [2 * 3 * BlockSize]byte
		for i := range n2 {
			stageJoin(buf[i*nb*BlockSize:], jn, w, &nodes[2*i], &nodes[2*i+1])
		}
		kernel.HashStaged(pl.Small[n2], &out[0], &buf[0], n2, nb)
		return
	}
	// The pairs kernels; other joins than pairs are staged whole, a chunk
	// at a time. What they leave goes to the job queue: out[first:], and
	// out[again:] for its second hash.
	var sc *scratch
	switch {
	case first >= 0:
		// The pairs kernels ran above, and left out[first:].
	case call == kernel.Staged:
		sc = scratchPool.Get().(*scratch)
		defer scratchPool.Put(sc)
		var stg staging
		stg.sl, stg.nodes, stg.pre, stg.jn, stg.w = &sc.joins, nodes, jn.Prefix, jn, w
		stg.m, stg.nb = len(jn.Prefix)+len(jn.Infix)+2*w, nb
		first = hashPairs(pl, call, &out[0], nil, nil, &stg, n2)
	default:
		first = hashAdjacent(pl, call, &out[0], &nodes[0][0], n2)
	}
	again := n2
	if jn.Double {
		again = first
		if call == kernel.Staged {
			again = 0
		}
	}
	if (first < n2 || again < n2) && sc == nil {
		sc = scratchPool.Get().(*scratch)
		defer scratchPool.Put(sc)
	}
	if first < n2 {
		// When left || right lies whole in nodes (Width 32, no Infix), each
		// node is a prefixed message read in place; otherwise it is staged
		// whole.
		b := batch{stages: pl.Stages, sc: sc, init: &kernel.IV, bits: 8 * uint64(len(jn.Prefix))}
		b.withParts(pl, n2-first == 1)
		if n2-first == 1 {
			b.stages = pl.One
		}
		if contiguous {
			whole := len(jn.Prefix) &^ (BlockSize - 1)
			if whole > 0 {
				sc.mid = midstate(pl, jn.Prefix[:whole])
				b.init = &sc.mid
			}
			b.pre = jn.Prefix[whole:]
		}
		var f feed
		f.kind, f.first, f.end, f.out = fromNodes, first, n2, out
		f.nodes, f.nodeBytes, f.jn, f.w, f.contiguous = nodes, nodeBytes, jn, w, contiguous
		b.queue(&f)
	}
	if again < n2 {
		b := batch{stages: pl.Stages, sc: sc, init: &kernel.IV}
		b.withParts(pl, false)
		b.rehash(out[again:n2])
	}
}

// rehash sets each digest in out to its own SHA-256 (the second hash of
// SHA-256d), in place: each is staged before its digest is written.
func (b *batch) rehash(out [][Size]byte) {
	var f feed
	f.kind, f.end, f.out = fromDigests, len(out), out
	b.queue(&f)
}

// stageJoin stages a whole node, padded, in t and returns its blocks.
func stageJoin(t []byte, jn *Join, w int, l, r *[Size]byte) int {
	m := copy(t, jn.Prefix)
	m += copy(t[m:], l[:w])
	m += copy(t[m:], jn.Infix)
	m += copy(t[m:], r[:w])
	return padTail(t, t[:m], nil, 8*uint64(m))
}

// levelStdlib is hashLevel on crypto/sha256, node after node.
func levelStdlib(out [][Size]byte, jn *Join, w int, nodes [][Size]byte) {
	var buf [MaxJoin]byte
	for i := range len(nodes) / 2 {
		m := copy(buf[:], jn.Prefix)
		m += copy(buf[m:], nodes[2*i][:w])
		m += copy(buf[m:], jn.Infix)
		m += copy(buf[m:], nodes[2*i+1][:w])
		out[i] = sha256.Sum256(buf[:m])
		if jn.Double {
			out[i] = sha256.Sum256(out[i][:])
		}
	}
}
