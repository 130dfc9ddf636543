package cometadapt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
)

// refRoot is the tree's root computed recursively, node by node, with
// crypto/sha256, as CometBFT defines it.
func refRoot(items [][]byte) [Size]byte {
	switch len(items) {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return sha256.Sum256(append([]byte{0}, items[0]...))
	}
	k := 1 << (bits.Len(uint(len(items)-1)) - 1)
	l, r := refRoot(items[:k]), refRoot(items[k:])
	return sha256.Sum256(append(append([]byte{1}, l[:]...), r[:]...))
}

func randItems(r *rand.Rand, n, max int) [][]byte {
	items := make([][]byte, n)
	for i := range items {
		items[i] = make([]byte, r.IntN(max+1))
		for j := range items[i] {
			items[i][j] = byte(r.Uint32())
		}
	}
	return items
}

func TestRootsAndMany(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 20))
	var blocks [][][]byte
	for n := range 130 {
		items := randItems(r, n, 100)
		if Root(items) != refRoot(items) {
			t.Fatalf("%d items: wrong root", n)
		}
		blocks = append(blocks, items)
	}
	roots := make([][Size]byte, len(blocks))
	HashFromByteSlicesMany(roots, blocks)
	for i, b := range blocks {
		if roots[i] != refRoot(b) {
			t.Fatalf("many: block %d of %d items: wrong root", i, len(b))
		}
	}
}

func TestManyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	r := rand.New(rand.NewPCG(41, 21))
	blocks := make([][][]byte, 200)
	for i := range blocks {
		blocks[i] = randItems(r, r.IntN(60), 300)
	}
	roots := make([][Size]byte, len(blocks))
	HashFromByteSlicesMany(roots, blocks)
	if a := testing.AllocsPerRun(10, func() { HashFromByteSlicesMany(roots, blocks) }); a != 0 {
		t.Errorf("HashFromByteSlicesMany: %v allocations", a)
	}
	if a := testing.AllocsPerRun(10, func() { roots[0] = Root(blocks[1]) }); a != 0 {
		t.Errorf("Root: %v allocations", a)
	}
}

func TestManyPanics(t *testing.T) {
	defer func() {
		if s, _ := recover().(string); len(s) < 9 || s[:9] != "sha256x: " {
			t.Errorf("recovered %q", s)
		}
	}()
	HashFromByteSlicesMany(nil, make([][][]byte, 1))
}

// FuzzVerifyProof: any proof is accepted exactly when it is a valid path
// from the leaf to the root (CometBFT's Proof.Verify agrees, for 32-byte
// hashes), never a panic.
func FuzzVerifyProof(f *testing.F) {
	r := rand.New(rand.NewPCG(41, 22))
	items := randItems(r, 21, 40)
	root, proofs := ProofsFromByteSlices(items)
	f.Add(int64(21), int64(5), uint8(5), uint8(0), uint16(0), uint8(0))
	f.Add(int64(21), int64(20), uint8(20), uint8(3), uint16(7), uint8(1))
	f.Fuzz(func(t *testing.T, total, index int64, which, cut uint8, flip uint16, extra uint8) {
		src := proofs[int(which)%len(proofs)]
		p := *src
		p.Total, p.Index = total, index
		p.Aunts = append([][]byte(nil), src.Aunts...)
		if c := int(cut) % (len(p.Aunts) + 1); cut&0x80 != 0 {
			p.Aunts = p.Aunts[:c]
		}
		for range extra % 4 {
			p.Aunts = append(p.Aunts, root)
		}
		if flip != 0 && len(p.Aunts) > 0 {
			k := int(flip) % len(p.Aunts)
			p.Aunts[k] = append([]byte(nil), p.Aunts[k]...)
			p.Aunts[k][int(flip>>8)%Size] ^= 1
		}
		leaf := items[int(which)%len(items)]
		ours, theirs := VerifyProof(&p, root, leaf), p.Verify(root, leaf)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("total %d, index %d, %d aunts: ours %v, CometBFT's %v", p.Total, p.Index, len(p.Aunts), ours, theirs)
		}
		if ours != nil && !errors.Is(ours, ErrMismatch) && !errors.Is(ours, ErrMalformed) {
			t.Fatalf("an error neither ErrMismatch nor ErrMalformed: %v", ours)
		}
	})
}

// TestMalformedWhateverLeaf: a proof of no tree (VerifyProof's doc:
// "one wrapping ErrMalformed for a proof of no tree") is ErrMalformed,
// whatever leaf it is checked against; only a well-formed proof may be
// ErrMismatch.
func TestMalformedWhateverLeaf(t *testing.T) {
	items := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	root, proofs := ProofsFromByteSlices(items)
	short := make([]byte, 31)
	for name, mut := range map[string]func(p *cmtmerkle.Proof){
		"total 0":        func(p *cmtmerkle.Proof) { p.Total = 0 },
		"negative index": func(p *cmtmerkle.Proof) { p.Index = -1 },
		"index past":     func(p *cmtmerkle.Proof) { p.Index = 7 },
		"aunt of 31":     func(p *cmtmerkle.Proof) { p.Aunts = [][]byte{short, p.Aunts[1]} },
		"too many aunts": func(p *cmtmerkle.Proof) { p.Aunts = append(p.Aunts, root, root) },
		"too few aunts":  func(p *cmtmerkle.Proof) { p.Aunts = p.Aunts[:1] },
	} {
		p := *proofs[1]
		p.Aunts = append([][]byte(nil), p.Aunts...)
		mut(&p)
		// The right leaf: malformed.
		if err := VerifyProof(&p, root, items[1]); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s, its leaf: %v, want ErrMalformed", name, err)
		}
		// Another leaf: the proof is no more well formed than before.
		if err := VerifyProof(&p, root, []byte("x")); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrMismatch) {
			t.Errorf("%s, another leaf: %v, want ErrMalformed", name, err)
		}
	}
}

// TestMismatchNamesRoots: a mismatch names both sides of what differed, as
// merkle's and translog's verifiers do, so that a log line says which root
// a peer claimed and which the proof leads to.
func TestMismatchNamesRoots(t *testing.T) {
	items := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	root, proofs := ProofsFromByteSlices(items)
	other := LeafHash([]byte("other root"))
	err := VerifyProof(proofs[2], other[:], items[2])
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("another root: %v, want ErrMismatch", err)
	}
	for _, want := range []string{hex.EncodeToString(root), hex.EncodeToString(other[:]), "item 2 of 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("another root: %q does not name %s", err, want)
		}
	}
	x := LeafHash([]byte("x"))
	err = VerifyProof(proofs[2], root, []byte("x"))
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("another leaf: %v, want ErrMismatch", err)
	}
	for _, want := range []string{hex.EncodeToString(proofs[2].LeafHash), hex.EncodeToString(x[:])} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("another leaf: %q does not name %s", err, want)
		}
	}
}

// TestManyScratchBounded: HashFromByteSlicesMany's working memory (its
// doc: "Blocks are taken in groups of about 64Ki items, so that the working
// memory stays bounded") is of at most groupItems hashes a buffer, or of
// the largest block where that is larger, however many blocks there are:
// the empty blocks of a chain, one-transaction blocks. A group took any
// number of empty blocks, and a hash of scratch for each: 2^20 empty
// blocks kept 80 MiB in the pool.
func TestManyScratchBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 23))
	one := randItems(r, 1<<18, 8)
	for _, tc := range []struct {
		name   string
		blocks [][][]byte
		bound  int // the largest block
	}{
		{"2^20 empty blocks", make([][][]byte, 1<<20), 0},
		{"2^18 blocks of one item", func() [][][]byte {
			b := make([][][]byte, len(one))
			for i := range b {
				b[i] = one[i : i+1]
			}
			return b
		}(), 1},
		{"empty blocks and a large one", append(append(make([][][]byte, 1<<17), one[:groupItems+100]), make([][][]byte, 1<<17)...), groupItems + 100},
	} {
		sc := new(manyScratch)
		roots := make([][Size]byte, len(tc.blocks))
		sc.many(roots, tc.blocks)
		for i, b := range tc.blocks {
			if roots[i] != refRoot(b) {
				t.Fatalf("%s: block %d: wrong root", tc.name, i)
			}
		}
		limit := max(groupItems, tc.bound+1)
		limit += limit / 4 // grow's headroom
		if cap(sc.a) > limit || cap(sc.b) > limit || cap(sc.msgs) > limit {
			t.Errorf("%s: scratch of %d, %d and %d hashes and items, more than %d", tc.name, cap(sc.a), cap(sc.b), cap(sc.msgs), limit)
		}
	}
}
