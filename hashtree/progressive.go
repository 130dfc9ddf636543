package hashtree

import (
	"fmt"

	"github.com/sha256x/sha256x"
)

// Progressive merkleization (EIP-7916 ProgressiveList and
// ProgressiveBitList, EIP-7495 ProgressiveContainer), as consensus-specs
// v1.7.0-alpha.13 defines it (ssz/simple-serialize.md,
// merkleize_progressive): the chunks are cut into subtrees of 1, 4, 16,
// 64, ... leaves, each merkleized as a binary tree of that many (padded),
// and the root is hash(subtree 0, hash(subtree 1, hash(..., zero chunk))):
// no limit, and a short list costs few hashes.

// MerkleizeProgressive returns the specs' merkleize_progressive(chunks):
// the zero chunk for no chunks. Each subtree is hashed a level at a time
// (Merkleize); it allocates nothing once the pool has grown.
func MerkleizeProgressive(chunks [][sha256x.Size]byte) [sha256x.Size]byte {
	var subs [33][sha256x.Size]byte // 4^32 chunks is past any memory
	k := 0
	for a, size := 0, 1; a < len(chunks); a, size = a+size, 4*size {
		subs[k] = Merkleize(chunks[a:min(len(chunks), a+size)], uint64(size))
		k++
	}
	var r [sha256x.Size]byte
	for i := k - 1; i >= 0; i-- {
		r = pair(subs[i], r)
	}
	return r
}

// ProgressiveListRoot returns the root of a ProgressiveList of composite
// elements whose roots are roots: MixInLength(MerkleizeProgressive(roots),
// len(roots)).
func ProgressiveListRoot(roots [][sha256x.Size]byte) [sha256x.Size]byte {
	return MixInLength(MerkleizeProgressive(roots), uint64(len(roots)))
}

// ProgressiveBasicListRoot returns the root of values as a
// ProgressiveList[T]: the values packed into chunks, merkleized
// progressively, the number of values mixed in.
func ProgressiveBasicListRoot[T Basic](values []T) [sha256x.Size]byte {
	return MixInLength(MerkleizeProgressive(packChunks(values)), uint64(len(values)))
}

// packChunks returns the values packed little-endian into chunks.
func packChunks[T Basic](values []T) [][sha256x.Size]byte {
	size := sizeOf[T]()
	chunks := make([][sha256x.Size]byte, chunksFor(uint64(len(values)), size))
	b := nodeBytes(chunks)
	for i, v := range values {
		store(b[i*size:], v)
	}
	return chunks
}

// ProgressiveBitlistRoot returns the root of a ProgressiveBitList from its
// serialization (the bits, then a delimiting 1 bit): the bits packed,
// merkleized progressively, their number mixed in. A serialization without
// the delimiting bit (empty, or a zero last byte) is an error (ErrBitlist).
func ProgressiveBitlistRoot(serialized []byte) ([sha256x.Size]byte, error) {
	if len(serialized) == 0 || serialized[len(serialized)-1] == 0 {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: the last byte is zero or missing", ErrBitlist)
	}
	last := serialized[len(serialized)-1]
	top := 7
	for last>>top == 0 {
		top--
	}
	n := uint64(len(serialized)-1)*8 + uint64(top)
	chunks := make([][sha256x.Size]byte, (n+255)/256)
	b := nodeBytes(chunks)
	copy(b, serialized[:len(serialized)-1])
	if top > 0 {
		b[len(serialized)-1] = last &^ (1 << top)
	}
	return MixInLength(MerkleizeProgressive(chunks), n), nil
}

// ProgressiveContainerRoot returns the root of a ProgressiveContainer
// whose active_fields are active (at most 256, the last true) and whose
// fields' roots, in order, are fields (one for each true in active): each
// root at its field's index, zero chunks at the inactive ones, merkleized
// progressively, then mix_in_active_fields: hashed with active packed as
// bits into a chunk. It panics if the shapes do not match.
func ProgressiveContainerRoot(fields [][sha256x.Size]byte, active []bool) [sha256x.Size]byte {
	if len(active) == 0 || len(active) > 256 || !active[len(active)-1] {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainerRoot of %d active fields, not 1..256 ending in an active one", len(active)))
	}
	chunks := make([][sha256x.Size]byte, len(active))
	var bits [sha256x.Size]byte
	k := 0
	for i, a := range active {
		if !a {
			continue
		}
		if k == len(fields) {
			panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainerRoot of %d fields, fewer than the active ones", len(fields)))
		}
		chunks[i] = fields[k]
		bits[i/8] |= 1 << (i % 8)
		k++
	}
	if k != len(fields) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainerRoot of %d fields for %d active ones", len(fields), k))
	}
	return pair(MerkleizeProgressive(chunks), bits)
}

// ProgressiveList is a ProgressiveList of composite elements (their roots
// the chunks) that changes: roots set, appended and truncated, its root
// ProgressiveListRoot of the current roots recomputed from what changed.
// Each subtree of 1, 4, 16, ... leaves is a tree as Chunks keeps it (its
// dirty nodes rehashed a level at a time, pages that copies share), and
// the spine above them is rehashed from the highest changed subtree down.
// It shares Chunks' rules for concurrent use and panics.
type ProgressiveList struct {
	subs  []tree
	n     int
	root  [sha256x.Size]byte
	fresh bool
}

// NewProgressiveList returns the progressive list of roots, hashed. roots
// is copied.
func NewProgressiveList(roots [][sha256x.Size]byte) *ProgressiveList {
	l := &ProgressiveList{n: len(roots)}
	for a, d := 0, 0; a < len(roots); a, d = a+1<<d, d+2 {
		l.subs = append(l.subs, newTree(roots[a:min(len(roots), a+1<<d)], d))
	}
	return l
}

// locate returns the subtree of element i and i's index in it.
func locate(i int) (int, int) {
	s, a := 0, 0
	for i >= a+1<<(2*s) {
		a += 1 << (2 * s)
		s++
	}
	return s, i - a
}

// Len returns the number of elements.
func (l *ProgressiveList) Len() uint64 { return uint64(l.n) }

func (l *ProgressiveList) index(op string, i uint64) (int, int) {
	if i >= uint64(l.n) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveList.%s(%d) past the length %d", op, i, l.n))
	}
	return locate(int(i))
}

// Get returns the root of element i. It panics if i >= Len().
func (l *ProgressiveList) Get(i uint64) [sha256x.Size]byte {
	s, j := l.index("Get", i)
	return *l.subs[s].levels[0].At(j)
}

// Set sets the root of element i. It panics if i >= Len().
func (l *ProgressiveList) Set(i uint64, root [sha256x.Size]byte) {
	s, j := l.index("Set", i)
	l.subs[s].set(j, &root)
	l.fresh = false
}

// Append adds an element's root at the end.
func (l *ProgressiveList) Append(root [sha256x.Size]byte) {
	s, _ := locate(l.n)
	if s == len(l.subs) {
		l.subs = append(l.subs, newTree(nil, 2*s))
	}
	l.subs[s].append(&root)
	l.n++
	l.fresh = false
}

// Truncate drops the elements from n on. It panics if n > Len().
func (l *ProgressiveList) Truncate(n uint64) {
	if n > uint64(l.n) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveList.Truncate(%d) past the length %d", n, l.n))
	}
	if int(n) == l.n {
		return
	}
	k := 0 // the subtrees kept
	if n > 0 {
		s, j := locate(int(n) - 1)
		l.subs[s].truncate(j + 1)
		k = s + 1
	}
	clear(l.subs[k:])
	l.subs = l.subs[:k]
	l.n = int(n)
	l.fresh = false
}

// Root returns the root, after rehashing what changed since the last.
func (l *ProgressiveList) Root() [sha256x.Size]byte {
	if !l.fresh {
		var r [sha256x.Size]byte
		for s := len(l.subs) - 1; s >= 0; s-- {
			r = pair(l.subs[s].root(), r)
		}
		l.root, l.fresh = MixInLength(r, uint64(l.n)), true
	}
	return l.root
}

// Copy returns a copy of l that shares its pages; l and the copy then
// change apart. Copy writes to l.
func (l *ProgressiveList) Copy() *ProgressiveList {
	d := *l
	d.subs = make([]tree, len(l.subs))
	for s := range l.subs {
		d.subs[s] = l.subs[s].share()
	}
	return &d
}
