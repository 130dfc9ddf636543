package hashtree

import (
	"math/bits"
	"slices"
)

// dirtySet is the indices changed since the last root, each once: a
// bitmap to tell whether an index is in already, and the list of them in
// the order they came, but for those addRange puts in the bitmap alone.
//
// Until sorting the list costs more than a pass over a bitmap would, there
// is no bitmap (mark nil), and an index may repeat in the list until
// sorted: a copy's first few changes do not clear a bitmap of the whole
// length.
type dirtySet struct {
	mark   []uint64
	list   []int
	extra  int // indices in the bitmap and not in list
	lo, hi int // the least and the greatest index in the set, when not empty
	n      int // the indices the bitmap is to cover
}

// size returns the number of indices in the set (without a bitmap,
// counting an index as often as it was added).
func (d *dirtySet) size() int { return len(d.list) + d.extra }

// add puts i in the set.
func (d *dirtySet) add(i int) {
	if d.mark == nil {
		if k := len(d.list); k*bits.Len(uint(k)) < (d.n+63)/64 {
			if k == 0 {
				d.lo, d.hi = i, i
			} else {
				d.lo, d.hi = min(d.lo, i), max(d.hi, i)
			}
			d.list = append(d.list, i)
			return
		}
		d.bitmap()
	}
	w, b := i>>6, uint64(1)<<(i&63)
	if w >= len(d.mark) {
		d.grow(i + 1)
	}
	if d.mark[w]&b == 0 {
		d.mark[w] |= b
		if d.size() == 0 {
			d.lo, d.hi = i, i
		} else {
			d.lo, d.hi = min(d.lo, i), max(d.hi, i)
		}
		d.list = append(d.list, i)
	}
}

// bitmap makes the set's bitmap, from the list, which it deduplicates.
func (d *dirtySet) bitmap() {
	d.mark = make([]uint64, (max(d.n, d.hi+1)+63)/64)
	k := 0
	for _, i := range d.list {
		if w, b := i>>6, uint64(1)<<(i&63); d.mark[w]&b == 0 {
			d.mark[w] |= b
			d.list[k] = i
			k++
		}
	}
	d.list = d.list[:k]
}

// addRange puts a..b (a <= b) in the set, in the bitmap alone: a word at
// a time.
func (d *dirtySet) addRange(a, b int) {
	d.grow(b + 1)
	if d.mark == nil {
		d.bitmap()
	}
	if d.size() == 0 {
		d.lo, d.hi = a, b
	} else {
		d.lo, d.hi = min(d.lo, a), max(d.hi, b)
	}
	for w := a >> 6; w <= b>>6; w++ {
		m := ^uint64(0)
		if w == a>>6 {
			m &= ^uint64(0) << (a & 63)
		}
		if w == b>>6 {
			m &= ^uint64(0) >> (63 - b&63)
		}
		d.extra += bits.OnesCount64(m &^ d.mark[w])
		d.mark[w] |= m
	}
}

// take empties the set and returns its least and greatest index; the set
// must not be empty. It clears the bitmap's words between them, for a set
// about to be hashed as the whole stretch lo..hi.
func (d *dirtySet) take() (lo, hi int) {
	if d.mark != nil {
		clear(d.mark[d.lo>>6 : d.hi>>6+1])
	}
	d.list, d.extra = d.list[:0], 0
	return d.lo, d.hi
}

// grow makes the bitmap cover n indices at least.
func (d *dirtySet) grow(n int) {
	d.n = max(d.n, n)
	if d.mark == nil {
		return
	}
	if w := (n + 63) / 64; len(d.mark) < w {
		d.mark = append(d.mark, make([]uint64, w-len(d.mark))...)
	}
}

// cut drops the indices from n on.
func (d *dirtySet) cut(n int) {
	if d.extra > 0 {
		d.list = d.scan(d.list[:0], false) // every index in the list
		d.extra = 0
	}
	k := 0
	for _, i := range d.list {
		if i < n {
			d.list[k] = i
			k++
		} else if d.mark != nil {
			d.mark[i>>6] &^= 1 << (i & 63)
		}
	}
	d.list = d.list[:k]
	if d.mark != nil {
		d.mark = d.mark[:min(len(d.mark), (n+63)/64)]
	}
	d.hi = min(d.hi, n-1) // lo..hi still holds every index left
}

// sorted returns the set in increasing order and empties it (the slice
// stays valid until the next add): a few indices sorted, many read back
// from the bitmap, whichever is less work.
func (d *dirtySet) sorted() []int {
	k := d.size()
	if k == 0 {
		return d.list
	}
	if d.mark == nil {
		slices.Sort(d.list)
		l := slices.Compact(d.list)
		d.list = d.list[:0]
		return l
	}
	if d.extra == 0 && k*bits.Len(uint(k)) < len(d.mark) {
		slices.Sort(d.list)
		for _, i := range d.list {
			d.mark[i>>6] = 0
		}
	} else {
		d.list = d.scan(d.list[:0], true)
		d.extra = 0
	}
	l := d.list
	d.list = d.list[:0]
	return l
}

// scan appends the indices in the bitmap to l, in order, and clears the
// bitmap if empty is set.
func (d *dirtySet) scan(l []int, empty bool) []int {
	for w, m := range d.mark {
		for m != 0 {
			l = append(l, w<<6|bits.TrailingZeros64(m))
			m &= m - 1
		}
		if empty {
			d.mark[w] = 0
		}
	}
	return l
}

// compact drops the memory d keeps beyond the indices it holds: the
// list's room (Append grows it), and an empty set's bitmap: that set
// becomes the set of a tree built with n indices.
func (d *dirtySet) compact(n int) {
	if d.size() == 0 {
		*d = dirtySet{n: n}
		return
	}
	d.list = slices.Clone(d.list)
}

// clone returns a copy of d, apart from it: an empty set (a copy of a
// tree whose root is up to date) without a bitmap.
func (d *dirtySet) clone() dirtySet {
	if d.size() == 0 {
		return dirtySet{n: d.n}
	}
	return dirtySet{mark: slices.Clone(d.mark), list: slices.Clone(d.list), extra: d.extra, lo: d.lo, hi: d.hi, n: d.n}
}
