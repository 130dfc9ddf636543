package sha256x

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

func TestMain(m *testing.M) {
	var names []string
	for _, p := range testPlans() {
		names = append(names, p.Name)
	}
	fmt.Printf("sha256x: dispatched %s; testing %s\n", Kernel(), strings.Join(names, ", "))
	os.Exit(m.Run())
}

// want is crypto/sha256 of prefix || msg.
func want(prefix, msg []byte) [Size]byte {
	h := sha256.New()
	h.Write(prefix)
	h.Write(msg)
	var d [Size]byte
	h.Sum(d[:0])
	return d
}

// check hashes msgs on pl and compares every digest with crypto/sha256's,
// and that the entry of out past the batch is left alone.
func check(t *testing.T, pl *plan.Plan, prefix []byte, msgs [][]byte, wants [][Size]byte) {
	t.Helper()
	out := make([][Size]byte, len(msgs)+1)
	for i := range out[len(msgs)] {
		out[len(msgs)][i] = 0xa5
	}
	hashMany(pl, out, prefix, msgs)
	bad := 0
	for i, m := range msgs {
		w := want(prefix, m)
		if wants != nil {
			w = wants[i]
		}
		if out[i] != w {
			if bad++; bad <= 5 {
				t.Errorf("prefix %d bytes, message %d of %d (%d bytes): got %x, want %x", len(prefix), i, len(msgs), len(m), out[i], w)
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d wrong digests in all", bad)
	}
	if out[len(msgs)] != [Size]byte(bytes.Repeat([]byte{0xa5}, Size)) {
		t.Errorf("the entry of out past the batch was written")
	}
}

// pattern returns n bytes that differ from one message to the next.
func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed*13 + i>>8)
	}
	return b
}

func TestLengths(t *testing.T) {
	var msgs [][]byte
	for n := 0; n <= 1100; n++ {
		msgs = append(msgs, pattern(n, n))
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		check(t, pl, nil, msgs, nil)
		for _, m := range msgs {
			if got, w := sum256(pl, m), sha256.Sum256(m); got != w {
				t.Fatalf("sum256 of %d bytes: got %x, want %x", len(m), got, w)
			}
			check(t, pl, nil, [][]byte{m}, nil)
		}
	})
}

func TestBlockBoundaries(t *testing.T) {
	t.Parallel()
	step := 64
	if testing.Short() {
		step = 64 * 17
	}
	var msgs [][]byte
	var wants [][Size]byte
	big := pattern(70000+2, 1)
	for n := step; n <= 70000; n += step {
		for d := -1; d <= 1; d++ {
			msgs = append(msgs, big[:n+d])
			wants = append(wants, sha256.Sum256(big[:n+d]))
		}
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		check(t, pl, nil, msgs, wants)
		for i := 0; i < len(msgs); i += 97 {
			if got := sum256(pl, msgs[i]); got != wants[i] {
				t.Errorf("sum256 of %d bytes: got %x, want %x", len(msgs[i]), got, wants[i])
			}
		}
	})
}

func prefixLengths() []int {
	var ls []int
	for n := 0; n <= 130; n++ {
		ls = append(ls, n)
	}
	return append(ls, 200, 4096)
}

func TestPrefixes(t *testing.T) {
	var msgs [][]byte
	for n := 0; n <= 200; n++ {
		msgs = append(msgs, pattern(n, n))
	}
	msgs = append(msgs, pattern(1031, 1), pattern(1032, 2), pattern(4096, 3), nil, []byte{})
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, pn := range prefixLengths() {
			prefix := pattern(pn, 1000+pn)
			check(t, pl, prefix, msgs, nil)
			check(t, pl, prefix, msgs[pn%len(msgs):][:1], nil)
		}
	})
}

func TestBatchSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for n := 0; n <= 40; n++ {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = pattern(r.IntN(300), i)
			}
			check(t, pl, nil, msgs, nil)
			check(t, pl, []byte("LEAF"), msgs, nil)
		}
	})
}

// TestRagged drives batches longer than a window, with lengths from a few
// bytes to 100 KB in random order, so that lanes refill, carry over windows
// and hand their last jobs to narrower kernels at every point of a job.
func TestRagged(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	sizes := []int{0, 1, 32, 55, 56, 64, 100, 1000, 4096, 65536}
	rounds := 12
	if testing.Short() {
		rounds = 6 // emulated runs: each kind of round, with and without a prefix
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for round := 0; round < rounds; round++ {
			// Up to 300 of up to 100 KB, up to 700 shorter ones: past
			// both windows' sizes.
			msgs := make([][]byte, r.IntN(300)+(round%3+1)/2*r.IntN(400))
			for i := range msgs {
				n := sizes[r.IntN(len(sizes))]
				if round%3 == 0 {
					n = r.IntN(100000)
				} else if round%3 == 1 {
					n = r.IntN(300)
				}
				msgs[i] = pattern(n, i)
			}
			var prefix []byte
			if round%2 == 1 {
				prefix = pattern(r.IntN(140), round)
			}
			check(t, pl, prefix, msgs, nil)
		}
	})
}

// TestStagedBatches drives the batches staged whole for the pairs kernels:
// messages after a prefix under a block, all padding to one to three
// blocks, at every count around the kernels' groups and chunks; and with
// one message of another block count, which sends the batch to the queue.
func TestStagedBatches(t *testing.T) {
	t.Parallel()
	lengths := []int{0, 1, 31, 32, 33, 54, 55, 56, 63, 64, 65, 100, 118, 119, 120, 127, 128, 182, 183, 184}
	counts := []int{6, 7, 8, 15, 16, 17, 63, 64, 65, 129, 300}
	prefixes := []int{0, 1, 2, 9, 55, 63, 64, 65}
	if testing.Short() {
		// Emulated runs: each block count's edges, a partial group, more
		// than a chunk.
		lengths = []int{0, 55, 56, 100, 119, 120, 183, 184}
		counts, prefixes = []int{6, 17, 65}, []int{0, 1, 63}
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, pn := range prefixes {
			prefix := pattern(pn, 500+pn)
			for _, l := range lengths {
				for _, n := range counts {
					msgs := make([][]byte, n)
					for i := range msgs {
						msgs[i] = pattern(l, i)
					}
					check(t, pl, prefix, msgs, nil)
					// Lengths that differ but pad to as many blocks: the
					// shortest of l's block count and l.
					lo := max(0, ((pn+l+8)/BlockSize)*BlockSize-8-pn)
					for i := range msgs {
						msgs[i] = pattern(lo+(i*7)%(l-lo+1), i)
					}
					check(t, pl, prefix, msgs, nil)
					msgs[n/2] = pattern(l+64, n) // one more block
					check(t, pl, prefix, msgs, nil)
				}
			}
		}
	})
}

// TestStagedTemplates alternates staged joins and staged messages of the
// same length and prefix in one goroutine, which reuses one scratch area:
// a join must not take message bytes for its infix.
func TestStagedTemplates(t *testing.T) {
	j := Join{Prefix: []byte{1}, Width: 31, Infix: []byte{3, 4}} // 65 bytes
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		nodes := make([][Size]byte, 2*40)
		for i := range nodes {
			copy(nodes[i][:], pattern(Size, i))
		}
		msgs := make([][]byte, 40)
		for i := range msgs {
			msgs[i] = pattern(64, i) // after the prefix {1}: 65 bytes
		}
		// The first message has the join's infix where the join has it:
		// a template check of the first slot alone would pass.
		msgs[0][31], msgs[0][32] = 3, 4
		out := make([][Size]byte, 40)
		for round := range 3 {
			hashLevel(pl, out, j, nodes)
			for i := range out {
				if w := joinWant(j, nodes[2*i], nodes[2*i+1]); out[i] != w {
					t.Fatalf("round %d, pair %d: got %x, want %x", round, i, out[i], w)
				}
			}
			check(t, pl, j.Prefix, msgs, nil)
		}
	})
}

// TestStagedLayouts hashes, in one goroutine (one scratch area), staged
// items of one length in two layouts in turn, the first slot of the first
// holding the second's prefix or infix among its bytes: 65-byte messages
// starting 0x00, then RFC 6962 leaves; HashManyDouble, then 31-byte
// messages after a 1-byte prefix; a join with a 1-byte infix, then RFC
// 6962's. Every slot but the first must be laid out again.
func TestStagedLayouts(t *testing.T) {
	const n = 16
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		a := make([][]byte, n)
		for i := range a {
			a[i] = pattern(65, i)
			a[i][0] = byte(i) // a[0][0] is the prefix below
		}
		b := make([][]byte, n)
		for i := range b {
			b[i] = pattern(64, 100+i)
		}
		check(t, pl, nil, a, nil)
		check(t, pl, []byte{0}, b, nil)

		// Digests hashed again: a first digest that starts with the prefix.
		d := make([][]byte, n)
		for k := 0; d[0] == nil; k++ {
			if m := pattern(10, k); sha256.Sum256(m)[0] == 0 {
				d[0] = m
			}
		}
		for i := 1; i < n; i++ {
			d[i] = pattern(10, 1000+i)
		}
		out := make([][Size]byte, n)
		sched.HashManyDouble(pl, out, d)
		for i := range b {
			b[i] = b[i][:31]
		}
		check(t, pl, []byte{0}, b, nil)

		// Joins of 65 bytes: an infix, then a prefix where the first
		// level's first node has it.
		nodes := make([][Size]byte, 2*n)
		for i := range nodes {
			copy(nodes[i][:], pattern(Size, i))
			nodes[i][0] = byte(i + 1)
		}
		for _, j := range []Join{{Infix: []byte{7}}, {Prefix: []byte{1}}} {
			hashLevel(pl, out, j, nodes)
			for i := range out {
				if w := joinWant(j, nodes[2*i], nodes[2*i+1]); out[i] != w {
					t.Fatalf("join %+v, node %d: got %x, want %x", j, i, out[i], w)
				}
			}
			for i := range nodes {
				nodes[i][0] = 0x55
			}
		}
	})
}

// TestCallSequences runs random calls in one goroutine (one scratch area,
// whose layouts and padding later calls reuse) on items of a few lengths
// around a block and bytes of three values, so what a call finds left by
// the one before often looks like its own.
func TestCallSequences(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		r := rand.New(rand.NewPCG(41, 42))
		some := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(3))
			}
			return b
		}
		steps := 3000
		if testing.Short() {
			steps = 500
		}
		for step := range steps {
			n := []int{1, 2, 3, 6, 7, 16, 17, 33, 65, 70}[r.IntN(10)]
			switch r.IntN(4) {
			case 0, 1: // messages of one length, now and then one shorter
				prefix := some([]int{r.IntN(4), r.IntN(70)}[r.IntN(2)])
				l := max([]int{31, 32, 33, 63, 64, 65, 66, 100}[r.IntN(8)]-len(prefix), 0)
				msgs := make([][]byte, n)
				for i := range msgs {
					msgs[i] = some(l)
				}
				if r.IntN(3) == 0 {
					msgs[r.IntN(n)] = some(max(0, l-r.IntN(3)))
				}
				check(t, pl, prefix, msgs, nil)
			case 2:
				msgs := make([][]byte, n)
				out := make([][Size]byte, n)
				for i := range msgs {
					msgs[i] = some(r.IntN(70))
				}
				sched.HashManyDouble(pl, out, msgs)
				for i, m := range msgs {
					if d := sha256.Sum256(m); out[i] != sha256.Sum256(d[:]) {
						t.Fatalf("step %d: SHA-256d of message %d of %d wrong", step, i, n)
					}
				}
			case 3:
				j := Join{Width: []int{0, 1, 20, 31, 32}[r.IntN(5)], Prefix: some(r.IntN(4)), Infix: some(r.IntN(3)), Double: r.IntN(4) == 0}
				nodes := make([][Size]byte, 2*n)
				out := make([][Size]byte, n)
				for i := range nodes {
					copy(nodes[i][:], some(Size))
				}
				hashLevel(pl, out, j, nodes)
				for i := range out {
					if out[i] != joinWant(j, nodes[2*i], nodes[2*i+1]) {
						t.Fatalf("step %d: join %+v of %d pairs, node %d wrong", step, j, n, i)
					}
				}
			}
			if t.Failed() {
				t.Fatalf("step %d", step)
			}
		}
	})
}

func TestNilEmptyAndOverlapping(t *testing.T) {
	buf := pattern(5000, 9)
	msgs := [][]byte{nil, {}, buf[:100], buf[50:150], buf[:4096], buf[1:4097], buf[:100], buf[4999:], buf[5000:], nil}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		check(t, pl, nil, msgs, nil)
		check(t, pl, buf[10:80], msgs, nil)
	})
}

func TestPanics(t *testing.T) {
	buf := make([]byte, 1024)
	out := (*[32][Size]byte)(unsafe.Pointer(&buf[0]))[:]
	cases := []struct {
		name, msg string
		f         func()
	}{
		{"short out", "sha256x: len(out) = 1 < len(msgs) = 2", func() { HashMany(make([][Size]byte, 1), [][]byte{nil, nil}) }},
		{"nil out", "sha256x: len(out) = 0 < len(msgs) = 1", func() { HashMany(nil, [][]byte{nil}) }},
		{"out over msgs", "sha256x: out overlaps msgs", func() { HashMany(out[:2], [][]byte{buf[100:200], buf[10:20]}) }},
		{"out over a 64-byte msg", "sha256x: out overlaps msgs", func() { HashMany(out[:1], [][]byte{buf[16:80]}) }},
		{"out over two 64-byte msgs", "sha256x: out overlaps msgs", func() { HashMany(out[2:4], [][]byte{buf[:64], buf[100:164]}) }},
		{"out over prefix", "sha256x: out overlaps prefix", func() { HashManyPrefixed(out[2:4], buf[70:90], [][]byte{nil}) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Errorf("panic %q, want %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
	// Adjacent but not overlapping is fine, and so are entries past the batch.
	HashMany(out[:2], [][]byte{buf[64:200]})
	HashManyPrefixed(out[:1], buf[32:64], [][]byte{buf[64:65]})
}

// TestHashManySmall64 checks HashMany on one and two 64-byte messages,
// straight to the pairs kernels: out right before or after the messages,
// the messages apart, and Sum256 of 64 bytes (TestGuardPagesSmall puts
// them at page edges).
func TestHashManySmall64(t *testing.T) {
	buf := pattern(512, 9)
	out := (*[16][Size]byte)(unsafe.Pointer(&buf[0]))[:]
	for _, msgs := range [][][]byte{
		{buf[64:128]},                // right after out[:2]
		{buf[64:128], buf[300:364]},  // the first right after out[:2]
		{buf[200:264], buf[130:194]}, // apart, out of order
		{buf[100:164], buf[100:164]}, // the same message twice
	} {
		wants := make([][Size]byte, len(msgs))
		for i, m := range msgs {
			wants[i] = sha256.Sum256(m)
		}
		HashMany(out[:2], msgs)
		for i := range wants {
			if out[i] != wants[i] {
				t.Fatalf("%d 64-byte messages: digest %d wrong", len(msgs), i)
			}
			if Sum256(msgs[i]) != wants[i] {
				t.Fatalf("Sum256 of 64 bytes: wrong digest")
			}
		}
		copy(buf, pattern(512, 9))
	}
	// out right before the message: out[1] ends where the message starts.
	m := buf[2*Size : 4*Size]
	want := sha256.Sum256(m)
	HashMany(out[:2], [][]byte{m})
	if out[0] != want {
		t.Fatalf("out right before the message: wrong digest")
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	msgs := make([][]byte, 300)
	for i := range msgs {
		msgs[i] = pattern(i*13, i)
	}
	out := make([][Size]byte, len(msgs))
	prefix := pattern(100, 1)
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{1, 2, 64, 65, 300} {
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, nil, msgs[:n]) }); a != 0 {
				t.Errorf("hashMany of %d messages: %v allocations", n, a)
			}
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, prefix, msgs[:n]) }); a != 0 {
				t.Errorf("prefixed hashMany of %d messages: %v allocations", n, a)
			}
		}
		if a := testing.AllocsPerRun(20, func() { out[0] = sum256(pl, msgs[100]) }); a != 0 {
			t.Errorf("sum256: %v allocations", a)
		}
	})
	// Batches of up to serialBatch short messages, one after another, a
	// prefix staged with each in two or four blocks.
	short := make([][]byte, serialBatch)
	for i := range short {
		short[i] = pattern(32+40*i, i)
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for n := 1; n <= serialBatch; n++ {
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, []byte("LEAF"), short[:n]) }); a != 0 {
				t.Errorf("prefixed hashMany of %d short messages: %v allocations", n, a)
			}
		}
	})
	// 64-byte messages on the pairs kernels, a partial group of the lanes
	// among them.
	var many64 [][]byte
	for i := range 29 {
		many64 = append(many64, pattern(64, i))
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{12, 29} {
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, nil, many64[:n]) }); a != 0 {
				t.Errorf("hashMany of %d 64-byte messages: %v allocations", n, a)
			}
		}
	})
	// Short messages staged whole for the pairs kernels: RFC 6962 leaves of
	// one length and of several.
	leaves, ragged := make([][]byte, 300), make([][]byte, 300)
	for i := range leaves {
		leaves[i], ragged[i] = pattern(100, i), pattern(90+i%21, i)
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{6, 65, 300} {
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, []byte{0}, leaves[:n]) }); a != 0 {
				t.Errorf("hashMany of %d leaves: %v allocations", n, a)
			}
			if a := testing.AllocsPerRun(20, func() { hashMany(pl, out, []byte{0}, ragged[:n]) }); a != 0 {
				t.Errorf("hashMany of %d leaves of 90-110 bytes: %v allocations", n, a)
			}
		}
	})
	// The public entry points' own paths for one and two 64-byte messages.
	m64 := [][]byte{pattern(64, 1), pattern(64, 2)}
	for n := 1; n <= 2; n++ {
		if a := testing.AllocsPerRun(20, func() { HashMany(out, m64[:n]) }); a != 0 {
			t.Errorf("HashMany of %d 64-byte messages: %v allocations", n, a)
		}
		if a := testing.AllocsPerRun(20, func() { HashManyPrefixed(out, nil, m64[:n]) }); a != 0 {
			t.Errorf("HashManyPrefixed of %d 64-byte messages: %v allocations", n, a)
		}
	}
	if a := testing.AllocsPerRun(20, func() { out[0] = Sum256(m64[0]) }); a != 0 {
		t.Errorf("Sum256 of 64 bytes: %v allocations", a)
	}
}

// TestStackBuffers checks that the caller's slices do not escape: digests and
// messages in stack arrays cost no allocation.
func TestStackBuffers(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	var sink [Size]byte
	a := testing.AllocsPerRun(20, func() {
		var out [3][Size]byte
		var a, b [200]byte
		p := [5]byte{1, 2, 3, 4, 5}
		HashManyPrefixed(out[:], p[:], [][]byte{a[:], b[:7], a[100:]})
		HashMany(out[1:], [][]byte{a[:], b[:]})
		d := Sum256(b[:])
		sink = out[0]
		sink[0] ^= d[0]
	})
	if a != 0 {
		t.Errorf("%v allocations: a caller's slices escape", a)
	}
	// More messages than the wide window: the queue flushes and carries
	// jobs, a level of more pairs than a chunk, streams past a window.
	a = testing.AllocsPerRun(10, func() {
		var out [300][Size]byte
		var data [300 * 100]byte
		var msgs [300][]byte
		for i := range msgs {
			msgs[i] = data[i*100 : i*100+i%70+30]
		}
		HashManyPrefixed(out[:], []byte("LEAF"), msgs[:])
		var nodes [600][Size]byte
		Join{Prefix: []byte{1}}.HashLevel(out[:], nodes[:])
		Join{}.HashLevel(out[:], nodes[:])
		sink = out[299]
	})
	if a != 0 {
		t.Errorf("%v allocations: a batch of more than a window lets the caller's slices escape", a)
	}
}

func TestConcurrent(t *testing.T) {
	msgs := make([][]byte, 200)
	for i := range msgs {
		msgs[i] = pattern(i*37%3000, i)
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- true }()
			out := make([][Size]byte, len(msgs))
			for round := 0; round < 10; round++ {
				HashManyPrefixed(out, []byte("abc"), msgs)
				for i, m := range msgs {
					if out[i] != want([]byte("abc"), m) {
						t.Errorf("goroutine %d: message %d wrong", g, i)
						return
					}
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// TestDispatch checks what the dispatcher picked against SHA256X_WANT, when
// CI sets it for an emulated CPU, and that Kernel and Kernels agree.
func TestDispatch(t *testing.T) {
	if w := os.Getenv("SHA256X_WANT"); w != "" && Kernel() != w {
		t.Errorf("dispatched %q on this CPU, want %q", Kernel(), w)
	}
	ks := Kernels()
	if !strings.Contains(","+strings.Join(ks, ",")+",", ",generic,") {
		t.Errorf("Kernels() = %v lacks generic", ks)
	}
	t.Logf("Kernel() = %s, Kernels() = %v", Kernel(), ks)
}

// TestPackageAllocs: the package doc's "after warm-up, allocate nothing",
// for every function and method but those it names as returning memory of
// their own (New, Kernels, Digest.Clone, Digest.MarshalBinary; and
// Digest.Sum into a slice too short).
func TestPackageAllocs(t *testing.T) {
	msgs := [][]byte{make([]byte, 100), make([]byte, 1000), nil, make([]byte, 64)}
	out := make([][Size]byte, 4)
	var d Digest
	ds := []*Digest{new(Digest), new(Digest)}
	chunks := [][]byte{make([]byte, 200), make([]byte, 300)}
	nodes := make([][Size]byte, 8)
	states := make([][Size]byte, 3)
	counts := []uint64{3, 5, 7}
	buf := make([]byte, 0, 256)
	state, _ := d.MarshalBinary()
	for name, f := range map[string]func(){
		"HashMany":               func() { HashMany(out, msgs) },
		"HashManyDouble":         func() { HashManyDouble(out, msgs) },
		"HashManyPrefixed":       func() { HashManyPrefixed(out, []byte{1, 2}, msgs) },
		"Sum256":                 func() { Sum256(msgs[1]) },
		"Chain":                  func() { Chain([Size]byte{}, 10) },
		"Chains":                 func() { Chains(states, counts) },
		"Kernel":                 func() { _ = Kernel() },
		"WriteMany":              func() { WriteMany(ds, chunks) },
		"Join.HashLevel":         func() { Join{Prefix: []byte{1}}.HashLevel(out, nodes) },
		"Digest.Write":           func() { d.Write(msgs[1]) },
		"Digest.Sum":             func() { d.Sum(buf[:0]) },
		"Digest.Sum256":          func() { d.Sum256() },
		"Digest.AppendBinary":    func() { d.AppendBinary(buf[:0]) },
		"Digest.UnmarshalBinary": func() { d.UnmarshalBinary(state) },
		"Digest.Reset":           func() { d.Reset() },
		"Digest.Size, BlockSize": func() { _ = d.Size() + d.BlockSize() },
	} {
		f()
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations", name, a)
		}
	}
}
