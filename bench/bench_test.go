// Package bench compares sha256x with crypto/sha256 and the peers on the
// shapes of internal/shapes. It is its own module, so that the library's
// users never download the peers.
//
// Every kernel is measured by running this benchmark once per kernel with
// SHA256X_KERNEL set; run.sh does that, interleaving the runs, and makes the
// benchstat tables of bench/HISTORY.md. merkle.sh does the same for the Merkle
// levels and trees (BenchmarkLevel, BenchmarkSSZTree) against gohashtree and
// hashtree, and go run ./rounds times a level round by round.
package bench

import (
	"crypto/sha256"
	"os"
	"testing"

	simd "github.com/minio/sha256-simd"
	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/shapes"
)

// peers tells whether this run also measures crypto/sha256 and the peers:
// run.sh measures them in the run without SHA256X_KERNEL.
var peers = os.Getenv("SHA256X_KERNEL") == ""

func BenchmarkShapes(b *testing.B) {
	for _, s := range shapes.All() {
		out := make([][sha256x.Size]byte, len(s.Msgs))
		run := func(impl string, f func()) {
			b.Run("shape="+s.Name+"/impl="+impl, func(b *testing.B) {
				b.SetBytes(s.Bytes())
				for b.Loop() {
					f()
				}
			})
		}
		if s.Single {
			run("sha256x-"+sha256x.Kernel(), func() { out[0] = sha256x.Sum256(s.Msgs[0]) })
		} else {
			run("sha256x-"+sha256x.Kernel(), func() { sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs) })
		}
		if !peers {
			continue
		}
		// crypto/sha256 and sha256-simd one message after another, the prefix
		// written first: their fastest honest use.
		h, hs := sha256.New(), simd.New()
		run("crypto", func() { s.HashCrypto(out, h) })
		run("sha256-simd", func() {
			for i, m := range s.Msgs {
				if s.Prefix == nil {
					out[i] = simd.Sum256(m)
					continue
				}
				hs.Reset()
				hs.Write(s.Prefix)
				hs.Write(m)
				hs.Sum(out[i][:0])
			}
		})
		if s.Name == "joins" {
			chunks := make([][32]byte, 2*len(s.Msgs))
			for i, m := range s.Msgs {
				copy(chunks[2*i][:], m[:32])
				copy(chunks[2*i+1][:], m[32:])
			}
			run("gohashtree", func() {
				if err := gohashtree.Hash(out, chunks); err != nil {
					b.Fatal(err)
				}
			})
			run(HashtreeName, func() {
				if err := hashtree.Hash(out, chunks); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// TestSameDigests checks that every implementation measured computes the
// same digests, so that no benchmark measures a wrong answer.
func TestSameDigests(t *testing.T) {
	for _, s := range shapes.All() {
		got := make([][sha256x.Size]byte, len(s.Msgs))
		if s.Single {
			got[0] = sha256x.Sum256(s.Msgs[0])
		} else {
			sha256x.HashManyPrefixed(got, s.Prefix, s.Msgs)
		}
		for i, m := range s.Msgs {
			h, hs := sha256.New(), simd.New()
			h.Write(s.Prefix)
			h.Write(m)
			hs.Write(s.Prefix)
			hs.Write(m)
			if string(h.Sum(nil)) != string(got[i][:]) || string(hs.Sum(nil)) != string(got[i][:]) {
				t.Fatalf("%s: message %d differs", s.Name, i)
			}
		}
		if s.Name == "joins" {
			chunks := make([][32]byte, 2*len(s.Msgs))
			for i, m := range s.Msgs {
				copy(chunks[2*i][:], m[:32])
				copy(chunks[2*i+1][:], m[32:])
			}
			for name, hash := range map[string]func(out, chunks [][32]byte) error{
				"gohashtree": gohashtree.Hash,
				HashtreeName: hashtree.Hash,
			} {
				out := make([][32]byte, len(s.Msgs))
				if err := hash(out, chunks); err != nil {
					t.Fatal(err)
				}
				for i := range out {
					if out[i] != got[i] {
						t.Fatalf("%s: pair %d differs", name, i)
					}
				}
			}
		}
	}
}
