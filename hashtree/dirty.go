package hashtree

import (
	"math/bits"
	"slices"
)

// dirtySet is the indices changed since the last root, each once: a
// bitmap to tell whether an index is in already, and the list of them in
// the order they came.
type dirtySet struct {
	mark   []uint64
	list   []int
	lo, hi int // the least and the greatest index in list, when not empty
}

// add puts i in the set.
func (d *dirtySet) add(i int) {
	w, b := i>>6, uint64(1)<<(i&63)
	if w >= len(d.mark) {
		d.grow(i + 1) // a set cloned empty has no bitmap yet
	}
	if d.mark[w]&b == 0 {
		d.mark[w] |= b
		if len(d.list) == 0 {
			d.lo, d.hi = i, i
		} else {
			d.lo, d.hi = min(d.lo, i), max(d.hi, i)
		}
		d.list = append(d.list, i)
	}
}

// take empties the set and returns its least and greatest index; the set
// must not be empty. It clears the bitmap's words between them, for a set
// about to be hashed as the whole stretch lo..hi.
func (d *dirtySet) take() (lo, hi int) {
	clear(d.mark[d.lo>>6 : d.hi>>6+1])
	d.list = d.list[:0]
	return d.lo, d.hi
}

// grow makes the bitmap cover n indices at least.
func (d *dirtySet) grow(n int) {
	if w := (n + 63) / 64; len(d.mark) < w {
		d.mark = append(d.mark, make([]uint64, w-len(d.mark))...)
	}
}

// cut drops the indices from n on.
func (d *dirtySet) cut(n int) {
	k := 0
	for _, i := range d.list {
		if i < n {
			d.list[k] = i
			k++
		} else {
			d.mark[i>>6] &^= 1 << (i & 63)
		}
	}
	d.list = d.list[:k]
	d.mark = d.mark[:min(len(d.mark), (n+63)/64)]
	d.hi = min(d.hi, n-1) // lo..hi still holds every index left
}

// sorted returns the set in increasing order and empties it (the slice
// stays valid until the next add). A few indices are sorted and their bits
// cleared one by one; many are read back from the bitmap in order, word by
// word, which costs a pass over the bitmap but no comparison: whichever is
// less work.
func (d *dirtySet) sorted() []int {
	k := len(d.list)
	if k == 0 {
		return d.list
	}
	if k*bits.Len(uint(k)) < len(d.mark) {
		slices.Sort(d.list)
		for _, i := range d.list {
			d.mark[i>>6] = 0
		}
	} else {
		d.list = d.list[:0]
		for w, m := range d.mark {
			for m != 0 {
				d.list = append(d.list, w<<6|bits.TrailingZeros64(m))
				m &= m - 1
			}
			d.mark[w] = 0
		}
	}
	l := d.list
	d.list = d.list[:0]
	return l
}

// clone returns a copy of d, apart from it: an empty set (a copy of a
// tree whose root is up to date) without a bitmap until its first add.
func (d *dirtySet) clone() dirtySet {
	if len(d.list) == 0 {
		return dirtySet{}
	}
	return dirtySet{mark: slices.Clone(d.mark), list: slices.Clone(d.list), lo: d.lo, hi: d.hi}
}
