package sha256x

import (
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// A Join is how a Merkle tree makes an interior node from its two children:
// SHA-256(Prefix || left[:Width] || Infix || right[:Width]). The zero Join is
// SHA-256(left || right), the tree of Ethereum's SSZ and of gohashtree;
// Certificate Transparency (RFC 6962) has Prefix 0x01; Solana's shred tree
// has a 26-byte Prefix and Width 20; Bitcoin's transaction tree is
// Join{Double: true}.
type Join struct {
	Prefix []byte // before the left child
	Infix  []byte // between the children
	Width  int    // bytes of each child that go in, 1 to 32; 0 means 32
	// Double makes the node SHA-256 of that digest (SHA-256d), as Bitcoin's
	// transaction tree, in the same pass.
	Double bool
}

// HashLevel hashes a whole level of a Merkle tree in one batched call: it
// sets out[i] to the join of nodes[2i] and nodes[2i+1] for every pair of
// nodes. Merkle pairs (no Prefix or Infix, Width 32) are read in place;
// other joins are staged in a small scratch area. out may be
// nodes[:len(nodes)/2], reducing a level in place; otherwise it must not
// overlap nodes.
//
// HashLevel panics with a message starting "sha256x:" if len(nodes) is odd,
// if len(out) < len(nodes)/2, if Width is not in 0..32, if
// len(Prefix)+len(Infix)+2*Width exceeds 183 bytes, if out overlaps
// nodes other than in place, or if out[:len(nodes)/2] overlaps Prefix or
// Infix.
func (j Join) HashLevel(out, nodes [][Size]byte) {
	sched.HashLevel(plan.Active, len(j.Prefix)|len(j.Infix) == 0 && j.Width|Size == Size, (*sched.Join)(&j), out, nodes)
}
