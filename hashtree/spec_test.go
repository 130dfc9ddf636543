package hashtree

import (
	"crypto/sha256"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// The consensus specs' own definitions from ssz/merkle-proofs.md, written
// out as the Python reads, with crypto/sha256 and maps for its sets and
// dicts: no code shared with the package or with ref_test.go's helpers.

func specHash(a, b [32]byte) [32]byte { return sha256.Sum256(append(a[:], b[:]...)) }

// get_generalized_index_length
func specGindexLength(g uint64) int { return bits.Len64(g) - 1 }

// get_generalized_index_bit
func specGindexBit(g uint64, pos int) bool { return g&(1<<pos) > 0 }

// generalized_index_sibling, generalized_index_parent
func specSibling(g uint64) uint64 { return g ^ 1 }
func specParent(g uint64) uint64  { return g / 2 }

// concat_generalized_indices
func specConcat(indices ...uint64) uint64 {
	o := uint64(1)
	for _, i := range indices {
		floor := uint64(1) << (bits.Len64(i) - 1) // get_power_of_two_floor
		o = o*floor + (i - floor)
	}
	return o
}

// get_branch_indices
func specBranchIndices(g uint64) []uint64 {
	o := []uint64{specSibling(g)}
	for o[len(o)-1] > 1 {
		o = append(o, specSibling(specParent(o[len(o)-1])))
	}
	return o[:len(o)-1]
}

// get_path_indices
func specPathIndices(g uint64) []uint64 {
	o := []uint64{g}
	for o[len(o)-1] > 1 {
		o = append(o, specParent(o[len(o)-1]))
	}
	return o[:len(o)-1]
}

// get_helper_indices
func specHelperIndices(indices []uint64) []uint64 {
	helpers, paths := map[uint64]bool{}, map[uint64]bool{}
	for _, g := range indices {
		for _, b := range specBranchIndices(g) {
			helpers[b] = true
		}
		for _, p := range specPathIndices(g) {
			paths[p] = true
		}
	}
	var out []uint64
	for g := range helpers {
		if !paths[g] {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// calculate_merkle_root; false where its assert fails.
func specMerkleRoot(leaf [32]byte, proof [][32]byte, g uint64) ([32]byte, bool) {
	if g == 0 || len(proof) != specGindexLength(g) {
		return [32]byte{}, false
	}
	for i, h := range proof {
		if specGindexBit(g, i) {
			leaf = specHash(h, leaf)
		} else {
			leaf = specHash(leaf, h)
		}
	}
	return leaf, true
}

// calculate_multi_merkle_root; false where an assert fails or objects[1]
// is missing.
func specMultiRoot(leaves, proof [][32]byte, indices []uint64) ([32]byte, bool) {
	if len(leaves) != len(indices) {
		return [32]byte{}, false
	}
	helpers := specHelperIndices(indices)
	if len(proof) != len(helpers) {
		return [32]byte{}, false
	}
	objects := map[uint64][32]byte{}
	for i, g := range indices {
		objects[g] = leaves[i]
	}
	for i, g := range helpers {
		objects[g] = proof[i]
	}
	var keys []uint64
	for g := range objects {
		keys = append(keys, g)
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	for pos := 0; pos < len(keys); pos++ {
		k := keys[pos]
		_, kin := objects[k]
		_, sin := objects[k^1]
		_, pin := objects[k/2]
		if kin && sin && !pin {
			objects[k/2] = specHash(objects[(k|1)^1], objects[k|1])
			keys = append(keys, k/2)
		}
	}
	r, ok := objects[1]
	return r, ok
}

// get_power_of_two_ceil
func specPow2Ceil(x uint64) uint64 {
	switch {
	case x <= 1:
		return 1
	case x == 2:
		return 2
	}
	return 2 * specPow2Ceil((x+1)/2)
}

// specNodes is every node of a list or vector whose chunk tree has the
// given padded leaves (chunk_count rounded up by get_power_of_two_ceil),
// by gindex: merkleize's tree, and for a list the length at 3.
func specNodes(chunks [][32]byte, chunkCount uint64, list bool, length uint64) map[uint64][32]byte {
	width := specPow2Ceil(chunkCount)
	nodes := map[uint64][32]byte{}
	for i := range width {
		var c [32]byte
		if i < uint64(len(chunks)) {
			c = chunks[i]
		}
		nodes[width+i] = c
	}
	for g := width - 1; g >= 1; g-- {
		nodes[g] = specHash(nodes[2*g], nodes[2*g+1])
	}
	if !list {
		return nodes
	}
	out := map[uint64][32]byte{}
	for g, n := range nodes {
		out[specConcat(2, g)] = n
	}
	var l [32]byte
	for i := range 8 {
		l[i] = byte(length >> (8 * i))
	}
	out[3] = l
	out[1] = specHash(out[2], out[3])
	return out
}

type specProver interface {
	Root() [32]byte
	Node(uint64) ([32]byte, error)
	Prove(uint64) (Proof, error)
	ProveMulti([]uint64) (Multiproof, error)
}

type treeRoot struct{ *Tree }

// checkSpecProofs checks p's nodes, proofs and multiproofs against the
// specs' functions over the reference tree nodes: single proofs through
// calculate_merkle_root, random gindex sets (the root, ancestors, ones
// outside) through get_helper_indices and calculate_multi_merkle_root.
func checkSpecProofs(t *testing.T, name string, r *rand.Rand, p specProver, nodes map[uint64][32]byte) {
	t.Helper()
	root := nodes[1]
	if p.Root() != root {
		t.Fatalf("%s: root %x, the specs' %x", name, p.Root(), root)
	}
	var in []uint64
	maxG := uint64(0)
	for g, want := range nodes {
		in = append(in, g)
		maxG = max(maxG, g)
		got, err := p.Node(g)
		if err != nil || got != want {
			t.Fatalf("%s: Node(%d) = %x, %v; the specs' %x", name, g, got, err, want)
		}
		pr, err := p.Prove(g)
		if err != nil {
			t.Fatalf("%s: Prove(%d): %v", name, g, err)
		}
		if sr, ok := specMerkleRoot(pr.Leaf, pr.Branch, g); !ok || sr != root || pr.Leaf != want {
			t.Fatalf("%s: proof of %d: calculate_merkle_root %x, %v; root %x", name, g, sr, ok, root)
		}
		if err := pr.Verify(root); err != nil {
			t.Fatalf("%s: proof of %d: %v", name, g, err)
		}
	}
	slices.Sort(in)
	// Outside the tree: 0, below the leaves, below the length of a list.
	var out []uint64
	for g := maxG + 1; g <= 2*maxG+1 && len(out) < 8; g += 1 + maxG/7 {
		if _, ok := nodes[g]; !ok {
			out = append(out, g)
		}
	}
	out = append(out, 0, 2*maxG, 2*maxG+1)
	if _, ok := nodes[3]; ok && maxG > 3 {
		out = append(out, 6, 7)
	}
	for _, g := range out {
		if _, ok := nodes[g]; ok {
			continue
		}
		if _, err := p.Node(g); !errors.Is(err, ErrGindex) {
			t.Fatalf("%s: Node(%d), outside the tree: %v", name, g, err)
		}
		if _, err := p.Prove(g); !errors.Is(err, ErrGindex) {
			t.Fatalf("%s: Prove(%d), outside the tree: %v", name, g, err)
		}
		if _, err := p.ProveMulti([]uint64{1, g}); !errors.Is(err, ErrGindex) {
			t.Fatalf("%s: ProveMulti(1, %d), outside the tree: %v", name, g, err)
		}
	}
	for range 60 {
		gs := make([]uint64, 1+r.IntN(6))
		for i := range gs {
			switch r.IntN(8) {
			case 0:
				gs[i] = 1
			case 1: // an ancestor or descendant of another
				if i > 0 {
					g := gs[r.IntN(i)]
					if g > 1 && r.IntN(2) == 0 {
						gs[i] = g >> (1 + r.IntN(bits.Len64(g)-1))
					} else if _, ok := nodes[2*g+uint64(i%2)]; ok {
						gs[i] = 2*g + uint64(i%2)
					} else {
						gs[i] = g
					}
					continue
				}
				fallthrough
			default:
				gs[i] = in[r.IntN(len(in))]
			}
		}
		slices.Sort(gs)
		gs = slices.Compact(gs)
		r.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		if h, want := HelperIndices(gs), specHelperIndices(gs); !slices.Equal(h, want) {
			t.Fatalf("%s: HelperIndices(%v) = %v, get_helper_indices %v", name, gs, h, want)
		}
		m, err := p.ProveMulti(gs)
		if err != nil {
			t.Fatalf("%s: ProveMulti(%v): %v", name, gs, err)
		}
		for i, g := range gs {
			if m.Leaves[i] != nodes[g] {
				t.Fatalf("%s: ProveMulti(%v): leaf %d wrong", name, gs, g)
			}
		}
		sr, ok := specMultiRoot(m.Leaves, m.Helpers, gs)
		if !ok || sr != root {
			t.Fatalf("%s: ProveMulti(%v): calculate_multi_merkle_root %x, %v; root %x", name, gs, sr, ok, root)
		}
		if got, err := m.Root(); err != nil || got != sr {
			t.Fatalf("%s: multiproof of %v: Root %x, %v; calculate_multi_merkle_root %x", name, gs, got, err, sr)
		}
		if err := m.Verify(root); err != nil {
			t.Fatalf("%s: multiproof of %v: %v", name, gs, err)
		}
		// A gindex given twice: the specs take it once; Root calls it
		// malformed, and so does ProveMulti.
		if _, err := p.ProveMulti(append(slices.Clone(gs), gs[r.IntN(len(gs))])); !errors.Is(err, ErrMalformed) {
			t.Fatalf("%s: ProveMulti of %v and a duplicate: %v, want ErrMalformed", name, gs, err)
		}
		// The same helpers, random leaves: where no leaf is an ancestor
		// of another, Root is the specs' function exactly.
		related := false
		for _, a := range gs {
			for _, b := range gs {
				if a != b && b>>max(0, bits.Len64(b)-bits.Len64(a)) == a {
					related = true
				}
			}
		}
		m2 := Multiproof{Gindices: gs, Leaves: randChunks(r, len(gs)), Helpers: m.Helpers}
		sr2, ok2 := specMultiRoot(m2.Leaves, m2.Helpers, gs)
		got2, err2 := m2.Root()
		switch {
		case !related && (err2 != nil || !ok2 || got2 != sr2):
			t.Fatalf("%s: random leaves at %v: Root %x, %v; calculate_multi_merkle_root %x, %v", name, gs, got2, err2, sr2, ok2)
		case related && err2 == nil && got2 != sr2:
			t.Fatalf("%s: random leaves at %v: Root %x, the specs' %x", name, gs, got2, sr2)
		case related && err2 != nil && !errors.Is(err2, ErrMismatch):
			t.Fatalf("%s: random leaves at %v, related: %v", name, gs, err2)
		}
	}
}

// TestSpecProofs: Tree, Chunks, BasicList and ContainerList against the
// specs' merkle-proofs.md functions, for vectors and lists of limits 0, 1,
// powers of two and others, empty and full.
func TestSpecProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for _, limit := range []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 31, 33} {
		for _, n := range []uint64{0, 1, 2, 3, limit / 2, limit - min(limit, 1), limit} {
			if n > limit {
				continue
			}
			chunks := randChunks(r, int(n))
			checkSpecProofs(t, "Tree", r, treeRoot{NewTree(chunks, limit)}, specNodes(chunks, limit, false, 0))
			checkSpecProofs(t, "list Tree", r, treeRoot{NewListTree(chunks, limit, n)}, specNodes(chunks, limit, true, n))
			checkSpecProofs(t, "Chunks", r, NewChunks(chunks, limit), specNodes(chunks, limit, false, 0))
			checkSpecProofs(t, "Chunks list", r, NewChunkList(chunks, limit), specNodes(chunks, limit, true, n))

			// A List[uint16, 16*limit] of n*16-3 values (or none).
			vals := make([]uint16, max(16*n, 3)-3)
			ser := make([]byte, 2*len(vals))
			for i := range vals {
				vals[i] = uint16(r.Uint32())
				ser[2*i], ser[2*i+1] = byte(vals[i]), byte(vals[i]>>8)
			}
			if uint64(len(vals)) <= 16*limit {
				packed := make([][32]byte, (len(ser)+31)/32)
				for i, b := range ser {
					packed[i/32][i%32] = b
				}
				bl := NewBasicList(vals, 16*limit)
				checkSpecProofs(t, "BasicList", r, bl, specNodes(packed, (16*limit*2+31)/32, true, uint64(len(vals))))
				for i := range uint64(len(vals)) {
					// get_generalized_index(List[uint16, N], i): the list's
					// data under 2, then the chunk that holds value i.
					want := 2*specPow2Ceil((16*limit*2+31)/32) + i*2/32
					if g := bl.Gindex(i); g != want {
						t.Fatalf("BasicList[uint16, %d].Gindex(%d) = %d, get_generalized_index %d", 16*limit, i, g, want)
					}
				}
			}

			// A List[C, limit] of n containers of 3 fields.
			const k = 3
			fields := randChunks(r, int(n)*k)
			roots := make([][32]byte, n)
			for i := range roots {
				roots[i] = specNodes(fields[i*k:i*k+k], k, false, 0)[1]
			}
			cl := NewContainerList(k, fields, limit)
			checkSpecProofs(t, "ContainerList", r, cl, specNodes(roots, limit, true, n))
			for i := range n {
				want := specConcat(2, specPow2Ceil(limit)+i, specPow2Ceil(k)+2)
				if g := ConcatGindices(cl.Gindex(i), 4|2); g != want {
					t.Fatalf("ContainerList of limit %d: field 2 of %d at %d, get_generalized_index %d", limit, i, g, want)
				}
			}
		}
	}
}

// TestSpecConcat: ConcatGindices and ConcatProofs against
// concat_generalized_indices and calculate_merkle_root.
func TestSpecConcat(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	for range 2000 {
		a := r.Uint64() >> r.IntN(64)
		b := r.Uint64() >> r.IntN(64)
		if a == 0 || b == 0 || bits.Len64(a)+bits.Len64(b)-1 > 64 {
			continue
		}
		if got, want := ConcatGindices(a, b), specConcat(a, b); got != want {
			t.Fatalf("ConcatGindices(%d, %d) = %d, concat_generalized_indices %d", a, b, got, want)
		}
	}
	if got, want := ConcatGindices(1<<63, 1), specConcat(1<<63, 1); got != want {
		t.Fatalf("ConcatGindices(2^63, 1) = %d, want %d", got, want)
	}
	for range 200 {
		nc := 1 + r.IntN(9)
		inner := NewTree(randChunks(r, nc), uint64(nc+r.IntN(8)))
		outer := NewListTree(append(randChunks(r, r.IntN(5)), inner.Root()), 9, 5)
		ig := uint64(1) << r.IntN(inner.depth+1)
		ig |= r.Uint64() & (ig - 1)
		og := outer.Gindex(uint64(len(outer.levels[0]) - 1))
		for range 3 {
			pi, err := inner.Prove(ig)
			if err != nil {
				ig = 1
				continue
			}
			po, _ := outer.Prove(og)
			p, err := ConcatProofs(po, pi)
			if err != nil {
				t.Fatal(err)
			}
			if p.Gindex != specConcat(og, ig) {
				t.Fatalf("ConcatProofs: gindex %d, want %d", p.Gindex, specConcat(og, ig))
			}
			if sr, ok := specMerkleRoot(p.Leaf, p.Branch, p.Gindex); !ok || sr != outer.Root() {
				t.Fatalf("ConcatProofs of %d in %d: calculate_merkle_root %x, %v", ig, og, sr, ok)
			}
			ig = 1
		}
	}
}

// TestSpecMultiRandom: HelperIndices and Multiproof.Root against
// get_helper_indices and calculate_multi_merkle_root on random gindices
// and leaves: the same root where no leaf is another's ancestor; else the
// same root or ErrMismatch; a duplicate, ErrMalformed.
func TestSpecMultiRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	for it := range 20000 {
		gs := make([]uint64, 1+r.IntN(6))
		for i := range gs {
			gs[i] = 1 + r.Uint64N(uint64(1)<<(1+r.IntN(7)))
			if r.IntN(50) == 0 {
				gs[i] = r.Uint64() | 1<<63
			}
		}
		dup := false
		if r.IntN(10) > 0 {
			slices.Sort(gs)
			gs = slices.Compact(gs)
			r.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		} else {
			s := slices.Clone(gs)
			slices.Sort(s)
			dup = len(slices.Compact(s)) != len(gs)
		}
		h := HelperIndices(gs)
		if want := specHelperIndices(gs); !slices.Equal(h, want) {
			t.Fatalf("HelperIndices(%v) = %v, want %v", gs, h, want)
		}
		m := Multiproof{Gindices: gs, Leaves: randChunks(r, len(gs)), Helpers: randChunks(r, len(h))}
		related := false
		for _, a := range gs {
			for _, b := range gs {
				if a != b && bits.Len64(b) >= bits.Len64(a) && b>>(bits.Len64(b)-bits.Len64(a)) == a {
					related = true
				}
			}
		}
		sr, ok := specMultiRoot(m.Leaves, m.Helpers, gs)
		got, err := m.Root()
		switch {
		case dup:
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("%d: dup %v: %v", it, gs, err)
			}
		case !ok:
			if err == nil {
				t.Fatalf("%d: %v: spec fails, Root %x", it, gs, got)
			}
		case !related && (err != nil || got != sr):
			t.Fatalf("%d: %v: Root %x, %v; spec %x", it, gs, got, err, sr)
		case related && err == nil && got != sr:
			t.Fatalf("%d: %v: Root %x; spec %x", it, gs, got, sr)
		case related && err != nil && !errors.Is(err, ErrMismatch):
			t.Fatalf("%d: %v: related: %v", it, gs, err)
		}
	}
}
