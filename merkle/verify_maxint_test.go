package merkle

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyMaxIntSize: a proof that claims a tree of math.MaxInt leaves
// has a path of 63 nodes where an int has 64 bits (bits.UintSize-1); a path of
// one node, lifted from a tree of two leaves, is malformed, not a proof
// that holds. (The size was halved as (m+1)/2, which overflows at MaxInt
// and ended the walk after one level.)
func TestVerifyMaxIntSize(t *testing.T) {
	want := bits.UintSize - 1
	for name, s := range map[string]Scheme{"RFC6962": RFC6962, "Bitcoin": Bitcoin, "Binary": Binary} {
		leaves := chunks(2)
		tr := s.Build(leaves)
		p := tr.Proof(0)
		p.Size = math.MaxInt
		err := s.Verify(tr.Root(), leaves[0], p)
		if err == nil || errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "which has "+strconv.Itoa(want)) {
			t.Errorf("%s: a 1-node path for leaf 0 of MaxInt leaves: %v, want a path-length error", name, err)
		}
		p.Path = make([][Size]byte, want)
		if err := s.Verify(tr.Root(), leaves[0], p); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: a full-length path for leaf 0 of MaxInt leaves: %v, want ErrMismatch", name, err)
		}
	}
}
