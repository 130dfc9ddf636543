package sha256x

import (
	"crypto/sha256"
	"hash"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/sha256x/sha256x/internal/pauses"
)

// Long messages are hashed a part of partBlocks blocks at a time, so that
// no kernel call runs unbounded work. These tests check the digests around
// part boundaries, the bound itself on every entry point, and what it is
// for: the runtime stops the world quickly while a long message is hashed.

// TestParts checks messages, prefixes and chunks around the part boundaries,
// on every plan: alone, with short messages among them, and more of them than
// a kernel has lanes.
func TestParts(t *testing.T) {
	const pb = partBlocks * BlockSize
	big := pattern(3*pb+200, 4)
	var lens []int
	for _, k := range []int{1, 2, 3} {
		for d := -65; d <= 65; d += 13 {
			lens = append(lens, k*pb+d)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	forPlans(t, func(t *testing.T, pl *plan) {
		for _, pn := range []int{0, 1, 63, 64, 100, pb + 5} {
			prefix := pattern(pn, pn)
			var msgs [][]byte
			for _, n := range lens {
				msgs = append(msgs, big[:n])
				check(t, pl, prefix, [][]byte{big[:n]}, nil)
			}
			// Ragged: more long messages than lanes, short ones between.
			for range 40 {
				msgs = append(msgs, big[r.IntN(100):][:r.IntN(3000)])
			}
			r.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
			check(t, pl, prefix, msgs, nil)
		}
		for _, n := range lens {
			if got, w := pl.sum256(big[:n]), sha256.Sum256(big[:n]); got != w {
				t.Fatalf("sum256 of %d bytes: got %x, want %x", n, got, w)
			}
		}
		// Streams written in chunks across part boundaries, after odd
		// buffered bytes.
		ds := make([]*Digest, 20)
		refs := make([]hash.Hash, len(ds))
		for i := range ds {
			ds[i], refs[i] = new(Digest), sha256.New()
		}
		for round := range 4 {
			chunks := make([][]byte, len(ds))
			for i := range chunks {
				n := r.IntN(50)
				if (i+round)%3 != 0 {
					n = lens[r.IntN(len(lens))]
				}
				chunks[i] = big[r.IntN(100):][:n]
				refs[i].Write(chunks[i])
			}
			pl.writeMany(ds, chunks, false)
			for i, d := range ds {
				if got, want := d.Sum(nil), refs[i].Sum(nil); string(got) != string(want) {
					t.Fatalf("round %d, stream %d: got %x, want %x", round, i, got, want)
				}
			}
		}
	})
}

// TestBoundedCalls records the blocks of every kernel call's queue while
// every entry point hashes long input, and checks the bound lanes.go states:
// at most 2*width*(partBlocks+3) blocks, width the lanes of the plan's first
// kernel, with partBlocks no more than 64 KiB of blocks.
func TestBoundedCalls(t *testing.T) {
	const mib = 1 << 20
	buf := pattern(9*mib+100, 5)
	var many [][]byte
	for i := range 9 {
		many = append(many, buf[i*mib+i:][:mib-i])
	}
	for i := range 50 {
		many = append(many, buf[i:][:i*37])
	}
	var nodes [][Size]byte = make([][Size]byte, 4096)
	for _, p := range testPlans() {
		if p.pl.stdlib {
			continue // crypto/sha256 bounds its own calls
		}
		t.Run(p.name, func(t *testing.T) {
			pl := p.pl
			callBlocks.on = true
			defer func() { callBlocks.on = false }()
			out := make([][Size]byte, len(nodes)/2)
			for name, f := range map[string]func(){
				"sum256":        func() { pl.sum256(buf) },
				"one message":   func() { pl.hashMany(out, nil, [][]byte{buf}) },
				"many":          func() { pl.hashMany(out, nil, many) },
				"long prefix":   func() { pl.hashMany(out, buf[:5*mib+3], many[9:]) },
				"prefixed many": func() { pl.hashMany(out, buf[:7], many) },
				"level":         func() { pl.hashLevel(out, &Join{}, nodes) },
				"solana level": func() {
					pl.hashLevel(out, &Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}, nodes[:64])
				},
				"one stream":     func() { pl.writeMany([]*Digest{new(Digest)}, [][]byte{buf}, true) },
				"write":          func() { pl.write(new(Digest), buf) },
				"many streams":   func() { pl.writeMany(digests(len(many)), many, false) },
				"buffered first": func() { d := digests(2); d[1].Write(buf[:5]); pl.writeMany(d, [][]byte{buf, buf[1:]}, false) },
			} {
				callBlocks.most = 0
				f()
				if bound := uintptr(2 * pl.stages[0].width * (min(partBlocks, 1024) + 3)); callBlocks.most > bound {
					t.Errorf("%s: a kernel call had %d blocks, more than %d", name, callBlocks.most, bound)
				}
			}
		})
	}
}

func digests(n int) []*Digest {
	ds := make([]*Digest, n)
	for i := range ds {
		ds[i] = new(Digest)
	}
	return ds
}

// TestPauses hashes 512 MiB through each entry point on the dispatched plan
// while another goroutine forces garbage collections and a third sleeps
// 100 us at a time, and checks the worst time the runtime took to stop the
// world for a GC (/sched/pauses/stopping/gc:seconds) and the worst oversleep.
// Without bounded kernel calls they were hundreds of milliseconds.
//
// A host stalls a whole process now and then, and when a stall meets a GC's
// stop, that one stop of a thousand is long. A kernel call longer than the
// bound delays nearly every GC that comes while it runs (TestBoundedCalls
// checks each call's size exactly). So a case that misses the bounds three
// times still passes if in one of those runs at most 2 GC stops, or 1% of
// them, took longer than maxStop, none longer than maxStall, and the oversleep was within
// maxStall; failing that, it is measured beside crypto/sha256 before it fails.
// go test -run Pauses -v prints the figures.
func TestPauses(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("hashes 512 MiB per case")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	const mib = 1 << 20
	buf := make([]byte, 512*mib)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var eight [][]byte
	for i := range 8 {
		eight = append(eight, buf[i*64*mib:][:64*mib])
	}
	out := make([][Size]byte, 8)
	nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&buf[0])), len(buf)/Size) // 512 MiB of nodes
	cases := []struct {
		name string
		f    func()
	}{
		{"Sum256", func() { Sum256(buf) }},
		{"HashMany 1 x 512 MiB", func() { HashMany(out, [][]byte{buf}) }},
		{"HashMany 8 x 64 MiB", func() { HashMany(out, eight) }},
		{"HashManyPrefixed 8 x 64 MiB", func() { HashManyPrefixed(out, buf[:100], eight) }},
		{"Digest.Write", func() { new(Digest).Write(buf) }},
		{"WriteMany 8 x 64 MiB", func() { WriteMany(digests(8), eight) }},
		{"HashLevel of 512 MiB", func() { Join{}.HashLevel(make([][Size]byte, len(nodes)/2), nodes) }},
	}
	const maxStop, maxStall, maxLong = 2 * time.Millisecond, 25 * time.Millisecond, 2 // maxLong or 1% of the stops
	for _, c := range cases {
		clean, stalled := false, false
		for range 3 {
			r := pauses.Measure(c.f, maxStop)
			t.Logf("%s on %s: %v", c.name, Kernel(), r)
			if r.Stop <= maxStop && r.Stall <= maxStall {
				clean = true
				break
			}
			stalled = stalled || r.Long <= max(maxLong, r.Stops/100) && r.Stop <= maxStall && r.Stall <= maxStall
		}
		if clean {
			continue
		}
		if stalled {
			t.Logf("%s: a run with at most %d or 1%% of its GC stops long: host stalls, not a kernel call", c.name, maxLong)
			continue
		}
		// A busy host stalls every goroutine often: if crypto/sha256,
		// whose assembly calls are bounded, misses the bounds too, the
		// host is too busy to tell.
		b := pauses.Measure(func() { sha256.Sum256(buf) }, maxStop)
		if b.Stop > maxStop || b.Stall > maxStall {
			t.Logf("%s: crypto/sha256 on this host: %v: too busy to judge", c.name, b)
			continue
		}
		t.Errorf("%s: missed the bounds (GC stop %v, oversleep %v) three times; crypto/sha256 beside it: %v", c.name, maxStop, maxStall, b)
	}
}
