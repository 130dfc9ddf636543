package interop

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	dynssz "github.com/pk910/dynamic-ssz"
	"github.com/pk910/dynamic-ssz/treeproof"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// TestProgressiveProofsDynamicSSZ: both ways against the trees of
// dynamic-ssz v1.4.0 (GetTree), for lists of Bytes32 and of uint64s,
// bitlists and containers of Bytes32 fields at the subtrees' edges: every gindex down to
// the children of the last subtree's leaves, and a few below the spine's
// zero chunk, is a node of both trees, the same, or of neither (dynamic-ssz
// opens padding into zero subtrees as hashtree does); each one's proof of
// every chunk and of gindex 3 verifies with the other's verifier and is
// the other's; and so do multiproofs of random chunks.
func TestProgressiveProofsDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7916, 3))
	check := func(name string, tr progProver, x any, chunks int) {
		t.Helper()
		tree, err := d.GetTree(x)
		if err != nil {
			t.Fatal(err)
		}
		root := tr.Root()
		if !bytes.Equal(tree.Hash(), root[:]) {
			t.Fatalf("%s: root %x, dynamic-ssz %x", name, root, tree.Hash())
		}
		full, end := 0, uint64(2) // the chunks the subtrees hold, and the spine's zero chunk
		for size := 1; full < chunks; size *= 4 {
			full, end = full+size, 2*end+1
		}
		last := sszx.ProgressiveGindex(uint64(max(full, 1) - 1))
		gs := []uint64{2 * end, 2*end + 1, 4*end + 2, 1 << 62, 1<<63 - 1}
		for g := uint64(1); g <= 2*last+1; g++ { // not 0, which dynamic-ssz refuses otherwise
			gs = append(gs, g)
		}
		for _, g := range gs {
			n, err := tr.Node(g)
			dn, derr := tree.Get(int(g))
			if (err == nil) != (derr == nil) || err == nil && !bytes.Equal(dn.Hash(), n[:]) {
				t.Fatalf("%s: Node(%d) %x, %v; dynamic-ssz %v", name, g, n, err, derr)
			}
		}
		gs = []uint64{3}
		for i := range chunks {
			gs = append(gs, sszx.ProgressiveGindex(uint64(i)))
		}
		for _, g := range gs {
			p, err := tr.Prove(g)
			if err != nil {
				t.Fatal(err)
			}
			dp, err := tree.Prove(int(g))
			if err != nil {
				t.Fatalf("%s: dynamic-ssz's Prove(%d): %v", name, g, err)
			}
			q := sszx.Proof{Gindex: uint64(dp.Index), Leaf: [32]byte(dp.Leaf)}
			for _, h := range dp.Hashes {
				q.Branch = append(q.Branch, [32]byte(h))
			}
			ok, err := treeproof.VerifyProof(root[:], &treeproof.Proof{Index: int(g), Leaf: p.Leaf[:], Hashes: chunkSlices(p.Branch)})
			if !ok || err != nil || q.Verify(root) != nil || q.Leaf != p.Leaf || !slices.Equal(q.Branch, p.Branch) {
				t.Fatalf("%s: gindex %d: dynamic-ssz verifies hashtree's proof: %v, %v; the proofs differ: %v", name, g, ok, err, !slices.Equal(q.Branch, p.Branch))
			}
		}
		r.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		gs = gs[:1+r.IntN(len(gs))]
		m, err := tr.ProveMulti(gs)
		if err != nil {
			t.Fatal(err)
		}
		ints := make([]int, len(gs))
		for i, g := range gs {
			ints[i] = int(g)
		}
		ok, err := treeproof.VerifyMultiproof(root[:], chunkSlices(m.Helpers), chunkSlices(m.Leaves), ints)
		dm, derr := tree.ProveMulti(ints)
		if !ok || err != nil || derr != nil {
			t.Fatalf("%s: dynamic-ssz verifies hashtree's multiproof of %d: %v, %v; its own: %v", name, len(gs), ok, err, derr)
		}
		q := sszx.Multiproof{Gindices: gs}
		for _, l := range dm.Leaves {
			q.Leaves = append(q.Leaves, [32]byte(l))
		}
		for _, h := range dm.Hashes {
			q.Helpers = append(q.Helpers, [32]byte(h))
		}
		if err := q.Verify(root); err != nil {
			t.Fatalf("%s: dynamic-ssz's multiproof of %d: %v", name, len(gs), err)
		}
	}
	for _, n := range []int{0, 1, 2, 4, 5, 6, 16, 20, 21, 22, 85, 86, 341, 342} {
		roots := randChunks(r, n)
		l := sszx.NewProgressiveList(roots[:n/2])
		for _, c := range roots[n/2:] {
			l.Append(c)
		}
		check(fmt.Sprintf("%d roots", n), l, &progRoots{X: roots}, n)
		u := make([]uint64, 4*n-r.IntN(4)*min(n, 1)) // n chunks, the last one to four values
		for i := range u {
			u[i] = r.Uint64()
		}
		bu := sszx.NewProgressiveBasicList(u[:len(u)/3])
		for _, v := range u[len(u)/3:] {
			bu.Append(v)
		}
		check(fmt.Sprintf("%d uint64s", len(u)), bu, &progUint64s{X: u}, n)
		if n > 86 {
			continue
		}
		bv := make([]bool, max(0, 256*n-r.IntN(256)))
		for i := range bv {
			bv[i] = r.IntN(2) == 0
		}
		bl, err := sszx.NewProgressiveBitlist(bitsBytes(bv))
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("%d bits", len(bv)), bl, &progBits{X: bitsBytes(bv)}, (len(bv)+255)/256)
	}
	only := func(n int, at ...int) []bool {
		a := make([]bool, n)
		for _, i := range at {
			a[i] = true
		}
		return a
	}
	shapes := [][]bool{only(1, 0), only(2, 1), only(6, 5), only(22, 21), only(86, 85), only(256, 0, 255),
		only(256, 0, 1, 4, 5, 20, 21, 84, 85, 255), slices.Repeat([]bool{true}, 256)}
	for range 12 {
		a := make([]bool, 1+r.IntN(256))
		for i := range a {
			a[i] = i == len(a)-1 || r.IntN(3) == 0
		}
		shapes = append(shapes, a)
	}
	for k, active := range shapes {
		var fs []reflect.StructField
		var fields [][32]byte
		for i, a := range active {
			if a {
				fs = append(fs, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[[32]byte](), Tag: reflect.StructTag(fmt.Sprintf(`ssz-index:"%d"`, i))})
				fields = append(fields, randChunks(r, 1)[0])
			}
		}
		x := reflect.New(reflect.StructOf(fs))
		for i, f := range fields {
			x.Elem().Field(i).Set(reflect.ValueOf(f))
		}
		check(fmt.Sprintf("container %d of %d fields", k, len(active)), sszx.NewProgressiveContainer(fields, active), x.Interface(), len(active))
	}
}

// chunkSlices returns chunks as slices, as dynamic-ssz's proofs hold them.
func chunkSlices(chunks [][32]byte) [][]byte {
	s := make([][]byte, len(chunks))
	for i := range chunks {
		s[i] = chunks[i][:]
	}
	return s
}
