package sha256x

import (
	"crypto/sha256"
	"hash"
	"math/rand/v2"
	"testing"
)

// Long messages are hashed a part of partBlocks blocks at a time, so that
// no kernel call runs unbounded work. These tests check the digests around
// part boundaries and the bound itself on every entry point; TestPauses
// (pauses_test.go) checks what it is for: the runtime stops the world
// quickly while a long message is hashed.

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
