package merkle

// Reference trees, one node at a time with crypto/sha256, each written from
// its scheme's own definition and not from this package's level-by-level
// reduction: they are what the package is tested against, and the "crypto"
// side of the benchmarks.

import (
	"crypto/sha256"
)

func sha(parts ...[]byte) [Size]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var d [Size]byte
	h.Sum(d[:0])
	return d
}

// RFC 6962 section 2.1: MTH({}) = SHA-256(), MTH({d0}) = SHA-256(0x00 ||
// d0), MTH(D[n]) = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n])) for the
// largest power of two k < n.
func refRFC6962(d [][]byte) [Size]byte {
	switch len(d) {
	case 0:
		return sha()
	case 1:
		return sha([]byte{0}, d[0])
	}
	k := splitRFC(len(d))
	l, r := refRFC6962(d[:k]), refRFC6962(d[k:])
	return sha([]byte{1}, l[:], r[:])
}

func splitRFC(n int) int {
	k := 1
	for k*2 < n {
		k *= 2
	}
	return k
}

// RFC 6962 section 2.1.1: PATH(m, D[n]), the audit path of leaf m.
func refRFC6962Path(m int, d [][]byte) [][Size]byte {
	if len(d) <= 1 {
		return nil
	}
	k := splitRFC(len(d))
	if m < k {
		return append(refRFC6962Path(m, d[:k]), refRFC6962(d[k:]))
	}
	return append(refRFC6962Path(m-k, d[k:]), refRFC6962(d[:k]))
}

// Bitcoin Core's ComputeMerkleRoot: pair up, the odd last hash with itself,
// SHA-256d, until one is left; the zero hash for none.
func refBitcoin(txids [][Size]byte) [Size]byte {
	if len(txids) == 0 {
		return [Size]byte{}
	}
	level := append([][Size]byte(nil), txids...)
	for len(level) > 1 {
		if len(level)%2 == 1 {
			level = append(level, level[len(level)-1])
		}
		next := level[:0:0]
		for i := 0; i < len(level); i += 2 {
			h := sha(level[i][:], level[i+1][:])
			next = append(next, sha(h[:]))
		}
		level = next
	}
	return level[0]
}

// SSZ merkleize (consensus-specs, ssz/simple-serialize.md) without a limit:
// pad the chunks with zero chunks to the next power of two, then hash pairs
// up to one; the zero chunk for none.
func refBinary(chunks [][Size]byte) [Size]byte {
	n := 1
	for n < len(chunks) {
		n *= 2
	}
	level := make([][Size]byte, n)
	copy(level, chunks)
	for len(level) > 1 {
		for i := range len(level) / 2 {
			level[i] = sha(level[2*i][:], level[2*i+1][:])
		}
		level = level[:len(level)/2]
	}
	return level[0]
}

// A transcription of agave's ledger/src/shred/merkle_tree.rs: the tree laid
// out flat, leaves first; make_merkle_tree's successors loop, join_nodes'
// 20-byte children, make_merkle_proof's clamped sibling index.
var (
	solanaLeafPrefix = []byte("\x00SOLANA_MERKLE_SHREDS_LEAF")
	solanaNodePrefix = []byte("\x01SOLANA_MERKLE_SHREDS_NODE")
)

func agaveTree(leaves [][Size]byte) [][Size]byte {
	nodes := append([][Size]byte(nil), leaves...)
	if len(leaves) <= 1 {
		return nodes
	}
	for size := len(leaves); ; size = (size + 1) >> 1 {
		offset := len(nodes) - size
		for index := offset; index < offset+size; index += 2 {
			other := min(index+1, offset+size-1)
			nodes = append(nodes, sha(solanaNodePrefix, nodes[index][:20], nodes[other][:20]))
		}
		if size <= 2 {
			break
		}
	}
	return nodes
}

// agaveTreeSize is get_merkle_tree_size.
func agaveTreeSize(n int) int {
	total := 0
	for k := n; ; k = (k + 1) >> 1 {
		total += k
		if k <= 1 {
			break
		}
	}
	return total
}

func agaveProof(index, size int, tree [][Size]byte) [][]byte {
	var out [][]byte
	offset := 0
	for size > 1 {
		out = append(out, tree[offset+min(index^1, size-1)][:20])
		offset += size
		size = (size + 1) >> 1
		index >>= 1
	}
	return out
}

// agaveRoot is get_merkle_root: fold the proof by the index's parity; the
// index must be used up.
func agaveRoot(index int, node [Size]byte, proof [][]byte) ([Size]byte, bool) {
	for _, other := range proof {
		if index%2 == 0 {
			node = sha(solanaNodePrefix, node[:20], other)
		} else {
			node = sha(solanaNodePrefix, other, node[:20])
		}
		index >>= 1
	}
	return node, index == 0
}
