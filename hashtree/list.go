package hashtree

import (
	"fmt"
	"unsafe"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/pages"
)

// BasicList is an SSZ List[T, limit] of basic values that changes (a
// beacon state's balances): values set, appended and truncated, and its
// root, BasicListRoot(values, limit), recomputed from the chunks that
// changed. The values lie packed in the tree's chunks, where Get and Set
// read and write them, allocating nothing. It shares Chunks' levels,
// copies, rules for concurrent use and panics. The zero BasicList is not
// usable: make one with NewBasicList.
type BasicList[T Basic] struct {
	t     tree
	n     uint64 // values
	limit uint64 // values
	root  [sha256x.Size]byte
	fresh bool
}

// NewBasicList returns the tree of BasicListRoot(values, limit), hashed.
// values is copied. It panics if len(values) > limit.
func NewBasicList[T Basic](values []T, limit uint64) *BasicList[T] {
	if uint64(len(values)) > limit {
		panic(fmt.Sprintf("sha256x: hashtree: NewBasicList of %d values, more than the limit %d", len(values), limit))
	}
	return &BasicList[T]{t: newTree(packChunks(values), Depth(chunksFor(limit, sizeOf[T]()))), n: uint64(len(values)), limit: limit}
}

// store writes v little-endian at b[0:size].
func store[T Basic](b []byte, v T) {
	size := sizeOf[T]()
	if littleEndian {
		*(*T)(unsafe.Pointer(&b[:size][0])) = v
		return
	}
	s := unsafe.Slice((*byte)(unsafe.Pointer(&v)), size)
	for k := range size {
		b[k] = s[size-1-k]
	}
}

// load reads a value little-endian from b[0:size].
func load[T Basic](b []byte) (v T) {
	size := sizeOf[T]()
	if littleEndian {
		return *(*T)(unsafe.Pointer(&b[:size][0]))
	}
	d := unsafe.Slice((*byte)(unsafe.Pointer(&v)), size)
	for k := range size {
		d[k] = b[size-1-k]
	}
	return v
}

// Len returns the number of values.
func (l *BasicList[T]) Len() uint64 { return l.n }

// Limit returns the most values l holds.
func (l *BasicList[T]) Limit() uint64 { return l.limit }

// at returns the chunk of value i and the value's offset in it.
func (l *BasicList[T]) at(op string, i uint64) (int, int) {
	if i >= l.n {
		panic(fmt.Sprintf("sha256x: hashtree: BasicList.%s(%d) past the length %d", op, i, l.n))
	}
	per := uint64(32 / sizeOf[T]())
	return int(i / per), int(i%per) * sizeOf[T]()
}

// Get returns value i. It panics if i >= Len().
func (l *BasicList[T]) Get(i uint64) T {
	c, off := l.at("Get", i)
	return load[T](l.t.levels[0].At(c)[off:])
}

// Set sets value i. It panics if i >= Len().
func (l *BasicList[T]) Set(i uint64, v T) {
	c, off := l.at("Set", i)
	store(l.t.leaf(c)[off:], v)
	l.fresh = false
}

// SetRange sets values first, first+1, ... to values, their chunks marked
// dirty a bitmap word at a time: cheaper than a Set each where most change
// (an epoch's balances). It panics if the stretch runs past the length.
func (l *BasicList[T]) SetRange(first uint64, values []T) {
	if first > l.n || uint64(len(values)) > l.n-first {
		panic(fmt.Sprintf("sha256x: hashtree: BasicList.SetRange(%d) of %d values past the length %d", first, len(values), l.n))
	}
	if len(values) > 0 {
		storeRange(&l.t, int(first), values)
		l.fresh = false
	}
}

// storeRange writes values first, first+1, ... into t's chunks and marks
// them dirty. The chunks the values fill are replaced on a copy, not
// copied first, and taken in order, so that they lie in runs.
func storeRange[T Basic](t *tree, first int, values []T) {
	size := sizeOf[T]()
	per := 32 / size
	lv := &t.levels[0]
	if a, b := (first+per-1)/per, (first+len(values))/per-1; a <= b {
		lv.Own(a, b)
	}
	var c *[sha256x.Size]byte
	for k, v := range values {
		i := first + k
		if k == 0 || i%per == 0 {
			c = lv.Mut(i / per)
		}
		store(c[i%per*size:], v)
	}
	t.dirty.addRange(first/per, (first+len(values)-1)/per)
	t.stale = true
}

// Append adds a value at the end. It panics if l holds Limit() values.
func (l *BasicList[T]) Append(v T) {
	if l.n >= l.limit {
		panic(fmt.Sprintf("sha256x: hashtree: BasicList.Append past the limit %d", l.limit))
	}
	if l.n%uint64(32/sizeOf[T]()) == 0 {
		var zero [sha256x.Size]byte
		l.t.append(&zero)
	}
	l.n++
	l.Set(l.n-1, v)
}

// Truncate drops the values from n on. It panics if n > Len().
func (l *BasicList[T]) Truncate(n uint64) {
	if n > l.n {
		panic(fmt.Sprintf("sha256x: hashtree: BasicList.Truncate(%d) past the length %d", n, l.n))
	}
	if n == l.n {
		return
	}
	size := sizeOf[T]()
	if c := int(chunksFor(n, size)); c < l.t.len() {
		l.t.truncate(c)
	}
	if off := int(n%uint64(32/size)) * size; off != 0 {
		clear(l.t.leaf(l.t.len() - 1)[off:]) // the values cut from the last chunk
	}
	l.n = n
	l.fresh = false
}

// Root returns the root, after rehashing what changed since the last.
func (l *BasicList[T]) Root() [sha256x.Size]byte {
	if !l.fresh {
		l.root, l.fresh = MixInLength(l.t.root(), l.n), true
	}
	return l.root
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *BasicList[T]) Copy() *BasicList[T] {
	d := *l
	d.t = l.t.share()
	return &d
}

// Compact moves l's nodes into arrays of their own, as Chunks.Compact does.
func (l *BasicList[T]) Compact() { l.t.compact() }

// Gindex returns the generalized index of the chunk that holds value i.
// It panics unless that chunk is below 2^depth and the gindex fits in 64
// bits.
func (l *BasicList[T]) Gindex(i uint64) uint64 {
	c := i / uint64(32/sizeOf[T]())
	if !hasGindex(c, l.t.depth, true) {
		panic(fmt.Sprintf("sha256x: hashtree: BasicList.Gindex(%d), in chunk %d, of a tree of depth %d", i, c, l.t.depth))
	}
	return gindexOf(c, l.t.depth, true)
}

// Node returns the node at generalized index g of the current tree.
func (l *BasicList[T]) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	n := lengthChunk(l.n)
	return l.t.nodeAt(g, r, &n)
}

// Prove returns the proof of the node at generalized index g.
func (l *BasicList[T]) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices, as
// Tree.ProveMulti does.
func (l *BasicList[T]) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}

// ContainerList is an SSZ List[C, limit] of containers of k fields that
// changes (a beacon state's validator registry: k = 8): each container's
// field roots kept, fields set, containers appended and truncated, and its
// root, ListRoot of the containers' roots, recomputed from what changed:
// first the changed containers, together a level at a time
// (ContainerRoots), then the list's dirty nodes as Chunks does. Field,
// SetField and Root allocate nothing once the list owns its pages. It
// shares Chunks' copies, rules for concurrent use and panics. The zero
// ContainerList is not usable: make one with NewContainerList.
type ContainerList struct {
	t     tree // the list over the containers' roots
	c     fieldRoots
	limit uint64
	root  [sha256x.Size]byte
	fresh bool
}

// fieldRoots is the field roots of a list of containers of k fields and
// the containers whose fields changed since their roots were hashed.
type fieldRoots struct {
	fields pages.Level // k field roots a container
	k      int
	dirty  dirtySet             // containers whose fields changed
	buf    [][sha256x.Size]byte // a block's fields, then its roots
}

// newFieldRoots returns the containers whose field roots are fields (k a
// container; copied) and their roots. op and limit are the panics'.
func newFieldRoots(op string, k int, fields [][sha256x.Size]byte, limit uint64) (fieldRoots, [][sha256x.Size]byte) {
	if k < 1 || len(fields)%k != 0 {
		panic(fmt.Sprintf("sha256x: hashtree: %s of %d fields, %d a container", op, len(fields), k))
	}
	n := len(fields) / k
	if uint64(n) > limit {
		panic(fmt.Sprintf("sha256x: hashtree: %s of %d containers, more than the limit %d", op, n, limit))
	}
	roots := make([][sha256x.Size]byte, n)
	ContainerRoots(roots, fields, k)
	c := fieldRoots{fields: pages.New(fieldShift), k: k}
	c.fields.Resize(len(fields))
	for i := 0; i < len(fields); {
		p, m := c.fields.Run(i, len(fields)-i)
		copy(unsafe.Slice(p, m), fields[i:])
		i += m
	}
	c.dirty.grow(n)
	return c, roots
}

// index returns the index of field f of container i among the field
// roots, after checking both. typ and op name the caller in the panic.
func (c *fieldRoots) index(typ, op string, i uint64, f int) int {
	if c.k == 0 {
		c.want(typ, op, 0) // panics: the zero value
	}
	n := c.fields.Len() / c.k
	if i >= uint64(n) || f < 0 || f >= c.k {
		panic(fmt.Sprintf("sha256x: hashtree: %s.%s(%d, %d) of %d containers of %d fields", typ, op, i, f, n, c.k))
	}
	return int(i)*c.k + f
}

// set writes the root of field j (an index from index) and marks its
// container dirty.
func (c *fieldRoots) set(j int, root *[sha256x.Size]byte) {
	*c.fields.Mut(j) = *root
	c.dirty.add(j / c.k)
}

// want panics unless c was made by its list's New function and fields ==
// k.
func (c *fieldRoots) want(typ, op string, fields int) {
	if c.k == 0 {
		panic(fmt.Sprintf("sha256x: hashtree: the zero %s, not made by New%s", typ, typ))
	}
	if fields != c.k {
		panic(fmt.Sprintf("sha256x: hashtree: %s.%s of %d fields, want %d", typ, op, fields, c.k))
	}
}

// setAll sets every field root of container i (below the length).
func (c *fieldRoots) setAll(typ, op string, i uint64, fields [][sha256x.Size]byte) {
	c.want(typ, op, len(fields))
	for f := range fields {
		c.set(c.index(typ, op, i, f), &fields[f])
	}
}

// resize sets the number of containers to n, new ones' fields zero.
func (c *fieldRoots) resize(n int) {
	if m := c.fields.Len() / c.k; n < m {
		c.dirty.cut(n)
	} else {
		c.dirty.grow(n)
	}
	c.fields.Resize(n * c.k)
}

// rehash hashes the containers whose fields changed, a block of them
// together, and hands each root to set with the container's index.
func (c *fieldRoots) rehash(set func(i int, root *[sha256x.Size]byte)) {
	d := c.dirty.sorted()
	k := c.k
	if m := min(len(d), containerBlock) * (k + 1); len(c.buf) < m {
		c.buf = make([][sha256x.Size]byte, m) // as large as needed: a copy starts without
	}
	for len(d) > 0 {
		blk := d[:min(len(d), containerBlock)]
		d = d[len(blk):]
		fields, roots := c.buf[:len(blk)*k], c.buf[len(blk)*k:][:len(blk)]
		for j, i := range blk {
			for f := 0; f < k; {
				p, m := c.fields.Run(i*k+f, k-f)
				copy(fields[j*k+f:], unsafe.Slice(p, m))
				f += m
			}
		}
		ContainerRoots(roots, fields, k)
		for j, i := range blk {
			set(i, &roots[j])
		}
	}
}

// share returns a copy of c that shares its field roots' pages.
func (c *fieldRoots) share() fieldRoots {
	d := *c
	d.fields = pages.Share(unsafe.Slice(&c.fields, 1))[0] // c's marked shared too
	d.dirty = c.dirty.clone()
	d.buf = nil
	return d
}

// compact moves the field roots into an array of their own.
func (c *fieldRoots) compact() {
	pages.Compact(unsafe.Slice(&c.fields, 1))
	c.dirty.compact(c.fields.Len() / max(c.k, 1))
}

// NewContainerList returns the list of the len(fields)/k containers whose
// field roots are fields[i*k : i*k+k], hashed. fields is copied. It panics
// if k < 1, if len(fields) is not a multiple of k, or if there are more
// than limit containers.
func NewContainerList(k int, fields [][sha256x.Size]byte, limit uint64) *ContainerList {
	c, roots := newFieldRoots("NewContainerList", k, fields, limit)
	return &ContainerList{t: newTree(roots, Depth(limit)), c: c, limit: limit}
}

// Len returns the number of containers.
func (l *ContainerList) Len() uint64 { return uint64(l.t.len()) }

// Limit returns the most containers l holds.
func (l *ContainerList) Limit() uint64 { return l.limit }

// K returns the number of fields of a container.
func (l *ContainerList) K() int { return l.c.k }

// Field returns the root of field f of container i. It panics unless i <
// Len() and 0 <= f < K().
func (l *ContainerList) Field(i uint64, f int) [sha256x.Size]byte {
	return *l.c.fields.At(l.c.index("ContainerList", "Field", i, f))
}

// SetField sets the root of field f of container i. It panics unless i <
// Len() and 0 <= f < K().
func (l *ContainerList) SetField(i uint64, f int, root [sha256x.Size]byte) {
	l.c.set(l.c.index("ContainerList", "SetField", i, f), &root)
	l.fresh = false
}

// Set sets every field root of container i: fields has K() roots.
func (l *ContainerList) Set(i uint64, fields [][sha256x.Size]byte) {
	l.c.setAll("ContainerList", "Set", i, fields)
	l.fresh = false
}

// Append adds a container whose field roots are fields (K() of them). It
// panics if l holds Limit() containers.
func (l *ContainerList) Append(fields [][sha256x.Size]byte) {
	n := l.t.len()
	if uint64(n) >= l.limit {
		panic(fmt.Sprintf("sha256x: hashtree: ContainerList.Append past the limit %d", l.limit))
	}
	l.c.want("ContainerList", "Append", len(fields))
	var zero [sha256x.Size]byte
	l.t.append(&zero) // its root set at Root
	l.c.resize(n + 1)
	l.Set(uint64(n), fields)
}

// Truncate drops the containers from n on. It panics if n > Len().
func (l *ContainerList) Truncate(n uint64) {
	if n > uint64(l.t.len()) {
		panic(fmt.Sprintf("sha256x: hashtree: ContainerList.Truncate(%d) past the length %d", n, l.t.len()))
	}
	if n < uint64(l.t.len()) {
		l.t.truncate(int(n))
		l.c.resize(int(n))
		l.fresh = false
	}
}

// containerBlock is how many changed containers Root hashes in one
// ContainerRoots call (BENCHMARKS.md, "Constants that measured level").
const containerBlock = 1024

// Root returns the root, after rehashing the changed containers, then the
// list's nodes above them.
func (l *ContainerList) Root() [sha256x.Size]byte {
	if !l.fresh {
		l.c.rehash(l.t.set)
		l.root, l.fresh = MixInLength(l.t.root(), uint64(l.t.len())), true
	}
	return l.root
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *ContainerList) Copy() *ContainerList {
	d := *l
	d.t = l.t.share()
	d.c = l.c.share()
	return &d
}

// Compact moves l's nodes and field roots into arrays of their own, as
// Chunks.Compact does.
func (l *ContainerList) Compact() {
	l.t.compact()
	l.c.compact()
}

// Gindex returns the generalized index of container i's root; a field's is
// ConcatGindices(Gindex(i), the field's gindex in the container).
func (l *ContainerList) Gindex(i uint64) uint64 { return gindexOf(i, l.t.depth, true) }

// Node returns the node at generalized index g of the list's tree, down to
// the containers' roots.
func (l *ContainerList) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	n := lengthChunk(uint64(l.t.len()))
	return l.t.nodeAt(g, r, &n)
}

// Prove returns the proof of the node at generalized index g.
func (l *ContainerList) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices, as
// Tree.ProveMulti does.
func (l *ContainerList) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}
