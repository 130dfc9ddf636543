package sha256x

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"fmt"
	"hash"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/fuzzops"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// The model-based test of the streaming API: a few Digests, fresh or
// cloned, go through random sequences of every operation (Write,
// WriteMany, Sum, Reset, Clone, both states both ways), checked against
// crypto/sha256 after every step. Batch calls on their whole messages come
// in between, in the same goroutine, so the pooled scratch areas pass
// between streams and batches. Every plan here is tested; the dispatched
// one through the public functions.

// maxModelDigests is the most Digests a sequence keeps at once.
const maxModelDigests = 20

// A refDigest is the model of one Digest: crypto/sha256 fed the same bytes,
// and the bytes themselves, for the batch calls.
type refDigest struct {
	h   hash.Hash
	msg []byte
}

func newRef() *refDigest { return &refDigest{h: sha256.New()} }

func (r *refDigest) write(p []byte) {
	r.h.Write(p)
	r.msg = append(r.msg, p...)
}

func (r *refDigest) reset() {
	r.h.Reset()
	r.msg = r.msg[:0]
}

func (r *refDigest) sum() (s [Size]byte) {
	r.h.Sum(s[:0])
	return s
}

func (r *refDigest) state() []byte {
	st, err := r.h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		panic(err)
	}
	return st
}

// clone copies r through crypto/sha256's own state, not ours.
func (r *refDigest) clone() *refDigest {
	c := newRef()
	if err := c.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(r.state()); err != nil {
		panic(err)
	}
	c.msg = append([]byte(nil), r.msg...)
	return c
}

// A digestModel is one sequence of operations on one plan.
type digestModel struct {
	t      testing.TB
	pl     *plan.Plan
	public bool // pl is the dispatched plan: call the API itself
	o      *fuzzops.Ops
	data   []byte // the bytes writes are cut from
	// maxWrite is the longest write; maxMsg the longest message before a
	// write resets it, bounding memory and the batch calls' work.
	maxWrite, maxMsg int
	// longOdds: one WriteMany in longOdds, where writes may be long
	// enough, writes chunks past a part to every Digest it writes.
	longOdds int

	ds   []*Digest
	refs []*refDigest

	step  int
	trace []string // the last few operations, for a failure's message
	buf   []byte
}

// logf records what the current step does.
func (m *digestModel) logf(format string, args ...any) {
	const keep = 12
	if len(m.trace) == keep {
		m.trace = append(m.trace[:0], m.trace[1:]...)
	}
	m.trace = append(m.trace, fmt.Sprintf("step %d: ", m.step)+fmt.Sprintf(format, args...))
}

func (m *digestModel) fatalf(format string, args ...any) {
	m.t.Helper()
	m.t.Fatalf("plan %s, step %d, %d digests: %s\nlast operations:\n\t%s", m.pl.Name, m.step, len(m.ds),
		fmt.Sprintf(format, args...), strings.Join(m.trace, "\n\t"))
}

// size draws a write's length: the lengths around a block's end that
// leave a Digest holding nothing, part of a block or a whole block held
// back; block multiples; the lengths around a plan's part and single-call
// limits; and now and then anything up to maxWrite.
func (m *digestModel) size() int {
	o := m.o
	var n int
	switch o.N(10) {
	case 0, 1:
		special := [...]int{0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 193}
		n = special[o.N(len(special))]
	case 2:
		n = BlockSize * o.N(40)
	case 3, 4:
		n = o.N(300)
	case 5:
		n = o.N(5000)
	case 6:
		limits := [...]int{m.pl.OneBlocks, m.pl.PartBlocks, m.pl.WindowBlocks}
		n = limits[o.N(len(limits))] * (1 + o.N(3)) * BlockSize
		n += [...]int{-65, -64, -63, -1, 0, 1, 63, 64, 65}[o.N(9)]
	case 7:
		if o.N(2) == 0 {
			n = o.N(m.maxWrite + 1)
			break
		}
		n = o.N(BlockSize)
	default:
		n = o.N(BlockSize)
	}
	return min(max(n, 0), m.maxWrite)
}

// chunk returns n bytes of m.data from anywhere, so that chunks start at
// every alignment and may overlap one another.
func (m *digestModel) chunk(n int) []byte {
	off := m.o.N(len(m.data) - n + 1)
	return m.data[off : off+n : off+n]
}

// room makes room for n more bytes in digest i, resetting it if its
// message would pass maxMsg.
func (m *digestModel) room(i, n int) {
	if len(m.refs[i].msg)+n > m.maxMsg {
		m.logf("Reset(d%d), at %d bytes", i, len(m.refs[i].msg))
		m.ds[i].Reset()
		m.refs[i].reset()
	}
}

func (m *digestModel) write(d *Digest, p []byte) {
	if !m.public {
		d.s.Write(m.pl, p)
		return
	}
	if n, err := d.Write(p); n != len(p) || err != nil {
		m.fatalf("Write of %d bytes returned %d, %v", len(p), n, err)
	}
}

func (m *digestModel) writeMany(ds []*Digest, chunks [][]byte, single bool) {
	if m.public && !single {
		WriteMany(ds, chunks)
		return
	}
	sched.WriteMany(m.pl, streams(ds), chunks, single)
}

// run applies steps operations, checking every Digest after each. A panic
// that is not a step's own fails the test with the steps that led to it.
func (m *digestModel) run(n0, steps int) {
	m.t.Helper()
	defer func() {
		if r := recover(); r != nil {
			m.fatalf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	for range n0 {
		m.ds, m.refs = append(m.ds, new(Digest)), append(m.refs, newRef())
	}
	m.check()
	for m.step = 0; m.step < steps; m.step++ {
		m.op()
		m.check()
	}
}

// op applies one operation drawn from m.o.
func (m *digestModel) op() {
	o := m.o
	i := o.N(len(m.ds))
	switch op := o.N(20); {
	case op < 6: // Write
		n := m.size()
		m.room(i, n)
		p := m.chunk(n)
		m.logf("Write(d%d, %d bytes)", i, n)
		m.write(m.ds[i], p)
		m.refs[i].write(p)

	case op < 7: // many tiny writes, each checked
		k := 1 + o.N(150)
		m.room(i, 8*k)
		m.logf("%d tiny writes to d%d", k, i)
		for range k {
			p := m.chunk(o.N(9))
			m.write(m.ds[i], p)
			m.refs[i].write(p)
			if got, want := m.ds[i].s.Sum256(m.pl), m.refs[i].sum(); got != want {
				m.fatalf("d%d after a tiny write of %d bytes (%d in all): %x, want %x", i, len(p), len(m.refs[i].msg), got, want)
			}
		}

	case op < 11:
		m.opWriteMany()

	case op < 12: // Reset
		m.logf("Reset(d%d)", i)
		m.ds[i].Reset()
		m.refs[i].reset()

	case op < 14: // Clone, into a new slot or over another Digest
		c, err := m.ds[i].Clone()
		if err != nil {
			m.fatalf("Clone: %v", err)
		}
		j := m.slot()
		m.logf("d%d = Clone(d%d)", j, i)
		m.ds[j], m.refs[j] = c.(*Digest), m.refs[i].clone()

	case op < 16: // our state into a fresh Digest, a used one, or itself
		var st []byte
		if o.N(2) == 0 {
			st, _ = m.ds[i].MarshalBinary()
		} else {
			// AppendBinary after bytes that must stay as they were.
			head := m.chunk(o.N(100))
			b, _ := m.ds[i].AppendBinary(append(m.buf[:0], head...))
			if !bytes.Equal(b[:len(head)], head) {
				m.fatalf("AppendBinary changed the bytes it appends to")
			}
			st, m.buf = b[len(head):], b
		}
		if want := m.refs[i].state(); !bytes.Equal(st, want) {
			m.fatalf("d%d's state\n got %x\nwant %x", i, st, want)
		}
		j := m.slot()
		fresh := o.N(3) == 0
		m.logf("d%d.UnmarshalBinary(d%d's state), fresh %v", j, i, fresh)
		if fresh {
			m.ds[j] = new(Digest)
		}
		if err := m.ds[j].UnmarshalBinary(st); err != nil {
			m.fatalf("UnmarshalBinary: %v", err)
		}
		if j != i {
			m.refs[j] = m.refs[i].clone()
		}

	case op < 17: // crypto/sha256's state taken mid-stream, into a Digest
		j := m.slot()
		fresh := o.N(3) == 0
		m.logf("d%d.UnmarshalBinary(crypto/sha256's state of d%d), fresh %v", j, i, fresh)
		if fresh {
			m.ds[j] = new(Digest)
		}
		if err := m.ds[j].UnmarshalBinary(m.refs[i].state()); err != nil {
			m.fatalf("UnmarshalBinary of crypto/sha256's state: %v", err)
		}
		if j != i {
			m.refs[j] = m.refs[i].clone()
		}

	case op < 18: // our state into crypto/sha256, which goes on as the model
		st, _ := m.ds[i].MarshalBinary()
		h := sha256.New()
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
			m.fatalf("crypto/sha256 rejects d%d's state: %v", i, err)
		}
		m.logf("crypto/sha256 resumes d%d's state", i)
		m.refs[i].h = h

	case op < 19:
		m.opBatch()

	default:
		m.opMisuse(i)
	}
}

// slot returns where a clone or a loaded state goes: a new Digest while
// there is room, else one of the Digests there are (the one copied from,
// too).
func (m *digestModel) slot() int {
	if len(m.ds) < maxModelDigests && m.o.N(3) == 0 {
		m.ds, m.refs = append(m.ds, new(Digest)), append(m.refs, newRef())
		return len(m.ds) - 1
	}
	return m.o.N(len(m.ds))
}

// opWriteMany writes chunks of random sizes (empty and nil too) to a random
// subset of the Digests in random order. ds may be longer than chunks:
// WriteMany writes and checks for repeats only ds[i], i < len(chunks), so
// the Digests past it may be any, written ones too (pinning what the doc's
// "if a Digest appears twice" leaves unsaid).
func (m *digestModel) opWriteMany() {
	o := m.o
	perm := m.perm()
	// One call in four has chunks past a few KB; one in longOdds, where
	// writes may be that long, only chunks past a part, mostly to every
	// Digest, so they go on in groups as wide as the plan's first kernel.
	big := o.N(4) == 0
	part := m.pl.PartBlocks * BlockSize
	long := m.maxWrite > part && o.N(max(m.longOdds, 1)) == 0
	k := o.N(len(perm) + 1)
	if long && o.N(4) != 0 {
		k = len(perm)
	}
	idx := perm[:k]
	ds := make([]*Digest, 0, k+4)
	chunks := make([][]byte, k)
	var sizes []int
	for c, i := range idx {
		ds = append(ds, m.ds[i])
		n := m.size()
		kind := o.N(8)
		switch {
		case long:
			n, kind = part+1+o.N(min(m.maxWrite, 2*part)-part), 2
		case !big:
			n = min(n, 5000)
		}
		switch kind {
		case 0: // nil
		case 1:
			chunks[c] = m.data[:0]
		default:
			m.room(i, n)
			chunks[c] = m.chunk(n)
		}
		sizes = append(sizes, len(chunks[c]))
	}
	for range o.N(4) {
		ds = append(ds, m.ds[o.N(len(m.ds))])
	}
	single := o.N(4) == 0
	m.logf("WriteMany(d%v (%d Digests), chunks of %v bytes, single %v)", idx, len(ds), sizes, single)
	m.writeMany(ds, chunks, single)
	for c, i := range idx {
		m.refs[i].write(chunks[c])
	}
}

// perm returns the Digests' indices in random order.
func (m *digestModel) perm() []int {
	p := make([]int, len(m.ds))
	for i := range p {
		j := m.o.N(i + 1)
		p[i], p[j] = p[j], i
	}
	return p
}

// hashMany is HashMany and HashManyPrefixed, or their entry point on the
// plan.
func (m *digestModel) hashMany(out [][Size]byte, prefix []byte, msgs [][]byte) {
	if m.public {
		HashManyPrefixed(out, prefix, msgs)
		return
	}
	hashMany(m.pl, out, prefix, msgs)
}

// opBatch hashes the Digests' whole messages as a batch, on the plan's
// batch entry points, between stream calls that use the same pooled
// scratch areas, and compares with crypto/sha256 over the messages (not
// with the model's running state, which a step may have resumed from our
// own marshaled state).
func (m *digestModel) opBatch() {
	o := m.o
	msgs := make([][]byte, 0, len(m.ds))
	for _, i := range m.perm()[:1+o.N(len(m.ds))] {
		msgs = append(msgs, m.refs[i].msg)
	}
	out := make([][Size]byte, len(msgs))
	switch o.N(4) {
	case 0:
		m.logf("Sum256 and HashMany of %d messages", len(msgs))
		for k, msg := range msgs {
			var got [Size]byte
			if m.public {
				got = Sum256(msg)
			} else {
				got = sum256(m.pl, msg)
			}
			if want := sha256.Sum256(msg); got != want {
				m.fatalf("Sum256 of message %d (%d bytes): %x, want %x", k, len(msg), got, want)
			}
		}
		if m.public {
			HashMany(out, msgs)
		} else {
			m.hashMany(out, nil, msgs)
		}
		for k, msg := range msgs {
			if want := sha256.Sum256(msg); out[k] != want {
				m.fatalf("HashMany, message %d of %d (%d bytes): %x, want %x", k, len(msgs), len(msg), out[k], want)
			}
		}
	case 1: // the messages cut into 64-byte items, as a Merkle level's pairs
		var items [][]byte
		for _, msg := range msgs {
			for len(msg) >= 2*Size && len(items) < 300 {
				items = append(items, msg[:2*Size])
				msg = msg[2*Size:]
			}
		}
		m.logf("HashMany of %d 64-byte items", len(items))
		out = make([][Size]byte, len(items))
		m.hashMany(out, nil, items)
		for k, it := range items {
			if want := sha256.Sum256(it); out[k] != want {
				m.fatalf("HashMany of 64-byte item %d of %d: %x, want %x", k, len(items), out[k], want)
			}
		}
	case 2:
		// Short items that pad to as many blocks each, after a prefix of
		// less than a block or none: the batches staged whole in the
		// scratch area's slots, whose layout stays there for the next.
		nb := 1 + o.N(3)
		lo, hi := max((nb-1)*BlockSize-8, 0), nb*BlockSize-9
		prefix := m.chunk(o.N(min(lo, BlockSize-1) + 1))
		items := make([][]byte, serialBatch+1+o.N(40))
		for k := range items {
			items[k] = m.chunk(lo - len(prefix) + o.N(hi-lo+1))
		}
		m.logf("HashManyPrefixed, %d-byte prefix, %d items of %d-%d bytes", len(prefix), len(items), lo-len(prefix), hi-len(prefix))
		out = make([][Size]byte, len(items))
		m.hashMany(out, prefix, items)
		for k, it := range items {
			if w := want(prefix, it); out[k] != w {
				m.fatalf("HashManyPrefixed, item %d of %d (%d bytes): %x, want %x", k, len(items), len(it), out[k], w)
			}
		}
	default: // a prefix cut from the first message, the rest of each after it
		cut := o.N(min(len(msgs[0]), 200) + 1)
		prefix := msgs[0][:cut]
		rests := make([][]byte, len(msgs))
		for k, msg := range msgs {
			rests[k] = msg[min(cut, len(msg)):]
		}
		m.logf("HashManyPrefixed, %d-byte prefix, %d messages", cut, len(msgs))
		m.hashMany(out, prefix, rests)
		for k, rest := range rests {
			if w := want(prefix, rest); out[k] != w {
				m.fatalf("HashManyPrefixed, message %d of %d (%d bytes): %x, want %x", k, len(rests), len(rest), out[k], w)
			}
		}
	}
}

// opMisuse makes the calls the doc says fail: WriteMany with a Digest twice
// among those it writes, or with fewer Digests than chunks, which panic,
// and states of another hash or size, which UnmarshalBinary rejects. None
// may change any Digest.
func (m *digestModel) opMisuse(i int) {
	o := m.o
	before := make([]sched.Stream, len(m.ds))
	for k, d := range m.ds {
		before[k] = d.s
	}
	switch o.N(3) {
	case 0, 1:
		ds := make([]*Digest, 0, len(m.ds)+1)
		for _, k := range m.perm() {
			ds = append(ds, m.ds[k])
		}
		var chunks [][]byte
		var msg string
		if o.N(2) == 0 {
			// A Digest again at a random place, every Digest written.
			at := o.N(len(ds) + 1)
			ds = append(ds[:at], append([]*Digest{ds[o.N(len(ds))]}, ds[at:]...)...)
			chunks = make([][]byte, len(ds))
			msg = "sha256x: WriteMany with a Digest twice"
		} else {
			chunks = make([][]byte, len(ds)+1+o.N(3))
			msg = fmt.Sprintf("sha256x: len(ds) = %d < len(chunks) = %d", len(ds), len(chunks))
		}
		for c := range chunks {
			chunks[c] = m.chunk(o.N(200))
		}
		m.logf("WriteMany misused, want panic %q", msg)
		func() {
			defer func() {
				if r := recover(); r != msg {
					m.fatalf("WriteMany panicked with %v, want %q", r, msg)
				}
			}()
			m.writeMany(ds, chunks, o.N(4) == 0)
		}()
	default:
		st := m.refs[i].state()
		switch o.N(3) {
		case 0:
			h := sha256.New224()
			h.Write(m.chunk(o.N(200)))
			st, _ = h.(encoding.BinaryMarshaler).MarshalBinary()
		case 1:
			st = st[:o.N(len(st))]
		default:
			st = append(st, 0)
		}
		m.logf("d%d.UnmarshalBinary of a bad state of %d bytes", i, len(st))
		if err := m.ds[i].UnmarshalBinary(st); err == nil {
			m.fatalf("UnmarshalBinary took a bad state of %d bytes", len(st))
		}
	}
	for k, d := range m.ds {
		if d.s != before[k] {
			m.fatalf("d%d changed by a call that failed", k)
		}
	}
}

// check compares every Digest with its model: the digest on the plan and
// through the API, and the marshaled state, byte for byte crypto/sha256's.
// None of these may change the Digest, nor may it be left marked as inside
// a WriteMany.
func (m *digestModel) check() {
	for i, d := range m.ds {
		before := d.s
		want := m.refs[i].sum()
		if got := d.s.Sum256(m.pl); got != want {
			m.fatalf("d%d (%d bytes): digest %x, want %x", i, len(m.refs[i].msg), got, want)
		}
		head := m.data[:i:i] // Sum appends: not into m.data
		if got := d.Sum(head); !bytes.Equal(got[:i], head) || !bytes.Equal(got[i:], want[:]) {
			m.fatalf("d%d (%d bytes): Sum %x, want %x", i, len(m.refs[i].msg), got[i:], want)
		}
		b, _ := d.AppendBinary(m.buf[:0])
		if ref := m.refs[i].state(); !bytes.Equal(b, ref) {
			m.fatalf("d%d (%d bytes): state\n got %x\nwant %x", i, len(m.refs[i].msg), b, ref)
		}
		m.buf = b
		if d.s != before {
			m.fatalf("d%d: Sum or AppendBinary changed the Digest", i)
		}
		if d.s.Clone() != d.s {
			m.fatalf("d%d: still marked inside WriteMany", i)
		}
	}
}

// modelData is the bytes every sequence cuts its writes from.
func modelData(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestDigestModel runs the sequences below on every plan: one Digest or
// many, writes long or short, more Digests than the widest kernel's lanes.
// Seeds are fixed, so a failure repeats; -short runs fewer steps.
func TestDigestModel(t *testing.T) {
	runs := []struct {
		name            string
		seed            uint64
		digests, steps  int
		maxWrite, short int // short: the steps under -short
		longOdds        int
	}{
		{"one", 1, 1, 80, 300 << 10, 25, 8},
		{"few", 2, 3, 100, 160 << 10, 30, 8},
		{"many", 3, 20, 100, 20 << 10, 30, 8},
		{"wide", 5, 18, 25, 140 << 10, 18, 2},
		{"small", 4, 5, 400, 600, 120, 8},
	}
	data := modelData(300<<10 + BlockSize)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, r := range runs {
			steps := r.steps
			if testing.Short() {
				steps = r.short
			}
			m := &digestModel{
				t: t, pl: pl, public: pl == plan.Active,
				o:    &fuzzops.Ops{R: rand.New(rand.NewPCG(r.seed, 17))},
				data: data, maxWrite: r.maxWrite, maxMsg: 3 * r.maxWrite / 2, longOdds: r.longOdds,
			}
			t.Run(r.name, func(t *testing.T) {
				m.t = t
				m.run(r.digests, steps)
			})
		}
	})
}

// FuzzDigestOps is TestDigestModel with the fuzzer's bytes choosing the
// plan, the number of Digests and every operation, and a generator seeded
// from them once they run out. Writes are shorter, for speed, but still
// reach past every plan's parts.
func FuzzDigestOps(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 1, 0, 2, 0, 3})
	f.Add([]byte("\x00\x05\x00\x03\x00\x07\x00\x0a\x00\x0e\x00\x13\x00\x10\x00\x11"))
	f.Add(bytes.Repeat([]byte{0, 9, 1, 200, 0, 6, 0, 13}, 16))
	plans := testPlans()
	data := modelData(140<<10 + BlockSize)
	f.Fuzz(func(t *testing.T, b []byte) {
		o := &fuzzops.Ops{B: b, R: rand.New(rand.NewPCG(uint64(len(b)), 23))}
		pl := plans[o.N(len(plans))].Plan
		n0 := 1 + o.N(6)
		steps := min(4+len(b)/6, 60)
		m := &digestModel{
			t: t, pl: pl, public: pl == plan.Active, o: o,
			data: data, maxWrite: 140 << 10, maxMsg: 200 << 10, longOdds: 8,
		}
		m.run(n0, steps)
	})
}
