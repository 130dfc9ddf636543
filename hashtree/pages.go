package hashtree

import (
	"unsafe"

	"github.com/sha256x/sha256x"
)

// A paged is one level of a tree that changes, or another array of nodes
// that copies share: its nodes lie in pages of 1<<shift nodes, and a page
// is written in place only where this level owns it (bit j of owned).
// Copying a level copies its page pointers and clears the owned bits of both
// copies, so that the first write to a page in either copies that page
// alone (copy-on-write at the granularity of a page).
//
// Pages allocated together (a tree built at once, a level grown by many
// nodes) lie one after another in one array, so that a run of dirty nodes
// across them is one batched call (span).
type paged struct {
	pages []*[sha256x.Size]byte // the first node of each page; a page is 1<<shift nodes
	owned []uint64              // bit j: pages[j] is this level's alone
	alloc []uint32              // pages allocated together have one number
	next  uint32                // the number of the next allocation
	slab  [][sha256x.Size]byte  // where own takes its next pages from
	slabs int                   // the pages of the next slab: doubling to maxSlab
	n     int                   // nodes in use
	shift uint8
}

// treeShift is the page size of a tree's levels: 32 nodes, 1 KiB. A write
// to a page a copy shares copies that page, so a small page keeps the first
// root after a Copy close to the same root without one (a slot's 700
// balances touch about 700 pages on each low level), while the page
// pointers a Copy copies stay few (2^21 nodes of a registry's tree: 65,536
// pointers). fieldShift, for the field roots of a list of containers (8 a
// validator, written a few containers a slot), is 256 nodes.
const (
	treeShift  = 5
	fieldShift = 8
)

func (l *paged) mask() int { return 1<<l.shift - 1 }

// at returns a pointer to node i, to read.
func (l *paged) at(i int) *[sha256x.Size]byte {
	return (*[sha256x.Size]byte)(unsafe.Add(unsafe.Pointer(l.pages[i>>l.shift]), (i&l.mask())*32))
}

// mut returns a pointer to node i, to write: its page copied first if this
// level does not own it.
func (l *paged) mut(i int) *[sha256x.Size]byte {
	j := i >> l.shift
	if l.owned[j>>6]&(1<<(j&63)) == 0 {
		l.own(j)
	}
	return (*[sha256x.Size]byte)(unsafe.Add(unsafe.Pointer(l.pages[j]), (i&l.mask())*32))
}

// maxSlab is the most bytes own allocates at a time: the pages copied on
// a level that copies share are cut from slabs, so that a slot's few
// thousand copied pages are a few allocations rather than one each.
const maxSlab = 64 << 10

// own replaces page j by a copy that this level owns.
func (l *paged) own(j int) {
	size := 1 << l.shift
	if len(l.slab) < size {
		l.slabs = min(max(1, 2*l.slabs), max(1, maxSlab/(32*size)))
		l.slab = make([][sha256x.Size]byte, l.slabs*size)
	}
	p := l.slab[:size:size]
	l.slab = l.slab[size:]
	copy(p, unsafe.Slice(l.pages[j], size))
	l.pages[j] = &p[0]
	l.alloc[j] = l.next
	l.next++
	l.owned[j>>6] |= 1 << (j & 63)
}

// resize makes the level n nodes long: pages past them dropped, new pages
// allocated together and owned. The nodes added hold whatever their page
// held: the caller writes them.
func (l *paged) resize(n int) {
	need := (n + l.mask()) >> l.shift
	have := len(l.pages)
	switch {
	case need < have:
		clear(l.pages[need:])
		l.pages = l.pages[:need]
		l.alloc = l.alloc[:need]
		words := (need + 63) / 64
		l.owned = l.owned[:words]
		if need%64 != 0 {
			l.owned[words-1] &= 1<<(need%64) - 1
		}
	case need > have:
		mem := make([][sha256x.Size]byte, (need-have)<<l.shift)
		for j := have; j < need; j++ {
			l.pages = append(l.pages, &mem[(j-have)<<l.shift])
			l.alloc = append(l.alloc, l.next)
		}
		l.next++
		for len(l.owned) < (need+63)/64 {
			l.owned = append(l.owned, 0)
		}
		for j := have; j < need; j++ {
			l.owned[j>>6] |= 1 << (j & 63)
		}
	}
	l.n = n
}

// share returns a copy of l that shares its pages; l and the copy then own
// none of them.
func (l *paged) share() paged {
	clear(l.owned)
	c := paged{n: l.n, shift: l.shift, next: l.next, slabs: l.slabs}
	if len(l.pages) > 0 {
		c.pages = append([]*[sha256x.Size]byte(nil), l.pages...)
		c.alloc = append([]uint32(nil), l.alloc...)
		c.owned = make([]uint64, len(l.owned))
	}
	return c
}

// run returns a pointer to node i and how many nodes from i on lie one
// after another in memory, at most limit: to the end of i's page, then on
// through the pages allocated with it that follow it.
func (l *paged) run(i, limit int) (*[sha256x.Size]byte, int) {
	p := l.at(i)
	n := min(limit, 1<<l.shift-i&l.mask())
	for j := i>>l.shift + 1; n < limit && j < len(l.pages); j++ {
		if l.alloc[j] != l.alloc[j-1] || uintptr(unsafe.Pointer(l.pages[j])) != uintptr(unsafe.Pointer(p))+uintptr(n)*32 {
			break
		}
		n = min(limit, n+1<<l.shift)
	}
	return p, n
}
