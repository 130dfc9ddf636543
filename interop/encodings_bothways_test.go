package interop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
	dynssz "github.com/pk910/dynamic-ssz"
	"github.com/sha256x/sha256x/cometadapt"
	"github.com/sha256x/sha256x/dirhash"
	sszx "github.com/sha256x/sha256x/hashtree"
	xdirhash "golang.org/x/mod/sumdb/dirhash"
)

// TestProgressiveBitlistEncoding: a ProgressiveBitlist's Bytes, in a
// container, unmarshal with dynamic-ssz to the same bits, whose root
// dynamic-ssz computes as ours; dynamic-ssz's serialization of random bits
// parses with NewProgressiveBitlist (and BitlistRoot and
// ProgressiveBitlistRoot) to the same bits and root. Bytes that are no
// bitlist (no delimiter bit) are rejected by ours.
func TestProgressiveBitlistEncoding(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(77, 20))
	for _, n := range []int{0, 1, 7, 8, 9, 255, 256, 257, 511, 1024, 1279, 1280, 1281, 3000, 6000} {
		for range 3 {
			bits := make([]bool, n)
			for i := range bits {
				bits[i] = r.IntN(1+r.IntN(5)) == 0
			}
			// Ours to dynamic-ssz: built bit by bit, serialized by Bytes.
			l, err := sszx.NewProgressiveBitlist([]byte{1})
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bits {
				l.Append(b)
			}
			ours := l.Bytes()
			enc := append([]byte{4, 0, 0, 0}, ours...) // the container's one offset
			var back progBits
			if err := d.UnmarshalSSZ(&back, enc); err != nil {
				t.Fatalf("%d bits: dynamic-ssz cannot read our Bytes: %v", n, err)
			}
			if !bytes.Equal(back.X, bitsBytes(bits)) {
				t.Fatalf("%d bits: dynamic-ssz reads our Bytes as other bits", n)
			}
			if got, want := oneField(t, l.Root()), dynRoot(t, d, &back); got != want {
				t.Fatalf("%d bits: root %x, dynamic-ssz %x", n, got, want)
			}
			// dynamic-ssz's to ours.
			theirs, err := d.MarshalSSZ(&progBits{bitsBytes(bits)})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(theirs, enc) {
				t.Fatalf("%d bits: dynamic-ssz serializes otherwise", n)
			}
			pl, err := sszx.NewProgressiveBitlist(theirs[4:])
			if err != nil {
				t.Fatalf("%d bits: we cannot read dynamic-ssz's serialization: %v", n, err)
			}
			if pl.Len() != uint64(n) || !bytes.Equal(pl.Bytes(), theirs[4:]) || pl.Root() != l.Root() {
				t.Fatalf("%d bits: we read dynamic-ssz's serialization as other bits", n)
			}
			for i := range bits {
				if pl.Get(uint64(i)) != bits[i] {
					t.Fatalf("%d bits: bit %d differs", n, i)
				}
			}
			pr, err := sszx.ProgressiveBitlistRoot(theirs[4:])
			if err != nil || pr != l.Root() {
				t.Fatalf("%d bits: ProgressiveBitlistRoot %x (%v)", n, pr, err)
			}
		}
	}
	for _, bad := range [][]byte{nil, {0}, {1, 0}, {0xff, 0}, make([]byte, 40)} {
		if _, err := sszx.NewProgressiveBitlist(bad); !errors.Is(err, sszx.ErrBitlist) {
			t.Errorf("%x: NewProgressiveBitlist %v", bad, err)
		}
		if _, err := sszx.ProgressiveBitlistRoot(bad); !errors.Is(err, sszx.ErrBitlist) {
			t.Errorf("%x: ProgressiveBitlistRoot %v", bad, err)
		}
		var x progBits
		if err := d.UnmarshalSSZ(&x, append([]byte{4, 0, 0, 0}, bad...)); err == nil {
			t.Logf("%x: dynamic-ssz reads it (%x)", bad, x.X)
		}
	}
}

// TestCometLeafHashes: VerifyLeafHash accepts CometBFT's proofs, as
// CometBFT's Verify does, and rejects what Verify rejects: another leaf
// hash, a root flipped; aunts or leaf hashes of other lengths are
// ErrMalformed.
func TestCometLeafHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 21))
	for _, n := range []int{1, 2, 3, 4, 5, 9, 31, 32, 33, 100, 1000} {
		items := cometItems(r, n, 100)
		root, proofs := cmtmerkle.ProofsFromByteSlices(items)
		for range 30 {
			i := r.IntN(n)
			cp := proofs[i]
			if err := cometadapt.VerifyLeafHash(cp, root); err != nil {
				t.Fatalf("%d items, item %d: we reject CometBFT's proof: %v", n, i, err)
			}
			lh := cometadapt.LeafHash(items[i])
			if !bytes.Equal(lh[:], cp.LeafHash) {
				t.Fatalf("%d items, item %d: LeafHash differs from CometBFT's", n, i)
			}
			bad := *cp
			bad.LeafHash = bytes.Clone(cp.LeafHash)
			bad.LeafHash[r.IntN(32)] ^= 1
			if err := cometadapt.VerifyLeafHash(&bad, root); !errors.Is(err, cometadapt.ErrMismatch) {
				t.Fatalf("%d items, item %d: a flipped leaf hash: %v", n, i, err)
			}
			br := bytes.Clone(root)
			br[r.IntN(32)] ^= 1
			if err := cometadapt.VerifyLeafHash(cp, br); !errors.Is(err, cometadapt.ErrMismatch) || cp.Verify(br, items[i]) == nil {
				t.Fatalf("%d items, item %d: a flipped root: %v", n, i, err)
			}
			bad = *cp
			bad.LeafHash = cp.LeafHash[:31]
			if err := cometadapt.VerifyLeafHash(&bad, root); !errors.Is(err, cometadapt.ErrMalformed) {
				t.Fatalf("%d items, item %d: a 31-byte leaf hash: %v", n, i, err)
			}
			if len(cp.Aunts) > 0 {
				bad = *cp
				bad.Aunts = append([][]byte(nil), cp.Aunts...)
				k := r.IntN(len(bad.Aunts))
				bad.Aunts[k] = append(bytes.Clone(bad.Aunts[k]), 0)
				if err := cometadapt.VerifyLeafHash(&bad, root); !errors.Is(err, cometadapt.ErrMalformed) || bad.Verify(root, items[i]) == nil {
					t.Fatalf("%d items, item %d: a 33-byte aunt: %v", n, i, err)
				}
			}
		}
	}
}

// TestDirFilesXMod: DirFiles lists what x/mod's DirFiles lists, or fails
// as it fails, on random trees with links, hidden files, empty
// directories and a name with a newline, and on a few module trees of the
// cache; Hash1 of either list, opened from the directory, is x/mod's.
func TestDirFilesXMod(t *testing.T) {
	for seed := range uint64(8) {
		dir := t.TempDir()
		randomTree(t, dir, 100+seed, 1+int(seed)*15, 3000)
		switch seed {
		case 1:
			os.Symlink("f0", filepath.Join(dir, "link-to-file"))
		case 2:
			os.Symlink("d0", filepath.Join(dir, "zlink"))
		case 3:
			os.Symlink("nowhere", filepath.Join(dir, "dangling"))
		case 4:
			os.WriteFile(filepath.Join(dir, "new\nline"), []byte("x"), 0o644)
		case 5:
			os.MkdirAll(filepath.Join(dir, "empty", "deeper"), 0o755)
			os.WriteFile(filepath.Join(dir, ".hidden"), []byte("h"), 0o644)
		case 6:
			os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
			os.WriteFile(filepath.Join(dir, ".git", "objects", "x"), []byte("g"), 0o644)
		}
		for _, prefix := range []string{"", "example.com/m@v1.0.0", "p/"} {
			want, werr := xdirhash.DirFiles(dir, prefix)
			got, gerr := dirhash.DirFiles(dir, prefix)
			if fmt.Sprint(got) != fmt.Sprint(want) || (gerr == nil) != (werr == nil) {
				t.Fatalf("seed %d, prefix %q: DirFiles %q (%v), x/mod %q (%v)", seed, prefix, got, gerr, want, werr)
			}
			if gerr != nil {
				continue
			}
			open := func(name string) (io.ReadCloser, error) {
				return os.Open(filepath.Join(dir, strings.TrimPrefix(name, prefix)))
			}
			h1, err1 := dirhash.Hash1(got, open)
			h2, err2 := xdirhash.Hash1(want, open)
			if h1 != h2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("seed %d, prefix %q: Hash1 %s (%v), x/mod %s (%v)", seed, prefix, h1, err1, h2, err2)
			}
		}
	}
	root := modCache(t)
	for _, m := range []string{"golang.org/x/mod@v0.43.0", "github.com/ferranbt/fastssz@v0.1.4", "github.com/btcsuite/btcd@v0.24.2"} {
		d := filepath.Join(root, m)
		if _, err := os.Stat(d); err != nil {
			continue
		}
		want, werr := xdirhash.DirFiles(d, m)
		got, gerr := dirhash.DirFiles(d, m)
		if !slices.Equal(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%s: DirFiles (%d names, %v) differs from x/mod's (%d, %v)", m, len(got), gerr, len(want), werr)
		}
	}
}
