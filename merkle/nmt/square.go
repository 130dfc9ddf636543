package nmt

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/sha256x/sha256x"
)

// A Square computes the row and column roots of Celestia's extended data
// squares: 2w namespaced trees of w leaves each for a square w shares
// wide. Every level of every tree is hashed in one batched call across
// all of them: the leaves (each share once, as a share's leaf is the same
// in its row and its column), then each level of inner nodes. A Square
// keeps its memory between calls (about 3 w^2 NodeSize bytes): in steady
// state it allocates nothing. It is not safe for concurrent use.
type Square struct {
	h      Hasher
	sc     scratch
	nodes  []byte // 2w trees of w nodes: the rows, then the columns
	orig   []byte // ns || share for the original shares
	msgs   [][]byte
	parity []byte // 0x00 || the largest namespace: the parity leaves' prefix
}

// NewSquare returns a Square of hasher h (Celestia for Celestia's).
func NewSquare(h Hasher) *Square {
	h.NodeSize() // checks the namespace size
	p := bytes.Repeat([]byte{0xFF}, 1+h.NamespaceSize)
	p[0] = 0
	return &Square{h: h, parity: p}
}

// Roots appends to dst the roots of the extended data square shares, width
// shares wide, given row by row: the width row roots, then the width
// column roots, NodeSize bytes each, and returns the extended slice. As in
// Celestia, a share of the original data (the first width/2 rows and
// columns) is namespaced by its first NamespaceSize bytes, and every other
// share (parity) by the largest namespace: a leaf is ns || share. It is an
// error if width is not even and positive, len(shares) != width^2, an
// original share is shorter than a namespace, or a row or column of the
// original data is out of namespace order.
func (s *Square) Roots(dst []byte, shares [][]byte, width int) ([]byte, error) {
	if width <= 0 || width%2 != 0 || width > 1<<15 {
		return dst, errors.New("nmt: a square " + strconv.Itoa(width) + " shares wide, not even and positive")
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

	// The leaves: the original shares' messages ns || share gathered, the
	// parity shares' taken in place under the prefix 0x00 || 0xFF...;
	// then each share's node written to its row and its column.
	s.orig = s.orig[:0]
	for i := range k {
		for j := range k {
			c := shares[i*w+j]
			s.orig = append(s.orig, c[:ns]...)
			s.orig = append(s.orig, c...)
		}
	}
	s.msgs = s.msgs[:0]
	off := 0
	for i := range k {
		for j := range k {
			n := ns + len(shares[i*w+j])
			s.msgs = append(s.msgs, s.orig[off:off+n:off+n])
			off += n
		}
	}
	for i := range w {
		for j := range w {
			if i >= k || j >= k {
				s.msgs = append(s.msgs, shares[i*w+j])
			}
		}
	}
	out := s.sc.digests(w * w)
	sha256x.HashManyPrefixed(out[:k*k], leafPrefix, s.msgs[:k*k])
	sha256x.HashManyPrefixed(out[k*k:], s.parity, s.msgs[k*k:])

	stride := w * nl
	if need := 2 * w * stride; cap(s.nodes) < need {
		s.nodes = make([]byte, need)
	}
	s.nodes = s.nodes[:2*w*stride]
	o, p := 0, k*k
	for i := range w {
		for j := range w {
			var d *[sha256x.Size]byte
			var space []byte
			if i < k && j < k {
				d, space = &out[o], shares[i*w+j][:ns]
				o++
			} else {
				d, space = &out[p], s.parity[1:]
				p++
			}
			r := s.nodes[i*stride+j*nl:]
			copy(r[:ns], space)
			copy(r[ns:2*ns], space)
			copy(r[2*ns:nl], d[:])
			copy(s.nodes[(w+j)*stride+i*nl:][:nl], r[:nl])
		}
	}
	for m := w; m > 1; {
		m = h.level(&s.sc, s.nodes, s.nodes, 2*w, m, stride)
	}
	for t := range 2 * w {
		dst = append(dst, s.nodes[t*stride:t*stride+nl]...)
	}
	return dst, nil
}
