package sha256x

import (
	"crypto/sha256"
	"hash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

// Long messages are hashed a part at a time, and every kernel call stops
// after the steps its kernel runs in the time bound (internal/sched's
// TestBoundedCalls checks the bound): in the job queue parts of the plan's
// PartBlocks, a window's call at most WindowBlocks steps; a single message
// parts of OneBlocks. TestParts checks the digests around those boundaries.

// TestParts checks messages, prefixes and chunks around the part boundaries,
// on every plan: alone, with short messages among them, and more of them than
// a kernel has lanes.
func TestParts(t *testing.T) {
	t.Parallel()
	big := pattern(3*partBlocks*BlockSize+200, 4)
	r := rand.New(rand.NewPCG(7, 8))
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		// Around the ends of the first three parts in the queue and on
		// the single-message path.
		deltas := []int{-65, -52, -39, -26, -13, 0, 13, 26, 39, 52, 65}
		pns := []int{0, 1, 63, 64, 100, pl.OneBlocks*BlockSize + 5, pl.PartBlocks*BlockSize + 5}
		ks := []int{1, 2, 3}
		if testing.Short() {
			// Emulated runs: a block more and less, the tails that pad
			// within their block and past it, an exact end; a prefix of
			// part of a block and of whole blocks; the ends of the first
			// two parts (the second's is where a third starts).
			deltas, pns = []int{-65, -9, -8, 0, 1, 65}, []int{0, 63, 64, pl.OneBlocks*BlockSize + 5, pl.PartBlocks*BlockSize + 5}
			ks = ks[:2]
		}
		var lens []int
		for _, k := range ks {
			for _, end := range []int{k * pl.PartBlocks, k * pl.WindowBlocks, k * pl.OneBlocks} {
				for _, d := range deltas {
					lens = append(lens, end*BlockSize+d)
				}
			}
		}
		// Each length alone once (where ends coincide, listed up to
		// three times); every one in the batch, so it holds more long
		// messages than lanes.
		alone := slices.Compact(slices.Sorted(slices.Values(lens)))
		for _, pn := range pns {
			prefix := pattern(pn, pn)
			var msgs [][]byte
			for _, n := range lens {
				msgs = append(msgs, big[:n])
			}
			for _, n := range alone {
				check(t, pl, prefix, [][]byte{big[:n]}, nil)
			}
			// Ragged: more long messages than lanes, short ones between.
			for range 40 {
				msgs = append(msgs, big[r.IntN(100):][:r.IntN(3000)])
			}
			r.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
			check(t, pl, prefix, msgs, nil)
		}
		for _, n := range alone {
			if got, w := sum256(pl, big[:n]), sha256.Sum256(big[:n]); got != w {
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
			writeMany(pl, ds, chunks, false)
			for i, d := range ds {
				if got, want := d.Sum(nil), refs[i].Sum(nil); string(got) != string(want) {
					t.Fatalf("round %d, stream %d: got %x, want %x", round, i, got, want)
				}
			}
		}
	})
}
