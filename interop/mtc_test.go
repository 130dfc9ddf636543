package interop

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/merkle/translog"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
)

// Merkle Tree Certificates' subtree proofs against transparency-dev/merkle.
//
// Its repository carries JSON vectors for subtree inclusion and subtree
// consistency proofs (testdata/subtreeinclusion, testdata/subtreeconsistency,
// most of them hostile), but no version of its module served by the Go
// module proxy ships them (v0.0.2, the latest, predates subtree proofs), and
// they are not ours to commit. TestMTCVectors reads them from the testdata
// directory named by SHA256X_MTC_VECTORS (a checkout's testdata, or a module
// version's once one ships them: .ci/run looks), and skips without it.

type subtreeInclusionVector struct {
	LeafIdx, Start, End uint64
	Root, LeafHash      []byte
	Proof               [][]byte
	Desc                string
	WantErr             bool
}

type subtreeConsistencyVector struct {
	Start, End, Size uint64
	Root1, Root2     []byte
	Proof            [][]byte
	Desc             string
	WantErr          bool
}

// hash32 converts a vector's hash. Our API takes [32]byte: a hash of
// another length (the vectors' "don't care" placeholders, and garbage added
// to a hash) cannot reach it. A leaf hash of another length is malformed
// input, rejected (as transparency-dev rejects it) before any check; a root
// or proof hash stands in by SHA-256 of a label and its bytes, a 32-byte
// value that no node of any tree has, equal for equal bytes. So a vector
// whose verdict does not depend on the value (a placeholder) is judged as
// it says, and one that wants the garbage rejected still is, by the
// mismatch.
func hash32(b []byte) [translog.Size]byte {
	if len(b) != translog.Size {
		return sha256.Sum256(append([]byte("sha256x interop: not a hash: "), b...))
	}
	return [translog.Size]byte(b)
}

func proof32(p [][]byte) [][translog.Size]byte {
	out := make([][translog.Size]byte, len(p))
	for i, h := range p {
		out[i] = hash32(h)
	}
	return out
}

func judgeInclusion(v subtreeInclusionVector) error {
	if len(v.LeafHash) != translog.Size {
		return errors.New("a leaf hash of " + strconv.Itoa(len(v.LeafHash)) + " bytes")
	}
	return translog.VerifySubtreeInclusion(v.LeafIdx, v.Start, v.End, hash32(v.LeafHash), proof32(v.Proof), hash32(v.Root))
}

func judgeConsistency(v subtreeConsistencyVector) error {
	return translog.VerifySubtreeConsistency(v.Start, v.End, v.Size, hash32(v.Root1), hash32(v.Root2), proof32(v.Proof))
}

func TestMTCVectors(t *testing.T) {
	dir := os.Getenv("SHA256X_MTC_VECTORS")
	if dir == "" {
		t.Skip("SHA256X_MTC_VECTORS is not set: no transparency-dev/merkle testdata to read")
	}
	counts := map[string][2]int{}
	for _, kind := range []string{"subtreeinclusion", "subtreeconsistency"} {
		err := filepath.WalkDir(filepath.Join(dir, kind), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var got error
			var wantErr bool
			if kind == "subtreeinclusion" {
				var v subtreeInclusionVector
				if err := json.Unmarshal(data, &v); err != nil {
					return err
				}
				got, wantErr = judgeInclusion(v), v.WantErr
			} else {
				var v subtreeConsistencyVector
				if err := json.Unmarshal(data, &v); err != nil {
					return err
				}
				got, wantErr = judgeConsistency(v), v.WantErr
			}
			if wantErr != (got != nil) {
				t.Errorf("%s: want error %v, got %v", path, wantErr, got)
			}
			c := counts[kind]
			if wantErr {
				c[1]++
			} else {
				c[0]++
			}
			counts[kind] = c
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if c := counts[kind]; c[0] == 0 || c[1] == 0 {
			t.Fatalf("%s: %d valid and %d hostile vectors: not transparency-dev's testdata", kind, c[0], c[1])
		}
		t.Logf("%s: %d valid vectors accepted, %d hostile ones rejected", kind, counts[kind][0], counts[kind][1])
	}
}

// TestMTCAgainstTransparencyDev: the subtree proofs that transparency-dev's
// served version can check, it accepts, and its proofs ours: a subtree's
// inclusion proof is its tree's inclusion proof, the consistency proof of
// a subtree [0, end) RFC 9162's from size end.
func TestMTCAgainstTransparencyDev(t *testing.T) {
	r := rand.New(rand.NewPCG(6962, 41))
	const n = 300
	var store translog.NodeStore
	var lg translog.Range
	ref := testonly.New(rfc6962.DefaultHasher)
	entries := make([][]byte, n)
	for i := range entries {
		entries[i] = entry(r, i)
		ref.AppendData(entries[i])
	}
	lg.AppendEntries(entries, store.Visit)
	for end := uint64(1); end <= n; end += 1 + r.Uint64N(7) {
		for start := uint64(0); start < end; start++ {
			if translog.CheckSubtree(start, end) != nil {
				continue
			}
			sub, err := translog.SubtreeRoot(start, end, &store)
			if err != nil {
				t.Fatal(err)
			}
			// The subtree's own tree in transparency-dev's: its root and
			// proofs.
			own := testonly.New(rfc6962.DefaultHasher)
			for _, e := range entries[start:end] {
				own.AppendData(e)
			}
			if !slices.Equal(own.Hash(), sub[:]) {
				t.Fatalf("[%d, %d): root differs", start, end)
			}
			i := start + r.Uint64N(end-start)
			p, err := translog.SubtreeInclusionProof(nil, i, start, end, &store)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := own.InclusionProof(i-start, end-start)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(mtcFlat(p), slices.Concat(theirs...)) {
				t.Fatalf("leaf %d of [%d, %d): inclusion proofs differ", i, start, end)
			}
			if err := proof.VerifyInclusion(rfc6962.DefaultHasher, i-start, end-start, ref.LeafHash(i), mtcBytes(p), sub[:]); err != nil {
				t.Fatalf("leaf %d of [%d, %d): transparency-dev rejects ours: %v", i, start, end, err)
			}
			if start != 0 {
				continue
			}
			size := end + r.Uint64N(n-end+1)
			c, err := translog.SubtreeConsistencyProof(nil, 0, end, size, &store)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err = ref.ConsistencyProof(end, size)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(mtcFlat(c), slices.Concat(theirs...)) {
				t.Fatalf("[0, %d) in %d: consistency proofs differ", end, size)
			}
			root, _ := translog.TreeRoot(size, &store)
			if err := proof.VerifyConsistency(rfc6962.DefaultHasher, end, size, mtcBytes(c), sub[:], root[:]); err != nil {
				t.Fatalf("[0, %d) in %d: transparency-dev rejects ours: %v", end, size, err)
			}
		}
	}
}

func mtcFlat(p [][translog.Size]byte) []byte { return translog.AppendProof(nil, p) }

func mtcBytes(p [][translog.Size]byte) [][]byte {
	out := make([][]byte, len(p))
	for i := range p {
		out[i] = p[i][:]
	}
	return out
}
