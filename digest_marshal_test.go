package sha256x

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

var (
	_ hash.Cloner                = (*Digest)(nil)
	_ encoding.BinaryMarshaler   = (*Digest)(nil)
	_ encoding.BinaryAppender    = (*Digest)(nil)
	_ encoding.BinaryUnmarshaler = (*Digest)(nil)
)

func marshal(t *testing.T, h hash.Hash) []byte {
	t.Helper()
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		t.Fatalf("%T.MarshalBinary: %v", h, err)
	}
	return st
}

func unmarshal(t *testing.T, h hash.Hash, st []byte) {
	t.Helper()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		t.Fatalf("%T.UnmarshalBinary: %v", h, err)
	}
}

// TestMarshalInterop hashes random messages cut at random points, written
// through every plan, and at each cut saves the state in one package and
// resumes it in the other, both ways. The marshaled states must be equal byte
// for byte at every cut, and the digests at the end.
func TestMarshalInterop(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(10, 1))
		for trial := 0; trial < 200; trial++ {
			msg := pattern(r.IntN(1000), trial)
			d, ref := new(Digest), sha256.New()
			for len(msg) > 0 {
				n := r.IntN(len(msg) + 1)
				if r.IntN(4) == 0 {
					n = min(len(msg), BlockSize*r.IntN(3))
				}
				writeMany(pl, []*Digest{d}, [][]byte{msg[:n]}, r.IntN(2) == 0)
				ref.Write(msg[:n])
				msg = msg[n:]
				got, want := marshal(t, d), marshal(t, ref)
				if !bytes.Equal(got, want) {
					t.Fatalf("trial %d: state\n got %x\nwant %x", trial, got, want)
				}
				switch r.IntN(3) {
				case 0: // crypto/sha256 resumes sha256x's state
					ref = sha256.New()
					unmarshal(t, ref, got)
				case 1: // sha256x resumes crypto/sha256's state
					d = new(Digest)
					unmarshal(t, d, want)
				}
			}
			if got, want := d.Sum(nil), ref.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("trial %d: digest %x, want %x", trial, got, want)
			}
		}
	})
}

// TestMarshalWriteMany runs batches of streams through WriteMany with ragged
// chunks and checks that every Digest, once the call returns, marshals as
// crypto/sha256 does over the same bytes, and that a stream resumed from
// either package's state continues in the next batch.
func TestMarshalWriteMany(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(10, 2))
		const nstreams = 37
		ds := make([]*Digest, nstreams)
		refs := make([]hash.Hash, nstreams)
		for i := range ds {
			ds[i], refs[i] = new(Digest), sha256.New()
		}
		for round := 0; round < 10; round++ {
			chunks := make([][]byte, nstreams)
			for i := range chunks {
				chunks[i] = pattern(r.IntN(3000), round*nstreams+i)
				refs[i].Write(chunks[i])
			}
			writeMany(pl, ds, chunks, false)
			for i := range ds {
				got, want := marshal(t, ds[i]), marshal(t, refs[i])
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d, stream %d: state\n got %x\nwant %x", round, i, got, want)
				}
				if ds[i].s != ds[i].s.Clone() {
					t.Fatalf("round %d, stream %d: busy after WriteMany", round, i)
				}
				switch r.IntN(3) {
				case 0:
					ds[i] = new(Digest)
					unmarshal(t, ds[i], want)
				case 1:
					refs[i] = sha256.New()
					unmarshal(t, refs[i], got)
				}
			}
		}
		for i := range ds {
			if got, want := ds[i].Sum(nil), refs[i].Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("stream %d: digest %x, want %x", i, got, want)
			}
		}
	})
}

// TestMarshalLarge resumes states whose length is past 2^32 bytes (and past
// 2^61, where the bit count wraps as in crypto/sha256) in both packages. The
// states are crypto/sha256's after a real prefix, with the length field
// raised, as hashing 4 GiB here would take too long; crypto/sha256 takes
// them as it takes any other.
func TestMarshalLarge(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []uint64{1<<32 - 1, 1 << 32, 1<<32 + 63, 7_115_087_207, 1<<61 - 1, 1<<63 + 5} {
			for _, tail := range []int{0, 1, 55, 56, 64, 200} {
				ref := sha256.New()
				ref.Write(pattern(int(n%BlockSize), 1))
				st := marshal(t, ref)
				binary.BigEndian.PutUint64(st[len(st)-8:], n)
				unmarshal(t, ref, st)
				d := new(Digest)
				unmarshal(t, d, st)
				more := pattern(tail, 2)
				ref.Write(more)
				writeMany(pl, []*Digest{d}, [][]byte{more}, true)
				if got, want := marshal(t, d), marshal(t, ref); !bytes.Equal(got, want) {
					t.Fatalf("length %d + %d: state\n got %x\nwant %x", n, tail, got, want)
				}
				if got, want := d.Sum(nil), ref.Sum(nil); !bytes.Equal(got, want) {
					t.Fatalf("length %d + %d: digest %x, want %x", n, tail, got, want)
				}
			}
		}
	})
}

// TestMarshalZero: the zero Digest and a Reset one marshal as a new
// crypto/sha256 digest does, IV and all.
func TestMarshalZero(t *testing.T) {
	want := marshal(t, sha256.New())
	var d Digest
	if got := marshal(t, &d); !bytes.Equal(got, want) {
		t.Fatalf("zero Digest: state\n got %x\nwant %x", got, want)
	}
	d.Write([]byte("abc"))
	d.Reset()
	if got := marshal(t, &d); !bytes.Equal(got, want) {
		t.Fatalf("Reset Digest: state\n got %x\nwant %x", got, want)
	}
	if got := marshal(t, New()); !bytes.Equal(got, want) {
		t.Fatalf("New(): state\n got %x\nwant %x", got, want)
	}
}

// TestAppendBinary: AppendBinary appends to what b holds.
func TestAppendBinary(t *testing.T) {
	d := New()
	d.Write([]byte("hello, world"))
	st := marshal(t, d)
	b, err := d.(encoding.BinaryAppender).AppendBinary([]byte("prefix"))
	if err != nil || string(b) != "prefix"+string(st) {
		t.Fatalf("AppendBinary = %q, %v; want %q", b, err, "prefix"+string(st))
	}
}

// TestUnmarshalErrors: sha256x rejects exactly the states crypto/sha256
// rejects, with an error starting "sha256x:", and leaves the Digest as it
// was.
func TestUnmarshalErrors(t *testing.T) {
	good := marshal(t, sha256.New())
	h224 := sha256.New224()
	h224.Write([]byte("abc"))
	cases := map[string][]byte{
		"empty":     nil,
		"short":     []byte("sh"),
		"magic":     []byte("sha\x03"),
		"sha224":    marshal(t, h224),
		"bad magic": append([]byte("sha\x04"), good[4:]...),
		"truncated": good[:len(good)-1],
		"extended":  append(append([]byte{}, good...), 0),
		"sha256":    good,
	}
	for name, st := range cases {
		wantErr := sha256.New().(encoding.BinaryUnmarshaler).UnmarshalBinary(st) != nil
		d := New()
		d.Write([]byte("abc"))
		before := marshal(t, d)
		err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(st)
		if (err != nil) != wantErr {
			t.Errorf("%s: error %v, crypto/sha256 rejects it: %v", name, err, wantErr)
			continue
		}
		if err == nil {
			continue
		}
		if !bytes.HasPrefix([]byte(err.Error()), []byte("sha256x: ")) {
			t.Errorf("%s: error %q does not start with \"sha256x: \"", name, err)
		}
		if after := marshal(t, d); !bytes.Equal(after, before) {
			t.Errorf("%s: a failed UnmarshalBinary changed the Digest", name)
		}
	}
}

// TestClone: a clone goes on independently of the original, and a clone of
// a Digest is a *Digest.
func TestClone(t *testing.T) {
	d := New().(*Digest)
	ref := sha256.New()
	d.Write(pattern(100, 3))
	ref.Write(pattern(100, 3))
	c, err := d.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(*Digest); !ok {
		t.Fatalf("Clone returned a %T", c)
	}
	refc := sha256.New()
	unmarshal(t, refc, marshal(t, ref))
	c.Write(pattern(70, 4))
	refc.Write(pattern(70, 4))
	d.Write(pattern(30, 5))
	ref.Write(pattern(30, 5))
	if got, want := c.Sum(nil), refc.Sum(nil); !bytes.Equal(got, want) {
		t.Errorf("clone: digest %x, want %x", got, want)
	}
	if got, want := d.Sum(nil), ref.Sum(nil); !bytes.Equal(got, want) {
		t.Errorf("original: digest %x, want %x", got, want)
	}
}

// TestMarshalAllocs: New, Write, Sum into a buffer with room, and the
// marshaling methods through type assertions allocate nothing, as
// crypto/sha256's own allocation tests require of crypto/sha256.
func TestMarshalAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	in := pattern(300, 1)
	out := make([]byte, 0, Size)
	state := make([]byte, 0, marshaledSize)
	if a := testing.AllocsPerRun(20, func() {
		h := New()
		h.Reset()
		h.Write(in)
		out = h.Sum(out[:0])
		state, _ = h.(encoding.BinaryAppender).AppendBinary(state[:0])
	}); a != 0 {
		t.Errorf("New, Write, Sum, AppendBinary: %v allocations", a)
	}
	if a := testing.AllocsPerRun(20, func() {
		h := New()
		h.Write(in[:3])
		st, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
		st, _ = h.(encoding.BinaryAppender).AppendBinary(st[:0])
		h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st)
	}); a != 0 {
		t.Errorf("MarshalBinary, AppendBinary, UnmarshalBinary: %v allocations", a)
	}
	d := new(Digest)
	if a := testing.AllocsPerRun(20, func() {
		d.Write(in)
		state, _ = d.AppendBinary(state[:0])
		d.UnmarshalBinary(state)
	}); a != 0 {
		t.Errorf("a *Digest's AppendBinary and UnmarshalBinary: %v allocations", a)
	}
}

// FuzzUnmarshalBinary: a Digest accepts exactly the states crypto/sha256
// accepts (any h, x and length), then marshals as it does and, on every
// plan, hashes more data as crypto/sha256 does from the same state.
func FuzzUnmarshalBinary(f *testing.F) {
	h := sha256.New()
	h.Write(pattern(100, 1))
	st, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	f.Add(st, []byte("abc"))
	f.Add(st[:40], []byte{})
	f.Add(append(st[:len(st)-8:len(st)-8], 255, 255, 255, 255, 255, 255, 255, 200), pattern(200, 2))
	plans := testPlans()
	f.Fuzz(func(t *testing.T, st, data []byte) {
		ref := sha256.New()
		rerr := ref.(encoding.BinaryUnmarshaler).UnmarshalBinary(st)
		ref.Write(data)
		want := ref.Sum(nil)
		for _, p := range plans {
			var d Digest
			if err := d.UnmarshalBinary(st); (err != nil) != (rerr != nil) {
				t.Fatalf("%s: error %v, crypto/sha256's %v", p.Name, err, rerr)
			} else if err != nil {
				continue
			}
			e := d
			d.s.Write(p.Plan, data)
			sched.WriteMany(p.Plan, []*sched.Stream{&e.s, new(sched.Stream)}, [][]byte{data, data}, len(data)%2 == 0)
			if got, got2 := d.s.Sum256(p.Plan), e.s.Sum256(p.Plan); !bytes.Equal(got[:], want) || got2 != got {
				t.Fatalf("%s: sums %x (Write), %x (WriteMany), crypto/sha256's %x", p.Name, got, got2, want)
			}
			if got, wst := marshal(t, &d), marshal(t, ref); !bytes.Equal(got, wst) {
				t.Fatalf("%s: marshals as %x, crypto/sha256 as %x", p.Name, got, wst)
			}
		}
	})
}
