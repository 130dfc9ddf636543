// Package sha256x hashes many independent messages at once with SHA-256.
//
// Each message gets its own lane of a SIMD kernel or its own interleaved
// SHA-NI / ARMv8 SHA2 stream, so a batch of messages hashes several times
// faster than the same messages fed one after another to crypto/sha256.
// Every digest is bit-identical to crypto/sha256.
//
// The kernel is chosen once at init from the CPU's features (see Kernel and
// Kernels). The environment variable SHA256X_KERNEL=<name> forces one kernel
// for every call; the build tag purego builds no assembly, and the build tag
// sha256x_<name> pins one kernel without detection. A forced or pinned kernel
// that this CPU cannot run panics at init with a message that starts
// "sha256x:" and names the missing CPU feature.
//
// All functions are safe for concurrent use and, after warm-up, allocate
// nothing.
package sha256x

const (
	// Size is the size of a SHA-256 digest in bytes.
	Size = 32
	// BlockSize is the block size of SHA-256 in bytes.
	BlockSize = 64
)

// HashMany sets out[i] to the SHA-256 digest of msgs[i] for every i in
// msgs. Messages may have any lengths, may be nil or empty, and may overlap
// one another in memory. Entries of out past len(msgs) are left alone.
//
// HashMany panics with a message starting "sha256x:" if len(out) < len(msgs),
// or if the digests in out[:len(msgs)] overlap any message in memory (the
// kernels read messages while they write digests).
func HashMany(out [][Size]byte, msgs [][]byte) {
	hashMany(out, nil, msgs)
}

// HashManyPrefixed sets out[i] to the SHA-256 digest of prefix || msgs[i]
// for every i in msgs, without building the concatenations: the prefix's
// whole blocks are hashed once for the batch, blocks lying wholly inside a
// message are read in place, and only the block that straddles prefix and
// message and the final padded blocks are copied into a small scratch area.
//
// It panics like HashMany, and also if out[:len(msgs)] overlaps prefix.
func HashManyPrefixed(out [][Size]byte, prefix []byte, msgs [][]byte) {
	hashMany(out, prefix, msgs)
}

// Sum256 returns the SHA-256 digest of msg, computed on the fastest
// single-stream path of this CPU.
func Sum256(msg []byte) [Size]byte {
	return active.sum256(msg)
}

// Kernel reports what the dispatcher chose on this CPU: one kernel name, or a
// plan such as "avx512+shani" when wide lanes hand their last messages to a
// narrower kernel.
func Kernel() string {
	return active.name
}

// Kernels lists every kernel this CPU can run, in the order the dispatcher
// prefers them when forced by name. The names are "generic" (portable Go),
// "stdlib" (crypto/sha256, one message after another), and, where the CPU
// has the features, "shani", "avx2", "avx512" (amd64), "neon" and "sha2"
// (arm64).
func Kernels() []string {
	var names []string
	for _, k := range kernels {
		if k.missing == "" {
			names = append(names, k.name)
		}
	}
	return names
}

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

// maxJoin bounds len(Prefix) + len(Infix) + 2*Width: a node is staged
// whole, in at most three blocks.
const maxJoin = 3*BlockSize - 9

// HashLevel hashes a whole level of a Merkle tree in one batched call: it
// sets out[i] to the join of nodes[2i] and nodes[2i+1] for every pair of
// nodes. Children are read where they are; nothing is concatenated first.
// out may be nodes[:len(nodes)/2], reducing a level in place; otherwise it
// must not overlap nodes.
//
// HashLevel panics with a message starting "sha256x:" if len(nodes) is odd,
// if len(out) < len(nodes)/2, if Width is not in 0..32, if
// len(Prefix)+len(Infix)+2*Width exceeds 183 bytes, or if out overlaps
// nodes other than in place.
func (j Join) HashLevel(out, nodes [][Size]byte) {
	joinLevel(len(j.Prefix)|len(j.Infix) == 0 && j.Width|Size == Size, &j, out, nodes)
}
