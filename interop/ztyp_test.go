package interop

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/protolambda/ztyp/codec"
	"github.com/protolambda/ztyp/tree"
	"github.com/protolambda/ztyp/view"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// hashtree's mutable lists and static roots against protolambda/ztyp's
// tree-backed views, after every step of random sets, appends,
// truncations and diverging copies: roots, nodes and proofs by gindex.
// ztyp's ComplexListView.Pop zeroes the slot past the end, not the last
// element, so complex lists are truncated by rebuilding the view.

var zh = tree.GetHashFn()

// ztNode is the node at g of a ztyp backing; a zero subtree (a leaf
// above the bottom) is descended as ZeroHashes. false: no such node.
func ztNode(n tree.Node, g uint64) ([32]byte, bool) {
	for s := bits.Len64(g) - 2; s >= 0; s-- {
		if n.IsLeaf() {
			r := n.MerkleRoot(zh)
			for z := s + 1; z < len(tree.ZeroHashes); z++ {
				if tree.ZeroHashes[z] == r {
					return tree.ZeroHashes[z-s-1], true
				}
			}
			return [32]byte{}, false
		}
		if g>>s&1 == 0 {
			n, _ = n.Left()
		} else {
			n, _ = n.Right()
		}
	}
	return n.MerkleRoot(zh), true
}

type mtree interface {
	Root() [32]byte
	Node(uint64) ([32]byte, error)
	Prove(uint64) (sszx.Proof, error)
}

// zcheck compares o with z: the root, and nodes and proofs at random
// gindices about the first chunks (cd the leaves' depth, nch their
// number); those of more than stop bits ours may refuse.
func zcheck(t *testing.T, what string, o mtree, z view.View, cd int, nch uint64, stop int, r *rand.Rand) {
	t.Helper()
	root, want := o.Root(), z.HashTreeRoot(zh)
	if root != want {
		t.Fatalf("%s: root %x, ztyp %x", what, root, [32]byte(want))
	}
	gs := []uint64{1, 2, 3, 4, 6, 7}
	for range 6 {
		i := r.Uint64N(nch + 3) // leaf i is 1<<cd | i
		l := r.IntN(min(cd, 63) + 1)
		g := uint64(1)<<l | i>>(cd-l)
		if r.IntN(4) == 0 && l < 60 {
			g = g<<(1+r.IntN(3)) | r.Uint64N(2)
		}
		gs = append(gs, g)
	}
	var ms []uint64
	for _, g := range gs {
		zn, ok := ztNode(z.Backing(), g)
		n, err := o.Node(g)
		if !ok && err == nil {
			t.Fatalf("%s: Node(%d) %x, ztyp has none", what, g, n)
		}
		if !ok || (err != nil && bits.Len64(g) > stop) {
			continue
		}
		if err != nil || n != zn {
			t.Fatalf("%s: Node(%d) %x %v, ztyp %x", what, g, n, err, zn)
		}
		p, err := o.Prove(g)
		if err != nil || p.Leaf != zn || p.Verify(want) != nil {
			t.Fatalf("%s: Prove(%d) %v %v", what, g, p, err)
		}
		ms = append(ms, g)
		for k, h := range p.Branch {
			if s, _ := ztNode(z.Backing(), (g>>k)^1); s != h {
				t.Fatalf("%s: Prove(%d) branch %d %x, ztyp %x", what, g, k, h, s)
			}
		}
	}
	ms = slices.Compact(slices.Sorted(slices.Values(ms)))
	mp, err := o.(interface {
		ProveMulti([]uint64) (sszx.Multiproof, error)
	}).ProveMulti(ms)
	if err != nil || mp.Verify(want) != nil {
		t.Fatalf("%s: ProveMulti(%v): %v", what, ms, err)
	}
	for k, g := range sszx.HelperIndices(ms) {
		if s, _ := ztNode(z.Backing(), g); s != mp.Helpers[k] {
			t.Fatalf("%s: ProveMulti(%v) helper %d %x, ztyp %x", what, ms, g, mp.Helpers[k], s)
		}
	}
}

var zlimits = []uint64{0, 1, 2, 3, 5, 8, 9, 63, 1000, 1 << 40, 1<<61 + 1}

type zstep struct {
	n               func(i int) uint64
	set, app, trunc func(i int, j, m uint64)
	copy, compact   func(i int)
	check           func(i int, what string)
}

// zrun drives random steps on up to three copies, checking each now and
// then, so that several changes come between roots.
func zrun(t *testing.T, r *rand.Rand, lim uint64, s zstep) {
	copies := 1
	for step := range 40 {
		i := r.IntN(copies)
		n := s.n(i)
		switch op := r.IntN(8); {
		case op == 0 && copies < 3:
			s.copy(i)
			copies++
		case op == 1 && s.compact != nil:
			s.compact(i)
		case op <= 3 && n > 0:
			for range 1 + r.IntN(4) {
				s.set(i, r.Uint64N(n), n)
			}
		case op <= 5 && n < lim:
			s.app(i, n, min(lim-n, 1+r.Uint64N([]uint64{8, 300}[r.IntN(2)])))
		case n > 0:
			s.trunc(i, r.Uint64N(n+1), n)
		}
		for c := range copies {
			if step == 39 || r.IntN(3) > 0 {
				s.check(c, fmt.Sprintf("step %d copy %d", step, c))
			}
		}
	}
}

func TestZtypBasicList(t *testing.T) {
	zbasic(t, view.Uint64Type, func(x uint64) (uint64, view.BasicView) { return x, view.Uint64View(x) })
	zbasic(t, view.Uint32Type, func(x uint64) (uint32, view.BasicView) { return uint32(x), view.Uint32View(x) })
	zbasic(t, view.Uint16Type, func(x uint64) (uint16, view.BasicView) { return uint16(x), view.Uint16View(x) })
	zbasic(t, view.Uint8Type, func(x uint64) (uint8, view.BasicView) { return uint8(x), view.Uint8View(x) })
}

func zbasic[T sszx.Basic](t *testing.T, et view.BasicTypeDef, mk func(uint64) (T, view.BasicView)) {
	for _, lim := range zlimits {
		r := rand.New(rand.NewPCG(lim, 7))
		zt := view.BasicListType(et, lim)
		per := 32 / et.TypeByteLength()
		n0 := r.Uint64N(min(lim, 9000) + 1)
		var vals []T
		var zv []view.BasicView
		for range n0 {
			v, w := mk(r.Uint64())
			vals, zv = append(vals, v), append(zv, w)
		}
		z0 := zt.New() // FromElements of none is unhashable
		if n0 > 0 {
			z0, _ = zt.FromElements(zv...)
		}
		o := []*sszx.BasicList[T]{sszx.NewBasicList(vals, lim)}
		z := []*view.BasicListView{z0}
		m := [][]T{vals}
		cd := sszx.Depth(lim/per + (lim%per+per-1)/per)
		zrun(t, r, lim, zstep{
			n: func(i int) uint64 { return o[i].Len() },
			set: func(i int, j, n uint64) {
				k := 1 + r.Uint64N(min(n-j, []uint64{100, 3000}[r.IntN(2)]))
				vs := make([]T, k)
				for x := range vs {
					v, w := mk(r.Uint64())
					vs[x], m[i][j+uint64(x)] = v, v
					z[i].Set(j+uint64(x), w)
					if k < 3 {
						o[i].Set(j+uint64(x), v)
					}
				}
				if k >= 3 {
					o[i].SetRange(j, vs)
				}
			},
			app: func(i int, _, k uint64) {
				for range k {
					v, w := mk(r.Uint64())
					o[i].Append(v)
					z[i].Append(w)
					m[i] = append(m[i], v)
				}
			},
			trunc: func(i int, k, n uint64) {
				o[i].Truncate(k)
				m[i] = m[i][:k:k]
				for range n - k {
					z[i].Pop()
				}
			},
			copy: func(i int) {
				c, _ := z[i].Copy()
				o, z = append(o, o[i].Copy()), append(z, c.(*view.BasicListView))
				m = append(m, slices.Clone(m[i]))
			},
			compact: func(i int) { o[i].Compact() },
			check: func(i int, what string) {
				what = fmt.Sprintf("%T limit %d %s", vals, lim, what)
				if sszx.BasicListRoot(m[i], lim) != z[i].HashTreeRoot(zh) {
					t.Fatalf("%s: BasicListRoot of %d differs from ztyp", what, len(m[i]))
				}
				if n := o[i].Len(); n > 0 {
					j := r.Uint64N(n)
					if g := o[i].Gindex(j); g != 2<<cd|j/per {
						t.Fatalf("%s: Gindex(%d) %d", what, j, g)
					}
				}
				zcheck(t, what, o[i], z[i], cd+1, (o[i].Len()+per-1)/per, 99, r)
			},
		})
	}
}

// zlist is a ComplexList of elements whose roots ours holds.
type zlist struct {
	t    *view.ComplexListTypeDef
	z    []*view.ComplexListView
	elem func() (view.View, [][32]byte)
}

func (l *zlist) trunc(i int, m uint64) {
	es := make([]view.View, m)
	for j := range es {
		es[j], _ = l.z[i].Get(uint64(j))
	}
	l.z[i] = l.from(es...)
}

// init makes n elements.
func (l *zlist) init(n uint64) (zs []view.View, cs [][32]byte) {
	for range n {
		z, c := l.elem()
		zs, cs = append(zs, z), append(cs, c...)
	}
	return zs, cs
}

// from is FromElements, which leaves an empty list of limit 1 unhashable.
func (l *zlist) from(es ...view.View) *view.ComplexListView {
	if len(es) == 0 {
		return l.t.New()
	}
	z, _ := l.t.FromElements(es...)
	return z
}

func TestZtypChunkList(t *testing.T) {
	for _, lim := range zlimits {
		r := rand.New(rand.NewPCG(lim, 8))
		l := &zlist{t: view.ComplexListType(view.RootType, lim), elem: func() (view.View, [][32]byte) {
			c := randChunks(r, 1)
			v := view.RootView(c[0])
			return &v, c
		}}
		zs, cs := l.init(r.Uint64N(min(lim, 1500) + 1))
		o := []*sszx.Chunks{sszx.NewChunkList(cs, lim)}
		l.z = []*view.ComplexListView{l.from(zs...)}
		cd := sszx.Depth(lim)
		zrun(t, r, lim, zstep{
			n: func(i int) uint64 { return o[i].Len() },
			set: func(i int, j, n uint64) {
				var js []uint64
				var cs [][32]byte
				run := r.IntN(3) == 0 // a stretch, SetRange
				for x := range 1 + r.Uint64N(min(n-j, []uint64{40, 600}[r.IntN(2)])) {
					v, c := l.elem()
					js, cs = append(js, j+x), append(cs, c[0])
					if !run && r.IntN(3) == 0 {
						js[x] = r.Uint64N(n)
					}
					l.z[i].Set(js[x], v)
				}
				switch {
				case run:
					o[i].SetRange(j, cs)
				case r.IntN(2) == 0:
					o[i].SetMany(js, cs)
				default:
					for x := range js {
						o[i].Set(js[x], cs[x])
					}
				}
			},
			app: func(i int, _, m uint64) {
				for range m {
					v, c := l.elem()
					o[i].Append(c[0])
					l.z[i].Append(v)
				}
			},
			trunc: func(i int, m, _ uint64) { o[i].Truncate(m); l.trunc(i, m) },
			copy: func(i int) {
				c, _ := l.z[i].Copy()
				o, l.z = append(o, o[i].Copy()), append(l.z, c.(*view.ComplexListView))
			},
			compact: func(i int) { o[i].Compact() },
			check: func(i int, what string) {
				what = fmt.Sprintf("limit %d %s", lim, what)
				n := o[i].Len()
				cs := make([][32]byte, n)
				for j := range cs {
					v, _ := l.z[i].Get(uint64(j))
					cs[j] = v.HashTreeRoot(zh)
				}
				if sszx.ListRoot(cs, lim) != l.z[i].HashTreeRoot(zh) {
					t.Fatalf("%s: ListRoot differs from ztyp", what)
				}
				zcheck(t, what, o[i], l.z[i], cd+1, n, 99, r)
			},
		})
	}
}

func TestZtypContainerList(t *testing.T) {
	for _, k := range []int{1, 2, 3, 5, 8} {
		var fd []view.FieldDef
		for f := range k {
			fd = append(fd, view.FieldDef{Name: string(rune('a' + f)), Type: []view.TypeDef{view.Uint64Type, view.RootType}[f%2]})
		}
		ct := view.ContainerType("C", fd)
		for _, lim := range zlimits {
			r := rand.New(rand.NewPCG(lim, uint64(k)))
			field := func(f int) (view.View, [32]byte) {
				c := randChunks(r, 1)[0]
				if f%2 == 0 {
					v := binary.LittleEndian.Uint64(c[:])
					clear(c[8:])
					return view.Uint64View(v), c
				}
				v := view.RootView(c)
				return &v, c
			}
			l := &zlist{t: view.ComplexListType(ct, lim), elem: func() (view.View, [][32]byte) {
				vs, cs := make([]view.View, k), make([][32]byte, k)
				for f := range k {
					vs[f], cs[f] = field(f)
				}
				c, _ := ct.FromFields(vs...)
				return c, cs
			}}
			zs, cs := l.init(r.Uint64N(min(lim, 600) + 1))
			o := []*sszx.ContainerList{sszx.NewContainerList(k, cs, lim)}
			l.z = []*view.ComplexListView{l.from(zs...)}
			cd := sszx.Depth(lim)
			zrun(t, r, lim, zstep{
				n: func(i int) uint64 { return o[i].Len() },
				set: func(i int, j, _ uint64) {
					if r.IntN(2) == 0 {
						v, c := l.elem()
						o[i].Set(j, c)
						l.z[i].Set(j, v)
						return
					}
					f := r.IntN(k)
					v, c := field(f)
					o[i].SetField(j, f, c)
					e, _ := l.z[i].Get(j)
					e.(*view.ContainerView).Set(uint64(f), v)
				},
				app: func(i int, _, m uint64) {
					for range m {
						v, c := l.elem()
						o[i].Append(c)
						l.z[i].Append(v)
					}
				},
				trunc: func(i int, m, _ uint64) { o[i].Truncate(m); l.trunc(i, m) },
				copy: func(i int) {
					c, _ := l.z[i].Copy()
					o, l.z = append(o, o[i].Copy()), append(l.z, c.(*view.ComplexListView))
				},
				compact: func(i int) { o[i].Compact() },
				check: func(i int, what string) {
					what = fmt.Sprintf("k %d limit %d %s", k, lim, what)
					n := o[i].Len()
					fs := make([][32]byte, 0, int(n)*k)
					for j := range n {
						e, _ := l.z[i].Get(j)
						for f := range k {
							fv, _ := e.(*view.ContainerView).Get(uint64(f))
							fs = append(fs, fv.HashTreeRoot(zh))
						}
					}
					rs := make([][32]byte, n)
					sszx.ContainerRoots(rs, fs, k)
					if sszx.ListRoot(rs, lim) != l.z[i].HashTreeRoot(zh) {
						t.Fatalf("%s: ContainerRoots+ListRoot differ from ztyp", what)
					}
					if n > 0 {
						if j := r.Uint64N(n); o[i].Gindex(j) != 2<<cd|j {
							t.Fatalf("%s: Gindex(%d) %d", what, j, o[i].Gindex(j))
						}
					}
					zcheck(t, what, o[i], l.z[i], cd+1, n, cd+2, r)
				},
			})
		}
	}
}

func TestZtypBitlist(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, lim := range append(zlimits[:9], 255, 256, 257, 511, 512, 513, 2048, 1<<20) {
		for range 20 {
			bs := make([]bool, r.Uint64N(min(lim, 1500)+1))
			for i := range bs {
				bs[i] = r.IntN(2) == 0
			}
			z := view.BitListType(lim).New()
			if len(bs) > 0 {
				z, _ = view.BitListType(lim).FromBits(bs)
			}
			var b bytes.Buffer
			z.Serialize(codec.NewEncodingWriter(&b))
			got, err := sszx.BitlistRoot(b.Bytes(), lim)
			if want := z.HashTreeRoot(zh); err != nil || got != want {
				t.Fatalf("limit %d, %d bits: BitlistRoot %x %v, ztyp %x", lim, len(bs), got, err, [32]byte(want))
			}
			if len(bs) > 0 {
				if _, err := sszx.BitlistRoot(b.Bytes(), uint64(len(bs)-1)); err == nil {
					t.Fatalf("limit %d, %d bits: no error under limit %d", lim, len(bs), len(bs)-1)
				}
			}
		}
	}
}

func TestZtypStatic(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for _, lim := range append(zlimits[:10], 4, 7, 16, 255, 256, 257, 1<<20) {
		for range 12 {
			cs := randChunks(r, int(r.Uint64N(min(lim, 700)+1)))
			n := uint64(len(cs))
			b := flat(cs)[:max(0, 32*int(n)-r.IntN(32))]
			want := tree.Merkleize(zh, n, lim, func(i uint64) tree.Root { return cs[i] })
			if got := sszx.Merkleize(cs, lim); got != want {
				t.Fatalf("Merkleize(%d chunks, %d) %x, ztyp %x", n, lim, got, [32]byte(want))
			}
			want = zh.ChunksHTR(func(i uint64) (c tree.Root) { copy(c[:], b[32*i:]); return }, n, lim)
			if got := sszx.MerkleizeBytes(b, lim); got != want {
				t.Fatalf("MerkleizeBytes(%d bytes, %d) %x, ztyp %x", len(b), lim, got, [32]byte(want))
			}
			if got, want := sszx.ByteListRoot(b, 32*lim), zh.ByteListHTR(b, 32*lim); got != want {
				t.Fatalf("ByteListRoot(%d bytes, %d) %x, ztyp %x", len(b), 32*lim, got, [32]byte(want))
			}
			if got, want := sszx.ByteVectorRoot(b), zh.ByteVectorHTR(b); got != want || sszx.BitvectorRoot(b) != zh.BitVectorHTR(b) {
				t.Fatalf("ByteVectorRoot(%d bytes) %x, ztyp %x", len(b), got, [32]byte(want))
			}
			us := make([]uint64, len(b)/8)
			for i := range us {
				us[i] = binary.LittleEndian.Uint64(b[8*i:])
			}
			if got, want := sszx.BasicVectorRoot(us), zh.Uint64VectorHTR(func(i uint64) uint64 { return us[i] }, uint64(len(us))); got != want {
				t.Fatalf("BasicVectorRoot(%d) %x, ztyp %x", len(us), got, [32]byte(want))
			}
			k := 1 + r.IntN(min(20, len(cs)+1))
			if len(cs) >= k {
				cs = cs[:len(cs)/k*k]
				rs := make([][32]byte, len(cs)/k)
				sszx.ContainerRoots(rs, cs, k)
				for i := range rs {
					if want := zh.ComplexVectorHTR(func(j uint64) tree.HTR { return tree.Root(cs[i*k+int(j)]) }, uint64(k)); rs[i] != want {
						t.Fatalf("ContainerRoots k %d, container %d of %d: %x, ztyp %x", k, i, len(rs), rs[i], [32]byte(want))
					}
				}
			}
		}
	}
}
