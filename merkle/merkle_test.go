package merkle

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sha256x/sha256x"
)

// sizes is every tree size the tests build: 0..70, and some large ones.
func sizes(t testing.TB) []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	ns = append(ns, 127, 128, 129, 255, 1000, 1023, 1025)
	if !testing.Short() && !raceEnabled {
		ns = append(ns, 4097, 1<<14+3)
	}
	return ns
}

// data returns n distinct leaves, the same for the same n: the first
// empty, the others of 3 to 202 bytes that start with their index.
func data(n int) [][]byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	d := make([][]byte, n)
	for i := range d {
		if i == 0 {
			d[i] = []byte{}
			continue
		}
		d[i] = make([]byte, 3+r.IntN(200))
		for j := range d[i] {
			d[i][j] = byte(r.Uint32())
		}
		d[i][0], d[i][1], d[i][2] = byte(i), byte(i>>8), byte(i>>16)
	}
	return d
}

// chunks returns n distinct 32-byte leaves.
func chunks(n int) [][]byte {
	d := make([][]byte, n)
	for i := range d {
		h := sha([]byte("chunk"), []byte(strconv.Itoa(n)), []byte{byte(i), byte(i >> 8), byte(i >> 16)})
		d[i] = h[:]
	}
	return d
}

func nodesOf(leaves [][]byte) [][Size]byte {
	n := make([][Size]byte, len(leaves))
	for i, l := range leaves {
		n[i] = [Size]byte(l)
	}
	return n
}

// A scheme under test: its leaves, and the reference root.
type testScheme struct {
	name   string
	s      *Scheme
	leaves func(n int) [][]byte
	ref    func(leaves [][]byte) [Size]byte
}

var tape = Scheme{
	LeafPrefix: []byte("LEAF"),
	Node:       sha256x.Join{Prefix: []byte("LEFT"), Infix: []byte("RIGHT")},
	Odd:        Duplicate,
}

// refTape: SHA-256("LEAF" || d) leaves, SHA-256("LEFT" || l || "RIGHT" ||
// r) nodes, an odd last node with itself: a plain recursive pairing.
func refTape(d [][]byte) [Size]byte {
	level := make([][Size]byte, len(d))
	for i, x := range d {
		level[i] = sha([]byte("LEAF"), x)
	}
	if len(level) == 0 {
		return [Size]byte{}
	}
	for len(level) > 1 {
		if len(level)%2 == 1 {
			level = append(level, level[len(level)-1])
		}
		var next [][Size]byte
		for i := 0; i < len(level); i += 2 {
			next = append(next, sha([]byte("LEFT"), level[i][:], []byte("RIGHT"), level[i+1][:]))
		}
		level = next
	}
	return level[0]
}

var testSchemes = []testScheme{
	{"rfc6962", &RFC6962, data, refRFC6962},
	{"bitcoin", &Bitcoin, chunks, func(l [][]byte) [Size]byte { return refBitcoin(nodesOf(l)) }},
	{"binary", &Binary, chunks, func(l [][]byte) [Size]byte { return refBinary(nodesOf(l)) }},
	{"solana", &Solana, data, func(l [][]byte) [Size]byte {
		leaves := make([][Size]byte, len(l))
		for i, x := range l {
			leaves[i] = sha(solanaLeafPrefix, x)
		}
		tree := agaveTree(leaves)
		return tree[len(tree)-1]
	}},
	{"tape", &tape, data, refTape},
}

func TestRoots(t *testing.T) {
	for _, ts := range testSchemes {
		t.Run(ts.name, func(t *testing.T) {
			for _, n := range sizes(t) {
				if n == 0 && ts.s.NoEmpty {
					continue
				}
				leaves := ts.leaves(n)
				want := ts.ref(leaves)
				tree := ts.s.Build(leaves)
				nodes := make([][Size]byte, n)
				for i, l := range leaves {
					nodes[i] = ts.s.LeafHash(l)
				}
				got := map[string][Size]byte{
					"Root":            ts.s.Root(leaves),
					"Build":           tree.Root(),
					"RootNodes":       ts.s.RootNodes(nodes),
					"BuildNodes":      ts.s.BuildNodes(nodes).Root(),
					"Root, run again": ts.s.Root(leaves), // pooled scratch reused
				}
				for k, g := range got {
					if g != want {
						t.Fatalf("%d leaves: %s = %x, want %x", n, k, g, want)
					}
				}
				if tree.Len() != n {
					t.Fatalf("%d leaves: Len = %d", n, tree.Len())
				}
			}
		})
	}
}

// TestLevels checks each level against the one below it, node by node.
func TestLevels(t *testing.T) {
	for _, ts := range testSchemes {
		t.Run(ts.name, func(t *testing.T) {
			for _, n := range []int{1, 2, 3, 5, 6, 7, 13, 64, 65} {
				s := ts.s
				leaves := ts.leaves(n)
				lv := s.Build(leaves).Levels()
				if len(lv) != height(n)+1 || len(lv[len(lv)-1]) != 1 {
					t.Fatalf("%d leaves: %d levels, want %d", n, len(lv), height(n)+1)
				}
				for i, l := range leaves {
					if lv[0][i] != s.LeafHash(l) {
						t.Fatalf("%d leaves: leaf node %d", n, i)
					}
				}
				zero := [Size]byte{}
				for d := 0; d+1 < len(lv); d++ {
					if len(lv[d+1]) != (len(lv[d])+1)/2 {
						t.Fatalf("%d leaves: level %d has %d nodes", n, d+1, len(lv[d+1]))
					}
					for i, got := range lv[d+1] {
						l := lv[d][2*i]
						var want [Size]byte
						switch {
						case 2*i+1 < len(lv[d]):
							want = s.join(&[2][Size]byte{l, lv[d][2*i+1]})
						case s.Odd == Promote:
							want = l
						case s.Odd == Duplicate:
							want = s.join(&[2][Size]byte{l, l})
						case s.Odd == ZeroPad:
							want = s.join(&[2][Size]byte{l, zero})
						}
						if got != want {
							t.Fatalf("%d leaves: level %d node %d = %x, want %x", n, d+1, i, got, want)
						}
					}
					zero = s.join(&[2][Size]byte{zero, zero})
				}
			}
		})
	}
}

// TestProofs: every proof verifies; a changed leaf, a changed proof entry,
// a wrong index, a path one entry short or long, all fail.
func TestProofs(t *testing.T) {
	for _, ts := range testSchemes {
		t.Run(ts.name, func(t *testing.T) {
			for _, n := range sizes(t) {
				if n == 0 || (n > 1100 && testing.Short()) || (n > 130 && raceEnabled) {
					continue
				}
				checkProofs(t, ts, n)
			}
		})
	}
}

func checkProofs(t *testing.T, ts testScheme, n int) {
	s := ts.s
	leaves := ts.leaves(n)
	tree := s.Build(leaves)
	root := tree.Root()
	w := s.width()
	// Large trees (and every tree under the race detector, which makes
	// each proof slow): the leaves near the ends, and a sample between.
	idx := make([]int, 0, n)
	for i := range n {
		if n <= 130 && !raceEnabled || i < 5 || i >= n-5 || i%97 == 0 {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		p := tree.Proof(i)
		if err := s.Verify(root, leaves[i], p); err != nil {
			t.Fatalf("%d leaves: the proof of leaf %d fails: %v", n, i, err)
		}
		if len(p.Path) > 64 || (s.Odd != Promote && len(p.Path) != height(n)) {
			t.Fatalf("%d leaves: a path of %d entries", n, len(p.Path))
		}
		for k := range p.Path {
			if slices.ContainsFunc(p.Path[k][w:], func(b byte) bool { return b != 0 }) {
				t.Fatalf("%d leaves: entry %d has bytes past the width", n, k)
			}
		}
		bad := slices.Clone(leaves[i])
		if s.RawLeaves {
			bad[31] ^= 1
		} else {
			bad = append(bad, 0)
		}
		if err := s.Verify(root, bad, p); !errors.Is(err, ErrMismatch) || errors.Is(err, ErrMalformed) {
			t.Fatalf("%d leaves: leaf %d changed: %v, want ErrMismatch", n, i, err)
		}
		if s.RawLeaves {
			if err := s.Verify(root, bad[:31], p); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%d leaves: leaf %d of 31 bytes: %v, want ErrMalformed", n, i, err)
			}
		}
		for k := range p.Path {
			q := p
			q.Path = slices.Clone(p.Path)
			q.Path[k][k%w] ^= 0x80
			if err := s.Verify(root, leaves[i], q); !errors.Is(err, ErrMismatch) {
				t.Fatalf("%d leaves: entry %d of leaf %d's proof changed: %v, want ErrMismatch", n, k, i, err)
			}
		}
		for _, j := range []int{i - 1, i + 1, i ^ 1, i ^ 2, -1, n} {
			if j == i {
				continue
			}
			q := p
			q.Index = j
			err := s.Verify(root, leaves[i], q)
			if err == nil || (j < 0 || j >= n) && (errors.Is(err, ErrMismatch) || !errors.Is(err, ErrMalformed)) {
				t.Fatalf("%d leaves: leaf %d's proof at index %d: %v", n, i, j, err)
			}
		}
		if len(p.Path) > 0 {
			q := p
			q.Path = p.Path[:len(p.Path)-1]
			if err := s.Verify(root, leaves[i], q); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrMismatch) {
				t.Fatalf("%d leaves: leaf %d's proof less its last entry: %v, want a malformed path", n, i, err)
			}
		}
		q := p
		q.Path = append(slices.Clone(p.Path), root)
		if err := s.Verify(root, leaves[i], q); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrMismatch) {
			t.Fatalf("%d leaves: leaf %d's proof with an extra entry: %v, want a malformed path", n, i, err)
		}
		if bad := Reverse(root); bad != root && !errors.Is(s.Verify(bad, leaves[i], p), ErrMismatch) {
			t.Fatalf("%d leaves: the proof against another root is no ErrMismatch", n)
		}
	}
}

// TestRFC6962Paths compares proofs with RFC 6962's PATH, computed
// recursively from the RFC's definition.
func TestRFC6962Paths(t *testing.T) {
	for n := 1; n <= 70; n++ {
		leaves := data(n)
		tree := RFC6962.Build(leaves)
		for i := range n {
			got, want := tree.Proof(i).Path, refRFC6962Path(i, leaves)
			if !slices.Equal(got, want) {
				t.Fatalf("%d leaves, leaf %d: path %x, want %x", n, i, got, want)
			}
		}
	}
}

// TestAgave checks the Solana scheme against a transcription of agave's
// merkle_tree.rs and its tests' expectations: tree sizes, proof lengths,
// round trips (sizes 1..143) and no proof of index >= size.
func TestAgave(t *testing.T) {
	treeSize := []int{0, 1, 3, 6, 7, 11, 12, 14, 15, 20, 21, 23, 24, 27, 28}
	for n, want := range treeSize {
		if got := agaveTreeSize(n); got != want {
			t.Fatalf("transcription: get_merkle_tree_size(%d) = %d, want %d", n, got, want)
		}
		if n == 0 {
			continue
		}
		lv := Solana.Build(data(n)).Levels()
		total := 0
		for _, l := range lv {
			total += len(l)
		}
		if total != want {
			t.Fatalf("%d shreds: %d nodes, agave has %d", n, total, want)
		}
	}
	proofSize := map[int]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 63: 6, 64: 6, 65: 7}
	for n, want := range proofSize {
		if got := len(Solana.Build(data(n)).Proof(n - 1).Path); got != want {
			t.Fatalf("%d shreds: proof of %d entries, agave's get_proof_size is %d", n, got, want)
		}
	}
	maxN := 143
	if testing.Short() {
		maxN = 70
	}
	for n := 1; n <= maxN; n++ {
		leaves := data(n)
		nodes := make([][Size]byte, n)
		for i, l := range leaves {
			nodes[i] = sha(solanaLeafPrefix, l)
		}
		flat := agaveTree(nodes)
		if len(flat) != agaveTreeSize(n) {
			t.Fatalf("transcription: %d nodes for %d shreds", len(flat), n)
		}
		root := flat[len(flat)-1]
		tree := Solana.Build(leaves)
		if tree.Root() != root {
			t.Fatalf("%d shreds: root %x, agave %x", n, tree.Root(), root)
		}
		// The levels are agave's flat vector, cut up.
		var cat [][Size]byte
		for _, l := range tree.Levels() {
			cat = append(cat, l...)
		}
		if !slices.Equal(cat, flat) {
			t.Fatalf("%d shreds: levels differ from agave's flat tree", n)
		}
		for i := range n {
			p := tree.Proof(i)
			want := agaveProof(i, n, flat)
			if len(p.Path) != len(want) {
				t.Fatalf("%d shreds, shred %d: %d entries, agave %d", n, i, len(p.Path), len(want))
			}
			entries := make([][]byte, len(p.Path))
			for k := range p.Path {
				entries[k] = p.Path[k][:20]
				if string(entries[k]) != string(want[k]) {
					t.Fatalf("%d shreds, shred %d: entry %d %x, agave %x", n, i, k, entries[k], want[k])
				}
			}
			// Round trip as agave's test does it: only shred i's node
			// gives the root.
			for _, k := range []int{i, (i + 1) % n, n - 1 - i} {
				r, ok := agaveRoot(k, nodes[k], entries)
				if k == i && (!ok || r != root) {
					t.Fatalf("%d shreds: agave does not verify our proof of %d", n, i)
				}
				if k != i && r == root {
					t.Fatalf("%d shreds: shred %d's node gives the root with %d's proof", n, k, i)
				}
				if err := Solana.VerifyNode(root, nodes[k], p); (err == nil) != (k == i) {
					t.Fatalf("%d shreds: VerifyNode of shred %d with %d's proof: %v", n, k, i, err)
				}
			}
		}
	}
	// Agave's make_merkle_proof errors for index >= size: Proof panics.
	tree := Solana.Build(data(5))
	for i := 5; i < 8; i++ {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("Proof(%d) of 5 leaves did not panic", i)
				}
			}()
			tree.Proof(i)
		}()
	}
}

func readVectors(t *testing.T, name string) [][]string {
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, strings.Fields(l))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func unhex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// solanaShred is shred i of n in derive_solana.py.
func solanaShred(i, n int) []byte {
	s := fmt.Sprintf("shred %d of %d ", i, n)
	return []byte(strings.Repeat(s, 1100/len(s)+1)[:1031+i%2])
}

// TestSolanaVectors checks roots and proofs that derive_solana.py computed
// with hashlib, transcribing agave.
func TestSolanaVectors(t *testing.T) {
	trees := map[int]*Tree{}
	build := func(n int) *Tree {
		if trees[n] == nil {
			leaves := make([][]byte, n)
			for i := range leaves {
				leaves[i] = solanaShred(i, n)
			}
			trees[n] = Solana.Build(leaves)
			if Solana.Root(leaves) != trees[n].Root() {
				t.Fatalf("%d shreds: Root and Build differ", n)
			}
		}
		return trees[n]
	}
	count := 0
	for _, f := range readVectors(t, "solana_vectors.txt") {
		n, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "root":
			if got := build(n).Root(); hex.EncodeToString(got[:]) != f[2] {
				t.Errorf("%d shreds: root %x, want %s", n, got, f[2])
			}
		case "proof":
			i, _ := strconv.Atoi(f[2])
			p := build(n).Proof(i)
			var got []string
			for _, e := range p.Path {
				got = append(got, hex.EncodeToString(e[:20]))
			}
			if !slices.Equal(got, f[3:]) {
				t.Errorf("%d shreds, shred %d: proof %v, want %v", n, i, got, f[3:])
			}
		}
		count++
	}
	if count < 50 {
		t.Fatalf("only %d vectors", count)
	}
}

// TestBitcoinBlocks checks real blocks: bitcoinjs-lib's raw fixtures (the
// header hashes to the block id; its Merkle root is ours over the raw
// transactions' txids), and mainnet block 100,000's published root.
func TestBitcoinBlocks(t *testing.T) {
	type block struct {
		name   string
		header []byte
		id     string
		root   string
		txids  [][Size]byte
	}
	var blocks []*block
	for _, f := range readVectors(t, "bitcoin_blocks.txt") {
		switch f[0] {
		case "block":
			blocks = append(blocks, &block{name: f[1]})
		case "header":
			blocks[len(blocks)-1].header = unhex(t, f[1])
		case "id":
			blocks[len(blocks)-1].id = f[1]
		case "root":
			blocks[len(blocks)-1].root = f[1]
		case "txid":
			b := blocks[len(blocks)-1]
			b.txids = append(b.txids, [Size]byte(unhex(t, f[1])))
		}
	}
	if len(blocks) < 5 {
		t.Fatalf("%d blocks", len(blocks))
	}
	for _, b := range blocks {
		t.Run(b.name, func(t *testing.T) {
			var want [Size]byte
			if b.header != nil {
				h1 := sha(b.header)
				if id := Reverse(sha(h1[:])); hex.EncodeToString(id[:]) != b.id {
					t.Fatalf("the header hashes to %x, not the published id %s", id, b.id)
				}
				want = [Size]byte(b.header[36:68])
			} else {
				want = Reverse([Size]byte(unhex(t, b.root)))
			}
			leaves := make([][]byte, len(b.txids))
			for i := range b.txids {
				leaves[i] = b.txids[i][:]
			}
			if got := Bitcoin.Root(leaves); got != want {
				t.Fatalf("root %x, want %x (internal order)", got, want)
			}
			if got := Bitcoin.RootNodes(b.txids); got != want {
				t.Fatalf("RootNodes %x, want %x", got, want)
			}
			tree := Bitcoin.Build(leaves)
			for i := range leaves {
				if err := Bitcoin.Verify(want, leaves[i], tree.Proof(i)); err != nil {
					t.Fatalf("the proof of tx %d fails: %v", i, err)
				}
			}
		})
	}
}

// TestBitcoinDuplicates checks the CVE-2012-2459 property as Bitcoin's
// doc comment states it: where a level of an even number of nodes, four or
// more, ends with two equal nodes, the txids without those under the last
// of them have the same root; a level of two equal nodes, or an odd number
// ending with two, does not share its root with the list less the repeat.
func TestBitcoinDuplicates(t *testing.T) {
	for n := 1; n <= 70; n++ {
		l := chunks(n)
		lv := Bitcoin.Build(l).Levels()
		for d, nodes := range lv {
			if m := len(nodes); m%2 == 0 || m < 3 || (m-1)<<d+1<<d != n {
				continue // no room for a copy of a whole last node
			}
			more := append(slices.Clone(l), l[n-1<<d:]...)
			mlv := Bitcoin.Build(more).Levels()
			if got := mlv[d]; len(got) != len(nodes)+1 || got[len(got)-1] != got[len(got)-2] {
				t.Fatalf("%d txids plus the last %d: level %d does not end with two equal nodes", n, 1<<d, d)
			}
			if Bitcoin.Root(more) != Bitcoin.Root(l) {
				t.Errorf("%d txids plus the last %d again: another root", n, 1<<d)
			}
		}
	}
	c := chunks(2)
	for _, l := range [][][]byte{{c[0], c[0]}, {c[0], c[1], c[1]}} {
		if Bitcoin.Root(l) == Bitcoin.Root(l[:len(l)-1]) {
			t.Errorf("%d txids ending with two equal ones: the root of the list without the repeat", len(l))
		}
	}
}

func TestEmpty(t *testing.T) {
	for _, c := range []struct {
		s    *Scheme
		want [Size]byte
	}{
		{&RFC6962, sha()},        // RFC 6962: MTH({}) = SHA-256()
		{&Bitcoin, [Size]byte{}}, // Bitcoin Core: uint256() for no hashes
		{&Binary, [Size]byte{}},  // SSZ: merkleize([]) is the zero chunk
		{&tape, [Size]byte{}},    // a Scheme literal: its Empty
	} {
		if got := c.s.Root(nil); got != c.want {
			t.Errorf("Root(nil) = %x, want %x", got, c.want)
		}
		tr := c.s.Build(nil)
		if tr.Root() != c.want || tr.Len() != 0 || len(tr.Levels()) != 0 {
			t.Errorf("Build(nil): root %x, %d leaves, %d levels", tr.Root(), tr.Len(), len(tr.Levels()))
		}
		if err := c.s.Verify(c.want, make([]byte, 32), Proof{Index: 0, Size: 0}); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrMismatch) {
			t.Errorf("a proof in an empty tree: %v, want a malformed proof", err)
		}
	}
}

func TestPanics(t *testing.T) {
	for _, c := range []struct {
		name, msg string
		f         func()
	}{
		{"solana empty", "sha256x: merkle: a tree of no leaves, which this scheme does not have", func() { Solana.Root(nil) }},
		{"solana empty build", "sha256x: merkle: a tree of no leaves, which this scheme does not have", func() { Solana.Build(nil) }},
		{"short leaf", "sha256x: merkle: leaf 1 has 31 bytes in a scheme of 32-byte leaves", func() { Bitcoin.Root([][]byte{make([]byte, 32), make([]byte, 31)}) }},
		{"long leaf", "sha256x: merkle: leaf 0 has 33 bytes in a scheme of 32-byte leaves", func() { Binary.Build([][]byte{make([]byte, 33)}) }},
		{"leaf hash", "sha256x: merkle: a leaf of 0 bytes in a scheme of 32-byte leaves", func() { Binary.LeafHash(nil) }},
		{"proof index", "sha256x: merkle: proof of leaf 3 in a tree of 3 leaves", func() { RFC6962.Build(data(3)).Proof(3) }},
		{"negative index", "sha256x: merkle: proof of leaf -1 in a tree of 3 leaves", func() { RFC6962.Build(data(3)).Proof(-1) }},
		{"odd rule", "sha256x: merkle: Scheme.Odd = 7, not Promote, Duplicate or ZeroPad", func() { (&Scheme{Odd: 7}).Root(data(3)) }},
		{"width", "sha256x: Join.Width = 33, not in 0..32", func() { (&Scheme{Node: sha256x.Join{Width: 33}}).Root(data(3)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Errorf("panic %q, want %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
	if err := Bitcoin.Verify([Size]byte{}, make([]byte, 31), Proof{Size: 1}); err == nil || errors.Is(err, ErrMismatch) {
		t.Errorf("Verify of a 31-byte Bitcoin leaf: %v, want an error of its size", err)
	}
}

func TestRootAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	for _, ts := range testSchemes {
		leaves := ts.leaves(100)
		ts.s.Root(leaves)
		if a := testing.AllocsPerRun(20, func() { ts.s.Root(leaves) }); a != 0 {
			t.Errorf("%s: Root allocates %v times", ts.name, a)
		}
		tree := ts.s.Build(leaves)
		p := tree.Proof(99)
		if a := testing.AllocsPerRun(20, func() { ts.s.Verify(tree.Root(), leaves[99], p) }); a != 0 {
			t.Errorf("%s: Verify allocates %v times", ts.name, a)
		}
		// Build: the nodes in one piece, the level headers, the Tree.
		if a := testing.AllocsPerRun(20, func() { ts.s.Build(leaves) }); a > 3 {
			t.Errorf("%s: Build allocates %v times", ts.name, a)
		}
	}
}

// TestConcurrent builds trees from many goroutines (for -race).
func TestConcurrent(t *testing.T) {
	done := make(chan [Size]byte)
	leaves := data(300)
	want := RFC6962.Root(leaves)
	for range 8 {
		go func() {
			var r [Size]byte
			for range 20 {
				r = RFC6962.Root(leaves)
			}
			done <- r
		}()
	}
	for range 8 {
		if r := <-done; r != want {
			t.Fatalf("root %x, want %x", r, want)
		}
	}
}

// FuzzVerify: a tree's proof with its index, size, path or leaf changed
// never panics, and verifies only if it is that leaf's proof, but for the
// bytes past the width.
func FuzzVerify(f *testing.F) {
	schemes := []*Scheme{&RFC6962, &Bitcoin, &Binary, &Solana, &tape}
	f.Add(uint8(0), uint8(7), uint8(6), 0, uint16(0), uint8(0))
	f.Add(uint8(1), uint8(5), uint8(4), 1, uint16(3), uint8(2))
	f.Add(uint8(3), uint8(9), uint8(8), math.MinInt, uint16(0), uint8(9))
	f.Fuzz(func(t *testing.T, sel, n, i uint8, dIndex int, flip uint16, trunc uint8) {
		s := schemes[int(sel)%len(schemes)]
		leaves := chunks(int(n)%40 + 1)
		tree := s.Build(leaves)
		i %= uint8(len(leaves))
		p := tree.Proof(int(i))
		p.Path = slices.Clone(p.Path)
		leaf := leaves[i]
		switch sel / 8 % 4 {
		case 1:
			p.Index += dIndex
		case 2:
			p.Size += dIndex
		case 3:
			p.Index, p.Size = dIndex, int(flip)<<(trunc%64)
		}
		if k := int(flip>>8) % (len(p.Path) + 1); k < len(p.Path) && flip&1 == 1 {
			p.Path[k][flip>>1%32] ^= 1 << (trunc % 8)
		}
		if trunc&0x80 != 0 {
			p.Path = p.Path[:int(trunc)%(len(p.Path)+1)]
		} else if trunc&0x40 != 0 {
			p.Path = append(p.Path, p.Path...)
		}
		err := s.Verify(tree.Root(), leaf, p)
		if err != nil || p.Size != len(leaves) {
			return
		}
		want := tree.Proof(int(i))
		w := s.width()
		if p.Index != int(i) || !slices.EqualFunc(p.Path, want.Path, func(a, b [Size]byte) bool { return string(a[:w]) == string(b[:w]) }) {
			t.Fatalf("%d leaves: a changed proof of leaf %d verifies: %+v, the tree's %+v", len(leaves), i, p, want)
		}
	})
}
