package nmt

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/sha256x/sha256x"
)

// A Square computes the row and column roots of Celestia's extended data
// squares: 2w namespaced trees of w leaves each for a square w shares wide.
// The leaves are hashed once each (a share's leaf is the same in its row
// and its column), a few rows at a time; then level by level, the columns'
// and the rows' pairs together in batched calls across all the trees. A
// Square keeps its memory between calls (about 1.5 w^2 NodeSize bytes): in
// steady state it allocates nothing. It is not safe for concurrent use.
type Square struct {
	h  Hasher
	sc scratch
	// nodes is the leaves, row by row (node j of row i at i*w+j), then the
	// rows' levels in place; cols the columns' levels from the first up,
	// laid out as the leaves are (node i of column j at i*w+j), so that
	// the columns are never copied out of the rows (BENCHMARKS.md,
	// "Celestia's data squares").
	nodes, cols []byte
	gather      []byte // a few rows' leaf messages, 0x00 || ns || share
	msgs        [][]byte
	parity      []byte // the largest namespace: the parity shares'
}

// gatherShares is about how many shares Roots gathers and hashes at once: a
// window of the engine, in L2 (BENCHMARKS.md, "Batches of the packages over
// the engine: nmt 256 shares, bitcoin 256 KiB, dirhash 2 MiB").
const gatherShares = 256

// NewSquare returns a Square of hasher h (Celestia for Celestia's).
func NewSquare(h Hasher) *Square {
	h.NodeSize() // checks the namespace size
	return &Square{h: h, parity: bytes.Repeat([]byte{0xFF}, h.NamespaceSize)}
}

// Roots appends to dst the roots of the extended data square shares, width
// shares wide, given row by row: the width row roots, then the width column
// roots, NodeSize bytes each, and returns the extended slice. As in
// Celestia, a share of the original data (the first width/2 rows and
// columns) is namespaced by its first NamespaceSize bytes, and every other
// share (parity) by the largest namespace: a leaf is ns || share. It is an
// error if width is not even, positive and at most 32768 (so that width^2
// fits a 32-bit int), len(shares) != width^2, an original share is shorter
// than a namespace, or a row or column of the original data is out of
// namespace order.
func (s *Square) Roots(dst []byte, shares [][]byte, width int) ([]byte, error) {
	if width <= 0 || width%2 != 0 || width > 1<<15 {
		return dst, errors.New("nmt: a square " + strconv.Itoa(width) + " shares wide, not even, positive and at most 32768")
	}
	if len(shares) != width*width {
		return dst, errors.New("nmt: " + strconv.Itoa(len(shares)) + " shares for a square " + strconv.Itoa(width) + " wide")
	}
	h := s.h
	ns, nl, w, k := h.NamespaceSize, h.NodeSize(), width, width/2
	for i := range k {
		for j := range k {
			c := shares[i*w+j]
			if len(c) < ns {
				return dst, errors.New("nmt: share (" + strconv.Itoa(i) + ", " + strconv.Itoa(j) + ") is shorter than a namespace")
			}
			if j > 0 && bytes.Compare(c[:ns], shares[i*w+j-1][:ns]) < 0 {
				return dst, errors.New("nmt: row " + strconv.Itoa(i) + " is out of namespace order at share " + strconv.Itoa(j))
			}
			if i > 0 && bytes.Compare(c[:ns], shares[(i-1)*w+j][:ns]) < 0 {
				return dst, errors.New("nmt: column " + strconv.Itoa(j) + " is out of namespace order at share " + strconv.Itoa(i))
			}
		}
	}

	stride := w * nl
	if cap(s.nodes) < w*stride {
		s.nodes = make([]byte, w*stride)
	}
	if cap(s.cols) < k*stride {
		s.cols = make([]byte, k*stride)
	}
	s.nodes, s.cols = s.nodes[:w*stride], s.cols[:k*stride]
	s.leaves(shares, w)
	// Each level of the columns and the rows in the same calls (a small
	// square's levels in one): the columns' messages first, gathered as
	// they are added, their first level from the leaves before the rows'
	// first level overwrites them in place.
	for m := w; m > 1; {
		src := s.cols
		if m == w {
			src = s.nodes
		}
		h.addAcross(&s.sc, s.cols, src, w, m, stride)
		h.addLevel(&s.sc, s.nodes, s.nodes, w, m, stride)
		h.joins(&s.sc)
		h.promoteAcross(s.cols, src, w, m, stride)
		m = h.promote(s.nodes, s.nodes, w, m, stride)
	}
	for t := range w {
		dst = append(dst, s.nodes[t*stride:t*stride+nl]...)
	}
	return append(dst, s.cols[:w*nl]...), nil
}

// leaves hashes the leaves of a square w shares wide into s.nodes, a few
// rows at a time: each share's message 0x00 || ns || share gathered into a
// buffer that stays in the cache and hashed there, since the gathering
// copy misses many lines at once where staging in place misses one at a
// time.
func (s *Square) leaves(shares [][]byte, w int) {
	h := s.h
	ns, nl, k := h.NamespaceSize, h.NodeSize(), w/2
	stride := w * nl
	rows := max(1, gatherShares/w)
	for r0 := 0; r0 < w; r0 += rows {
		r1 := min(r0+rows, w)
		n := 0
		for _, c := range shares[r0*w : r1*w] {
			n += 1 + ns + len(c)
		}
		if cap(s.gather) < n {
			s.gather = make([]byte, n+n/4)
		}
		g := s.gather[:n]
		s.msgs = s.msgs[:0]
		off := 0
		for i := r0; i < r1; i++ {
			for j := range w {
				c := shares[i*w+j]
				space := s.parity
				if i < k && j < k {
					space = c[:ns]
				}
				m := g[off : off+1+ns+len(c) : off+1+ns+len(c)]
				m[0] = 0
				copy(m[1:1+ns], space)
				copy(m[1+ns:], c)
				s.msgs = append(s.msgs, m)
				off += len(m)
			}
		}
		out := s.sc.digests(len(s.msgs))
		sha256x.HashMany(out, s.msgs)
		for t, m := range s.msgs {
			i, j := r0+t/w, t%w
			h.leafNode(s.nodes[i*stride+j*nl:][:nl], m[1:1+ns], &out[t])
		}
	}
}
