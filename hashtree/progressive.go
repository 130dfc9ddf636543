package hashtree

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/sha256x/sha256x"
)

// Progressive merkleization (EIP-7916 ProgressiveList and
// ProgressiveBitList, EIP-7495 ProgressiveContainer), as consensus-specs
// v1.7.0-alpha.13 defines it (ssz/simple-serialize.md,
// merkleize_progressive): subtrees of 1, 4, 16, 64, ... chunks, each a
// padded binary tree, and the root hash(subtree 0, hash(subtree 1,
// hash(..., zero chunk))): no limit, and a short list costs few hashes.

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
// An empty bitlist has no chunks, as remerkleable and dynamic-ssz hash it.
func ProgressiveBitlistRoot(serialized []byte) ([sha256x.Size]byte, error) {
	chunks, n, err := progressiveBits(serialized)
	if err != nil {
		return [sha256x.Size]byte{}, err
	}
	return MixInLength(MerkleizeProgressive(chunks), n), nil
}

// progressiveBits returns the bits of a serialized bitlist packed into
// ceil(n/256) chunks, without the delimiter, and their number n.
func progressiveBits(serialized []byte) ([][sha256x.Size]byte, uint64, error) {
	n, top, ok := bitlistLen(serialized)
	if !ok {
		return nil, 0, fmt.Errorf("%w: the last byte is zero or missing", ErrBitlist)
	}
	chunks := make([][sha256x.Size]byte, (n+255)/256)
	b := nodeBytes(chunks)
	copy(b, serialized[:(n+7)/8])
	if top > 0 {
		b[n/8] &^= 1 << top
	}
	return chunks, n, nil
}

// ProgressiveContainerRoot returns the root of a ProgressiveContainer
// whose active_fields are active (at most 256, the last true) and whose
// fields' roots, in order, are fields (one for each true in active): each
// root at its field's index, zero chunks at the inactive ones, merkleized
// progressively, then mix_in_active_fields: hashed with active packed as
// bits into a chunk. It panics if the shapes do not match.
func ProgressiveContainerRoot(fields [][sha256x.Size]byte, active []bool) [sha256x.Size]byte {
	chunks, bits := activeChunks("ProgressiveContainerRoot", fields, active)
	return pair(MerkleizeProgressive(chunks), bits)
}

// activeChunks returns ProgressiveContainerRoot's chunks and active packed
// as bits. It panics, naming op, unless active has 1..256 entries, the
// last true, and fields one root for each true.
func activeChunks(op string, fields [][sha256x.Size]byte, active []bool) ([][sha256x.Size]byte, [sha256x.Size]byte) {
	if len(active) == 0 || len(active) > 256 || !active[len(active)-1] {
		panic(fmt.Sprintf("sha256x: hashtree: %s of %d active fields, not 1..256 ending in an active one", op, len(active)))
	}
	chunks := make([][sha256x.Size]byte, len(active))
	var bits [sha256x.Size]byte
	k := 0
	for i, a := range active {
		if !a {
			continue
		}
		if k == len(fields) {
			panic(fmt.Sprintf("sha256x: hashtree: %s of %d fields, fewer than the active ones", op, len(fields)))
		}
		chunks[i] = fields[k]
		bits[i/8] |= 1 << (i % 8)
		k++
	}
	if k != len(fields) {
		panic(fmt.Sprintf("sha256x: hashtree: %s of %d fields for %d active ones", op, len(fields), k))
	}
	return chunks, bits
}

// progressive is the chunks of a progressive merkleization kept to change,
// what the Progressive types share. Subtree s holds chunks (4^s-1)/3 on, up
// to 4^s of them, as a tree of depth 2s kept as Chunks keeps it; spine[s]
// is hash(subtree s, spine[s+1]), the last one's right the zero chunk, and
// spine[0] the root. A change under subtree s stales spine[0..s] alone.
// The zero value holds no chunks.
type progressive struct {
	subs  []tree
	spine [][sha256x.Size]byte
	n     int // chunks
	stale int // spine[:stale] to rehash
}

// newProgressive returns the progressive tree of chunks (copied), hashed.
func newProgressive(chunks [][sha256x.Size]byte) progressive {
	p := progressive{n: len(chunks)}
	for a, d := 0, 0; a < len(chunks); a, d = a+1<<d, d+2 {
		p.subs = append(p.subs, newTree(chunks[a:min(len(chunks), a+1<<d)], d))
	}
	p.spine = make([][sha256x.Size]byte, len(p.subs))
	p.stale = len(p.subs)
	p.root()
	return p
}

// locate returns the subtree of chunk i and i's index in it: subtree s
// starts at (4^s-1)/3, so s is the floor of log4(3i+1).
func locate(i int) (int, int) {
	s := (bits.Len(uint(3*i+1)) - 1) / 2
	return s, i - (1<<(2*s)-1)/3
}

// at returns a pointer to chunk i (below n), to read.
func (p *progressive) at(i int) *[sha256x.Size]byte {
	s, j := locate(i)
	return p.subs[s].levels[0].At(j)
}

// leaf returns a pointer to chunk i (below n), to write in place, and marks
// it dirty.
func (p *progressive) leaf(i int) *[sha256x.Size]byte {
	s, j := locate(i)
	p.stale = max(p.stale, s+1)
	return p.subs[s].leaf(j)
}

// setRange writes chunks at first on (within n), a subtree's stretch at a
// time, as tree.setRange does.
func (p *progressive) setRange(first int, chunks [][sha256x.Size]byte) {
	for len(chunks) > 0 {
		s, j := locate(first)
		m := min(len(chunks), 1<<(2*s)-j) // to the subtree's end
		p.subs[s].setRange(j, chunks[:m])
		p.stale = max(p.stale, s+1)
		first, chunks = first+m, chunks[m:]
	}
}

// append adds chunk c at the end, in a new subtree where the last is full.
func (p *progressive) append(c *[sha256x.Size]byte) {
	s, _ := locate(p.n)
	if s == len(p.subs) {
		p.subs = append(p.subs, newTree(nil, 2*s))
		p.spine = append(p.spine, [sha256x.Size]byte{})
	}
	p.subs[s].append(c)
	p.n++
	p.stale = max(p.stale, s+1)
}

// truncate drops the chunks from n on (n < p.n): the subtrees past chunk
// n-1 whole, and the one that holds it cut.
func (p *progressive) truncate(n int) {
	k := 0 // the subtrees kept
	if n > 0 {
		s, j := locate(n - 1)
		if j+1 < p.subs[s].len() {
			p.subs[s].truncate(j + 1)
		}
		k = s + 1
	}
	clear(p.subs[k:]) // their pages go
	p.subs, p.spine = p.subs[:k], p.spine[:k]
	p.n = n
	p.stale = k // the last kept one's right is now the zero chunk
}

// root rehashes what changed and returns merkleize_progressive of the
// chunks.
func (p *progressive) root() [sha256x.Size]byte {
	for s := p.stale - 1; s >= 0; s-- {
		var right [sha256x.Size]byte
		if s+1 < len(p.spine) {
			right = p.spine[s+1]
		}
		p.spine[s] = pair(p.subs[s].root(), right)
	}
	p.stale = 0
	if len(p.spine) == 0 {
		return [sha256x.Size]byte{}
	}
	return p.spine[0]
}

// compact moves every subtree's levels into arrays of their own.
func (p *progressive) compact() {
	for s := range p.subs {
		p.subs[s].compact()
	}
}

// share returns a copy of p that shares its pages.
func (p *progressive) share() progressive {
	c := *p
	c.subs = make([]tree, len(p.subs))
	for s := range p.subs {
		c.subs[s] = p.subs[s].share()
	}
	c.spine = slices.Clone(p.spine)
	return c
}

// ProgressiveList is a ProgressiveList of composite elements (their roots
// the chunks) that changes: roots set, appended and truncated, its root
// ProgressiveListRoot of the current roots recomputed from what changed.
// Each subtree of 1, 4, 16, ... leaves is a tree as Chunks keeps it, and
// the spine above them is rehashed from the highest changed subtree down.
// The zero value is an empty list. It shares Chunks' rules for concurrent
// use and panics; Set, Get and Root allocate nothing once it owns its
// pages.
type ProgressiveList struct {
	p     progressive
	root  [sha256x.Size]byte
	fresh bool
}

// NewProgressiveList returns the progressive list of roots, hashed. roots
// is copied.
func NewProgressiveList(roots [][sha256x.Size]byte) *ProgressiveList {
	return &ProgressiveList{p: newProgressive(roots)}
}

// Len returns the number of elements.
func (l *ProgressiveList) Len() uint64 { return uint64(l.p.n) }

func (l *ProgressiveList) index(op string, i uint64) int {
	if i >= uint64(l.p.n) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveList.%s(%d) past the length %d", op, i, l.p.n))
	}
	return int(i)
}

// Get returns the root of element i. It panics if i >= Len().
func (l *ProgressiveList) Get(i uint64) [sha256x.Size]byte {
	return *l.p.at(l.index("Get", i))
}

// Set sets the root of element i. It panics if i >= Len().
func (l *ProgressiveList) Set(i uint64, root [sha256x.Size]byte) {
	*l.p.leaf(l.index("Set", i)) = root
	l.fresh = false
}

// SetRange sets the roots of elements first, first+1, ... to roots:
// cheaper than a Set each where most change. It panics if the stretch runs
// past the length.
func (l *ProgressiveList) SetRange(first uint64, roots [][sha256x.Size]byte) {
	if first > uint64(l.p.n) || uint64(len(roots)) > uint64(l.p.n)-first {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveList.SetRange(%d) of %d roots past the length %d", first, len(roots), l.p.n))
	}
	if len(roots) > 0 {
		l.p.setRange(int(first), roots)
		l.fresh = false
	}
}

// Append adds an element's root at the end.
func (l *ProgressiveList) Append(root [sha256x.Size]byte) {
	l.p.append(&root)
	l.fresh = false
}

// Truncate drops the elements from n on. It panics if n > Len().
func (l *ProgressiveList) Truncate(n uint64) {
	if n > uint64(l.p.n) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveList.Truncate(%d) past the length %d", n, l.p.n))
	}
	if int(n) < l.p.n {
		l.p.truncate(int(n))
		l.fresh = false
	}
}

// Root returns the root, after rehashing what changed since the last.
func (l *ProgressiveList) Root() [sha256x.Size]byte {
	if !l.fresh {
		l.root, l.fresh = MixInLength(l.p.root(), uint64(l.p.n)), true
	}
	return l.root
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *ProgressiveList) Copy() *ProgressiveList {
	d := *l
	d.p = l.p.share()
	return &d
}

// Compact moves l's nodes into arrays of their own, as Chunks.Compact does.
func (l *ProgressiveList) Compact() { l.p.compact() }

// ProgressiveBitlist is an EIP-7916 ProgressiveBitList that changes (a
// participation or aggregation bitfield): bits set, appended and truncated,
// its root, ProgressiveBitlistRoot of its serialization, recomputed from the
// chunks that changed. The bits lie packed 256 to a chunk, the chunks as
// ProgressiveList keeps them; a Set that changes no bit dirties nothing.
// The zero value is an empty bitlist. It shares Chunks' copies, rules for
// concurrent use and panics; Set, Get and Root allocate nothing once it
// owns its pages.
type ProgressiveBitlist struct {
	p     progressive
	n     uint64 // bits
	root  [sha256x.Size]byte
	fresh bool
}

// NewProgressiveBitlist returns the progressive bitlist whose SSZ
// serialization is serialized, hashed. A serialization without the
// delimiter (empty, or its last byte zero) is an error (ErrBitlist).
func NewProgressiveBitlist(serialized []byte) (*ProgressiveBitlist, error) {
	chunks, n, err := progressiveBits(serialized)
	if err != nil {
		return nil, err
	}
	return &ProgressiveBitlist{p: newProgressive(chunks), n: n}, nil
}

// Len returns the number of bits.
func (l *ProgressiveBitlist) Len() uint64 { return l.n }

func (l *ProgressiveBitlist) index(op string, i uint64) (int, int, byte) {
	if i >= l.n {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBitlist.%s(%d) past the length %d", op, i, l.n))
	}
	return int(i / 256), int(i % 256 / 8), 1 << (i % 8)
}

// Get returns bit i. It panics if i >= Len().
func (l *ProgressiveBitlist) Get(i uint64) bool {
	c, b, m := l.index("Get", i)
	return l.p.at(c)[b]&m != 0
}

// Set sets bit i to v. It panics if i >= Len().
func (l *ProgressiveBitlist) Set(i uint64, v bool) {
	c, b, m := l.index("Set", i)
	if (l.p.at(c)[b]&m != 0) == v {
		return
	}
	l.p.leaf(c)[b] ^= m
	l.fresh = false
}

// Append adds bit v at the end.
func (l *ProgressiveBitlist) Append(v bool) {
	if l.n%256 == 0 {
		var zero [sha256x.Size]byte
		l.p.append(&zero)
	}
	l.n++
	l.fresh = false
	if v {
		l.Set(l.n-1, true)
	}
}

// Truncate drops the bits from n on. It panics if n > Len().
func (l *ProgressiveBitlist) Truncate(n uint64) {
	if n > l.n {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBitlist.Truncate(%d) past the length %d", n, l.n))
	}
	if n == l.n {
		return
	}
	if c := int((n + 255) / 256); c < l.p.n {
		l.p.truncate(c)
	}
	if n%256 != 0 { // the bits cut from the last chunk, zero again
		c := l.p.leaf(int(n / 256))
		c[n%256/8] &= 1<<(n%8) - 1
		clear(c[n%256/8+1:])
	}
	l.n = n
	l.fresh = false
}

// Root returns the root, after rehashing what changed since the last.
func (l *ProgressiveBitlist) Root() [sha256x.Size]byte {
	if !l.fresh {
		l.root, l.fresh = MixInLength(l.p.root(), l.n), true
	}
	return l.root
}

// Bytes returns the SSZ serialization: the bits, then the delimiting bit.
func (l *ProgressiveBitlist) Bytes() []byte {
	b := make([]byte, l.n/8+1)
	for c, off := 0, 0; off < int((l.n+7)/8); c, off = c+1, off+32 {
		copy(b[off:], l.p.at(c)[:])
	}
	b[l.n/8] |= 1 << (l.n % 8)
	return b
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *ProgressiveBitlist) Copy() *ProgressiveBitlist {
	d := *l
	d.p = l.p.share()
	return &d
}

// Compact moves l's nodes into arrays of their own, as Chunks.Compact does.
func (l *ProgressiveBitlist) Compact() { l.p.compact() }

// ProgressiveContainer is an EIP-7495 ProgressiveContainer whose field
// roots change (its active_fields fixed): fields' roots set by their index
// in active_fields, and its root, ProgressiveContainerRoot, recomputed from
// what changed. Inactive indices hold zero chunks that never change. Make
// one with NewProgressiveContainer: the zero value has no active fields,
// and its Root panics, as ProgressiveContainerRoot does. It shares Chunks'
// copies, rules for concurrent use and panics; Set, Get and Root allocate
// nothing once it owns its pages.
type ProgressiveContainer struct {
	p      progressive
	active [sha256x.Size]byte // active_fields, packed as bits
	root   [sha256x.Size]byte
	fresh  bool
}

// NewProgressiveContainer returns the container whose active_fields are
// active and whose active fields' roots, in order, are fields, hashed. It
// panics as ProgressiveContainerRoot does if the shapes do not match.
func NewProgressiveContainer(fields [][sha256x.Size]byte, active []bool) *ProgressiveContainer {
	chunks, bits := activeChunks("NewProgressiveContainer", fields, active)
	return &ProgressiveContainer{p: newProgressive(chunks), active: bits}
}

// Len returns the length of active_fields: the field indices.
func (c *ProgressiveContainer) Len() int { return c.p.n }

// Active reports whether field index i is active (false past Len()).
func (c *ProgressiveContainer) Active(i int) bool {
	return i >= 0 && i < c.p.n && c.active[i/8]&(1<<(i%8)) != 0
}

func (c *ProgressiveContainer) index(op string, i int) int {
	if !c.Active(i) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainer.%s(%d) of a field not active (active_fields of %d)", op, i, c.p.n))
	}
	return i
}

// Get returns the root of the field at index i. It panics unless field i
// is active.
func (c *ProgressiveContainer) Get(i int) [sha256x.Size]byte {
	return *c.p.at(c.index("Get", i))
}

// Set sets the root of the field at index i (in active_fields). It panics
// unless field i is active: an inactive index's chunk stays zero.
func (c *ProgressiveContainer) Set(i int, root [sha256x.Size]byte) {
	*c.p.leaf(c.index("Set", i)) = root
	c.fresh = false
}

// Root returns the root, after rehashing what changed since the last.
func (c *ProgressiveContainer) Root() [sha256x.Size]byte {
	if c.p.n == 0 {
		panic("sha256x: hashtree: ProgressiveContainer.Root of no active fields (the zero value; make one with NewProgressiveContainer)")
	}
	if !c.fresh {
		c.root, c.fresh = pair(c.p.root(), c.active), true
	}
	return c.root
}

// Copy returns a copy of c that shares its pages, as Chunks.Copy does.
func (c *ProgressiveContainer) Copy() *ProgressiveContainer {
	d := *c
	d.p = c.p.share()
	return &d
}

// Compact moves c's nodes into arrays of their own, as Chunks.Compact does.
func (c *ProgressiveContainer) Compact() { c.p.compact() }

// Generalized indices: consensus-specs v1.7.0-alpha.13 has none for the
// progressive types (ssz/merkle-proofs.md), so they follow the tree of
// merkleize_progressive, as EIPs 7916 and 7495 draw it and remerkleable
// numbers it (chunk_to_gindex): the length or active_fields at gindex 3,
// the chunks' root at 2, spine node s at 3*2^s-1, subtree s its left
// child, chunk j of it at (3*2^(s+1)-2)*4^s + j. The spine ends in a zero
// chunk, a leaf.

// maxProgressiveChunk is the first chunk whose gindex needs more than 64
// bits: subtree 21's first, (4^21-1)/3.
const maxProgressiveChunk = (1<<42 - 1) / 3

// ProgressiveGindex returns the generalized index of chunk i of a
// progressive list, bitlist or container: element i of a ProgressiveList of
// composite elements (of basic ones, values 32i/size on), field i of a
// ProgressiveContainer, bits 256i to 256i+255 of a ProgressiveBitList. The
// length does not change it. It panics if it needs more than 64 bits (i >=
// (4^21-1)/3).
func ProgressiveGindex(i uint64) uint64 {
	if i >= maxProgressiveChunk {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveGindex(%d): the gindex needs more than 64 bits", i))
	}
	s := uint64(bits.Len64(3*i+1)-1) / 2
	return (3<<(s+1)-2)<<(2*s) | (i - (1<<(2*s)-1)/3)
}

// node returns the node at generalized index g of the tree whose root is
// root, its chunks p and gindex 3 mix. Nodes right of the chunks within
// the last subtree are zero subtrees; below the spine's zero chunk, none.
func (p *progressive) node(g uint64, root, mix [sha256x.Size]byte) ([sha256x.Size]byte, error) {
	var zero [sha256x.Size]byte
	switch {
	case g == 0:
		return zero, fmt.Errorf("%w: gindex 0", ErrGindex)
	case g == 1:
		return root, nil
	case g == 3:
		return mix, nil
	}
	l := bits.Len64(g) - 2 // g's depth below gindex 2 or 3
	if g>>l == 3 {
		return zero, fmt.Errorf("%w: gindex %d is below gindex 3", ErrGindex, g)
	}
	rest := g & (1<<l - 1)
	s := bits.LeadingZeros64(^(rest << (64 - l))) // right turns: spine node s
	switch {
	case s > len(p.subs) || s == len(p.subs) && s < l:
		return zero, fmt.Errorf("%w: gindex %d is below the spine's end, after %d subtrees", ErrGindex, g, len(p.subs))
	case s == len(p.subs):
		return zero, nil
	case s == l:
		return p.spine[s], nil
	}
	m := l - s - 1 // depth in subtree s
	if m > 2*s {
		return zero, fmt.Errorf("%w: gindex %d is below the leaves of subtree %d", ErrGindex, g, s)
	}
	return p.subs[s].node(2*s-m, rest&(1<<m-1)), nil
}

// Gindex returns ProgressiveGindex(i), element i's generalized index,
// whatever the length: past it, Node gives a zero chunk within the last
// subtree, ErrGindex beyond.
func (l *ProgressiveList) Gindex(i uint64) uint64 { return ProgressiveGindex(i) }

// Node returns the node at generalized index g of the current tree: gindex
// 3 is the length, 2 the chunks' root.
func (l *ProgressiveList) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	return l.p.node(g, r, lengthChunk(uint64(l.p.n)))
}

// Prove returns the proof of the node at generalized index g.
func (l *ProgressiveList) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices.
func (l *ProgressiveList) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}

// Gindex returns ProgressiveGindex(i/256), the generalized index of the
// chunk that holds bit i, as ProgressiveList.Gindex.
func (l *ProgressiveBitlist) Gindex(i uint64) uint64 {
	if i/256 >= maxProgressiveChunk {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBitlist.Gindex(%d), in chunk %d: the gindex needs more than 64 bits", i, i/256))
	}
	return ProgressiveGindex(i / 256)
}

// Node returns the node at generalized index g of the current tree: gindex
// 3 is the number of bits, 2 the chunks' root.
func (l *ProgressiveBitlist) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	return l.p.node(g, r, lengthChunk(l.n))
}

// Prove returns the proof of the node at generalized index g.
func (l *ProgressiveBitlist) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices.
func (l *ProgressiveBitlist) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}

// Gindex returns the generalized index of field index i:
// ProgressiveGindex(i), the same in every version of the container, active
// or not. An inactive index's node is the zero chunk, as a zero field's
// root is: active_fields, at gindex 3, tells them apart. It panics unless
// 0 <= i < 256, the most indices active_fields has.
func (c *ProgressiveContainer) Gindex(i int) uint64 {
	if i < 0 || i >= 256 {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainer.Gindex(%d), not a field index 0..255", i))
	}
	return ProgressiveGindex(uint64(i))
}

// Node returns the node at generalized index g of the current tree: gindex
// 3 is active_fields, 2 the fields' root.
func (c *ProgressiveContainer) Node(g uint64) ([sha256x.Size]byte, error) {
	r := c.Root()
	return c.p.node(g, r, c.active)
}

// Prove returns the proof of the node at generalized index g.
func (c *ProgressiveContainer) Prove(g uint64) (Proof, error) { return prove(c.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices.
func (c *ProgressiveContainer) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(c.Node, gindices)
}
