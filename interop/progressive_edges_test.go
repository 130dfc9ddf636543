package interop

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	dynssz "github.com/pk910/dynamic-ssz"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// Progressive merkleization at the subtrees' edges, against dynamic-ssz:
// lists whose chunks number one less, as many as, and one more than the
// chunks of the first k subtrees (0, 1, 5, 21, 85, 341, 1365, 5461; also a
// subtree's size, 1, 4, 16, ...) for elements of 1, 2, 4, 8 and 32 bytes
// and containers; bitlists of 256 bits times those counts, give or take a
// bit or a byte, dense, sparse, all ones and all zeros; and
// ProgressiveContainers of random active_fields up to 256 long (the last
// field at 255, fields at each subtree's edges), their struct types built
// with reflect.StructOf.

// progEdges are the chunk counts at the subtrees' edges: the totals of the
// first k subtrees, (4^k-1)/3, and the size of subtree k, 4^k.
var progEdges = []int{0, 1, 2, 4, 5, 16, 21, 64, 85, 256, 341, 1024, 1365, 4096, 5461}

// edgeCounts returns the element counts around each edge, per elements to
// a chunk: each edge's count, one less and one more.
func edgeCounts(per int) []int {
	var ns []int
	seen := map[int]bool{}
	for _, c := range progEdges {
		for _, n := range []int{c*per - 1, c * per, c*per + 1} {
			if n >= 0 && !seen[n] {
				seen[n] = true
				ns = append(ns, n)
			}
		}
	}
	return ns
}

type progBytes struct {
	X []byte `ssz-type:"progressive-list"`
}

type progUint16s struct {
	X []uint16 `ssz-type:"progressive-list"`
}

type progUint32s struct {
	X []uint32 `ssz-type:"progressive-list"`
}

type progRoots struct {
	X [][32]byte `ssz-type:"progressive-list"`
}

func TestProgressiveEdgesDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7916, 341))
	cases := 0
	check := func(what string, n int, got [32]byte, x any) {
		t.Helper()
		cases++
		if want := dynRoot(t, d, x); oneField(t, got) != want {
			t.Fatalf("%s of %d: %x, dynamic-ssz %x", what, n, got, want)
		}
	}
	for _, n := range edgeCounts(32) {
		x := make([]byte, n)
		for i := range x {
			x[i] = byte(r.Uint32())
		}
		check("ProgressiveList[Uint8]", n, sszx.ProgressiveBasicListRoot(x), &progBytes{x})
	}
	for _, n := range edgeCounts(16) {
		x := make([]uint16, n)
		for i := range x {
			x[i] = uint16(r.Uint32())
		}
		check("ProgressiveList[Uint16]", n, sszx.ProgressiveBasicListRoot(x), &progUint16s{x})
	}
	for _, n := range edgeCounts(8) {
		x := make([]uint32, n)
		for i := range x {
			x[i] = r.Uint32()
		}
		check("ProgressiveList[Uint32]", n, sszx.ProgressiveBasicListRoot(x), &progUint32s{x})
	}
	for _, n := range edgeCounts(4) {
		x := make([]uint64, n)
		for i := range x {
			x[i] = r.Uint64()
		}
		check("ProgressiveList[Uint64]", n, sszx.ProgressiveBasicListRoot(x), &progUint64s{x})
	}
	for _, n := range edgeCounts(1) {
		x := randChunks(r, n)
		check("ProgressiveList[Bytes32]", n, sszx.ProgressiveListRoot(x), &progRoots{x})
		l := sszx.NewProgressiveList(x[:n/3])
		for _, c := range x[n/3:] {
			l.Append(c)
		}
		check("ProgressiveList[Bytes32] appended to", n, l.Root(), &progRoots{x})
		es := make([]progElem, n)
		roots := make([][32]byte, n)
		for i := range es {
			es[i].A, es[i].B = r.Uint64(), x[i]
			roots[i] = sszx.Merkleize([][32]byte{le(es[i].A), es[i].B}, 2)
		}
		check("ProgressiveList of containers", n, sszx.ProgressiveListRoot(roots), &progElems{es})
	}
	for _, c := range progEdges {
		for _, n := range []int{256*c - 8, 256*c - 1, 256 * c, 256*c + 1, 256*c + 8} {
			if n < 0 {
				continue
			}
			for mode := range 4 { // random, sparse, all zero, all one
				bits := make([]bool, n)
				for i := range bits {
					bits[i] = [4]bool{r.IntN(2) == 0, r.IntN(300) == 0, false, true}[mode]
				}
				ser := bitsBytes(bits)
				got, err := sszx.ProgressiveBitlistRoot(ser)
				if err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("ProgressiveBitList (mode %d)", mode), n, got, &progBits{ser})
				var l sszx.ProgressiveBitlist // the zero value, appended to
				for _, v := range bits {
					l.Append(v)
				}
				check(fmt.Sprintf("ProgressiveBitlist appended to (mode %d)", mode), n, l.Root(), &progBits{ser})
			}
		}
	}
	t.Logf("%d lists and bitlists", cases)
}

// randProgContainer returns a value of a new struct type, a
// ProgressiveContainer whose active_fields are active (its fields tagged
// with their indices), its fields random uint64s, Bytes32s, booleans,
// progressive bitlists and progressive lists of Uint64, and the roots of
// its fields.
func randProgContainer(r *rand.Rand, active []bool) (any, [][32]byte) {
	var fields []reflect.StructField
	var roots [][32]byte
	var vals []reflect.Value
	for i, a := range active {
		if !a {
			continue
		}
		f := reflect.StructField{Name: fmt.Sprintf("F%d", i), Tag: reflect.StructTag(fmt.Sprintf(`ssz-index:"%d"`, i))}
		var v any
		var root [32]byte
		switch r.IntN(5) {
		case 0:
			x := r.Uint64()
			v, root = x, le(x)
		case 1:
			x := randChunks(r, 1)[0]
			v, root = x, x
		case 2:
			x := r.IntN(2) == 0
			v = x
			if x {
				root[0] = 1
			}
		case 3:
			bits := make([]bool, r.IntN(600))
			for j := range bits {
				bits[j] = r.IntN(2) == 0
			}
			x := bitsBytes(bits)
			v = x
			root, _ = sszx.ProgressiveBitlistRoot(x)
			f.Tag += ` ssz-type:"progressive-bitlist"`
		default:
			x := make([]uint64, r.IntN(100))
			for j := range x {
				x[j] = r.Uint64()
			}
			v, root = x, sszx.ProgressiveBasicListRoot(x)
			f.Tag += ` ssz-type:"progressive-list"`
		}
		f.Type = reflect.TypeOf(v)
		fields = append(fields, f)
		vals = append(vals, reflect.ValueOf(v))
		roots = append(roots, root)
	}
	p := reflect.New(reflect.StructOf(fields))
	for k, v := range vals {
		p.Elem().Field(k).Set(v)
	}
	return p.Interface(), roots
}

// TestProgressiveContainerEdgesDynamicSSZ: ProgressiveContainers of random
// fields, their active_fields the edge cases (one field at 0, one at 255,
// 0 and 255, all 256, fields at each subtree's first and last index) and
// random ones of 1 to 256 entries, against dynamic-ssz.
func TestProgressiveContainerEdgesDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	r := rand.New(rand.NewPCG(7495, 255))
	only := func(n int, at ...int) []bool {
		a := make([]bool, n)
		for _, i := range at {
			a[i] = true
		}
		return a
	}
	all := make([]bool, 256)
	for i := range all {
		all[i] = true
	}
	shapes := [][]bool{
		only(1, 0), only(256, 255), only(256, 0, 255), all,
		only(2, 1), only(5, 4), only(6, 5), only(21, 20), only(22, 21), only(85, 84), only(86, 85),
		only(256, 0, 1, 4, 5, 20, 21, 84, 85, 255),
	}
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for range rounds {
		a := make([]bool, 1+r.IntN(256))
		density := r.Float64()
		for i := range a {
			a[i] = r.Float64() < density
		}
		a[len(a)-1] = true
		shapes = append(shapes, a)
	}
	for k, active := range shapes {
		x, roots := randProgContainer(r, active)
		got := sszx.ProgressiveContainerRoot(roots, active)
		if want := dynRoot(t, d, x); got != want {
			t.Fatalf("shape %d, %d active_fields: %x, dynamic-ssz %x", k, len(active), got, want)
		}
	}
	t.Logf("%d containers", len(shapes))
}
