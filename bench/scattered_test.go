package bench

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/sha256x/sha256x"
)

// BenchmarkScattered: batches of 256 RFC 6962 leaves (0x00 || a 250-byte
// entry, as CometBFT's transactions are hashed) whose entries lie in
// cache (one batch reused), in order through 512 MiB (each batch the next
// 64 KB), or at random through it (each entry on lines, and a page, of its
// own, as objects allocated over time lie in the heap), against
// crypto/sha256 at random. Where the entries are not in the cache, what
// the staging of each message's head and tail copies waits on one miss at
// a time (bench/HISTORY.md, "Intel Xeon, model 207: the fourth session").
func BenchmarkScattered(b *testing.B) {
	const size, batch, total = 250, 256, 1 << 21 // 512 MiB of entries
	var buf []byte
	entries := func(order string) [][]byte {
		if buf == nil {
			buf = make([]byte, total*size)
			for i := range buf {
				buf[i] = byte(i * 7)
			}
		}
		n := total
		if order == "in-cache" {
			n = batch
		}
		ms := make([][]byte, n)
		for i := range ms {
			ms[i] = buf[i*size : (i+1)*size]
		}
		if order == "random" {
			rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		}
		return ms
	}
	out := make([][sha256x.Size]byte, batch)
	prefix := []byte{0}
	for _, order := range []string{"in-cache", "in-order", "random"} {
		ms := entries(order)
		b.Run("order="+order+"/impl=sha256x", func(b *testing.B) {
			b.SetBytes(batch * int64(len(prefix)+size)) // 0x00 || entry
			i := 0
			for b.Loop() {
				if i+batch > len(ms) {
					i = 0
				}
				sha256x.HashManyPrefixed(out, prefix, ms[i:i+batch])
				i += batch
			}
		})
		if order != "random" {
			continue
		}
		b.Run("order="+order+"/impl=crypto", func(b *testing.B) {
			b.SetBytes(batch * int64(len(prefix)+size)) // 0x00 || entry
			h := sha256.New()
			i := 0
			for b.Loop() {
				if i+batch > len(ms) {
					i = 0
				}
				for k, m := range ms[i : i+batch] {
					h.Reset()
					h.Write(prefix)
					h.Write(m)
					h.Sum(out[k][:0])
				}
				i += batch
			}
		})
	}
}
