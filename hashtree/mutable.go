package hashtree

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/door"
	"github.com/sha256x/sha256x/internal/pages"
)

// denseEighths decides how a level's dirty nodes are hashed: where at
// least denseEighths/8 of the nodes between the first and the last dirty
// one are dirty, the whole span is hashed in place, in as few HashLevel
// calls as its pages allow (clean nodes hashed again come out the same);
// otherwise the dirty nodes' children are gathered into a buffer, hashed in
// one call a block at a time, and the digests copied back. Gathering costs
// a copy of 96 bytes and, on a large level, cache misses a node; hashing a
// clean node costs a hash. BenchmarkDenseThreshold times both on a level
// of 2^16 nodes at each fraction: the two cross just past 6/8, where 6/8
// costs at most 2% (BENCHMARKS.md, "Trees that change: dirty nodes
// gathered a level at a time").
const denseEighths = 6

// gatherBlock is how many dirty nodes one gathered call hashes: 64 KiB of
// children, in L2; 512 and 2,048 ran level with it (BENCHMARKS.md, "Trees
// that change: dirty nodes gathered a level at a time").
const gatherBlock = 1024

// writeAhead is how many nodes gather writes in place a call, each call's
// lines asked for ahead by prefetchW (internal/door); 0: a block in one
// call. Variables for the tests, which run the calls on CPUs whose plan
// sets none, and so may lack the prefetch.
var (
	writeAhead = door.WriteAhead()
	prefetchW  = door.PrefetchW
)

// treeShift is the page size of a tree's levels: 4 nodes, 128 bytes. A
// write to a page a copy shares copies that page, so a small page keeps
// the first root after a Copy closer to the same root without one (a
// slot's 700 balances touch about 700 pages on each low level). With the
// pages loaded ahead (Level.Touch), pages of 4 nodes took a slot on a
// fresh copy about 10% less time than pages of 8 (1.4 MB allocated, not
// 1.8), for a Copy 2 us longer and the same roots without a copy; pages
// of 2 were no faster, of 32 slower (BENCHMARKS.md, "Trees that change:
// pages that copies share").
// fieldShift, for the field roots of a list of containers (8 a validator,
// written a few containers a slot), is 8 nodes: a validator's own. Against
// pages of 32, a chain of 4,800 slots, each on a copy of the last, held 173
// MB beyond the state, not 286, its slots level; a Copy took 56 µs, not 33.
// Pages of 4 held 148 MB, for slots 9% slower and a Copy of 88 µs
// (BENCHMARKS.md, "Trees that change: pages that copies share").
const (
	treeShift  = 2
	fieldShift = 3
)

// tree is a tree of chunks padded to 2^depth leaves whose leaves change:
// every level kept in pages (levels[0] the chunks, levels[depth] the root),
// the zero subtrees right of the chunks never stored nor hashed, and the
// leaves changed since the last root in dirty.
type tree struct {
	levels []pages.Level
	depth  int
	dirty  dirtySet
	stale  bool // dirty leaves, or sizes, since the last root
	sink   byte // SetMany's loads ahead, kept so that they are not dropped
}

// gatherBufs lends gather its buffer of children, hashed in place: trees
// and their copies share them, so that a copy's first root (a slot's
// 700 balances: 45 KiB) takes one rather than allocating its own.
var gatherBufs = sync.Pool{New: func() any { return new(gatherBuf) }}

// A gatherBuf is gather's buffer of children and the addresses of the
// nodes it writes.
type gatherBuf struct {
	nodes [][sha256x.Size]byte
	at    []unsafe.Pointer
}

// newTree returns the tree of chunks (copied) under 2^depth leaves, hashed.
func newTree(chunks [][sha256x.Size]byte, depth int) tree {
	t := tree{levels: pages.NewLevels(depth+1, treeShift), depth: depth}
	t.resize(len(chunks))
	l := &t.levels[0]
	for i := 0; i < len(chunks); {
		p, n := l.Run(i, len(chunks)-i)
		copy(unsafe.Slice(p, n), chunks[i:])
		i += n
	}
	for h := 1; h <= depth; h++ {
		if n := t.levels[h].Len(); n > 0 {
			t.hash(h, 0, n-1)
		}
	}
	return t
}

// resize sets the number of chunks to n: every level's size follows.
func (t *tree) resize(n int) {
	for h := range t.levels {
		m := 0
		if n > 0 {
			m = int(uint64(n-1)>>h) + 1
		}
		t.levels[h].Resize(m)
	}
	t.dirty.grow(n)
}

// len returns the number of chunks. It panics for the tree of a zero
// Chunks, BasicList or ContainerList, which has no levels (newTree makes
// them all, the leaves' level if empty).
func (t *tree) len() int {
	if len(t.levels) == 0 {
		panic("sha256x: hashtree: the zero Chunks, BasicList or ContainerList, not made by its New function")
	}
	return t.levels[0].Len()
}

// set writes chunk i (below len) and marks it dirty.
func (t *tree) set(i int, c *[sha256x.Size]byte) {
	// Through a local: two 16-byte moves. Between two pointers to arrays
	// the compiler calls memmove, whose nil check loads the line first.
	v := *c
	*t.levels[0].Mut(i) = v
	t.dirty.add(i)
	t.stale = true
}

// leaf returns a pointer to chunk i, to write in place, and marks it dirty.
func (t *tree) leaf(i int) *[sha256x.Size]byte {
	t.dirty.add(i)
	t.stale = true
	return t.levels[0].Mut(i)
}

// setRange writes chunks at first on (within len) and marks them dirty.
func (t *tree) setRange(first int, chunks [][sha256x.Size]byte) {
	if len(chunks) == 0 {
		return
	}
	l := &t.levels[0]
	l.Own(first, first+len(chunks)-1)
	for i := 0; i < len(chunks); {
		p, n := l.Run(first+i, len(chunks)-i)
		copy(unsafe.Slice(p, n), chunks[i:])
		i += n
	}
	t.dirty.addRange(first, first+len(chunks)-1)
	t.stale = true
}

func (t *tree) append(c *[sha256x.Size]byte) {
	n := t.len()
	t.levels[0].Resize(n + 1)
	t.dirty.grow(n + 1)
	t.set(n, c)
}

// truncate drops the chunks from n on (n <= len).
func (t *tree) truncate(n int) {
	t.dirty.cut(n)
	t.resize(n)
	if n > 0 {
		t.dirty.add(n - 1) // its ancestors lost their right subtrees
	}
	t.stale = true
}

// node returns the node at height h, index i: stored, or a zero subtree.
func (t *tree) node(h int, i uint64) [sha256x.Size]byte {
	if l := &t.levels[h]; i < uint64(l.Len()) {
		return *l.At(int(i))
	}
	return zeroHashes[h]
}

// root rehashes the dirty nodes, a level at a time, and returns the root
// of the chunks (no length mixed in).
func (t *tree) root() [sha256x.Size]byte {
	if t.stale {
		t.stale = false
		if t.len() == 0 {
			t.dirty.cut(0)
			return zeroHashes[t.depth]
		}
		// Appended to since the levels above the leaves were sized: they
		// are sized together, each ceil(n/2^h), so level 1 tells.
		if t.depth > 0 && t.levels[1].Len() != (t.len()+1)/2 {
			t.resize(t.len())
		}
		if k := t.dirty.size(); k > 0 && 8*k >= denseEighths*(t.dirty.hi-t.dirty.lo+1) {
			// The changed leaves are dense in their stretch, and so are
			// their parents, a level up: every level's stretch hashed
			// whole, no list of nodes made (every leaf changed, an epoch).
			a, b := t.dirty.take()
			for h := 1; h <= t.depth; h++ {
				a, b = a>>1, b>>1
				t.hash(h, a, b)
			}
		} else {
			d := t.dirty.sorted()
			for h := 1; h <= t.depth; h++ {
				d = parents(d)
				t.level(h, d)
			}
		}
	}
	if t.len() == 0 {
		return zeroHashes[t.depth]
	}
	return *t.levels[t.depth].At(0)
}

// parents turns the sorted indices d of a level into those of their
// parents, each once, in place.
func parents(d []int) []int {
	k := 0
	for _, i := range d {
		p := i >> 1
		if k == 0 || d[k-1] != p {
			d[k] = p
			k++
		}
	}
	return d[:k]
}

// level rehashes the nodes d (sorted, each once) of height h from their
// children.
func (t *tree) level(h int, d []int) {
	m := len(d)
	if m == 0 {
		return
	}
	a, b := d[0], d[m-1]
	if 8*m >= denseEighths*(b-a+1) {
		t.hash(h, a, b)
		return
	}
	t.gather(h, d)
}

// gather rehashes the nodes d of height h: their children gathered into a
// buffer, hashed in one call a block at a time, the digests copied back.
func (t *tree) gather(h int, d []int) {
	c, p := &t.levels[h-1], &t.levels[h]
	gb := gatherBufs.Get().(*gatherBuf)
	defer gatherBufs.Put(gb)
	if m := min(len(d), gatherBlock); len(gb.at) < m {
		gb.nodes = make([][sha256x.Size]byte, 2*m) // as large as needed
		gb.at = make([]unsafe.Pointer, m)
	}
	for len(d) > 0 {
		blk := d[:min(len(d), gatherBlock)]
		d = d[len(blk):]
		buf := gb.nodes[:2*len(blk)]
		// On a copy, each node's children share a page (of 4) that this
		// copy wrote since it was made, one child or the other (Set, or
		// the level below's gather): found through the directory, as Mut
		// left them, not looked for in the array the tree was built in.
		written := c.Shared()
		for i, q := range blk {
			var cp *[sha256x.Size]byte
			if written {
				cp = c.AtWritten(2 * q)
			} else {
				cp = c.At(2 * q)
			}
			if 2*q+1 < c.Len() {
				two := *(*[2][sha256x.Size]byte)(unsafe.Pointer(cp)) // through a local, as set
				*(*[2][sha256x.Size]byte)(buf[2*i:]) = two
			} else {
				buf[2*i], buf[2*i+1] = *cp, zeroHashes[h-1]
			}
		}
		if p.Shared() {
			p.Touch(blk) // the pages the writes below copy, loaded ahead
			sha256x.Join{}.HashLevel(buf[:len(blk)], buf)
			for i, q := range blk {
				*p.Mut(q) = buf[i]
			}
			continue
		}
		// A level never shared is written in place: its nodes' addresses
		// found before the call, so that the misses on their blocks and
		// pages overlap one another, and written through after it; where
		// the plan says so (writeAhead), in calls of that many nodes, each
		// call's lines asked for while the call before it hashes.
		at := gb.at[:len(blk)]
		for i, q := range blk {
			at[i] = unsafe.Pointer(p.At(q))
		}
		c := writeAhead
		if c <= 0 || c >= len(blk) {
			c = len(blk)
		} else {
			prefetchW(at[:c])
		}
		for s := 0; s < len(blk); s += c {
			e := min(s+c, len(blk))
			if c < len(blk) {
				prefetchW(at[e:min(e+c, len(blk))])
			}
			sha256x.Join{}.HashLevel(buf[s:e], buf[2*s:2*e]) // in place, or below the pairs it reads
			for i, a := range at[s:e] {
				v := buf[s+i]
				*(*[sha256x.Size]byte)(a) = v
			}
		}
		clear(at) // the pool keeps no page alive
	}
}

// hash rehashes the nodes a..b of height h from their children, in place:
// a batched call for each run of nodes whose children, and themselves, lie
// one after another in memory. A last node whose right child is past the
// level below is joined with the zero subtree.
func (t *tree) hash(h, a, b int) {
	c, p := &t.levels[h-1], &t.levels[h]
	if 2*b+1 >= c.Len() {
		var two [2][sha256x.Size]byte
		two[0], two[1] = *c.At(2 * b), zeroHashes[h-1]
		sha256x.Join{}.HashLevel(unsafe.Slice(p.Mut(b), 1), two[:])
		b--
	}
	if a > b {
		return
	}
	p.Own(a, b)
	// A run of parents, then the runs of their children under it: each
	// run found (Run walks its pages) once, so that a long run of parents
	// over short runs of children is not walked again for each of them.
	for q := a; q <= b; {
		dst, n := p.Run(q, b-q+1)
		out := unsafe.Slice(dst, n)
		for m := 0; m < n; {
			src, k := c.Run(2*(q+m), 2*(n-m))
			sha256x.Join{}.HashLevel(out[m:m+k/2], unsafe.Slice(src, k))
			m += k / 2
		}
		q += n
	}
}

// gindexOf returns the generalized index of chunk i under a tree of depth
// depth (one deeper for a list), or panics.
func gindexOf(i uint64, depth int, list bool) uint64 {
	if !hasGindex(i, depth, list) {
		panic(fmt.Sprintf("sha256x: hashtree: Gindex(%d) of a tree of depth %d", i, depth))
	}
	if list {
		depth++
	}
	return 1<<depth | i
}

// hasGindex reports whether chunk i has a generalized index under a tree
// of depth depth (one deeper for a list): it is below 2^depth and the
// gindex fits in 64 bits.
func hasGindex(i uint64, depth int, list bool) bool {
	d := depth
	if list {
		d++
	}
	return d <= 63 && i>>depth == 0
}

// nodeAt returns the node at generalized index g of a tree whose root is
// root; for a list (length not nil) gindex 3 is the length and 2 the
// chunks' root.
func (t *tree) nodeAt(g uint64, root [sha256x.Size]byte, length *[sha256x.Size]byte) ([sha256x.Size]byte, error) {
	if g == 0 {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex 0", ErrGindex)
	}
	if g == 1 {
		return root, nil
	}
	l := bits.Len64(g) - 1
	if length != nil {
		if g>>(l-1)&1 == 1 {
			if g == 3 {
				return *length, nil
			}
			return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d is below the length of a list", ErrGindex, g)
		}
		l--
		g = 1<<l | g&(1<<l-1)
	}
	if l > t.depth {
		return [sha256x.Size]byte{}, fmt.Errorf("%w: gindex %d is below the leaves of a tree of depth %d", ErrGindex, g, t.depth)
	}
	return t.node(t.depth-l, g-1<<l), nil
}

// prove and proveMulti are Tree.Prove and Tree.ProveMulti over node.
func prove(node func(uint64) ([sha256x.Size]byte, error), g uint64) (Proof, error) {
	leaf, err := node(g)
	if err != nil {
		return Proof{}, err
	}
	p := Proof{Gindex: g, Leaf: leaf, Branch: make([][sha256x.Size]byte, 0, bits.Len64(g)-1)}
	for ; g > 1; g >>= 1 {
		s, err := node(g ^ 1)
		if err != nil {
			return Proof{}, err
		}
		p.Branch = append(p.Branch, s)
	}
	return p, nil
}

func proveMulti(node func(uint64) ([sha256x.Size]byte, error), gindices []uint64) (Multiproof, error) {
	// What Multiproof.Root would reject is no proof to return.
	if len(gindices) == 0 {
		return Multiproof{}, fmt.Errorf("%w: no gindices", ErrMalformed)
	}
	sorted := slices.Clone(gindices)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return Multiproof{}, fmt.Errorf("%w: gindex %d twice", ErrMalformed, sorted[i])
		}
	}
	m := Multiproof{Gindices: append([]uint64(nil), gindices...), Leaves: make([][sha256x.Size]byte, len(gindices))}
	for i, g := range gindices {
		n, err := node(g)
		if err != nil {
			return Multiproof{}, err
		}
		m.Leaves[i] = n
	}
	helpers := HelperIndices(gindices)
	m.Helpers = make([][sha256x.Size]byte, len(helpers))
	for i, g := range helpers {
		n, err := node(g)
		if err != nil {
			return Multiproof{}, err
		}
		m.Helpers[i] = n
	}
	return m, nil
}

// share returns a copy of t that shares its pages; both copy a page before
// they next write it.
func (t *tree) share() tree {
	return tree{levels: pages.Share(t.levels), depth: t.depth, dirty: t.dirty.clone(), stale: t.stale}
}

// compact moves every level into one array of its own (pages.Compact),
// and drops the dirty set's spare memory.
func (t *tree) compact() {
	pages.Compact(t.levels)
	t.dirty.compact(t.len())
}

// Chunks is an SSZ vector or list of 32-byte chunks that changes: chunks
// set, appended and truncated, and its root recomputed from the nodes that
// changed alone. Its root is Merkleize(chunks, limit) (NewChunks), or, for a
// list, with the number of chunks mixed in (NewChunkList): the root of a
// Vector or List of composite elements whose roots the chunks are, or of a
// container whose field roots they are.
//
// Every level is kept, in pages of 4 nodes under groups of 8 page
// pointers, blocks of 8 groups and a directory of blocks (internal/pages);
// the zero subtrees right of the chunks, up to a limit as large as 2^64,
// are neither stored nor hashed.
// Root rehashes what changed a level at a time: each level's dirty nodes
// once, however many changed chunks lie below them, all their children
// hashed in one batched call (a block at a time), or, where most of a stretch
// of a level is dirty, the whole stretch in place in as few calls as its
// pages allow. Set, Get and Root allocate nothing once a tree has grown and
// owns its pages.
//
// Copy returns a copy that shares every page with c: each copies a page
// before it first writes it, and reads a page it has not copied in the
// array the tree was built in, no block or group pointer loaded; Compact
// moves a tree that copies left scattered into arrays of its own. A Chunks
// has one writer at a time: Set, SetMany, Append, Truncate, Root, Copy
// (which marks the pages shared), Compact and the proofs and Node (which
// call Root) write; Len, Limit and Get read, and once Root has returned,
// Node and the proofs read too, safe from many goroutines. Two copies may
// be written from two goroutines at once.
//
// Programmer errors (an index past the length, a truncation past it, an
// append past the limit) panic with a message that starts "sha256x:".
// The zero Chunks is not usable: make one with NewChunks or NewChunkList.
type Chunks struct {
	t     tree
	limit uint64
	list  bool
	root  [sha256x.Size]byte // valid when fresh
	fresh bool
}

// NewChunks returns the tree of Merkleize(chunks, limit), hashed: a vector
// (limit = len(chunks)), or a container's fields. chunks is copied. It
// panics if len(chunks) > limit.
func NewChunks(chunks [][sha256x.Size]byte, limit uint64) *Chunks {
	return newChunks(chunks, limit, false)
}

// NewChunkList returns the tree of ListRoot(chunks, limit): a list whose
// length, the number of chunks, is mixed into its root.
func NewChunkList(chunks [][sha256x.Size]byte, limit uint64) *Chunks {
	return newChunks(chunks, limit, true)
}

func newChunks(chunks [][sha256x.Size]byte, limit uint64, list bool) *Chunks {
	if uint64(len(chunks)) > limit {
		panic(fmt.Sprintf("sha256x: hashtree: %d chunks, more than the limit %d", len(chunks), limit))
	}
	return &Chunks{t: newTree(chunks, Depth(limit)), limit: limit, list: list}
}

// Len returns the number of chunks.
func (c *Chunks) Len() uint64 { return uint64(c.t.len()) }

// Limit returns the most chunks c holds.
func (c *Chunks) Limit() uint64 { return c.limit }

func (c *Chunks) index(op string, i uint64) int {
	if i >= uint64(c.t.len()) {
		panic(fmt.Sprintf("sha256x: hashtree: Chunks.%s(%d) past the length %d", op, i, c.t.len()))
	}
	return int(i)
}

// Get returns chunk i. It panics if i >= Len().
func (c *Chunks) Get(i uint64) [sha256x.Size]byte {
	return *c.t.levels[0].At(c.index("Get", i))
}

// Set sets chunk i. It panics if i >= Len().
func (c *Chunks) Set(i uint64, chunk [sha256x.Size]byte) {
	c.t.set(c.index("Set", i), &chunk)
	c.fresh = false
}

// SetMany sets chunk indices[k] to chunks[k] for each k, in any order (a
// later one wins). It panics if the lengths differ or an index is past the
// length.
func (c *Chunks) SetMany(indices []uint64, chunks [][sha256x.Size]byte) {
	if len(indices) != len(chunks) {
		panic(fmt.Sprintf("sha256x: hashtree: Chunks.SetMany of %d indices and %d chunks", len(indices), len(chunks)))
	}
	// Every index checked, and its chunk's line loaded, before any is
	// written: the loads' misses overlap (a store that misses holds the
	// store queue, a few writes at a time), and a bad index panics with
	// nothing written.
	var x byte
	for _, i := range indices {
		x ^= c.t.levels[0].At(c.index("SetMany", i))[0]
	}
	c.t.sink = x
	for k, i := range indices {
		c.t.set(int(i), &chunks[k])
	}
	c.fresh = false
}

// SetRange sets chunks first, first+1, ... to chunks: a stretch copied
// page by page and marked dirty a bitmap word at a time, cheaper than a
// Set each where many change (every chunk of a tree). It panics if the
// stretch runs past the length.
func (c *Chunks) SetRange(first uint64, chunks [][sha256x.Size]byte) {
	if n := uint64(c.t.len()); first > n || uint64(len(chunks)) > n-first {
		panic(fmt.Sprintf("sha256x: hashtree: Chunks.SetRange(%d) of %d chunks past the length %d", first, len(chunks), n))
	}
	c.t.setRange(int(first), chunks)
	c.fresh = false
}

// Append adds a chunk at the end. It panics if c holds Limit() chunks.
func (c *Chunks) Append(chunk [sha256x.Size]byte) {
	if uint64(c.t.len()) >= c.limit {
		panic(fmt.Sprintf("sha256x: hashtree: Chunks.Append past the limit %d", c.limit))
	}
	c.t.append(&chunk)
	c.fresh = false
}

// Truncate drops the chunks from n on. It panics if n > Len().
func (c *Chunks) Truncate(n uint64) {
	if n > uint64(c.t.len()) {
		panic(fmt.Sprintf("sha256x: hashtree: Chunks.Truncate(%d) past the length %d", n, c.t.len()))
	}
	if n < uint64(c.t.len()) {
		c.t.truncate(int(n))
		c.fresh = false
	}
}

// Root returns the root, after rehashing what changed since the last.
func (c *Chunks) Root() [sha256x.Size]byte {
	if !c.fresh {
		r := c.t.root()
		if c.list {
			r = MixInLength(r, uint64(c.t.len()))
		}
		c.root, c.fresh = r, true
	}
	return c.root
}

// Copy returns a copy of c that shares its blocks and pages (it copies each
// level's directory: a pointer a 256 nodes); c and the copy then change
// apart, each copying a block and a page before it first writes them. Copy
// writes to c.
func (c *Chunks) Copy() *Chunks {
	d := *c
	d.t = c.t.share()
	return &d
}

// Compact moves c's nodes into arrays of its own, one a level, as a tree
// built from its current chunks holds them: c then holds none of the pages
// it shares with its copies, nor those a chain of copies left scattered
// (each freed once no copy holds it), and reads every node in one array.
// A chain of copies, each written a little (a beacon node's state, copied
// every slot), holds up to about twice the tree: the arrays it was built in
// live while any page of them is read, beside the pages written since.
// Compact costs about the time of copying every node once (0.29 s for a
// 2^20-validator registry and its balances on Zen 4: BENCHMARKS.md, "Trees
// that change: pages copied allocated alone"), so a node that copies its
// state every slot calls it seldom (a chain of two days of slots held 1.05 times the state beside
// it); it changes no root, nor c's copies.
func (c *Chunks) Compact() { c.t.compact() }

// Gindex returns the generalized index of chunk i (for a list, under its
// gindex 2). It panics unless i is below 2^depth and the gindex fits in 64
// bits.
func (c *Chunks) Gindex(i uint64) uint64 { return gindexOf(i, c.t.depth, c.list) }

// Node returns the node at generalized index g of the current tree.
func (c *Chunks) Node(g uint64) ([sha256x.Size]byte, error) {
	r := c.Root()
	if !c.list {
		return c.t.nodeAt(g, r, nil)
	}
	l := lengthChunk(uint64(c.t.len()))
	return c.t.nodeAt(g, r, &l)
}

// Prove returns the proof of the node at generalized index g, as
// Tree.Prove does.
func (c *Chunks) Prove(g uint64) (Proof, error) { return prove(c.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices, as
// Tree.ProveMulti does.
func (c *Chunks) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(c.Node, gindices)
}

// lengthChunk returns n as a 32-byte little-endian chunk.
func lengthChunk(n uint64) (l [sha256x.Size]byte) {
	for i := range 8 {
		l[i] = byte(n >> (8 * i))
	}
	return l
}
