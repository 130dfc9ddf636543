//go:build linux || darwin

package sha256x

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// The tests here put every argument a caller passes, bytes and slices of
// slices alike, against an unmapped page, so that a read or write past
// them faults; guardTry turns the fault into a failure naming the layout.

// guardTry runs f with faults turned into panics and fails the test, naming
// what, if f faults.
func guardTry(t *testing.T, what func() string, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("%s: %v", what(), e)
		}
	}()
	f()
}

// edges is guarded memory: b ends against an unmapped page and begins
// right after one.
type edges struct{ b []byte }

func newEdges(t *testing.T, n int) edges { return edges{guarded(t, n)} }

// end returns the last n bytes; start the first n (cap n).
func (e edges) end(n int) []byte   { return e.b[len(e.b)-n:] }
func (e edges) start(n int) []byte { return e.b[:n:n] }

// past is the empty slice whose pointer is the unmapped page after b.
func (e edges) past() []byte {
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(e.b)), len(e.b))), 0)
}

// digestsEnd returns n digests that end at the page end, and digestsStart n
// that begin at the page start.
func (e edges) digestsEnd(n int) [][Size]byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*[Size]byte)(unsafe.Pointer(&e.b[len(e.b)-n*Size])), n)
}

func (e edges) digestsStart(n int) [][Size]byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*[Size]byte)(unsafe.Pointer(&e.b[0])), n)
}

// slicesEnd returns room for n []byte ending at the page end (the values
// point into guarded memory only: no Go heap pointer is stored in it).
func (e edges) slicesEnd(n int) [][]byte {
	if n == 0 {
		return nil
	}
	sz := int(unsafe.Sizeof([]byte(nil)))
	s := unsafe.Slice((*[]byte)(unsafe.Pointer(&e.b[len(e.b)-n*sz])), n)
	clear(s)
	return s
}

func (e edges) slicesStart(n int) [][]byte {
	if n == 0 {
		return nil
	}
	s := unsafe.Slice((*[]byte)(unsafe.Pointer(&e.b[0])), n)
	clear(s)
	return s
}

// guardSet is the guarded regions of one test: msg for bytes read, hdr
// for the [][]byte, out for the digests written.
type guardSet struct{ msg, hdr, out edges }

func newGuardSet(t *testing.T) guardSet {
	gs := guardSet{newEdges(t, 16384), newEdges(t, 8192), newEdges(t, 8192)}
	copy(gs.msg.b, pattern(len(gs.msg.b), 91))
	return gs
}

// checkEdges hashes msgs (their [][]byte at both page edges of gs.hdr) into
// out at both page edges of gs.out with HashMany(Prefixed) and
// HashManyDouble on pl, and compares with crypto/sha256.
func checkEdges(t *testing.T, pl *plan.Plan, gs guardSet, prefix []byte, msgs [][]byte, desc func() string) {
	t.Helper()
	n := len(msgs)
	wants := make([][Size]byte, n)
	for i, m := range msgs {
		wants[i] = want(prefix, m)
	}
	for lay := range 4 {
		var hs [][]byte
		var out [][Size]byte
		if lay&1 == 0 {
			hs = gs.hdr.slicesEnd(n)
		} else {
			hs = gs.hdr.slicesStart(n)
		}
		copy(hs, msgs)
		if lay&2 == 0 {
			out = gs.out.digestsEnd(n)
		} else {
			out = gs.out.digestsStart(n)
		}
		what := func() string { return fmt.Sprintf("%s, layout %d", desc(), lay) }
		guardTry(t, what, func() { hashMany(pl, out, prefix, hs) })
		for i := range out {
			if out[i] != wants[i] {
				t.Fatalf("%s: HashMany digest %d wrong", what(), i)
			}
		}
		if n > 0 && len(prefix) == 0 {
			guardTry(t, func() string { return what() + ", HashManyDouble" }, func() { sched.HashManyDouble(pl, out, hs) })
			for i := range out {
				if out[i] != sha256.Sum256(wants[i][:]) {
					t.Fatalf("%s: HashManyDouble digest %d wrong", what(), i)
				}
			}
		}
	}
}

// TestGuardEdgesSame: batches of n same-length messages (the shapes staged
// whole, the pairs kernels' 64 bytes, the single and serial paths), every
// message at the page end, at the page start, or alternately.
func TestGuardEdgesSame(t *testing.T) {
	t.Parallel()
	gs := newGuardSet(t)
	counts := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70}
	lengths := []int{}
	for l := 0; l <= 130; l++ {
		lengths = append(lengths, l)
	}
	lengths = append(lengths, 183, 184, 191, 192, 255, 256, 1000)
	if testing.Short() {
		// Emulated runs: the lengths around each block's padding bounds.
		counts = []int{1, 2, 3, 6, 17, 70}
		lengths = []int{0, 1, 2, 8, 31, 32, 33, 54, 55, 56, 57, 63, 64, 65, 100, 118, 119, 120, 121, 127, 128, 129, 183, 184, 256}
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		msgs := make([][]byte, 70)
		for _, l := range lengths {
			for _, n := range counts {
				for mode := range 3 {
					for i := range n {
						switch {
						case mode == 0 || mode == 2 && i%2 == 0:
							msgs[i] = gs.msg.end(l)
						default:
							msgs[i] = gs.msg.start(l)
						}
					}
					checkEdges(t, pl, gs, nil, msgs[:n], func() string {
						return fmt.Sprintf("%d messages of %d bytes, mode %d", n, l, mode)
					})
				}
			}
		}
		// Empty messages whose pointer is the unmapped page, or its end.
		for _, n := range []int{1, 2, 3, 5, 6, 9, 17, 70} {
			for i := range n {
				msgs[i] = gs.msg.past()
				if i%3 == 1 {
					msgs[i] = gs.msg.start(0)
				}
			}
			checkEdges(t, pl, gs, nil, msgs[:n], func() string { return fmt.Sprintf("%d empty messages at the unmapped page", n) })
		}
	})
}

// TestGuardEdgesRagged: ragged batches, every message at a page edge.
func TestGuardEdgesRagged(t *testing.T) {
	t.Parallel()
	gs := newGuardSet(t)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(41, 42))
		rounds := 300
		if testing.Short() {
			rounds = 60
		}
		for round := range rounds {
			n := 1 + r.IntN(70)
			msgs := make([][]byte, n)
			for i := range msgs {
				var l int
				switch r.IntN(6) {
				case 0:
					l = r.IntN(64)
				case 1:
					l = []int{55, 56, 63, 64, 119, 120, 127, 128}[r.IntN(8)]
				case 2:
					l = r.IntN(8192)
				case 3:
					l = 64 * r.IntN(4)
				default:
					l = r.IntN(300)
				}
				switch r.IntN(3) {
				case 0:
					msgs[i] = gs.msg.end(l)
				case 1:
					msgs[i] = gs.msg.start(l)
				default:
					if l == 0 {
						msgs[i] = gs.msg.past()
					} else {
						msgs[i] = gs.msg.end(l)
					}
				}
			}
			checkEdges(t, pl, gs, nil, msgs, func() string { return fmt.Sprintf("ragged round %d", round) })
		}
	})
}

// TestGuardEdgesPrefixed: prefixes at a page edge (partial blocks, whole
// blocks: the midstate; straddling into the messages) before messages at a
// page edge.
func TestGuardEdgesPrefixed(t *testing.T) {
	t.Parallel()
	gs := newGuardSet(t)
	pe := newEdges(t, 8192)
	copy(pe.b, pattern(len(pe.b), 17))
	pns := []int{1, 2, 26, 55, 56, 63, 64, 65, 100, 119, 120, 127, 128, 129, 183, 192, 4096, 4097}
	lens := []int{0, 1, 7, 8, 9, 55, 56, 63, 64, 65, 119, 120, 128, 129, 200, 1000, 4096}
	counts := []int{1, 2, 3, 5, 6, 9, 17, 40, 70}
	if testing.Short() {
		counts = []int{1, 2, 6, 17}
		pns = []int{1, 55, 56, 63, 64, 65, 119, 128, 183, 4097}
		lens = []int{0, 1, 9, 55, 56, 64, 65, 119, 120, 1000}
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		msgs := make([][]byte, 70)
		// An empty prefix whose pointer is the unmapped page.
		for _, n := range []int{1, 2, 5, 6, 17} {
			for i := range n {
				msgs[i] = gs.msg.end(lens[i%len(lens)])
			}
			checkEdges(t, pl, gs, pe.past(), msgs[:n], func() string { return fmt.Sprintf("empty prefix at the unmapped page, %d messages", n) })
		}
		for _, pn := range pns {
			for _, prefix := range [][]byte{pe.end(pn), pe.start(pn)} {
				for _, l := range lens {
					for _, n := range counts {
						for i := range n {
							if i%2 == 0 {
								msgs[i] = gs.msg.end(l)
							} else {
								msgs[i] = gs.msg.start(l)
							}
						}
						checkEdges(t, pl, gs, prefix, msgs[:n], func() string {
							return fmt.Sprintf("prefix %d bytes, %d messages of %d bytes", pn, n, l)
						})
					}
				}
			}
		}
	})
}

// TestGuardEdgesSum256: single messages and Sum256 at either page edge.
func TestGuardEdgesSum256(t *testing.T) {
	gs := newGuardSet(t)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for l := 0; l <= 1100; l++ {
			for _, m := range [][]byte{gs.msg.end(l), gs.msg.start(l)} {
				var got [Size]byte
				guardTry(t, func() string { return fmt.Sprintf("Sum256 of %d bytes", l) }, func() { got = sum256(pl, m) })
				if got != sha256.Sum256(m) {
					t.Fatalf("Sum256 of %d bytes at a page edge: wrong", l)
				}
			}
		}
	})
}

// TestGuardEdgesLevel: Join.HashLevel with the nodes, the join's prefix and
// infix, and out each at a page edge.
func TestGuardEdgesLevel(t *testing.T) {
	ne := newEdges(t, 8192)
	copy(ne.b, pattern(len(ne.b), 5))
	je := newEdges(t, 4096)
	oe := newEdges(t, 8192)
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 19, 29, 32, 33, 40, 64, 65, 100}
	if testing.Short() {
		sizes = []int{1, 2, 3, 4, 5, 8, 9, 17, 33, 100}
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for ji, j0 := range testJoins {
			for pos := range 4 {
				// The join's prefix and infix at the page end or start.
				j := j0
				if pos&1 == 0 {
					j.Prefix = je.end(len(j0.Prefix))
					copy(j.Prefix, j0.Prefix)
					if len(j0.Infix) > 0 {
						j.Infix = je.start(len(j0.Infix))
						copy(j.Infix, j0.Infix)
					}
				} else {
					j.Prefix = je.start(len(j0.Prefix))
					copy(j.Prefix, j0.Prefix)
					if len(j0.Infix) > 0 {
						j.Infix = je.end(len(j0.Infix))
						copy(j.Infix, j0.Infix)
					}
				}
				if len(j0.Prefix) == 0 {
					j.Prefix = nil
					if pos&1 == 0 {
						j.Prefix = je.past()
					}
				}
				for _, np := range sizes {
					for at := range 3 {
						var nodes [][Size]byte
						if pos&2 == 0 {
							nodes = ne.digestsEnd(2 * np)
						} else {
							nodes = ne.digestsStart(2 * np)
						}
						wants := make([][Size]byte, np)
						for i := range wants {
							wants[i] = joinWant(j, nodes[2*i], nodes[2*i+1])
						}
						var out [][Size]byte
						switch at {
						case 0:
							out = oe.digestsEnd(np)
						case 1:
							out = oe.digestsStart(np)
						default:
							out = nodes[:np] // in place
						}
						saved := append([][Size]byte(nil), nodes...)
						guardTry(t, func() string {
							return fmt.Sprintf("join %d (prefix %d, infix %d, width %d, double %v), %d pairs, pos %d, out %d", ji, len(j.Prefix), len(j.Infix), j.Width, j.Double, np, pos, at)
						}, func() { hashLevel(pl, out, j, nodes) })
						for i := range wants {
							if out[i] != wants[i] {
								t.Fatalf("join %d, %d pairs, pos %d, out %d: pair %d wrong", ji, np, pos, at, i)
							}
						}
						copy(nodes, saved)
					}
				}
			}
		}
	})
}

// TestGuardEdgesStreams: WriteMany and Write with the chunks, the
// [][]byte of chunks, the []*Digest and the Digests at page edges, and the
// writes leaving every leftover.
func TestGuardEdgesStreams(t *testing.T) {
	gs := newGuardSet(t)
	de := newEdges(t, 8192) // Digests and the []*Digest (no Go pointers: the Digests lie here too)
	lens := []int{0, 1, 55, 56, 63, 64, 65, 100, 127, 128, 129, 200, 1000, 4095, 4096, 4097}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(8, 9))
		for _, n := range []int{1, 2, 3, 5, 8, 16, 17, 40} {
			dsz := int(unsafe.Sizeof(Digest{}))
			for lay := range 2 {
				// The Digests at the start of de, the pointers at its end, or
				// the other way round.
				psz := int(unsafe.Sizeof((*Digest)(nil)))
				var dbase, pbase int
				if lay == 0 {
					dbase, pbase = 0, len(de.b)-n*psz
				} else {
					dbase, pbase = len(de.b)-n*dsz, 0
				}
				clear(de.b)
				ds := unsafe.Slice((**Digest)(unsafe.Pointer(&de.b[pbase])), n)
				for i := range ds {
					ds[i] = (*Digest)(unsafe.Pointer(&de.b[dbase+i*dsz]))
				}
				refs := make([][]byte, n)
				for round := range 6 {
					var hs [][]byte
					if (round+lay)%2 == 0 {
						hs = gs.hdr.slicesEnd(n)
					} else {
						hs = gs.hdr.slicesStart(n)
					}
					for i := range hs {
						l := lens[r.IntN(len(lens))]
						switch r.IntN(3) {
						case 0:
							hs[i] = gs.msg.end(l)
						case 1:
							hs[i] = gs.msg.start(l)
						default:
							hs[i] = gs.msg.past()
						}
						refs[i] = append(refs[i], hs[i]...)
					}
					what := func() string { return fmt.Sprintf("%d streams, layout %d, round %d", n, lay, round) }
					guardTry(t, what, func() { writeMany(pl, ds, hs, false) })
					for i, d := range ds {
						var got [Size]byte
						guardTry(t, what, func() { got = d.s.Sum256(pl) })
						if got != sha256.Sum256(refs[i]) {
							t.Fatalf("%s: stream %d wrong", what(), i)
						}
					}
				}
				// Write, one stream at a time.
				for i, d := range ds {
					for range 4 {
						l := lens[r.IntN(len(lens))]
						var m []byte
						if r.IntN(2) == 0 {
							m = gs.msg.end(l)
						} else {
							m = gs.msg.start(l)
						}
						refs[i] = append(refs[i], m...)
						guardTry(t, func() string { return fmt.Sprintf("Write of %d bytes", l) }, func() { d.s.Write(pl, m) })
					}
					if d.s.Sum256(pl) != sha256.Sum256(refs[i]) {
						t.Fatalf("Write at page edges: stream %d wrong", i)
					}
				}
				// After the Writes (a stream may hold a whole block back),
				// one more WriteMany of chunks at the page edges.
				hs := gs.hdr.slicesEnd(n)
				for i := range hs {
					hs[i] = gs.msg.end(lens[r.IntN(len(lens))])
					if i%3 == 2 {
						hs[i] = gs.msg.past()
					}
					refs[i] = append(refs[i], hs[i]...)
				}
				guardTry(t, func() string { return fmt.Sprintf("%d streams after Write", n) }, func() { writeMany(pl, ds, hs, false) })
				for i, d := range ds {
					if d.s.Sum256(pl) != sha256.Sum256(refs[i]) {
						t.Fatalf("WriteMany after Write at page edges: stream %d wrong", i)
					}
				}
			}
		}
	})
}

// TestGuardEdgesChains: Chains with the states and counts at page edges.
func TestGuardEdgesChains(t *testing.T) {
	se := newEdges(t, 4096)
	ce := newEdges(t, 4096)
	forChainPlans(t, func(t *testing.T, cp *plan.ChainPlan) {
		for _, n := range []int{1, 2, 3, 5, 8, 16, 17, 33} {
			for lay := range 4 {
				var states [][Size]byte
				if lay&1 == 0 {
					states = se.digestsEnd(n)
				} else {
					states = se.digestsStart(n)
				}
				var counts []uint64
				if lay&2 == 0 {
					counts = unsafe.Slice((*uint64)(unsafe.Pointer(&ce.b[len(ce.b)-8*n])), n)
				} else {
					counts = unsafe.Slice((*uint64)(unsafe.Pointer(&ce.b[0])), n)
				}
				wants := make([][Size]byte, n)
				for i := range states {
					states[i] = seedOf(i)
					counts[i] = uint64(i*7%13 + i%2)
					wants[i] = chainWant(states[i], counts[i])
				}
				guardTry(t, func() string { return fmt.Sprintf("%d chains, layout %d", n, lay) }, func() { sched.Chains(cp, states, counts) })
				for i := range states {
					if states[i] != wants[i] {
						t.Fatalf("%d chains, layout %d: chain %d wrong", n, lay, i)
					}
				}
			}
		}
	})
}

// TestGuardEdgesLong: messages and chunks of several parts and batches of
// more than a window, at page edges.
func TestGuardEdgesLong(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long messages")
	}
	big := newEdges(t, 200<<10)
	copy(big.b, pattern(len(big.b), 3))
	hdr := newEdges(t, 300*24)
	oe := newEdges(t, 300*Size)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(77, 78))
		for round := range 6 {
			n := []int{2, 7, 17, 40, 257, 300}[round]
			msgs := hdr.slicesEnd(n)
			if round%2 == 1 {
				msgs = hdr.slicesStart(n)
			}
			for i := range msgs {
				l := r.IntN(300)
				if i%3 == 1 {
					l = 64 * r.IntN(40) // whole blocks
				}
				if i%5 == 0 {
					l = 64<<10 - 64 + r.IntN(200)
					if i%10 == 0 {
						l = 130<<10 + r.IntN(70000)
					}
					if i%15 == 0 {
						l &^= 63 // whole blocks, read in place up to the page end
					}
				}
				if i%2 == 0 {
					msgs[i] = big.end(l)
				} else {
					msgs[i] = big.start(l)
				}
			}
			out := oe.digestsEnd(n)
			if round >= 3 {
				out = oe.digestsStart(n)
			}
			what := func() string { return fmt.Sprintf("long round %d", round) }
			guardTry(t, what, func() { hashMany(pl, out, nil, msgs) })
			for i, m := range msgs {
				if out[i] != sha256.Sum256(m) {
					t.Fatalf("%s: digest %d (%d bytes) wrong", what(), i, len(m))
				}
			}
			for _, pn := range []int{5, 64, 100, 4096} {
				pre := big.start(pn)
				guardTry(t, what, func() { hashMany(pl, out, pre, msgs) })
				for i, m := range msgs {
					if out[i] != want(pre, m) {
						t.Fatalf("%s, prefix %d: digest %d (%d bytes) wrong", what(), pn, i, len(m))
					}
				}
			}
			guardTry(t, what, func() { sched.HashManyDouble(pl, out, msgs) })
			for i, m := range msgs {
				if s := sha256.Sum256(m); out[i] != sha256.Sum256(s[:]) {
					t.Fatalf("%s: double digest %d wrong", what(), i)
				}
			}
			if n <= 40 {
				ds := make([]*Digest, n)
				for i := range ds {
					ds[i] = new(Digest)
				}
				guardTry(t, what, func() { writeMany(pl, ds, msgs, false) })
				guardTry(t, what, func() { writeMany(pl, ds, msgs, false) })
				for i, d := range ds {
					h := sha256.New()
					h.Write(msgs[i])
					h.Write(msgs[i])
					if got := d.s.Sum256(pl); string(got[:]) != string(h.Sum(nil)) {
						t.Fatalf("%s: stream %d wrong", what(), i)
					}
				}
			}
		}
		// A level of more than a window of pairs, at either edge.
		nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&big.b[len(big.b)-2*600*Size])), 2*600)
		for _, j := range testJoins {
			out := make([][Size]byte, 600)
			guardTry(t, func() string { return "level of 600 pairs" }, func() { hashLevel(pl, out, j, nodes) })
			for i := range out {
				if out[i] != joinWant(j, nodes[2*i], nodes[2*i+1]) {
					t.Fatalf("level of 600 pairs, join %+v: pair %d wrong", j, i)
				}
			}
		}
	})
}

// TestGuardEdgesUnmarshal: a marshaled state, and every truncation, at
// either page edge: a state or an error, never a fault.
func TestGuardEdgesUnmarshal(t *testing.T) {
	e := newEdges(t, 4096)
	var d Digest
	d.Write(pattern(1000, 3))
	st, _ := d.MarshalBinary()
	for n := 0; n <= len(st); n++ {
		for _, b := range [][]byte{e.end(n), e.start(n)} {
			copy(b, st[:n])
			var r Digest
			var err error
			guardTry(t, func() string { return fmt.Sprintf("UnmarshalBinary of %d bytes", n) }, func() { err = r.UnmarshalBinary(b) })
			if (err == nil) != (n == len(st)) {
				t.Fatalf("UnmarshalBinary of %d of %d bytes: %v", n, len(st), err)
			}
			if err == nil && r.Sum256() != d.Sum256() {
				t.Fatalf("UnmarshalBinary at a page edge: wrong state")
			}
		}
	}
}
