package hashtree

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// refProgressive is the specs' merkleize_progressive(chunks, num_leaves),
// written out as the specs recurse.
func refProgressive(chunks [][32]byte, numLeaves int) [32]byte {
	if len(chunks) == 0 {
		return [32]byte{}
	}
	a := refMerkleize(chunks[:min(len(chunks), numLeaves)], uint64(numLeaves))
	b := refProgressive(chunks[min(len(chunks), numLeaves):], numLeaves*4)
	return refPair(a, b)
}

func TestMerkleizeProgressive(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 7916))
	for n := range 400 {
		if n > 100 && n%17 != 0 {
			continue
		}
		c := randChunks(r, n)
		if got, want := MerkleizeProgressive(c), refProgressive(c, 1); got != want {
			t.Fatalf("%d chunks: %x, want %x", n, got, want)
		}
		if got, want := ProgressiveListRoot(c), refMixIn(refProgressive(c, 1), uint64(n)); got != want {
			t.Fatalf("ProgressiveListRoot of %d: %x, want %x", n, got, want)
		}
		vals := make([]uint16, n)
		for i := range vals {
			vals[i] = uint16(r.Uint32())
		}
		b := make([]byte, 2*n)
		for i, v := range vals {
			b[2*i], b[2*i+1] = byte(v), byte(v>>8)
		}
		if got, want := ProgressiveBasicListRoot(vals), refMixIn(refProgressive(refPack(b), 1), uint64(n)); got != want {
			t.Fatalf("ProgressiveBasicListRoot of %d: %x, want %x", n, got, want)
		}
	}
	// A bitlist of 10 bits, 1011000101: serialized with its delimiter.
	bits := []byte{0b10001101, 0b110}
	want := refMixIn(refProgressive(refPack([]byte{0b10001101, 0b10}), 1), 10)
	if got, err := ProgressiveBitlistRoot(bits); err != nil || got != want {
		t.Fatalf("ProgressiveBitlistRoot: %x, %v; want %x", got, err, want)
	}
	if _, err := ProgressiveBitlistRoot([]byte{1, 0}); err == nil {
		t.Fatal("a bitlist without its delimiter: no error")
	}
	// active_fields [1, 0, 1]: the fields at 0 and 2, a zero chunk at 1.
	f := randChunks(r, 2)
	var act [32]byte
	act[0] = 0b101
	if got, want := ProgressiveContainerRoot(f, []bool{true, false, true}), refPair(refProgressive([][32]byte{f[0], {}, f[1]}, 1), act); got != want {
		t.Fatalf("ProgressiveContainerRoot: %x, want %x", got, want)
	}
	panicsWith(t, "sha256x: hashtree: ProgressiveContainerRoot of 2 active fields, not 1..256 ending in an active one", func() { ProgressiveContainerRoot(f, []bool{true, false}) })
}

// checkProgList runs random sets, appends, truncations and copies on a
// ProgressiveList of n0 roots, each root against ProgressiveListRoot of the
// current roots.
func checkProgList(t *testing.T, o *ops, n0, steps int) {
	t.Helper()
	cur := randChunks(o.R, n0)
	type model struct {
		l   *ProgressiveList
		cur [][32]byte
	}
	ms := []*model{{NewProgressiveList(cur), slices.Clone(cur)}}
	if o.N(4) == 0 {
		ms[0].l = &ProgressiveList{} // the zero value, then appended to
		for _, c := range cur {
			ms[0].l.Append(c)
		}
	}
	for step := range steps {
		m := ms[o.N(len(ms))]
		n := len(m.cur)
		switch op := o.N(8); {
		case op < 2 && n > 0:
			for range 1 + o.N(50) {
				i, c := o.N(n), randChunks(o.R, 1)[0]
				m.l.Set(uint64(i), c)
				m.cur[i] = c
			}
		case op == 7:
			a := o.N(n + 1)
			cs := randChunks(o.R, o.N(n-a+1))
			m.l.SetRange(uint64(a), cs)
			copy(m.cur[a:], cs)
		case op < 4:
			for range o.N(1 + o.N(100)) {
				c := randChunks(o.R, 1)[0]
				m.l.Append(c)
				m.cur = append(m.cur, c)
			}
		case op < 5:
			k := o.N(n + 1)
			m.l.Truncate(uint64(k))
			m.cur = m.cur[:k]
		case op == 6:
			m.l.Compact()
		case len(ms) < 4:
			ms = append(ms, &model{m.l.Copy(), slices.Clone(m.cur)})
		}
		if o.N(2) == 0 || step == steps-1 {
			for k, m := range ms {
				if got, want := m.l.Root(), ProgressiveListRoot(m.cur); got != want {
					t.Fatalf("from %d, step %d, copy %d, %d roots: %x, want %x", n0, step, k, len(m.cur), got, want)
				}
				if m.l.Len() != uint64(len(m.cur)) {
					t.Fatalf("Len %d, want %d", m.l.Len(), len(m.cur))
				}
				if len(m.cur) > 0 {
					i := o.N(len(m.cur))
					if m.l.Get(uint64(i)) != m.cur[i] {
						t.Fatalf("Get(%d) wrong", i)
					}
					checkProgProof(t, m.l, NewProgressiveList(m.cur), m.l.Gindex(uint64(i)))
				}
			}
		}
	}
}

// TestProgressiveList: random sets, appends, truncations and copies, each
// root against a full rebuild of the current roots.
func TestProgressiveList(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for _, n0 := range []int{0, 1, 5, 21, 100, 1500} {
		checkProgList(t, &ops{R: rand.New(rand.NewPCG(uint64(n0), 7916))}, n0, steps)
	}
	l := NewProgressiveList(nil)
	panicsWith(t, "sha256x: hashtree: ProgressiveList.Set(0) past the length 0", func() { l.Set(0, [32]byte{}) })
	panicsWith(t, "sha256x: hashtree: ProgressiveList.Get(0) past the length 0", func() { l.Get(0) })
	panicsWith(t, "sha256x: hashtree: ProgressiveList.Truncate(1) past the length 0", func() { l.Truncate(1) })
	panicsWith(t, "sha256x: hashtree: ProgressiveList.SetRange(0) of 1 roots past the length 0", func() { l.SetRange(0, make([][32]byte, 1)) })
}

// serializeBits returns the SSZ serialization of a bitlist: the bits, then
// the delimiting bit.
func serializeBits(bits []bool) []byte {
	b := make([]byte, len(bits)/8+1)
	for i, v := range bits {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	b[len(bits)/8] |= 1 << (len(bits) % 8)
	return b
}

// refProgBitlist is the specs' root of a ProgressiveBitList:
// mix_in_length(merkleize_progressive(pack_bits(bits)), len(bits)).
func refProgBitlist(bits []bool) [32]byte {
	b := make([]byte, (len(bits)+7)/8)
	for i, v := range bits {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	return refMixIn(refProgressive(refPack(b), 1), uint64(len(bits)))
}

// checkProgBitlist runs random bit sets, appends, truncations and copies on
// a ProgressiveBitlist of n0 bits, each root against ProgressiveBitlistRoot
// of the current bits' serialization (and, while short, the reference).
func checkProgBitlist(t *testing.T, o *ops, n0, steps int) {
	t.Helper()
	randBits := func(n int) []bool {
		b := make([]bool, n)
		dense := o.N(3) // mostly zero, random, mostly one
		for i := range b {
			b[i] = o.R.IntN(8) < 1+3*dense
		}
		return b
	}
	cur := randBits(n0)
	type model struct {
		l   *ProgressiveBitlist
		cur []bool
	}
	l, err := NewProgressiveBitlist(serializeBits(cur))
	if err != nil {
		t.Fatal(err)
	}
	ms := []*model{{l, cur}}
	if o.N(4) == 0 {
		ms[0].l = &ProgressiveBitlist{} // the zero value, then appended to
		for _, v := range cur {
			ms[0].l.Append(v)
		}
	}
	for step := range steps {
		m := ms[o.N(len(ms))]
		n := len(m.cur)
		switch op := o.N(8); {
		case op < 2 && n > 0:
			for range 1 + o.N(300) {
				i, v := o.N(n), o.N(2) == 0
				m.l.Set(uint64(i), v)
				m.cur[i] = v
			}
		case op < 4:
			for _, v := range randBits(o.N(1 + o.N(700))) {
				m.l.Append(v)
				m.cur = append(m.cur, v)
			}
		case op < 5:
			k := o.N(n + 1)
			if o.N(2) == 0 && n > 0 {
				k = n - 1 - o.N(min(n, 9)) // a few bits, within the chunk
			}
			m.l.Truncate(uint64(k))
			m.cur = m.cur[:k]
		case op < 6 && len(ms) < 4:
			ms = append(ms, &model{m.l.Copy(), slices.Clone(m.cur)})
		case op == 6 && n > 0: // a stretch of one value (a committee's bits)
			a, v := o.N(n), o.N(2) == 0
			for i := a; i < min(n, a+o.N(600)); i++ {
				m.l.Set(uint64(i), v)
				m.cur[i] = v
			}
		case op == 7:
			m.l.Compact()
		}
		if o.N(2) == 0 || step == steps-1 {
			for k, m := range ms {
				ser := serializeBits(m.cur)
				want, err := ProgressiveBitlistRoot(ser)
				if err != nil {
					t.Fatal(err)
				}
				if got := m.l.Root(); got != want {
					t.Fatalf("from %d, step %d, copy %d, %d bits: %x, want %x", n0, step, k, len(m.cur), got, want)
				}
				if len(m.cur) < 3000 && o.N(4) == 0 {
					if ref := refProgBitlist(m.cur); ref != want {
						t.Fatalf("%d bits: ProgressiveBitlistRoot %x, the reference %x", len(m.cur), want, ref)
					}
				}
				if !bytes.Equal(m.l.Bytes(), ser) {
					t.Fatalf("%d bits: Bytes %x, want %x", len(m.cur), m.l.Bytes(), ser)
				}
				if m.l.Len() != uint64(len(m.cur)) {
					t.Fatalf("Len %d, want %d", m.l.Len(), len(m.cur))
				}
				if len(m.cur) > 0 {
					i := o.N(len(m.cur))
					if m.l.Get(uint64(i)) != m.cur[i] {
						t.Fatalf("Get(%d) wrong", i)
					}
					fresh, _ := NewProgressiveBitlist(ser)
					checkProgProof(t, m.l, fresh, m.l.Gindex(uint64(i)))
				}
			}
		}
	}
}

func TestProgressiveBitlist(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for _, n0 := range []int{0, 1, 8, 255, 256, 257, 1300, 5461 * 256, 5462*256 + 3} {
		if testing.Short() && n0 > 1<<20 {
			continue
		}
		checkProgBitlist(t, &ops{R: rand.New(rand.NewPCG(uint64(n0), 7916))}, n0, steps)
	}
	// Roots from the specs' remerkleable tests: hash(hash(chunk 0x2b, zero
	// chunk), chunk 8) for TTFTFTFF; the empty bitlist has no chunks.
	var c2b, c8 [32]byte
	c2b[0], c8[0] = 0x2b, 8
	if got, err := ProgressiveBitlistRoot([]byte{0x2b, 1}); err != nil || got != refPair(refPair(c2b, [32]byte{}), c8) {
		t.Errorf("TTFTFTFF: %x, %v", got, err)
	}
	if got, err := ProgressiveBitlistRoot([]byte{1}); err != nil || got != refPair([32]byte{}, [32]byte{}) {
		t.Errorf("empty: %x, %v", got, err)
	}
	if (&ProgressiveBitlist{}).Root() != refPair([32]byte{}, [32]byte{}) {
		t.Error("the zero value's root is not the empty bitlist's")
	}
	for _, bad := range [][]byte{nil, {}, {0}, {5, 0}} {
		if _, err := NewProgressiveBitlist(bad); !errors.Is(err, ErrBitlist) {
			t.Errorf("NewProgressiveBitlist(%x): %v, want ErrBitlist", bad, err)
		}
	}
	l, _ := NewProgressiveBitlist([]byte{0b1101})
	panicsWith(t, "sha256x: hashtree: ProgressiveBitlist.Set(3) past the length 3", func() { l.Set(3, true) })
	panicsWith(t, "sha256x: hashtree: ProgressiveBitlist.Get(9) past the length 3", func() { l.Get(9) })
	panicsWith(t, "sha256x: hashtree: ProgressiveBitlist.Truncate(4) past the length 3", func() { l.Truncate(4) })
}

// checkProgContainer sets random fields of a ProgressiveContainer with
// random active_fields of up to max indices, and copies it, each root
// against ProgressiveContainerRoot of the current fields.
func checkProgContainer(t *testing.T, o *ops, max, steps int) {
	t.Helper()
	active := make([]bool, 1+o.N(max))
	var idx []int // the active indices
	for i := range active {
		active[i] = i == len(active)-1 || o.N(3) > 0
		if active[i] {
			idx = append(idx, i)
		}
	}
	fields := randChunks(o.R, len(idx))
	type model struct {
		c      *ProgressiveContainer
		fields [][32]byte
	}
	ms := []*model{{NewProgressiveContainer(fields, active), slices.Clone(fields)}}
	for step := range steps {
		m := ms[o.N(len(ms))]
		switch op := o.N(5); {
		case op < 3:
			for range 1 + o.N(8) {
				k, c := o.N(len(idx)), randChunks(o.R, 1)[0]
				m.c.Set(idx[k], c)
				m.fields[k] = c
			}
		case op == 4:
			m.c.Compact()
		case len(ms) < 4:
			ms = append(ms, &model{m.c.Copy(), slices.Clone(m.fields)})
		}
		if o.N(2) == 0 || step == steps-1 {
			for k, m := range ms {
				want := ProgressiveContainerRoot(m.fields, active)
				if got := m.c.Root(); got != want {
					t.Fatalf("%d fields of %d, step %d, copy %d: %x, want %x", len(idx), len(active), step, k, got, want)
				}
				j := o.N(len(idx))
				if m.c.Get(idx[j]) != m.fields[j] {
					t.Fatalf("Get(%d) wrong", idx[j])
				}
				i := o.N(len(active) + 2)
				if m.c.Active(i) != (i < len(active) && active[i]) {
					t.Fatalf("Active(%d) wrong", i)
				}
				checkProgProof(t, m.c, NewProgressiveContainer(m.fields, active), m.c.Gindex(o.N(len(active))))
			}
		}
	}
	if m := ms[0]; len(m.fields) > 0 {
		chunks := make([][32]byte, len(active))
		var bits [32]byte
		for k, i := range idx {
			chunks[i] = m.fields[k]
			bits[i/8] |= 1 << (i % 8)
		}
		if got, want := m.c.Root(), refPair(refProgressive(chunks, 1), bits); got != want {
			t.Fatalf("%d fields of %d: %x, the reference %x", len(idx), len(active), got, want)
		}
	}
}

func TestProgressiveContainer(t *testing.T) {
	steps := 200
	if testing.Short() {
		steps = 40
	}
	for seed := range uint64(40) {
		checkProgContainer(t, &ops{R: rand.New(rand.NewPCG(seed, 7495))}, []int{1, 5, 22, 100, 256}[seed%5], steps)
	}
	c := NewProgressiveContainer(randChunks(rand.New(rand.NewPCG(1, 1)), 2), []bool{true, false, true})
	panicsWith(t, "sha256x: hashtree: ProgressiveContainer.Set(1) of a field not active (active_fields of 3)", func() { c.Set(1, [32]byte{}) })
	panicsWith(t, "sha256x: hashtree: ProgressiveContainer.Set(3) of a field not active (active_fields of 3)", func() { c.Set(3, [32]byte{}) })
	panicsWith(t, "sha256x: hashtree: ProgressiveContainer.Get(-1) of a field not active (active_fields of 3)", func() { c.Get(-1) })
	panicsWith(t, "sha256x: hashtree: NewProgressiveContainer of 0 active fields, not 1..256 ending in an active one", func() { NewProgressiveContainer(nil, nil) })
	panicsWith(t, "sha256x: hashtree: NewProgressiveContainer of 257 active fields, not 1..256 ending in an active one", func() { NewProgressiveContainer(nil, make([]bool, 257)) })
	panicsWith(t, "sha256x: hashtree: NewProgressiveContainer of 1 fields, fewer than the active ones", func() { NewProgressiveContainer(make([][32]byte, 1), []bool{true, true}) })
	panicsWith(t, "sha256x: hashtree: NewProgressiveContainer of 3 fields for 2 active ones", func() { NewProgressiveContainer(make([][32]byte, 3), []bool{true, true}) })
}

// FuzzProgressive drives the progressive types that change with a
// fuzzer's operations: kind picks the list, the bitlist, the container, the
// list of basic values or the list of containers. Their checks prove a
// random element too.
func FuzzProgressive(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0), uint16(5))
	f.Add([]byte{5, 0, 0, 7, 0, 3, 0, 9}, uint8(1), uint16(300))
	f.Add([]byte{1, 1, 0, 2, 0, 0, 0, 1}, uint8(2), uint16(256))
	f.Add([]byte{7, 0, 4, 1, 8, 2}, uint8(3), uint16(1365))
	f.Add([]byte{0, 6, 2, 4, 5, 0, 3}, uint8(4), uint16(342))
	f.Fuzz(func(t *testing.T, b []byte, kind uint8, n uint16) {
		o := &ops{B: b, R: rand.New(rand.NewPCG(uint64(len(b)), uint64(n)))}
		switch kind % 5 {
		case 0:
			checkProgList(t, o, int(n%2000), 30)
		case 1:
			checkProgBitlist(t, o, int(n), 30)
		case 2:
			checkProgContainer(t, o, int(n%256)+1, 30)
		case 3:
			checkBasic(t, o, 0, int(n%3000), 30, func() uint32 { return o.R.Uint32() })
		case 4:
			checkContainers(t, o, int(n%9)+1, 0, int(n%700), 30)
		}
	})
}

// TestProgressiveAllocs: Set, Get and Root of the three progressive types
// allocate nothing once they own their pages.
func TestProgressiveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewPCG(3, 4))
	l := NewProgressiveList(randChunks(r, 5000))
	bl, err := NewProgressiveBitlist(randBytes(r, 1<<14))
	if err != nil {
		t.Fatal(err)
	}
	c := NewProgressiveContainer(randChunks(r, 200), append(make([]bool, 55), slices.Repeat([]bool{true}, 200)...))
	cs := randChunks(r, 64)
	step := func() {
		for k := range 64 {
			l.Set(uint64(r.IntN(5000)), cs[k])
			bl.Set(uint64(r.IntN(int(bl.Len()))), k%2 == 0)
			c.Set(55+r.IntN(200), cs[k])
		}
		_ = l.Get(uint64(r.IntN(5000)))
		_ = bl.Get(uint64(r.IntN(int(bl.Len()))))
		_ = c.Get(55 + r.IntN(200))
		_, _, _ = l.Root(), bl.Root(), c.Root()
	}
	step()
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("%v allocations a round of Sets and Roots", a)
	}
}

// progTree is what the progressive types prove with.
type progTree interface {
	Root() [32]byte
	Node(g uint64) ([32]byte, error)
	Prove(g uint64) (Proof, error)
	ProveMulti(gindices []uint64) (Multiproof, error)
}

// checkProgProof checks that tr's proof of the node at g verifies and is
// that of fresh, built from the same values.
func checkProgProof(t *testing.T, tr, fresh progTree, g uint64) {
	t.Helper()
	p, err := tr.Prove(g)
	if err == nil {
		err = p.Verify(tr.Root())
	}
	q, err2 := fresh.Prove(g)
	if err != nil || err2 != nil || p.Leaf != q.Leaf || !slices.Equal(p.Branch, q.Branch) {
		t.Fatalf("gindex %d: %v, %v, or not a fresh tree's proof", g, err, err2)
	}
}

// refProgTree returns every node by gindex of a progressive list or
// container of chunks whose gindex 3 is mix, as merkleize_progressive
// recurses, and each chunk's gindex.
func refProgTree(chunks [][32]byte, mix [32]byte) (map[uint64][32]byte, []uint64) {
	m := map[uint64][32]byte{3: mix}
	var at []uint64
	var spine func(g uint64, c [][32]byte, depth int) [32]byte
	spine = func(g uint64, c [][32]byte, depth int) [32]byte {
		if len(c) == 0 {
			m[g] = [32]byte{}
			return m[g]
		}
		n := min(len(c), 1<<depth)
		for j := range 1 << depth {
			x := 2*g<<depth + uint64(j)
			m[x] = [32]byte{}
			if j < n {
				m[x] = c[j]
				at = append(at, x)
			}
		}
		for d := depth - 1; d >= 0; d-- {
			for j := range uint64(1) << d {
				x := 2*g<<d + j
				m[x] = refPair(m[2*x], m[2*x+1])
			}
		}
		m[g] = refPair(m[2*g], spine(2*g+1, c[n:], depth+2))
		return m[g]
	}
	m[1] = refPair(spine(2, chunks, 0), mix)
	return m, at
}

// checkProgNodes checks tr's nodes against refProgTree's, other gindices
// near and far below them as ErrGindex, Gindex, and that proofs of every
// chunk, of gindex 3 and of random chunks together verify.
func checkProgNodes(t *testing.T, r *rand.Rand, tr progTree, chunks [][32]byte, mix [32]byte, gindex func(int) uint64) {
	t.Helper()
	m, at := refProgTree(chunks, mix)
	for i, g := range at {
		if gindex(i) != g {
			t.Fatalf("%d chunks: chunk %d's gindex %d, want %d", len(chunks), i, gindex(i), g)
		}
	}
	var deepest uint64
	for g := range m {
		deepest = max(deepest, g)
	}
	for g := range 2*deepest + 2 {
		n, err := tr.Node(g)
		if want, ok := m[g]; ok && (err != nil || n != want) || !ok && !errors.Is(err, ErrGindex) {
			t.Fatalf("%d chunks: Node(%d) %x, %v; want %x (in the tree: %v)", len(chunks), g, n, err, want, ok)
		}
	}
	for _, g := range []uint64{1 << 63, 1<<63 + 1<<62, ^uint64(0), deepest << 20} {
		if _, err := tr.Prove(g); !errors.Is(err, ErrGindex) {
			t.Fatalf("Prove(%d): %v, want ErrGindex", g, err)
		}
	}
	for i, g := range append([]uint64{3}, at...) {
		p, err := tr.Prove(g)
		if err == nil {
			err = p.Verify(tr.Root())
		}
		if err != nil || i > 0 && p.Leaf != chunks[i-1] || i == 0 && p.Leaf != mix {
			t.Fatalf("%d chunks: proof of gindex %d: %v, leaf %x", len(chunks), g, err, p.Leaf)
		}
	}
	if len(at) > 0 {
		var gs []uint64
		for _, k := range r.Perm(len(at))[:1+r.IntN(len(at))] {
			gs = append(gs, at[k])
		}
		mp, err := tr.ProveMulti(append(gs, 3))
		if err == nil {
			err = mp.Verify(tr.Root())
		}
		if err != nil {
			t.Fatalf("%d chunks: multiproof of %d: %v", len(chunks), len(gs), err)
		}
	}
}

// TestProgressiveProofs: the nodes, gindices and proofs of the three
// progressive types at the subtrees' edges, against refProgTree.
func TestProgressiveProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(7916, 7495))
	for _, n := range []int{0, 1, 2, 4, 5, 6, 16, 20, 21, 22, 85, 86, 256, 341, 342} {
		c := randChunks(r, n)
		l := NewProgressiveList(c)
		checkProgNodes(t, r, l, c, lengthChunk(uint64(n)), func(i int) uint64 { return l.Gindex(uint64(i)) })
		bits := make([]bool, max(0, 256*n-r.IntN(256)))
		for i := range bits {
			bits[i] = r.IntN(2) == 0
		}
		ser := serializeBits(bits)
		bl, err := NewProgressiveBitlist(ser)
		if err != nil {
			t.Fatal(err)
		}
		ser[len(bits)/8] &^= 1 << (len(bits) % 8) // the delimiter
		checkProgNodes(t, r, bl, refPack(ser[:(len(bits)+7)/8]), lengthChunk(uint64(len(bits))),
			func(i int) uint64 { return bl.Gindex(uint64(256*i + r.IntN(256))) })
		u16 := make([]uint16, max(0, 16*n-r.IntN(16))) // n chunks, the last one part full
		for i := range u16 {
			u16[i] = uint16(r.Uint32())
		}
		bu := NewProgressiveBasicList(u16)
		checkProgNodes(t, r, bu, packChunks(u16), lengthChunk(uint64(len(u16))),
			func(i int) uint64 { return bu.Gindex(uint64(16*i + r.IntN(16))) })
		if k := 1 + r.IntN(3); n > 0 {
			roots, fields := make([][32]byte, n), randChunks(r, k*n)
			ContainerRoots(roots, fields, k)
			cl := NewProgressiveContainerList(k, fields)
			checkProgNodes(t, r, cl, roots, lengthChunk(uint64(n)), func(i int) uint64 { return cl.Gindex(uint64(i)) })
		}
		if n == 0 || n > 256 {
			continue
		}
		active := make([]bool, n)
		var fields [][32]byte
		var act [32]byte
		for i := range active {
			if active[i] = i == n-1 || r.IntN(2) == 0; active[i] {
				fields = append(fields, c[i])
				act[i/8] |= 1 << (i % 8)
			} else {
				c[i] = [32]byte{}
			}
		}
		pc := NewProgressiveContainer(fields, active)
		checkProgNodes(t, r, pc, c, act, pc.Gindex)
	}
	if g := ProgressiveGindex(maxProgressiveChunk - 1); g != (3<<21-2)<<40|(1<<40-1) {
		t.Errorf("the last gindex in 64 bits: %d", g)
	}
	panicsWith(t, "sha256x: hashtree: ProgressiveGindex(1466015503701): the gindex needs more than 64 bits", func() { ProgressiveGindex(maxProgressiveChunk) })
	panicsWith(t, "sha256x: hashtree: ProgressiveBitlist.Gindex(375299968947456), in chunk 1466015503701: the gindex needs more than 64 bits", func() { (&ProgressiveBitlist{}).Gindex(256 * maxProgressiveChunk) })
	c := NewProgressiveContainer(make([][32]byte, 1), []bool{true})
	panicsWith(t, "sha256x: hashtree: ProgressiveContainer.Gindex(-1), not a field index 0..255", func() { c.Gindex(-1) })
	panicsWith(t, "sha256x: hashtree: ProgressiveContainer.Gindex(256), not a field index 0..255", func() { c.Gindex(256) })
}
