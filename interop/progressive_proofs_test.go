package interop

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	sszx "github.com/sha256x/sha256x/hashtree"
)

// progProver is what the progressive types that change prove with.
type progProver interface {
	Root() [32]byte
	Node(g uint64) ([32]byte, error)
	Prove(g uint64) (sszx.Proof, error)
	ProveMulti(gindices []uint64) (sszx.Multiproof, error)
}

// vectorNode decodes a node of progressive_proofs.txt: hex, or zN, the root
// of a zero subtree of height N, hashed here.
func vectorNode(t *testing.T, s string) [32]byte {
	t.Helper()
	var n [32]byte
	if h, ok := strings.CutPrefix(s, "z"); ok {
		d, err := strconv.Atoi(h)
		if err != nil {
			t.Fatalf("node %q", s)
		}
		for range d {
			n = sha256.Sum256(append(n[:], n[:]...))
		}
		return n
	}
	if b, err := hex.DecodeString(s); err != nil || len(b) != 32 {
		t.Fatalf("node %q", s)
	} else {
		copy(n[:], b)
	}
	return n
}

// TestProgressiveProofVectors: the generalized indices and proofs that
// remerkleable (ethereum/remerkleable v0.1.30, 9ada4b5) gives elements of
// ProgressiveList[Bytes32], bits of ProgressiveBitLists and fields of
// ProgressiveContainers at the subtrees' edges, and the nodes it has or
// has not at the tree's ends (testdata/progressive_proofs.py wrote them),
// each against Gindex, Prove and Node of hashtree's types, built partly by
// appends, and the proof against Root.
func TestProgressiveProofVectors(t *testing.T) {
	f, err := os.Open("testdata/progressive_proofs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	active := map[string]string{}
	trees := map[string]progProver{}
	gindex := map[string]func(string) uint64{}
	build := func(kind, param string) {
		if trees[kind+param] != nil {
			return
		}
		if kind == "container" {
			key := active[param]
			act := make([]bool, len(key))
			var fields [][32]byte
			for i, c := range key {
				if act[i] = c == '1'; act[i] {
					fields = append(fields, [32]byte{})
				}
			}
			b := stream("fields "+key, 32*len(fields))
			for k := range fields {
				copy(fields[k][:], b[32*k:])
			}
			c := sszx.NewProgressiveContainer(fields, act)
			trees[kind+param] = c
			gindex[kind+param] = func(s string) uint64 { i, _ := strconv.Atoi(s); return c.Gindex(i) }
			return
		}
		n, err := strconv.Atoi(param)
		if err != nil {
			t.Fatalf("%s %q", kind, param)
		}
		switch kind {
		case "roots":
			b := stream("roots "+param, 32*n)
			roots := make([][32]byte, n)
			for i := range roots {
				roots[i] = [32]byte(b[32*i:])
			}
			l := sszx.NewProgressiveList(roots[:n/2])
			for _, r := range roots[n/2:] {
				l.Append(r)
			}
			trees[kind+param] = l
			gindex[kind+param] = func(s string) uint64 { i, _ := strconv.ParseUint(s, 10, 64); return l.Gindex(i) }
		case "bits":
			bv := vectorBits(t, "random", n)
			l, err := sszx.NewProgressiveBitlist(bitsBytes(bv[:n/2]))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range bv[n/2:] {
				l.Append(v)
			}
			trees[kind+param] = l
			gindex[kind+param] = func(s string) uint64 { i, _ := strconv.ParseUint(s, 10, 64); return l.Gindex(i) }
		default:
			t.Fatalf("kind %q", kind)
		}
	}
	counts := map[string]int{}
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		w := strings.Fields(s.Text())
		if len(w) == 3 && w[0] == "active" {
			active[w[1]] = w[2]
			continue
		}
		if len(w) < 5 {
			t.Fatalf("line %q", s.Text())
		}
		build(w[1], w[2])
		tr, id := trees[w[1]+w[2]], w[0]+" "+w[1]+" "+w[2]
		counts[w[0]+" "+w[1]]++
		if w[0] == "node" {
			g, err := strconv.ParseUint(w[3], 10, 64)
			if err != nil {
				t.Fatalf("line %q", s.Text())
			}
			n, err := tr.Node(g)
			if w[4] == "none" {
				if !errors.Is(err, sszx.ErrGindex) {
					t.Errorf("%s: Node(%d) %x, %v; remerkleable has none", id, g, n, err)
				}
			} else if want := vectorNode(t, w[4]); err != nil || n != want {
				t.Errorf("%s: Node(%d) %x, %v; remerkleable %x", id, g, n, err, want)
			}
			continue
		}
		g, err := strconv.ParseUint(w[4], 10, 64)
		if err != nil || len(w) != 5+bits.Len64(g) {
			t.Fatalf("line %q", s.Text())
		}
		if w[3] != "mix" {
			if got := gindex[w[1]+w[2]](w[3]); got != g {
				t.Errorf("%s: Gindex(%s) %d, remerkleable %d", id, w[3], got, g)
				continue
			}
		} else if g != 3 {
			t.Errorf("%s: remerkleable's gindex of the length or active_fields %d", id, g)
		}
		want := sszx.Proof{Gindex: g, Leaf: vectorNode(t, w[5])}
		for _, b := range w[6:] {
			want.Branch = append(want.Branch, vectorNode(t, b))
		}
		p, err := tr.Prove(g)
		if err != nil || p.Gindex != g || p.Leaf != want.Leaf || !slices.Equal(p.Branch, want.Branch) {
			t.Errorf("%s: Prove(%d) of %s: %v; not remerkleable's", id, g, w[3], err)
		}
		if err := want.Verify(tr.Root()); err != nil {
			t.Errorf("%s: remerkleable's proof of %s against Root: %v", id, w[3], err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(counts) != 6 {
		t.Fatalf("kinds of lines %v, want 6", counts)
	}
	t.Logf("vectors: %v", counts)
}
