package merkle

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

// A reference for any Scheme, written from the documentation of its fields
// and recursive rather than level by level: a tree of height h over nodes
// (1 <= len(nodes) <= 2^h) is the join of its two halves of 2^(h-1) when it
// has more than 2^(h-1) nodes; otherwise its left half alone, promoted
// (Promote), joined with itself (Duplicate) or with the zero subtree of
// height h-1 (ZeroPad).
type refTree struct {
	s    *Scheme
	memo map[[2]int][Size]byte // (height, index at that height)
}

func (r *refTree) leaf(d []byte) [Size]byte {
	if r.s.RawLeaves {
		return [Size]byte(d)
	}
	return sha(r.s.LeafPrefix, d)
}

func (r *refTree) width() int {
	if r.s.Node.Width == 0 {
		return Size
	}
	return r.s.Node.Width
}

func (r *refTree) join(a, b [Size]byte) [Size]byte {
	w := r.width()
	h := sha(r.s.Node.Prefix, a[:w], r.s.Node.Infix, b[:w])
	if r.s.Double || r.s.Node.Double {
		h = sha(h[:])
	}
	return h
}

func (r *refTree) zero(h int) [Size]byte {
	z := [Size]byte{}
	for range h {
		z = r.join(z, z)
	}
	return z
}

// node is the root of the subtree of height h over nodes, the first of
// which is node number off of the leaves.
func (r *refTree) node(nodes [][Size]byte, off, h int) [Size]byte {
	var x [Size]byte
	half := 1 << max(h-1, 0)
	switch {
	case h == 0:
		x = nodes[0]
	case len(nodes) > half:
		x = r.join(r.node(nodes[:half], off, h-1), r.node(nodes[half:], off+half, h-1))
	case r.s.Odd == Promote:
		x = r.node(nodes, off, h-1)
	case r.s.Odd == Duplicate:
		l := r.node(nodes, off, h-1)
		x = r.join(l, l)
	default:
		x = r.join(r.node(nodes, off, h-1), r.zero(h-1))
	}
	if r.memo != nil {
		r.memo[[2]int{h, off >> h}] = x
	}
	return x
}

func refHeight(n int) int {
	h := 0
	for 1<<h < n {
		h++
	}
	return h
}

func (r *refTree) root(nodes [][Size]byte) [Size]byte {
	if len(nodes) == 0 {
		return r.s.Empty
	}
	return r.node(nodes, 0, refHeight(len(nodes)))
}

// path is the proof of leaf i, from the memo of a root computed before:
// each entry the sibling's first Width bytes, the rest zero.
func (r *refTree) path(n, i int) [][Size]byte {
	var out [][Size]byte
	h := refHeight(n)
	for d := 0; d < h; d++ {
		// The node on the path at height d+1 covers leaves q<<(d+1) .. ;
		// its right half starts at (2q+1)<<d.
		q := i >> (d + 1)
		var e [Size]byte
		if right := (2*q + 1) << d; right < n {
			e = r.memo[[2]int{d, i>>d ^ 1}]
		} else {
			switch r.s.Odd {
			case Promote:
				continue
			case Duplicate:
				e = r.memo[[2]int{d, i >> d}]
			default:
				e = r.zero(d)
			}
		}
		clear(e[r.width():])
		out = append(out, e)
	}
	return out
}

// randomScheme draws a Scheme: prefixes, infixes and widths around the
// block boundaries of a join (55/56, 119/120 and 183 bytes of message).
func randomScheme(r *rand.Rand) Scheme {
	lens := []int{0, 0, 1, 3, 7, 26, 31, 32, 55, 56, 63, 64, 65, 100, 119, 120}
	leafLens := append(lens, 128, 183, 184, 1000, 4096)
	var s Scheme
	s.Odd = Odd(r.IntN(3))
	s.RawLeaves = r.IntN(3) == 0
	if !s.RawLeaves {
		s.LeafPrefix = make([]byte, leafLens[r.IntN(len(leafLens))])
	}
	s.Double = r.IntN(3) == 0
	s.Node.Double = r.IntN(5) == 0
	for {
		s.Node.Width = []int{0, 0, 1, 8, 20, 31, 32}[r.IntN(7)]
		p, q := lens[r.IntN(len(lens))], lens[r.IntN(len(lens))]
		if r.IntN(2) == 0 {
			q = 0
		}
		w := s.Node.Width
		if w == 0 {
			w = Size
		}
		if p+q+2*w <= 183 {
			s.Node.Prefix, s.Node.Infix = make([]byte, p), make([]byte, q)
			break
		}
	}
	for _, b := range [][]byte{s.LeafPrefix, s.Node.Prefix, s.Node.Infix} {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	s.Empty = sha([]byte("empty"), []byte{byte(r.Uint32())})
	s.NoEmpty = r.IntN(6) == 0
	return s
}

func schemeString(s *Scheme) string {
	return fmt.Sprintf("{Odd %d Raw %v LeafPrefix %d Prefix %d Infix %d Width %d Double %v/%v}",
		s.Odd, s.RawLeaves, len(s.LeafPrefix), len(s.Node.Prefix), len(s.Node.Infix), s.Node.Width, s.Double, s.Node.Double)
}

// checkRef compares a scheme's roots, levels' root, proofs and Mutable
// with the reference over n random leaves.
func checkRef(t *testing.T, s Scheme, r *rand.Rand, n int, proofs int) {
	t.Helper()
	if n == 0 && s.NoEmpty {
		return
	}
	what := fmt.Sprintf("%s, %d leaves", schemeString(&s), n)
	leaves := make([][]byte, n)
	for i := range leaves {
		leaves[i] = leafData(r, s.RawLeaves)
	}
	ref := &refTree{s: &s, memo: map[[2]int][Size]byte{}}
	nodes := make([][Size]byte, n)
	for i, l := range leaves {
		nodes[i] = ref.leaf(l)
		if got := s.LeafHash(l); got != nodes[i] {
			t.Fatalf("%s: LeafHash(%d) = %x, want %x", what, i, got, nodes[i])
		}
	}
	want := ref.root(nodes)
	tree := s.Build(leaves)
	for name, got := range map[string][Size]byte{
		"Root": s.Root(leaves), "RootNodes": s.RootNodes(nodes),
		"Build": tree.Root(), "BuildNodes": s.BuildNodes(nodes).Root(),
	} {
		if got != want {
			t.Fatalf("%s: %s = %x, want %x", what, name, got, want)
		}
	}
	if n == 0 {
		return
	}
	idx := []int{0, n - 1, n / 2}
	for range proofs {
		idx = append(idx, r.IntN(n))
	}
	for _, i := range idx {
		p := tree.Proof(i)
		wantPath := ref.path(n, i)
		if p.Index != i || p.Size != n || !slices.Equal(p.Path, wantPath) {
			t.Fatalf("%s: proof of %d: %d of %d, path %x, want %x", what, i, p.Index, p.Size, p.Path, wantPath)
		}
		if err := s.Verify(want, leaves[i], p); err != nil {
			t.Fatalf("%s: proof of %d: %v", what, i, err)
		}
	}
	// A Mutable grown by appends from a few leaves, then changed.
	n0 := r.IntN(min(n, 5)) + 1
	ms := s
	ms.Workers = 1
	m := ms.NewMutable(leaves[:n0])
	for k := n0; k < n; {
		step := 1 + r.IntN(40)
		for ; step > 0 && k < n; step, k = step-1, k+1 {
			if k%2 == 0 {
				m.Append(leaves[k])
			} else {
				m.AppendNode(nodes[k])
			}
		}
		if r.IntN(max(4, n/160)) == 0 || k == n { // about 8 checks on a large tree
			cur := slices.Clone(nodes[:k])
			cr := &refTree{s: &s, memo: map[[2]int][Size]byte{}}
			if got, w := m.Root(), cr.root(cur); got != w {
				t.Fatalf("%s: Mutable of %d leaves by appends: root %x, want %x", what, k, got, w)
			}
			i := r.IntN(k)
			if got, w := m.Proof(i).Path, cr.path(k, i); !slices.Equal(got, w) {
				t.Fatalf("%s: Mutable of %d leaves by appends: proof of %d %x, want %x", what, k, i, got, w)
			}
		}
	}
	for range 3 {
		i := r.IntN(n)
		l := leafData(r, s.RawLeaves)
		leaves[i], nodes[i] = l, ref.leaf(l)
		m.Set(i, l)
	}
	cr := &refTree{s: &s}
	if got, w := m.Root(), cr.root(nodes); got != w {
		t.Fatalf("%s: Mutable after Set: root %x, want %x", what, got, w)
	}
}

// TestSchemesRef: random Schemes on random sizes up to 2,000 and a few
// larger, against the recursive reference: roots, proofs, Verify and a
// Mutable grown by appends.
func TestSchemesRef(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	schemes := []Scheme{RFC6962, Bitcoin, Binary, Solana, tape}
	count := 60
	if testing.Short() {
		count = 15
	}
	for range count {
		schemes = append(schemes, randomScheme(r))
	}
	for _, s := range schemes {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 33, r.IntN(100), r.IntN(2001), r.IntN(2001)} {
			checkRef(t, s, r, n, 3)
		}
	}
	if testing.Short() || raceEnabled {
		return
	}
	for k, s := range schemes[:12] {
		n := []int{4097, 5000, 1<<13 + 1, 1<<14 - 1}[k%4]
		checkRef(t, s, r, n, 3)
	}
}

// TestSchemesRefSplit: TestSchemesRef's random schemes on trees split
// into small subtrees on several workers.
func TestSchemesRefSplit(t *testing.T) {
	forceSplit(t, 4, 2)
	r := rand.New(rand.NewPCG(13, 14))
	for range 30 {
		s := randomScheme(r)
		for _, n := range []int{2, 3, 5, 9, 33, 100, r.IntN(600)} {
			checkRef(t, s, r, n, 2)
		}
	}
}

// TestSchemesRefKernels runs TestSchemesRef with every kernel and plan
// forced, each in a child process.
func TestSchemesRefKernels(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL") != "" || testing.Short() {
		t.Skip("the parent run forces each kernel")
	}
	for _, k := range plan.Names() {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestSchemesRef", "-test.short")
		cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+k)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("SHA256X_KERNEL=%s: %v\n%s", k, err, out)
		}
	}
}

// TestHostileProofs: proofs with random indices, sizes up to MaxInt and
// paths of random length return an error, never panic and never pass,
// for every Odd.
func TestHostileProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, s := range []Scheme{RFC6962, Bitcoin, Binary, Solana, tape} {
		leaves := [][]byte{make([]byte, 32), make([]byte, 32), make([]byte, 32)}
		tr := s.Build(leaves)
		root := tr.Root()
		for range 2000 {
			p := Proof{Path: make([][Size]byte, r.IntN(70))}
			switch r.IntN(4) {
			case 0:
				p.Size, p.Index = math.MaxInt-r.IntN(3), math.MaxInt-r.IntN(5)
			case 1:
				p.Size, p.Index = r.Int(), r.Int()
			case 2:
				p.Size, p.Index = -r.IntN(10), r.IntN(10)-5
			default:
				p.Size, p.Index = math.MinInt+r.IntN(3), math.MinInt+r.IntN(3)
			}
			err := s.Verify(root, leaves[0], p)
			if err == nil {
				t.Fatalf("%d of %d, %d entries: nil", p.Index, p.Size, len(p.Path))
			}
			if (p.Index < 0 || p.Index >= p.Size) && errors.Is(err, ErrMismatch) {
				t.Fatalf("%d of %d: %v", p.Index, p.Size, err)
			}
		}
	}
}

// refVerify is the root that path leads to from node, leaf i of n, by the
// recursive definition (an entry, bottom up, for each level where the node
// has a sibling or is joined with itself or a zero subtree), and how many
// entries it takes: len(path) for a path of the right length.
func (r *refTree) refVerify(node [Size]byte, i, n int, path [][Size]byte) (root [Size]byte, used int) {
	var rec func(i, n, h int) [Size]byte
	next := func() [Size]byte {
		if used >= len(path) {
			used++
			return [Size]byte{}
		}
		used++
		return path[used-1]
	}
	rec = func(i, n, h int) [Size]byte {
		if h == 0 {
			return node
		}
		half := 1 << (h - 1)
		switch {
		case n > half && i < half:
			x := rec(i, half, h-1)
			return r.join(x, next())
		case n > half:
			x := rec(i-half, n-half, h-1)
			return r.join(next(), x)
		case r.s.Odd == Promote:
			return rec(i, n, h-1)
		default:
			x := rec(i, n, h-1)
			return r.join(x, next())
		}
	}
	h := bits.Len(uint(n - 1)) // the least h with 1<<h >= n, on any int size
	root = rec(i, n, h)
	return root, used
}

// TestVerifyHugeRef: proofs in trees of up to MaxInt leaves, their roots
// from the recursive definition, verify; a path one entry short or long
// is malformed, for every Odd.
func TestVerifyHugeRef(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, s := range []Scheme{RFC6962, Bitcoin, Binary, Solana, tape} {
		ref := &refTree{s: &s}
		for range 3000 {
			var n int
			switch r.IntN(3) {
			case 0:
				n = math.MaxInt - r.IntN(100)
			case 1:
				n = r.IntN(math.MaxInt) + 1
			default:
				n = max(1<<r.IntN(bits.UintSize-1)+r.IntN(3)-1, 1)
			}
			i := r.IntN(n)
			if r.IntN(3) == 0 {
				i = n - 1 - r.IntN(min(n, 3))
			}
			node := sha([]byte{byte(i)})
			path := make([][Size]byte, 64)
			for k := range path {
				path[k] = sha([]byte{byte(k), byte(r.Uint32())})
				clear(path[k][ref.width():])
			}
			_, used := ref.refVerify(node, i, n, path)
			path = path[:used]
			root, _ := ref.refVerify(node, i, n, path)
			p := Proof{Index: i, Size: n, Path: path}
			if err := s.VerifyNode(root, node, p); err != nil {
				t.Fatalf("leaf %d of %d, %d entries: %v", i, n, len(path), err)
			}
			for _, q := range [][][Size]byte{append(slices.Clone(path), root), path[:max(len(path)-1, 0)]} {
				if len(q) == len(path) {
					continue
				}
				err := s.VerifyNode(root, node, Proof{Index: i, Size: n, Path: q})
				if err == nil || errors.Is(err, ErrMismatch) {
					t.Fatalf("leaf %d of %d, %d entries for %d: %v", i, n, len(q), len(path), err)
				}
			}
		}
	}
}
