package sha256x

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

var _ hash.Hash = (*Digest)(nil)

// TestWriteMany feeds many streams in chunks of random sizes, some streams
// skipping rounds, and checks every digest, mid-stream and at the end,
// against crypto/sha256 over the same bytes.
func TestWriteMany(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, nstreams := range []int{1, 2, 3, 5, 16, 70} {
			ds := make([]*Digest, nstreams)
			refs := make([]hash.Hash, nstreams)
			for i := range ds {
				ds[i], refs[i] = new(Digest), sha256.New()
			}
			for round := 0; round < 8; round++ {
				chunks := make([][]byte, nstreams)
				for i := range chunks {
					switch r.IntN(5) {
					case 0: // nothing this round
					case 1:
						chunks[i] = pattern(r.IntN(64), i)
					case 2:
						chunks[i] = pattern(64*r.IntN(4), i)
					default:
						chunks[i] = pattern(r.IntN(5000), i+round)
					}
					refs[i].Write(chunks[i])
				}
				writeMany(pl, ds, chunks, false)
				for i, d := range ds {
					if got, want := d.Sum(nil), refs[i].Sum(nil); string(got) != string(want) {
						t.Fatalf("%d streams, round %d, stream %d: got %x, want %x", nstreams, round, i, got, want)
					}
				}
			}
		}
	})
}

func TestDigest(t *testing.T) {
	var d Digest
	ref := sha256.New()
	if d.Sum256() != sha256.Sum256(nil) {
		t.Fatal("the zero Digest does not hash nothing")
	}
	for n := 0; n < 300; n++ {
		p := pattern(n, n)
		d.Write(p)
		ref.Write(p)
		if string(d.Sum(nil)) != string(ref.Sum(nil)) {
			t.Fatalf("after %d writes: got %x, want %x", n+1, d.Sum(nil), ref.Sum(nil))
		}
	}
	d.Reset()
	d.Write([]byte("abc"))
	if d.Sum256() != sha256.Sum256([]byte("abc")) || d.Size() != Size || d.BlockSize() != BlockSize {
		t.Fatal("Reset, Size or BlockSize is wrong")
	}
}

func TestWriteManyPanics(t *testing.T) {
	d := new(Digest)
	for _, c := range []struct {
		name, msg string
		f         func()
	}{
		{"short ds", "sha256x: len(ds) = 1 < len(chunks) = 2", func() { WriteMany([]*Digest{d}, make([][]byte, 2)) }},
		{"twice", "sha256x: WriteMany with a Digest twice", func() { WriteMany([]*Digest{d, new(Digest), d}, make([][]byte, 3)) }},
		// A nil Digest after d: d was marked busy before the nil one was
		// met, and stayed so, every later WriteMany with it panicking
		// "twice".
		{"nil", "sha256x: WriteMany with a nil Digest", func() { WriteMany([]*Digest{d, nil}, make([][]byte, 2)) }},
		{"nil first", "sha256x: WriteMany with a nil Digest", func() { WriteMany([]*Digest{nil, d}, make([][]byte, 2)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Errorf("panic %q, want %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
	// A Digest is usable after a panic.
	WriteMany([]*Digest{d}, [][]byte{[]byte("abc")})
	if d.Sum256() != sha256.Sum256([]byte("abc")) {
		t.Error("wrong digest after a panic")
	}
}

func TestWriteManyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	ds := make([]*Digest, 8)
	chunks := make([][]byte, 8)
	for i := range ds {
		ds[i], chunks[i] = new(Digest), pattern(100000+i, i)
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		if a := testing.AllocsPerRun(10, func() { writeMany(pl, ds, chunks, false) }); a != 0 {
			t.Errorf("writeMany: %v allocations", a)
		}
		if a := testing.AllocsPerRun(10, func() { ds[0].Write(chunks[1][:777]); ds[0].Sum256() }); a != 0 {
			t.Errorf("Write and Sum256: %v allocations", a)
		}
	})
}

// TestWrite writes one stream in chunks of random sizes, across part
// boundaries, through each plan's single-stream path, checking the digest
// after every write against crypto/sha256.
func TestWrite(t *testing.T) {
	big := pattern(3*partBlocks*BlockSize+500, 3)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		if pl.Stdlib {
			return
		}
		r := rand.New(rand.NewPCG(9, 10))
		var d Digest
		ref := sha256.New()
		for off := 0; off < len(big); {
			n := r.IntN(300)
			if r.IntN(8) == 0 {
				n = r.IntN(2 * partBlocks * BlockSize)
			}
			n = min(n, len(big)-off)
			c := big[off : off+n]
			off += n
			d.s.Write(pl, c)
			ref.Write(c)
			if got, want := d.Sum(nil), ref.Sum(nil); string(got) != string(want) {
				t.Fatalf("after %d bytes: got %x, want %x", off, got, want)
			}
		}
	})
}

// TestWriteHeld mixes, on each plan, writes of sizes around one and more
// blocks, which leave a stream holding nothing, part of a block or a whole
// block held back, with WriteMany beside another stream, saving and resuming
// the state, clones, and sums and states on the plan, on the dispatched one
// and on the stdlib plan: every digest and saved state is crypto/sha256's.
func TestWriteHeld(t *testing.T) {
	sizes := []int{0, 1, 31, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 255, 256, 1000, 5000}
	var stdlib *plan.Plan
	for _, p := range testPlans() {
		if p.Plan.Stdlib {
			stdlib = p.Plan
		}
	}
	if stdlib == nil {
		t.Fatal("no stdlib plan among the test plans")
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(11, 12))
		d, ref := new(Digest), sha256.New()
		other, otherRef := new(Digest), sha256.New()
		for step := range 400 {
			n := sizes[r.IntN(len(sizes))]
			c := pattern(n, step)
			switch r.IntN(6) {
			case 0:
				m := pattern(r.IntN(3000), -step)
				writeMany(pl, []*Digest{d, other}, [][]byte{c, m}, r.IntN(2) == 0)
				otherRef.Write(m)
			case 1:
				st := marshal(t, d)
				if want := marshal(t, ref); !bytes.Equal(st, want) {
					t.Fatalf("step %d: state\n got %x\nwant %x", step, st, want)
				}
				d = new(Digest)
				unmarshal(t, d, st)
				d.s.Write(pl, c)
			case 2:
				cl, _ := d.Clone()
				e := cl.(*Digest)
				d.s.Write(pl, c)
				e.s.Write(pl, c)
				if e.Sum256() != d.Sum256() {
					t.Fatalf("step %d: a clone's digest differs", step)
				}
			default:
				d.s.Write(pl, c)
			}
			ref.Write(c)
			var want [Size]byte
			ref.Sum(want[:0])
			if got := d.s.Sum256(pl); got != want {
				t.Fatalf("step %d (%d bytes): digest on the plan %x, want %x", step, n, got, want)
			}
			if got := d.Sum256(); got != want {
				t.Fatalf("step %d (%d bytes): digest %x, want %x", step, n, got, want)
			}
			if got := d.s.Sum256(stdlib); got != want {
				t.Fatalf("step %d (%d bytes): digest on the stdlib plan %x, want %x", step, n, got, want)
			}
			h0, x0, n0 := d.s.State(pl)
			h1, x1, n1 := d.s.State(stdlib)
			if h0 != h1 || !bytes.Equal(x0, x1) || n0 != n1 {
				t.Fatalf("step %d (%d bytes): the state on the plan and on the stdlib plan differ", step, n)
			}
		}
		if !bytes.Equal(other.Sum(nil), otherRef.Sum(nil)) {
			t.Fatal("the other stream's digest differs")
		}
	})
}
