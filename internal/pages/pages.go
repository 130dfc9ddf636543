// Package pages keeps arrays of 32-byte nodes that copies share, copy-on-write
// a page at a time: the levels of hashtree's trees that change.
package pages

import "unsafe"

// size is the bytes of a node.
const size = 32

// A Level is one level of a tree that changes, or another array of nodes
// that copies share: its nodes lie in pages of 1<<shift nodes, the pages'
// pointers in groups of groupPages, the groups' pointers in blocks of
// blockGroups, the blocks' pointers in a directory. A level writes a block
// only where it owns it (bit J of mine), a group only where it owns the
// block and the block marks the group owned, and a page only where it owns
// the block and the block marks the page owned.
//
// Copying a level copies its directory alone and clears the mine bits of
// both copies: the first write to a block in either copies that block, then
// the group written, then the page. So Copy costs little, and a block that
// a slot writes once costs a few pointers rather than a block's 64 page
// pointers (BENCHMARKS.md, "Trees that change: pages that copies share"). A
// block's owned bits are read only by a level that owns the block: a block
// that copies share is never written, so its bits need no clearing.
//
// A page copied to be written and a group are allocated alone, not cut from
// a slab: in a chain of copies the pages a slot copies die at different
// times, and a slab lives as long as its longest-lived page (BENCHMARKS.md,
// "Trees that change: pages copied allocated alone"). Pages a level takes
// in order are still cut from slabs, so that they lie in runs.
//
// Pages allocated together lie one after another in one array, so that a
// run of dirty nodes across them is one batched call (Run).
type Level struct {
	dir  []*block
	mine []uint64 // bit J: dir[J] is this level's alone
	ar   *arena   // where the level's new blocks, groups and pages come from
	n    int      // nodes in use
	np   int      // pages in use
	// base, where not nil, is node 0 of the array a level grown once from
	// empty took its pages from, in order: pages 0..basePages-1 lie there
	// but for those of the groups marked in moved (a bit a group: a copy's
	// first writes allocate fewer bits, and a group replaced is copied
	// whole anyway). A page in base is read there without loading its
	// block, group and page pointers (BENCHMARKS.md, "Trees that change: a
	// level's one array"). A page in base that copies share is never
	// written (a write copies it first).
	base      *[size]byte
	basePages int
	moved     []uint64 // bit g: a page of group g lies no longer in base; nil: none does
	// movedShared: moved is a copy's too (Share), cloned before a bit is
	// set.
	movedShared bool
	// flat is base where every node in use lies there (no page moved, none
	// past basePages): At's path, inlined, with no check of moved.
	flat  *[size]byte
	shift uint8
	// shared: the level was copied or is a copy (Share). A level never
	// shared owns every block, group and page in use: its writes copy
	// nothing (Shared).
	shared bool
}

// An arena is where the levels of a tree (each copy's own) take the blocks
// they copy or add and the pages they take in order: slabs doubling up to a
// most, so that a stretch of pages lies in runs, and a copy that writes a
// block or two allocates a few KiB rather than a slab a level.
type arena struct {
	slab   [][size]byte // where pages are cut from
	lo, hi uintptr      // the slab's bounds, whole
	slabs  int          // the bytes of the last slab of pages, over 256
	blocks []block      // where blocks are taken from
	nblock int          // the blocks of the last slab of them
}

// blockShift is the pages of a block: 64, so that a block's owned bits are
// one word; groupShift the pages of a group.
const (
	blockShift  = 6
	blockPages  = 1 << blockShift
	blockMask   = blockPages - 1
	groupShift  = 3
	groupPages  = 1 << groupShift
	groupMask   = groupPages - 1
	blockGroups = blockPages / groupPages
)

// A group holds the pointers of groupPages pages of a level: the first
// node of each.
type group [groupPages]*[size]byte

// A block holds the groups of blockPages pages of a level.
type block struct {
	// groups[s], where nil, is groupPages pages that lie in base's array,
	// from base + s*groupPages pages: a block of a level built or grown at
	// once, read without loading a page's pointer, and a block copied whose
	// groups are copied only where written. Groups past the pages in use
	// may be nil whatever base is: they are made when the level grows into
	// them.
	groups [blockGroups]*group
	base   *[size]byte // page 0 of the array of the nil groups' pages
	owned  uint64      // bit k: page k is the owning level's alone
	// bit k: page k was allocated with the page before it (page k-1, or the
	// previous block's last for page 0), in one array. That page may have
	// been replaced since, so run checks the bit and the addresses both and
	// never clears the bit of a page it does not write.
	joined uint64
	gowned uint8 // bit s: groups[s] is the owning level's alone
}

// page returns page k of b, whose pages are 1<<shift nodes.
func (b *block) page(k int, shift uint8) *[size]byte {
	if g := b.groups[k>>groupShift]; g != nil {
		return g[k&groupMask]
	}
	return (*[size]byte)(unsafe.Add(unsafe.Pointer(b.base), k<<shift*size))
}

// New returns an empty level of pages of 1<<shift nodes, with its own
// arena.
func New(shift uint8) Level { return Level{shift: shift, ar: new(arena)} }

// NewLevels returns count empty levels of pages of 1<<shift nodes that take
// their pages and blocks from one arena: the levels of one tree.
func NewLevels(count int, shift uint8) []Level {
	ar := new(arena)
	ls := make([]Level, count)
	for h := range ls {
		ls[h] = Level{shift: shift, ar: ar}
	}
	return ls
}

// Len returns the number of nodes in use.
func (l *Level) Len() int { return l.n }

// Shift returns the log2 of the nodes of a page.
func (l *Level) Shift() int { return int(l.shift) }

func (l *Level) mask() int { return 1<<l.shift - 1 }

// At returns a pointer to node i, to read.
func (l *Level) At(i int) *[size]byte {
	if l.flat != nil {
		return (*[size]byte)(unsafe.Add(unsafe.Pointer(l.flat), i*size))
	}
	return l.at(i)
}

// at is At past flat: node i in base unless its page moved, else where the
// directory says.
func (l *Level) at(i int) *[size]byte {
	if j := i >> l.shift; j < l.basePages && (l.moved == nil || l.moved[j>>(groupShift+6)]&(1<<(j>>groupShift&63)) == 0) {
		return (*[size]byte)(unsafe.Add(unsafe.Pointer(l.base), i*size))
	}
	return l.AtWritten(i)
}

// AtWritten returns a pointer to node i found through the directory, base
// not looked at: At, a check of moved less, for a node whose page the level
// has written since it was shared. Right for any node.
func (l *Level) AtWritten(i int) *[size]byte {
	j := i >> l.shift
	b := l.dir[j>>blockShift]
	if g := b.groups[j>>groupShift&(blockGroups-1)]; g != nil {
		return (*[size]byte)(unsafe.Add(unsafe.Pointer(g[j&groupMask]), (i&(1<<l.shift-1))*size))
	}
	return (*[size]byte)(unsafe.Add(unsafe.Pointer(b.base), (i&(blockPages<<l.shift-1))*size))
}

// Shared reports whether the level was copied or is a copy: whether a
// write may copy a page first. Where it is not, every node in use may be
// written through At and Run without Mut or Whole.
func (l *Level) Shared() bool { return l.shared }

// Mut returns a pointer to node i, to write: its block and page copied
// first where this level does not own them.
func (l *Level) Mut(i int) *[size]byte {
	if l.shared {
		// The page is this level's now: copied (so moved from base), or
		// grown since the copy; the directory's, not base's, to look at.
		l.mut(i >> l.shift)
		return l.AtWritten(i)
	}
	return l.At(i)
}

// mut makes page j this level's, copied where it is not: apart, so that Mut
// of a level never shared reads no block's owned bits.
func (l *Level) mut(j int) {
	J := j >> blockShift
	if l.mine[J>>6]&(1<<(J&63)) == 0 || l.dir[J].owned&(1<<(j&blockMask)) == 0 {
		l.take(j, true)
	}
}

// take makes page j this level's: its block and it copied where this
// level does not own them (it copied only if keep is set).
func (l *Level) take(j int, keep bool) {
	J := j >> blockShift
	if l.mine[J>>6]&(1<<(J&63)) == 0 {
		l.ownBlock(J)
	}
	if b := l.dir[J]; b.owned&(1<<(j&blockMask)) == 0 {
		l.own(b, j, keep)
	}
}

// Whole makes page j this level's to write, every node of it: a page that
// it does not own replaced by a new one, not copied, that holds whatever
// it held.
func (l *Level) Whole(j int) { l.take(j, false) }

// Own makes nodes a..b this level's to write, all of them rewritten next:
// the pages they cover whole replaced, not copied (Whole), those they cover
// in part copied (Mut). The check of a level never shared is inlined where
// Own is called.
func (l *Level) Own(a, b int) {
	if l.shared {
		l.ownRange(a, b)
	}
}

func (l *Level) ownRange(a, b int) {
	for j := a >> l.shift; j <= b>>l.shift; j++ {
		if j<<l.shift >= a && (j+1)<<l.shift-1 <= b {
			l.Whole(j)
		} else {
			l.take(j, true)
		}
	}
}

// maxSlab is the most bytes of pages an arena allocates at a time, and
// maxBlocks the most blocks.
const (
	maxSlab   = 64 << 10
	maxBlocks = 64
)

// ownBlock replaces block J by a copy that this level owns, with no group
// nor page owned.
func (l *Level) ownBlock(J int) {
	b := l.ar.block()
	*b = *l.dir[J]
	b.owned, b.gowned = 0, 0
	l.dir[J] = b
	l.mine[J>>6] |= 1 << (J & 63)
}

// ownGroup replaces group s of block J (this level's) by one that this
// level owns: a copy of it, or, where it was nil, the pointers of its
// pages in use in base's array. base is dropped once no group in use
// needs it, so that the array it points into lives only while pages in
// it do.
func (l *Level) ownGroup(b *block, J, s int) {
	g := new(group)
	if old := b.groups[s]; old != nil {
		*g = *old
	} else {
		first := J<<blockShift + s<<groupShift // the group's first page
		for k := range min(groupPages, l.np-first) {
			g[k] = (*[size]byte)(unsafe.Add(unsafe.Pointer(b.base), (s<<groupShift+k)<<l.shift*size))
		}
	}
	b.groups[s] = g
	b.gowned |= 1 << s
	for t, h := range b.groups {
		if h == nil && J<<blockShift+t<<groupShift < l.np {
			return
		}
	}
	b.base = nil
}

// block returns a block from the arena, its contents whatever they were.
func (a *arena) block() *block { return cut(&a.blocks, &a.nblock, maxBlocks) }

// cut returns the first of free, which it first fills with a new slab
// where it is empty: twice as many as the last slab (last), at most most.
func cut[T any](free *[]T, last *int, most int) *T {
	if len(*free) == 0 {
		*last = min(most, max(1, 2**last))
		*free = make([]T, *last)
	}
	p := &(*free)[0]
	*free = (*free)[1:]
	return p
}

// pages returns n nodes (a multiple of 8) that lie one after another, from
// the arena's slab, or, if larger than a slab, their own array.
func (a *arena) pages(n int) [][size]byte {
	if n*32 >= maxSlab/4 {
		return make([][size]byte, n)
	}
	if len(a.slab) < n {
		a.slabs = min(max(1, 2*a.slabs), maxSlab/256)
		a.slab = make([][size]byte, max(a.slabs*8, n))
		a.lo = uintptr(unsafe.Pointer(&a.slab[0]))
		a.hi = a.lo + uintptr(len(a.slab))*32
	}
	p := a.slab[:n:n]
	a.slab = a.slab[n:]
	return p
}

// in reports whether node p lies in the arena's current slab.
func (a *arena) in(p *[size]byte) bool {
	u := uintptr(unsafe.Pointer(p))
	return a.lo <= u && u < a.hi
}

// own replaces page j, in block b that this level owns, by a page that
// this level owns: a copy of it, allocated alone, if keep is set, else one
// cut from the arena's slab. A page that follows, in the slab, the page
// before it (pages owned in order, a level rewritten after a Copy) is
// joined to it, so that runs span them.
func (l *Level) own(b *block, j int, keep bool) {
	pn := 1 << l.shift
	k := j & blockMask
	if b.gowned&(1<<(k>>groupShift)) == 0 {
		l.ownGroup(b, j>>blockShift, k>>groupShift)
	}
	g := b.groups[k>>groupShift]
	var p [][size]byte
	if keep {
		p = append([][size]byte(nil), unsafe.Slice(g[k&groupMask], pn)...) // not zeroed first
	} else {
		p = l.ar.pages(pn)
	}
	g[k&groupMask] = &p[0]
	b.owned |= 1 << k
	b.joined &^= 1 << k
	if j < l.basePages {
		l.move(j)
	}
	if j > 0 {
		q := l.dir[(j-1)>>blockShift].page((j-1)&blockMask, l.shift)
		if l.ar.in(q) && l.ar.in(&p[0]) && uintptr(unsafe.Pointer(q))+uintptr(pn)*size == uintptr(unsafe.Pointer(&p[0])) {
			b.joined |= 1 << k
		}
	}
}

// move marks page j (below basePages), and so its group, no longer in base.
func (l *Level) move(j int) {
	l.flat = nil
	if l.moved == nil || l.movedShared {
		m := make([]uint64, (l.basePages+groupPages*64-1)/(groupPages*64))
		copy(m, l.moved)
		l.moved, l.movedShared = m, false
	}
	l.moved[j>>(groupShift+6)] |= 1 << (j >> groupShift & 63)
}

// Resize makes the level n nodes long: pages past them dropped, new pages
// allocated together and owned. The nodes added hold whatever their page
// held: the caller writes them.
func (l *Level) Resize(n int) {
	need := (n + l.mask()) >> l.shift
	have := l.np
	switch {
	case need < have:
		l.basePages = min(l.basePages, need) // pages past need, grown again, lie elsewhere
		blocks := (need + blockMask) >> blockShift
		if k := need & blockMask; k != 0 {
			J := need >> blockShift
			if l.mine[J>>6]&(1<<(J&63)) == 0 {
				l.ownBlock(J)
			}
			b := l.dir[J]
			s := k >> groupShift
			if r := k & groupMask; r != 0 {
				if b.groups[s] != nil { // a nil group's pages past need are never read
					if b.gowned&(1<<s) == 0 {
						l.ownGroup(b, J, s)
					}
					clear(b.groups[s][r:])
				}
				s++
			}
			clear(b.groups[s:])
			b.gowned &= 1<<s - 1
			b.owned &= 1<<k - 1
		}
		clear(l.dir[blocks:])
		l.dir = l.dir[:blocks]
		words := (blocks + 63) / 64
		l.mine = l.mine[:words]
		if blocks%64 != 0 {
			l.mine[words-1] &= 1<<(blocks%64) - 1
		}
	case need > have:
		mem := l.ar.pages((need - have) << l.shift)
		l.flat = nil
		if have == 0 {
			l.base, l.basePages, l.moved, l.movedShared = &mem[0], need, nil, false
			if !l.shared {
				l.flat = l.base
			}
		}
		fresh := len(l.dir) // blocks from here on are mem's alone
		for j := have; j < need; j++ {
			J, k := j>>blockShift, j&blockMask
			if J == len(l.dir) {
				b := l.ar.block()
				*b = block{base: &mem[(j-have)<<l.shift]} // k is 0: every page of it from mem
				l.dir = append(l.dir, b)
				if J>>6 == len(l.mine) {
					l.mine = append(l.mine, 0)
				}
				l.mine[J>>6] |= 1 << (J & 63)
			}
			b := l.dir[J]
			if J < fresh { // pages from two arrays: the new ones' pointers in groups
				if l.mine[J>>6]&(1<<(J&63)) == 0 {
					l.ownBlock(J)
					b = l.dir[J]
				}
				if s := k >> groupShift; b.gowned&(1<<s) == 0 {
					l.ownGroup(b, J, s)
				}
				b.groups[k>>groupShift][k&groupMask] = &mem[(j-have)<<l.shift]
			}
			b.owned |= 1 << k
			if j == have {
				b.joined &^= 1 << k
			} else {
				b.joined |= 1 << k
			}
		}
	}
	l.np = need
	l.n = n
}

// share returns a copy of l that shares its blocks and pages, taking new
// ones from ar; l and the copy then own none of them. dir and mine are
// the copy's directory and mine bits, as long as l's.
func (l *Level) share(ar *arena, dir []*block, mine []uint64) Level {
	clear(l.mine)
	l.shared = true
	l.movedShared = l.moved != nil
	copy(dir, l.dir)
	clear(mine)
	return Level{dir: dir, mine: mine, ar: ar, n: l.n, np: l.np, shift: l.shift, shared: true,
		base: l.base, basePages: l.basePages, moved: l.moved, movedShared: l.movedShared, flat: l.flat}
}

// Share returns copies of the levels ls, as share does, that take their
// blocks and pages from one new arena. It marks the levels of ls shared, in
// place: ls must be the levels themselves, not copies of them.
func Share(ls []Level) []Level {
	var nd, nm int
	for i := range ls {
		nd += len(ls[i].dir)
		nm += len(ls[i].mine)
	}
	dirs, mines := make([]*block, nd), make([]uint64, nm)
	ar := new(arena)
	c := make([]Level, len(ls))
	for i := range ls {
		d, m := len(ls[i].dir), len(ls[i].mine)
		c[i] = ls[i].share(ar, dirs[:d:d], mines[:m:m])
		dirs, mines = dirs[d:], mines[m:]
	}
	return c
}

// Compact moves the nodes of each of the levels ls (the levels themselves,
// as Share takes them) into one new array of its own, as a level grown once
// from empty holds them, and gives them one new arena: the levels then hold
// none of the pages they shared with copies or took from other arrays, read
// every node in their one array (flat), and own every page. Their copies
// are not changed.
func Compact(ls []Level) {
	ar := new(arena)
	for i := range ls {
		ls[i].compact(ar)
	}
}

// compact moves the level into one array of its own, as Compact does, its
// new blocks taken from ar.
func (l *Level) compact(ar *arena) {
	np, n := l.np, l.n
	mem := make([][size]byte, np<<l.shift)
	for i := 0; i < n; {
		p, k := l.Run(i, n-i)
		copy(mem[i:], unsafe.Slice(p, k))
		i += k
	}
	*l = Level{shift: l.shift, ar: ar, n: n, np: np}
	if np == 0 {
		return
	}
	l.base, l.basePages, l.flat = &mem[0], np, &mem[0]
	nb := (np + blockMask) >> blockShift
	l.dir = make([]*block, nb)
	l.mine = make([]uint64, (nb+63)/64)
	bs := make([]block, nb)
	for J := range bs {
		b := &bs[J]
		b.base = &mem[J<<blockShift<<l.shift]
		b.owned = ^uint64(0)
		if k := np - J<<blockShift; k < blockPages {
			b.owned = 1<<k - 1
		}
		b.joined = b.owned // every page follows the one before it
		l.dir[J] = b
		l.mine[J>>6] |= 1 << (J & 63)
	}
	bs[0].joined &^= 1 // but the first
}

// Run returns a pointer to node i and how many nodes from i on lie one
// after another in memory, at most limit: to the end of i's page, then on
// through the pages allocated with it that follow it.
func (l *Level) Run(i, limit int) (*[size]byte, int) {
	p := l.At(i)
	n := min(limit, 1<<l.shift-i&l.mask())
	j := i>>l.shift + 1
	for n < limit && j < l.np {
		b, k := l.dir[j>>blockShift], j&blockMask
		q, m := (*[size]byte)(nil), 1
		if g := b.groups[k>>groupShift]; g != nil {
			q = g[k&groupMask]
		} else {
			q = (*[size]byte)(unsafe.Add(unsafe.Pointer(b.base), k<<l.shift*size))
			// The rest of the group, and of the nil groups after it,
			// follow in base's array.
			e := k>>groupShift + 1
			for e < blockGroups && b.groups[e] == nil {
				e++
			}
			m = e<<groupShift - k
		}
		if b.joined&(1<<k) == 0 || uintptr(unsafe.Pointer(q)) != uintptr(unsafe.Pointer(p))+uintptr(n)*size {
			break
		}
		n = min(limit, n+m<<l.shift)
		j += m
	}
	return p, n
}

// Touch loads the blocks, then the page lines, of the nodes idx whose pages
// a write would copy (pages this level does not own), in two passes of
// independent loads, so that the misses of the copies Mut makes next
// overlap (BENCHMARKS.md, "Trees that change: pages that copies share"). It
// returns a value of the bytes loaded, which the caller drops: what keeps
// the loads (noinline, so that they are not found unused).
//
//go:noinline
func (l *Level) Touch(idx []int) uintptr {
	if !l.shared {
		return 0
	}
	var x uintptr
	for _, i := range idx {
		x ^= uintptr(l.dir[i>>l.shift>>blockShift].owned)
	}
	pn := 1 << l.shift * size
	for _, i := range idx {
		j := i >> l.shift
		J := j >> blockShift
		if l.mine[J>>6]&(1<<(J&63)) != 0 && l.dir[J].owned&(1<<(j&blockMask)) != 0 {
			continue
		}
		p := unsafe.Pointer(l.At(i &^ l.mask()))
		for o := 0; o < pn; o += 64 {
			x ^= uintptr(*(*byte)(unsafe.Add(p, o)))
		}
	}
	return x
}
