package hashtree

import (
	"errors"
	"github.com/sha256x/sha256x/internal/fuzzops"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x"
)

// ops draws a random sequence's steps from a fuzzer's bytes, then a
// generator.
type ops = fuzzops.Ops

// chunksModel is what a Chunks should hold: its chunks, kept plainly.
type chunksModel struct {
	c   *Chunks
	cur [][32]byte
}

// wantRoot is the root of a full rebuild from the current chunks.
func wantRoot(cur [][32]byte, limit uint64, list bool) [32]byte {
	if list {
		return ListRoot(cur, limit)
	}
	return Merkleize(cur, limit)
}

// checkChunks runs steps random operations on copies of one tree, each root
// against a full rebuild of the same chunks, and a proof now and then.
func checkChunks(t *testing.T, o *ops, limit uint64, list bool, start, steps int) {
	t.Helper()
	start = int(min(uint64(start), limit)) // fits
	init := randChunks(o.R, int(start))
	var ctor func([][32]byte, uint64) *Chunks = NewChunks
	if list {
		ctor = NewChunkList
	}
	trees := []*chunksModel{{ctor(init, limit), slices.Clone(init)}}
	for step := range steps {
		m := trees[o.N(len(trees))]
		n := len(m.cur)
		switch op := o.N(10); {
		case op < 2 && n > 0: // a few sets
			for range 1 + o.N(4) {
				i := o.N(n)
				c := randChunks(o.R, 1)[0]
				m.c.Set(uint64(i), c)
				m.cur[i] = c
			}
		case op < 4 && n > 0: // many sets, repeated indices, any order
			k := 1 + o.N(2*n)
			idx := make([]uint64, k)
			cs := randChunks(o.R, k)
			for j := range idx {
				if o.N(2) == 0 {
					idx[j] = uint64(o.N(n))
				} else {
					idx[j] = uint64(o.N(min(n, 1+o.N(64)))) // clustered
				}
				m.cur[idx[j]] = cs[j]
			}
			m.c.SetMany(idx, cs)
		case op < 6: // appends
			for range o.N(1 + o.N(200)) {
				if uint64(len(m.cur)) == limit {
					break
				}
				c := randChunks(o.R, 1)[0]
				m.c.Append(c)
				m.cur = append(m.cur, c)
			}
		case op < 7: // a truncation
			k := o.N(n + 1)
			m.c.Truncate(uint64(k))
			m.cur = m.cur[:k]
		case op < 8 && len(trees) < 4: // a copy
			trees = append(trees, &chunksModel{m.c.Copy(), slices.Clone(m.cur)})
		case op == 8 && n > 0: // a stretch
			a := o.N(n)
			cs := randChunks(o.R, o.N(n-a+1))
			m.c.SetRange(uint64(a), cs)
			copy(m.cur[a:], cs)
		case op == 9: // compacted: its copies unchanged
			m.c.Compact()
		}
		if o.N(3) == 0 || step == steps-1 {
			for k, m := range trees {
				if got, want := m.c.Root(), wantRoot(m.cur, limit, list); got != want {
					t.Fatalf("step %d, copy %d (limit %d, list %v, %d chunks): root %x, a rebuild %x", step, k, limit, list, len(m.cur), got, want)
				}
				if m.c.Len() != uint64(len(m.cur)) {
					t.Fatalf("Len %d, want %d", m.c.Len(), len(m.cur))
				}
				for i := range m.cur { // no other copy's write shows in this one
					if m.c.Get(uint64(i)) != m.cur[i] {
						t.Fatalf("step %d, copy %d: Get(%d) wrong", step, k, i)
					}
				}
				if len(m.cur) > 0 {
					i := o.N(len(m.cur))
					if Depth(limit) < 62 {
						checkProofs(t, m.c, i)
					}
				}
			}
		}
	}
}

// checkProofs proves chunk i, and it with a zero chunk past the end, from
// the updated tree against a Tree built afresh and against the root.
func checkProofs(t *testing.T, c *Chunks, i int) {
	t.Helper()
	g := c.Gindex(uint64(i))
	p, err := c.Prove(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Verify(c.Root()); err != nil {
		t.Fatalf("proof of chunk %d: %v", i, err)
	}
	gs := []uint64{g}
	if j := uint64(c.Len()) + 3; j < 1<<Depth(c.Limit()) {
		gs = append(gs, c.Gindex(j))
	}
	mp, err := c.ProveMulti(gs)
	if err != nil {
		t.Fatal(err)
	}
	if err := mp.Verify(c.Root()); err != nil {
		t.Fatalf("multiproof of %v: %v", gs, err)
	}
	if _, err := c.Node(g << 1); !errors.Is(err, ErrGindex) && Depth(c.Limit()) < 62 {
		t.Fatalf("Node below a leaf: %v, want ErrGindex", err)
	}
}

func TestChunks(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for _, limit := range []uint64{1, 2, 3, 5, 64, 100, 1000, 5000, 1 << 40, 1 << 63} {
		for _, list := range []bool{false, true} {
			for seed := range uint64(3) {
				o := &ops{R: rand.New(rand.NewPCG(seed, limit))}
				checkChunks(t, o, limit, list, []int{0, 1, 33, 2500}[seed+uint64(limit%2)], steps)
			}
		}
	}
}

// TestChunksDense: every chunk of a tree of several pages set, and half,
// and every other: the dense path's runs across pages and the gathered
// path's blocks.
func TestChunksDense(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 33, 64, 1023, 4097, 70000} {
		cur := randChunks(r, n)
		c := NewChunkList(cur, 1<<40)
		d := c.Copy()
		cur = randChunks(r, n)
		d.SetRange(0, cur) // every chunk, on a copy's shared pages
		if got, want := d.Root(), ListRoot(cur, 1<<40); got != want {
			t.Fatalf("%d chunks, all set: root %x, want %x", n, got, want)
		}
		c = d
		for _, stride := range []int{1, 2, 3, 7, 5000} {
			d := c.Copy() // the copy's pages shared: runs broken at copied pages
			for i := stride / 2; i < n; i += stride {
				cur[i] = randChunks(r, 1)[0]
				d.Set(uint64(i), cur[i])
			}
			if got, want := d.Root(), ListRoot(cur, 1<<40); got != want {
				t.Fatalf("%d chunks, stride %d: root %x, want %x", n, stride, got, want)
			}
			c = d
		}
	}
}

// TestChunksGathered: scattered sets on a tree never copied (levels written
// in place) and on a copy (pages copied first): more dirty nodes a level
// than one gathered call takes (gatherBlock), and fewer.
func TestChunksGathered(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{3000, 70000} {
		cur := randChunks(r, n)
		c := NewChunkList(cur, 1<<40)
		for round, stride := range []int{5, 11, 3, 97} {
			if round == 2 {
				c = c.Copy() // from here on, shared pages
			}
			for i := round; i < n; i += stride {
				cur[i] = randChunks(r, 1)[0]
				c.Set(uint64(i), cur[i])
			}
			if got, want := c.Root(), ListRoot(cur, 1<<40); got != want {
				t.Fatalf("%d chunks, stride %d: root %x, want %x", n, stride, got, want)
			}
		}
	}
}

// TestChunksWriteAhead: gathered levels written a few nodes a call, each
// call's lines asked for ahead (writeAhead), give the same roots whatever
// this CPU's plan says: one node a call, a count dividing no block, Zen
// 4's, and more than a block.
func TestChunksWriteAhead(t *testing.T) {
	saved, savedW := writeAhead, prefetchW
	defer func() { writeAhead, prefetchW = saved, savedW }()
	if saved == 0 { // no route here asks for lines ahead, nor knows the CPU has the prefetch
		prefetchW = func([]unsafe.Pointer) {}
	}
	ns := []int{1, 3, 16, 5000}
	if testing.Short() {
		ns = []int{3, 5000} // emulated runs: a count that divides no block, and more than one
	}
	for _, n := range ns {
		writeAhead = n
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			TestChunksGathered(t)
			TestChunksDense(t)
		})
	}
}

func FuzzChunks(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint64(100), true)
	f.Add([]byte{5, 0, 0, 7, 0, 3, 0, 9}, uint64(1<<40), false)
	f.Fuzz(func(t *testing.T, b []byte, limit uint64, list bool) {
		limit = limit%5000 + 1
		if limit%7 == 0 {
			limit = 1 << 40
		}
		o := &ops{B: b, R: rand.New(rand.NewPCG(uint64(len(b)), limit))}
		checkChunks(t, o, limit, list, o.N(300)+1500*o.N(2), 40) // a page block, or several
	})
}

// TestChunksKernels runs the random sequences again with every kernel this
// CPU has forced, each in a child process.
func TestChunksKernels(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL") != "" || testing.Short() {
		t.Skip("the parent run forces each kernel")
	}
	for _, k := range sha256x.Kernels() {
		cmd := exec.Command(os.Args[0], "-test.run", "^(TestChunks|TestChunksDense|TestChunksGathered|TestBasicList|TestContainerList|TestMerkleizeProgressive|TestProgressiveList|TestProgressiveBitlist|TestProgressiveContainer)$", "-test.short")
		cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+k)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("SHA256X_KERNEL=%s: %v\n%s", k, err, out)
		}
	}
}

// TestZeroValues calls every method of each type's zero value. The zero
// ProgressiveList and ProgressiveBitlist are empty and usable. The zero
// ProgressiveContainer has no active fields: its Root panics, as
// ProgressiveContainerRoot does. The zero Chunks, BasicList and
// ContainerList are not usable: a method may return, or panic with this
// package's message, never fault.
func TestZeroValues(t *testing.T) {
	var z [32]byte
	noChunks := MixInLength(z, 0)
	noBits, _ := ProgressiveBitlistRoot([]byte{1})
	for _, c := range []struct {
		name   string
		usable bool
		f      func()
	}{
		{"Chunks.Len", false, func() { new(Chunks).Len() }},
		{"Chunks.Limit", false, func() { new(Chunks).Limit() }},
		{"Chunks.Get", false, func() { new(Chunks).Get(0) }},
		{"Chunks.Set", false, func() { new(Chunks).Set(0, z) }},
		{"Chunks.SetMany", false, func() { new(Chunks).SetMany([]uint64{0}, [][32]byte{z}) }},
		{"Chunks.SetRange", false, func() { new(Chunks).SetRange(0, nil) }},
		{"Chunks.Append", false, func() { new(Chunks).Append(z) }},
		{"Chunks.Truncate", false, func() { new(Chunks).Truncate(0) }},
		{"Chunks.Root", false, func() { new(Chunks).Root() }},
		{"Chunks.Copy", false, func() { new(Chunks).Copy().Root() }},
		{"Chunks.Compact", false, func() { new(Chunks).Compact() }},
		{"Chunks.Gindex", false, func() { new(Chunks).Gindex(0) }},
		{"Chunks.Node", false, func() { new(Chunks).Node(1) }},
		{"Chunks.Prove", false, func() { new(Chunks).Prove(1) }},
		{"Chunks.ProveMulti", false, func() { new(Chunks).ProveMulti([]uint64{1}) }},
		{"BasicList.Len", false, func() { new(BasicList[uint64]).Len() }},
		{"BasicList.Limit", false, func() { new(BasicList[uint64]).Limit() }},
		{"BasicList.Get", false, func() { new(BasicList[uint64]).Get(0) }},
		{"BasicList.Set", false, func() { new(BasicList[uint64]).Set(0, 1) }},
		{"BasicList.SetRange", false, func() { new(BasicList[uint64]).SetRange(0, nil) }},
		{"BasicList.Append", false, func() { new(BasicList[uint64]).Append(1) }},
		{"BasicList.Truncate", false, func() { new(BasicList[uint64]).Truncate(0) }},
		{"BasicList.Root", false, func() { new(BasicList[uint64]).Root() }},
		{"BasicList.Copy", false, func() { new(BasicList[uint64]).Copy().Root() }},
		{"BasicList.Compact", false, func() { new(BasicList[uint64]).Compact() }},
		{"BasicList.Gindex", false, func() { new(BasicList[uint64]).Gindex(0) }},
		{"BasicList.Node", false, func() { new(BasicList[uint64]).Node(1) }},
		{"BasicList.Prove", false, func() { new(BasicList[uint64]).Prove(1) }},
		{"BasicList.ProveMulti", false, func() { new(BasicList[uint64]).ProveMulti([]uint64{1}) }},
		{"ContainerList.Len", false, func() { new(ContainerList).Len() }},
		{"ContainerList.Limit", false, func() { new(ContainerList).Limit() }},
		{"ContainerList.K", false, func() { new(ContainerList).K() }},
		{"ContainerList.Field", false, func() { new(ContainerList).Field(0, 0) }},
		{"ContainerList.SetField", false, func() { new(ContainerList).SetField(0, 0, z) }},
		{"ContainerList.Set", false, func() { new(ContainerList).Set(0, nil) }},
		{"ContainerList.Append", false, func() { new(ContainerList).Append(nil) }},
		{"ContainerList.Truncate", false, func() { new(ContainerList).Truncate(0) }},
		{"ContainerList.Root", false, func() { new(ContainerList).Root() }},
		{"ContainerList.Copy", false, func() { new(ContainerList).Copy().Root() }},
		{"ContainerList.Compact", false, func() { new(ContainerList).Compact() }},
		{"ContainerList.Gindex", false, func() { new(ContainerList).Gindex(0) }},
		{"ContainerList.Node", false, func() { new(ContainerList).Node(1) }},
		{"ContainerList.Prove", false, func() { new(ContainerList).Prove(1) }},
		{"ContainerList.ProveMulti", false, func() { new(ContainerList).ProveMulti([]uint64{1}) }},
		{"ProgressiveList", true, func() {
			l := new(ProgressiveList)
			if l.Len() != 0 || l.Root() != noChunks || l.Copy().Root() != noChunks {
				t.Error("the zero ProgressiveList is not empty")
			}
			l.Compact()
			l.Truncate(0)
			l.Append(z)
		}},
		{"ProgressiveBitlist", true, func() {
			l := new(ProgressiveBitlist)
			if l.Len() != 0 || l.Root() != noBits || l.Copy().Root() != noBits || string(l.Bytes()) != "\x01" {
				t.Error("the zero ProgressiveBitlist is not empty")
			}
			l.Compact()
			l.Truncate(0)
			l.Append(true)
		}},
		{"ProgressiveContainer", true, func() {
			c := new(ProgressiveContainer)
			if c.Len() != 0 || c.Active(0) || c.Copy().Len() != 0 {
				t.Error("the zero ProgressiveContainer has fields")
			}
			c.Compact()
		}},
		{"ProgressiveContainer.Root", false, func() {
			new(ProgressiveContainer).Root()
			t.Error("the zero ProgressiveContainer has a root")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); r != nil && (c.usable || !strings.HasPrefix(s, "sha256x: hashtree: ")) {
					t.Errorf("the zero value panics: %v", r)
				}
			}()
			c.f()
		})
	}
}

func TestChunksPanics(t *testing.T) {
	c := NewChunkList(randChunks(rand.New(rand.NewPCG(1, 1)), 3), 4)
	panicsWith(t, "sha256x: hashtree: Chunks.Set(3) past the length 3", func() { c.Set(3, [32]byte{}) })
	panicsWith(t, "sha256x: hashtree: Chunks.Get(9) past the length 3", func() { c.Get(9) })
	panicsWith(t, "sha256x: hashtree: Chunks.Truncate(4) past the length 3", func() { c.Truncate(4) })
	panicsWith(t, "sha256x: hashtree: Chunks.SetMany of 1 indices and 0 chunks", func() { c.SetMany([]uint64{0}, nil) })
	before, root := c.Get(0), c.Root()
	panicsWith(t, "sha256x: hashtree: Chunks.SetMany(3) past the length 3", func() { c.SetMany([]uint64{0, 3}, make([][32]byte, 2)) })
	if c.Get(0) != before || c.Root() != root {
		t.Errorf("SetMany with an index past the length wrote the indices before it")
	}
	panicsWith(t, "sha256x: hashtree: Chunks.SetRange(2) of 2 chunks past the length 3", func() { c.SetRange(2, make([][32]byte, 2)) })
	c.Append([32]byte{})
	panicsWith(t, "sha256x: hashtree: Chunks.Append past the limit 4", func() { c.Append([32]byte{}) })
	panicsWith(t, "sha256x: hashtree: 5 chunks, more than the limit 4", func() { NewChunks(make([][32]byte, 5), 4) })
	if _, err := c.Node(0); !errors.Is(err, ErrGindex) {
		t.Errorf("Node(0): %v", err)
	}
	if _, err := c.Prove(7); !errors.Is(err, ErrGindex) {
		t.Errorf("Prove(7), below the length: %v", err)
	}
	if _, err := c.Prove(1 << 10); !errors.Is(err, ErrGindex) {
		t.Errorf("Prove below the leaves: %v", err)
	}
}

// TestChunksAllocs: Set, Get and Root allocate nothing once the tree owns
// its pages.
func TestChunksAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewPCG(2, 3))
	c := NewChunkList(randChunks(r, 5000), 1<<40)
	cs := randChunks(r, 64)
	idx := make([]uint64, 64)
	step := func() {
		for j := range idx {
			idx[j] = uint64(r.IntN(5000))
		}
		c.SetMany(idx, cs)
		c.Set(idx[0], cs[1])
		_ = c.Get(idx[1])
		_ = c.Root()
	}
	step()
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("%v allocations a Set and Root", a)
	}
	all := func() {
		for i := range uint64(5000) {
			c.Set(i, cs[i%64])
		}
		_ = c.Root()
	}
	all()
	if a := testing.AllocsPerRun(10, all); a != 0 {
		t.Errorf("%v allocations a whole rehash", a)
	}
}

// panicsWith checks that f panics with the message want.
func panicsWith(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); r == nil {
			t.Errorf("no panic, want %q", want)
		} else if got, _ := r.(string); got != want {
			t.Errorf("panic %q, want %q", r, want)
		}
	}()
	f()
}

// TestReadmePages checks what README's "Trees that change" says of the
// levels' pages against treeShift.
func TestReadmePages(t *testing.T) {
	// go test runs in the package's directory; CI's emulated runs of the
	// test binary run elsewhere, where the source file's path still holds.
	_, src, _, _ := runtime.Caller(0)
	b, err := os.ReadFile("../README.md")
	if err != nil {
		b, err = os.ReadFile(filepath.Join(filepath.Dir(src), "..", "README.md"))
	}
	if err != nil {
		t.Skipf("README.md not found from here or beside %s: %v", src, err)
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		"Levels are kept in pages of " + strconv.Itoa(1<<treeShift) + " nodes under groups of 8 page pointers and blocks of 8 groups",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	readmeMethods(t, readme)
}

// readmeMethods: README's list of Chunks' methods names methods of Chunks,
// and BasicList and ContainerList have what it says: every one but those
// named after "but", and those named before it.
func readmeMethods(t *testing.T, readme string) {
	t.Helper()
	start := strings.Index(readme, "- `Chunks` (")
	end := strings.Index(readme, "- Limits up to")
	if start < 0 || end < start {
		t.Fatal("README.md: no list of Chunks' methods")
	}
	list := readme[start:end]
	b := strings.Index(list, "`BasicList[T]`")
	c := strings.Index(list, "`ContainerList`")
	colon := strings.Index(list, "):")
	if colon < 0 || b < colon || c < b {
		t.Fatalf("README.md: the list of Chunks' methods is not laid out as this test reads it: %q", list)
	}
	idents := func(s string) []string {
		var out []string
		for i, part := range strings.Split(s, "`") {
			if i%2 == 1 && part != "" && part[0] >= 'A' && part[0] <= 'Z' && !strings.ContainsAny(part, "([ ") {
				out = append(out, part)
			}
		}
		return out
	}
	chunks := idents(list[colon:b])
	if len(chunks) < 10 {
		t.Fatalf("README.md lists %d methods of Chunks: %q", len(chunks), chunks)
	}
	for _, c := range []struct {
		name string
		typ  reflect.Type
		text string
	}{
		{"Chunks", reflect.TypeOf(&Chunks{}), ""},
		{"BasicList", reflect.TypeOf(&BasicList[uint64]{}), list[b+len("`BasicList[T]`") : c]},
		{"ContainerList", reflect.TypeOf(&ContainerList{}), list[c+len("`ContainerList`"):]},
	} {
		named, but := c.text, ""
		if i := strings.Index(c.text, " but "); i >= 0 {
			named, but = c.text[:i], c.text[i:]
		}
		lacks := map[string]bool{}
		for _, m := range idents(but) {
			lacks[m] = true
		}
		for _, m := range chunks {
			if _, ok := c.typ.MethodByName(m); ok && lacks[m] {
				t.Errorf("README.md says %s lacks %s, which it has", c.name, m)
			} else if !ok && !lacks[m] {
				t.Errorf("README.md says %s has %s, which it does not", c.name, m)
			}
		}
		for _, m := range idents(named) {
			if _, ok := c.typ.MethodByName(m); !ok {
				t.Errorf("README.md names %s's method %s, which it does not have", c.name, m)
			}
		}
	}
}
