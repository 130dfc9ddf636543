package merkle

import (
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/fuzzops"
)

// mutableSchemes are the schemes a Mutable is checked under: the
// predefined ones and a ZeroPad scheme with prefixed leaves.
func mutableSchemes() map[string]Scheme {
	return map[string]Scheme{
		"RFC6962": RFC6962, "Bitcoin": Bitcoin, "Binary": Binary, "Solana": Solana,
		"ZeroPad-prefixed": {LeafPrefix: []byte("LEAF"), Odd: ZeroPad},
	}
}

func leafData(r *rand.Rand, raw bool) []byte {
	n := 32
	if !raw {
		n = r.IntN(100)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestMutable: random replacements and appends; after each batch the root
// and a proof equal Build's over the current leaves.
func TestMutable(t *testing.T) {
	for name, s := range mutableSchemes() {
		for _, n0 := range []int{1, 2, 3, 7, 100, 3000} {
			if n0 > 100 && testing.Short() {
				continue
			}
			checkMutable(t, name, s, &fuzzops.Ops{R: rand.New(rand.NewPCG(uint64(n0), 39))}, n0, 40)
		}
	}
}

// FuzzMutable: the sequences of TestMutable drawn from the fuzzer's bytes
// (the scheme, the first length, each step's operation and indices), on
// trees of up to a few thousand leaves.
func FuzzMutable(f *testing.F) {
	f.Add([]byte{0, 0, 0, 7, 0, 1, 0, 2}, uint16(7))
	f.Add([]byte{0, 1, 0, 0, 3, 0, 0, 2, 0, 2, 0, 3}, uint16(1000))
	names := slices.Sorted(maps.Keys(mutableSchemes()))
	f.Fuzz(func(t *testing.T, b []byte, n0 uint16) {
		o := &fuzzops.Ops{B: b, R: rand.New(rand.NewPCG(uint64(len(b)), uint64(n0)))}
		name := names[o.N(len(names))]
		checkMutable(t, name, mutableSchemes()[name], o, int(n0)%3000+1, 20)
	})
}

// checkMutable applies steps batches of o's replacements (one at a time,
// SetMany with repeats, or as nodes) and appends to a Mutable of scheme s
// over n0 random leaves, and after each compares its root and a proof with
// Build's over the current leaves.
func checkMutable(t *testing.T, name string, s Scheme, o *fuzzops.Ops, n0, steps int) {
	t.Helper()
	s.Workers = 1
	leaves := make([][]byte, n0)
	for i := range leaves {
		leaves[i] = leafData(o.R, s.RawLeaves)
	}
	m := s.NewMutable(leaves)
	for step := range steps {
		switch op := o.N(4); op {
		case 0:
			for range 1 + o.N(5) {
				i := o.N(len(leaves))
				leaves[i] = leafData(o.R, s.RawLeaves)
				m.Set(i, leaves[i])
			}
		case 1:
			k := 1 + o.N(2*len(leaves))
			idx := make([]int, k)
			ls := make([][]byte, k)
			for j := range idx {
				idx[j] = o.N(len(leaves))
				ls[j] = leafData(o.R, s.RawLeaves)
				leaves[idx[j]] = ls[j]
			}
			m.SetMany(idx, ls)
		case 2:
			for range o.N(70) {
				l := leafData(o.R, s.RawLeaves)
				leaves = append(leaves, l)
				m.Append(l)
			}
		default:
			i := o.N(len(leaves))
			leaves[i] = leafData(o.R, s.RawLeaves)
			m.SetNode(i, s.LeafHash(leaves[i]))
		}
		full := s.Build(leaves)
		if got, want := m.Root(), full.Root(); got != want {
			t.Fatalf("%s, %d leaves, step %d: root %x, Build %x", name, len(leaves), step, got, want)
		}
		if got := s.Root(leaves); got != m.Root() {
			t.Fatalf("%s: Root %x, Mutable %x", name, got, m.Root())
		}
		i := o.N(len(leaves))
		if got, want := m.Proof(i), full.Proof(i); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, %d leaves: proof of %d differs from Build's", name, len(leaves), i)
		}
	}
}

func TestMutableEmpty(t *testing.T) {
	m := RFC6962.NewMutable(nil)
	if m.Root() != RFC6962.Empty {
		t.Fatal("the empty tree's root is not Empty")
	}
	var leaves [][]byte
	for i := range 9 {
		leaves = append(leaves, []byte(strconv.Itoa(i)))
		m.Append(leaves[i])
		if m.Root() != RFC6962.Root(leaves) {
			t.Fatalf("after %d appends: root differs", i+1)
		}
	}
	defer func() {
		if r, _ := recover().(string); r != "sha256x: merkle: Mutable.Set(9) of a tree of 9 leaves" {
			t.Errorf("panic %q", r)
		}
	}()
	m.Set(9, nil)
}

// TestMutableZero: the zero Mutable has no Scheme and is not usable; each
// of its methods panics with the package's message, never faults.
func TestMutableZero(t *testing.T) {
	const msg = "sha256x: merkle: the zero Mutable, not made by Scheme.NewMutable or Scheme.NewMutableNodes"
	for _, c := range []struct {
		name string
		f    func(m *Mutable)
	}{
		{"Len", func(m *Mutable) { m.Len() }},
		{"Root", func(m *Mutable) { m.Root() }},
		{"Proof", func(m *Mutable) { m.Proof(0) }},
		{"Set", func(m *Mutable) { m.Set(0, nil) }},
		{"SetNode", func(m *Mutable) { m.SetNode(0, [Size]byte{}) }},
		{"SetMany", func(m *Mutable) { m.SetMany([]int{0}, [][]byte{nil}) }},
		{"SetMany none", func(m *Mutable) { m.SetMany(nil, nil) }},
		{"Append", func(m *Mutable) { m.Append(nil) }},
		{"AppendNode", func(m *Mutable) { m.AppendNode([Size]byte{}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != msg {
					t.Errorf("panic %v, want %q", r, msg)
				}
			}()
			c.f(new(Mutable))
		})
	}
}

func TestMutableAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := Bitcoin
	r := rand.New(rand.NewPCG(1, 2))
	leaves := make([][]byte, 5000)
	for i := range leaves {
		leaves[i] = leafData(r, true)
	}
	m := s.NewMutable(leaves)
	idx := []int{5, 77, 4999, 1234}
	step := func() {
		for _, i := range idx {
			m.Set(i, leaves[(i+1)%len(leaves)])
		}
		m.Root()
	}
	step()
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("%v allocations a Set and Root", a)
	}
}

// TestMutableKernels runs TestMutable again with every kernel this CPU has
// forced, each in a child process.
func TestMutableKernels(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL") != "" || testing.Short() {
		t.Skip("the parent run forces each kernel")
	}
	for _, k := range sha256x.Kernels() {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestMutable$", "-test.short")
		cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+k)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("SHA256X_KERNEL=%s: %v\n%s", k, err, out)
		}
	}
}

// TestMutableBadNode: a Scheme whose Node sha256x.Join rejects is a
// programmer error that panics ("sha256x:") before the tree
// changes: a Root called again after the panic panics again, and never
// returns a root that was not hashed.
func TestMutableBadNode(t *testing.T) {
	for _, s := range []Scheme{
		{Node: sha256x.Join{Width: 33}},
		{Node: sha256x.Join{Width: -1}},
		{Node: sha256x.Join{Prefix: make([]byte, 200)}},
	} {
		try := func(what string, f func()) (panicked bool) {
			defer func() {
				if e := recover(); e != nil {
					panicked = true
					if msg, _ := e.(string); !strings.HasPrefix(msg, "sha256x:") {
						t.Errorf("Width %d, Prefix of %d: %s: panic %v", s.Node.Width, len(s.Node.Prefix), what, e)
					}
				}
			}()
			f()
			return false
		}
		var m *Mutable
		if try("NewMutable", func() { m = s.NewMutable([][]byte{[]byte("a")}) }) {
			continue
		}
		m.Append([]byte("b"))
		for k := range 3 {
			if !try("Root", func() { m.Root() }) {
				t.Errorf("Width %d, Prefix of %d: Root %d returned %x, no panic", s.Node.Width, len(s.Node.Prefix), k, m.Root())
			}
		}
	}
}

// TestMutableProofAllocs: a Proof allocates its path alone, under every
// scheme (ZeroPad's zero subtrees' roots too).
func TestMutableProofAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for name, s := range mutableSchemes() {
		leaves := make([][]byte, 3000)
		for i := range leaves {
			leaves[i] = leafData(r, s.RawLeaves)
		}
		m := s.NewMutable(leaves)
		step := func() {
			m.Set(7, leaves[8])
			m.Proof(2999)
		}
		step()
		if a := testing.AllocsPerRun(100, step); a != 1 {
			t.Errorf("%s: %v allocations a Set and Proof, want 1 (the path)", name, a)
		}
	}
}
