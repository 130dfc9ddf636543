package interop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	cmtmerkle "github.com/cometbft/cometbft/crypto/merkle"
	"github.com/sha256x/sha256x/cometadapt"
)

// The root of 10,000 transactions of 250 B and of 1 KiB, ours against
// CometBFT's HashFromByteSlices, on one core (-cpu 1: GOMAXPROCS 1, so
// that our tree stays on one goroutine too); and 100 blocks of 100
// transactions, one HashFromByteSlicesMany call against 100 of CometBFT's.
//
//	go test -run '^$' -bench 'Comet' -cpu 1 -benchtime 2s -count 5 .
func BenchmarkCometHashFromByteSlices(b *testing.B) {
	r := rand.New(rand.NewPCG(41, 13))
	for _, size := range []int{250, 1024} {
		items := make([][]byte, 10000)
		for i := range items {
			items[i] = make([]byte, size)
			for j := range items[i] {
				items[i][j] = byte(r.Uint32())
			}
		}
		b.Run(fmt.Sprintf("10000x%dB/sha256x", size), func(b *testing.B) {
			b.SetBytes(int64(len(items) * size))
			b.ReportAllocs()
			for b.Loop() {
				cometadapt.HashFromByteSlices(items)
			}
		})
		b.Run(fmt.Sprintf("10000x%dB/cometbft", size), func(b *testing.B) {
			b.SetBytes(int64(len(items) * size))
			b.ReportAllocs()
			for b.Loop() {
				cmtmerkle.HashFromByteSlices(items)
			}
		})
	}
	blocks := make([][][]byte, 100)
	for i := range blocks {
		blocks[i] = make([][]byte, 100)
		for j := range blocks[i] {
			blocks[i][j] = make([]byte, 250)
			for k := range blocks[i][j] {
				blocks[i][j][k] = byte(r.Uint32())
			}
		}
	}
	roots := make([][32]byte, len(blocks))
	b.Run("100blocks x100x250B/sha256x-many", func(b *testing.B) {
		b.SetBytes(100 * 100 * 250)
		b.ReportAllocs()
		for b.Loop() {
			cometadapt.HashFromByteSlicesMany(roots, blocks)
		}
	})
	b.Run("100blocks x100x250B/sha256x", func(b *testing.B) {
		b.SetBytes(100 * 100 * 250)
		b.ReportAllocs()
		for b.Loop() {
			for i, blk := range blocks {
				roots[i] = cometadapt.Root(blk)
			}
		}
	})
	b.Run("100blocks x100x250B/cometbft", func(b *testing.B) {
		b.SetBytes(100 * 100 * 250)
		b.ReportAllocs()
		for b.Loop() {
			for _, blk := range blocks {
				cmtmerkle.HashFromByteSlices(blk)
			}
		}
	})
}

// Proofs of 10,000 transactions of 250 B, ours against CometBFT's
// ProofsFromByteSlices.
func BenchmarkCometProofs(b *testing.B) {
	r := rand.New(rand.NewPCG(41, 14))
	items := cometItems(r, 10000, 250)
	b.Run("sha256x", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cometadapt.ProofsFromByteSlices(items)
		}
	})
	b.Run("cometbft", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cmtmerkle.ProofsFromByteSlices(items)
		}
	})
}
