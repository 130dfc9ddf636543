package hashtree

import (
	"fmt"

	"github.com/sha256x/sha256x"
)

// ProgressiveBasicList is an EIP-7916 ProgressiveList of basic values that
// changes (Gloas's balances, participation flags and inactivity scores):
// its values packed as BasicList packs them, its chunks kept as
// ProgressiveList keeps them, and its root, ProgressiveBasicListRoot of the
// current values, recomputed from the chunks that changed. The zero value
// is an empty list. It shares Chunks' copies, rules for concurrent use
// and panics; Get, Set and Root allocate nothing once it owns its pages.
type ProgressiveBasicList[T Basic] struct {
	p     progressive
	n     uint64 // values
	root  [sha256x.Size]byte
	fresh bool
}

// NewProgressiveBasicList returns the progressive list of values, hashed.
// values is copied.
func NewProgressiveBasicList[T Basic](values []T) *ProgressiveBasicList[T] {
	return &ProgressiveBasicList[T]{p: newProgressive(packChunks(values)), n: uint64(len(values))}
}

// Len returns the number of values.
func (l *ProgressiveBasicList[T]) Len() uint64 { return l.n }

// at returns the chunk of value i and the value's offset in it.
func (l *ProgressiveBasicList[T]) at(op string, i uint64) (int, int) {
	if i >= l.n {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBasicList.%s(%d) past the length %d", op, i, l.n))
	}
	per := uint64(32 / sizeOf[T]())
	return int(i / per), int(i%per) * sizeOf[T]()
}

// Get returns value i. It panics if i >= Len().
func (l *ProgressiveBasicList[T]) Get(i uint64) T {
	c, off := l.at("Get", i)
	return load[T](l.p.at(c)[off:])
}

// Set sets value i. It panics if i >= Len().
func (l *ProgressiveBasicList[T]) Set(i uint64, v T) {
	c, off := l.at("Set", i)
	store(l.p.leaf(c)[off:], v)
	l.fresh = false
}

// SetRange sets values first, first+1, ... to values, as BasicList.SetRange
// does. It panics if the stretch runs past the length.
func (l *ProgressiveBasicList[T]) SetRange(first uint64, values []T) {
	if first > l.n || uint64(len(values)) > l.n-first {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBasicList.SetRange(%d) of %d values past the length %d", first, len(values), l.n))
	}
	per := 32 / sizeOf[T]()
	for i := int(first); len(values) > 0; {
		s, j := locate(i / per)
		m := min(len(values), (1<<(2*s)-j)*per-i%per) // to the subtree's end
		storeRange(&l.p.subs[s], j*per+i%per, values[:m])
		l.p.stale = max(l.p.stale, s+1)
		i, values = i+m, values[m:]
		l.fresh = false
	}
}

// Append adds a value at the end.
func (l *ProgressiveBasicList[T]) Append(v T) {
	if l.n%uint64(32/sizeOf[T]()) == 0 {
		var zero [sha256x.Size]byte
		l.p.append(&zero)
	}
	l.n++
	l.Set(l.n-1, v)
}

// Truncate drops the values from n on. It panics if n > Len().
func (l *ProgressiveBasicList[T]) Truncate(n uint64) {
	if n > l.n {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBasicList.Truncate(%d) past the length %d", n, l.n))
	}
	if n == l.n {
		return
	}
	size := sizeOf[T]()
	if c := int(chunksFor(n, size)); c < l.p.n {
		l.p.truncate(c)
	}
	if off := int(n%uint64(32/size)) * size; off != 0 {
		clear(l.p.leaf(l.p.n - 1)[off:]) // the values cut from the last chunk
	}
	l.n = n
	l.fresh = false
}

// Root returns the root, after rehashing what changed since the last.
func (l *ProgressiveBasicList[T]) Root() [sha256x.Size]byte {
	if !l.fresh {
		l.root, l.fresh = MixInLength(l.p.root(), l.n), true
	}
	return l.root
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *ProgressiveBasicList[T]) Copy() *ProgressiveBasicList[T] {
	d := *l
	d.p = l.p.share()
	return &d
}

// Compact moves l's nodes into arrays of their own, as Chunks.Compact does.
func (l *ProgressiveBasicList[T]) Compact() { l.p.compact() }

// Gindex returns ProgressiveGindex of the chunk that holds value i, as
// ProgressiveList.Gindex.
func (l *ProgressiveBasicList[T]) Gindex(i uint64) uint64 {
	c := i / uint64(32/sizeOf[T]())
	if c >= maxProgressiveChunk {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveBasicList.Gindex(%d), in chunk %d: the gindex needs more than 64 bits", i, c))
	}
	return ProgressiveGindex(c)
}

// Node returns the node at generalized index g of the current tree: gindex
// 3 is the number of values, 2 the chunks' root.
func (l *ProgressiveBasicList[T]) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	return l.p.node(g, r, lengthChunk(l.n))
}

// Prove returns the proof of the node at generalized index g.
func (l *ProgressiveBasicList[T]) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices.
func (l *ProgressiveBasicList[T]) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}

// ProgressiveContainerList is an EIP-7916 ProgressiveList of containers of
// k fields that changes (Gloas's validator registry: k = 8), as
// ContainerList is a List of them: its root, ProgressiveListRoot of the
// containers' roots, recomputed from what changed. It shares Chunks'
// copies, rules for concurrent use and panics; Field, SetField and Root
// allocate nothing once it owns its pages. The zero value is not usable:
// make one with NewProgressiveContainerList.
type ProgressiveContainerList struct {
	p     progressive // over the containers' roots
	c     fieldRoots
	root  [sha256x.Size]byte
	fresh bool
}

// NewProgressiveContainerList returns the list of the len(fields)/k
// containers whose field roots are fields[i*k : i*k+k], hashed. fields is
// copied. It panics if k < 1 or if len(fields) is not a multiple of k.
func NewProgressiveContainerList(k int, fields [][sha256x.Size]byte) *ProgressiveContainerList {
	c, roots := newFieldRoots("NewProgressiveContainerList", k, fields, ^uint64(0))
	return &ProgressiveContainerList{p: newProgressive(roots), c: c}
}

// Len returns the number of containers.
func (l *ProgressiveContainerList) Len() uint64 { return uint64(l.p.n) }

// K returns the number of fields of a container.
func (l *ProgressiveContainerList) K() int { return l.c.k }

// Field returns the root of field f of container i. It panics unless i <
// Len() and 0 <= f < K().
func (l *ProgressiveContainerList) Field(i uint64, f int) [sha256x.Size]byte {
	return *l.c.fields.At(l.c.index("ProgressiveContainerList", "Field", i, f))
}

// SetField sets the root of field f of container i. It panics unless i <
// Len() and 0 <= f < K().
func (l *ProgressiveContainerList) SetField(i uint64, f int, root [sha256x.Size]byte) {
	l.c.set(l.c.index("ProgressiveContainerList", "SetField", i, f), &root)
	l.fresh = false
}

// Set sets every field root of container i: fields has K() roots.
func (l *ProgressiveContainerList) Set(i uint64, fields [][sha256x.Size]byte) {
	l.c.setAll("ProgressiveContainerList", "Set", i, fields)
	l.fresh = false
}

// Append adds a container whose field roots are fields (K() of them).
func (l *ProgressiveContainerList) Append(fields [][sha256x.Size]byte) {
	n := l.p.n
	l.c.want("ProgressiveContainerList", "Append", len(fields))
	var zero [sha256x.Size]byte
	l.p.append(&zero) // its root set at Root
	l.c.resize(n + 1)
	l.Set(uint64(n), fields)
}

// Truncate drops the containers from n on. It panics if n > Len().
func (l *ProgressiveContainerList) Truncate(n uint64) {
	if n > uint64(l.p.n) {
		panic(fmt.Sprintf("sha256x: hashtree: ProgressiveContainerList.Truncate(%d) past the length %d", n, l.p.n))
	}
	if n < uint64(l.p.n) {
		l.p.truncate(int(n))
		l.c.resize(int(n))
		l.fresh = false
	}
}

// Root returns the root, after rehashing the changed containers, then the
// progressive tree's nodes above them.
func (l *ProgressiveContainerList) Root() [sha256x.Size]byte {
	if l.c.k == 0 {
		l.c.want("ProgressiveContainerList", "Root", 0) // the zero value
	}
	if !l.fresh {
		l.c.rehash(l.setRoot)
		l.root, l.fresh = MixInLength(l.p.root(), uint64(l.p.n)), true
	}
	return l.root
}

func (l *ProgressiveContainerList) setRoot(i int, root *[sha256x.Size]byte) {
	*l.p.leaf(i) = *root
}

// Copy returns a copy of l that shares its pages, as Chunks.Copy does.
func (l *ProgressiveContainerList) Copy() *ProgressiveContainerList {
	d := *l
	d.p = l.p.share()
	d.c = l.c.share()
	return &d
}

// Compact moves l's nodes and field roots into arrays of their own, as
// Chunks.Compact does.
func (l *ProgressiveContainerList) Compact() {
	l.p.compact()
	l.c.compact()
}

// Gindex returns ProgressiveGindex(i), the generalized index of container
// i's root, as ContainerList.Gindex.
func (l *ProgressiveContainerList) Gindex(i uint64) uint64 { return ProgressiveGindex(i) }

// Node returns the node at generalized index g of the list's tree, down to
// the containers' roots: gindex 3 is the length, 2 the roots' root.
func (l *ProgressiveContainerList) Node(g uint64) ([sha256x.Size]byte, error) {
	r := l.Root()
	return l.p.node(g, r, lengthChunk(uint64(l.p.n)))
}

// Prove returns the proof of the node at generalized index g.
func (l *ProgressiveContainerList) Prove(g uint64) (Proof, error) { return prove(l.Node, g) }

// ProveMulti returns the multiproof of the nodes at gindices.
func (l *ProgressiveContainerList) ProveMulti(gindices []uint64) (Multiproof, error) {
	return proveMulti(l.Node, gindices)
}
