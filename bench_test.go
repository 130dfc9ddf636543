package sha256x

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/kernel"
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/plan/plantest"
	"github.com/sha256x/sha256x/internal/shapes"
)

// BenchmarkShapes runs every plan and kernel function this machine can run,
// and crypto/sha256 one message after another, on every shape, side by side
// in one process. Compare with benchstat; the bench/ module adds the peers.
func BenchmarkShapes(b *testing.B) {
	for _, s := range shapes.All() {
		b.Run(s.Name, func(b *testing.B) {
			out := make([][Size]byte, len(s.Msgs))
			b.Run("crypto", func(b *testing.B) {
				b.SetBytes(s.Bytes())
				h := sha256.New()
				for b.Loop() {
					s.HashCrypto(out, h)
				}
			})
			for _, p := range testPlans() {
				if p.Name == "generic" || strings.HasPrefix(p.Name, "generic-") {
					continue // the generic kernel has its own benchmark
				}
				b.Run(p.Name, func(b *testing.B) {
					b.SetBytes(s.Bytes())
					for b.Loop() {
						if s.Single {
							out[0] = sum256(p.Plan, s.Msgs[0])
						} else {
							hashMany(p.Plan, out, s.Prefix, s.Msgs)
						}
					}
				})
			}
		})
	}
}

// BenchmarkKernels runs each kernel function alone on as many 64 KiB
// messages as it has lanes (times 4): the kernel's own speed, with almost no
// scheduling around it.
func BenchmarkKernels(b *testing.B) {
	for _, id := range plantest.Alone() {
		info := kernel.Lookup(id)
		if info.PairsOnly {
			continue // no Hash kernel to time on long messages (internal/kernel BenchmarkPairsKernels times it)
		}
		st := plan.Stage{K: id, Width: info.Width, MinActive: 1}
		pl := plan.New(plan.Plan{Name: info.Variant, Stages: []plan.Stage{st}, One: []plan.Stage{st}})
		msgs := make([][]byte, 4*info.Width)
		for i := range msgs {
			msgs[i] = make([]byte, 64<<10)
		}
		out := make([][Size]byte, len(msgs))
		b.Run(info.Family+"-"+info.Variant, func(b *testing.B) {
			b.SetBytes(int64(len(msgs)) << 16)
			for b.Loop() {
				hashMany(pl, out, nil, msgs)
			}
		})
	}
}

// smallPlans are the plans BenchmarkSmall also runs, with SMALLPLANS=1:
// every mixed plan this CPU can run and the shani kernel's, to choose among.
func smallPlans() []*plan.Plan {
	if os.Getenv("SMALLPLANS") == "" {
		return nil
	}
	ps := plan.Mixed()
	if pl := plan.Runnable("shani"); pl != nil {
		ps = append(ps, pl)
	}
	return ps
}

// BenchmarkSmall is the small batches a proof check or a tree's top levels
// make: 1 to 8 messages of 32 to 1024 bytes, through HashMany and
// HashManyPrefixed on the dispatched plan, beside crypto/sha256 one message
// after another.
func BenchmarkSmall(b *testing.B) {
	for _, size := range []int{32, 64, 200, 1024} {
		for _, count := range []int{1, 2, 3, 4, 5, 6, 8} {
			s := &shapes.Shape{Msgs: make([][]byte, count)}
			for i := range s.Msgs {
				s.Msgs[i] = pattern(size, i)
			}
			out := make([][Size]byte, count)
			h := sha256.New()
			for _, prefix := range [][]byte{nil, []byte("LEAF")} {
				kind := "plain"
				if prefix != nil {
					kind = "prefixed"
				}
				s.Prefix = prefix
				name := fmt.Sprintf("%s/size=%d/n=%d", kind, size, count)
				b.Run(name+"/impl=crypto", func(b *testing.B) {
					b.SetBytes(s.Bytes())
					for b.Loop() {
						s.HashCrypto(out, h)
					}
				})
				b.Run(name+"/impl=sha256x", func(b *testing.B) {
					b.SetBytes(s.Bytes())
					for b.Loop() {
						HashManyPrefixed(out, prefix, s.Msgs)
					}
				})
				for _, pl := range smallPlans() {
					b.Run(name+"/impl=plan-"+pl.Name, func(b *testing.B) {
						b.SetBytes(s.Bytes())
						for b.Loop() {
							hashMany(pl, out, prefix, s.Msgs)
						}
					})
				}
			}
		}
	}
	msg := pattern(64, 1)
	var d [Size]byte
	b.Run("sum256/size=64/impl=crypto", func(b *testing.B) {
		for b.Loop() {
			d = sha256.Sum256(msg)
		}
	})
	b.Run("sum256/size=64/impl=sha256x", func(b *testing.B) {
		for b.Loop() {
			d = Sum256(msg)
		}
	})
	_ = d
}

// BenchmarkLevels hashes one level of 1024 nodes of each scheme's join on
// the dispatched plan, beside crypto/sha256 node by node: SSZ pairs, RFC 6962
// (0x01 prefix), Solana (26-byte prefix, 20-byte children), Bitcoin
// (SHA-256d).
func BenchmarkLevels(b *testing.B) {
	joins := []struct {
		name string
		j    Join
	}{
		{"ssz", Join{}},
		{"rfc6962", Join{Prefix: []byte{1}}},
		{"solana", Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}},
		{"bitcoin", Join{Double: true}},
	}
	for _, n := range []int{2, 3, 5, 12, 16, 19, 28, 1024} {
		nodes := make([][Size]byte, 2*n)
		for i := range nodes {
			copy(nodes[i][:], pattern(Size, i))
		}
		out := make([][Size]byte, n)
		for _, j := range joins {
			name := fmt.Sprintf("join=%s/pairs=%d", j.name, n)
			b.Run(name+"/impl=crypto", func(b *testing.B) {
				w := j.j.Width
				if w == 0 {
					w = Size
				}
				var buf [maxJoin]byte
				b.SetBytes(int64(n * (len(j.j.Prefix) + 2*w)))
				for b.Loop() {
					for i := range n {
						m := copy(buf[:], j.j.Prefix)
						m += copy(buf[m:], nodes[2*i][:w])
						m += copy(buf[m:], nodes[2*i+1][:w])
						out[i] = sha256.Sum256(buf[:m])
						if j.j.Double {
							out[i] = sha256.Sum256(out[i][:])
						}
					}
				}
			})
			b.Run(name+"/impl=sha256x", func(b *testing.B) {
				w := j.j.Width
				if w == 0 {
					w = Size
				}
				b.SetBytes(int64(n * (len(j.j.Prefix) + 2*w)))
				for b.Loop() {
					j.j.HashLevel(out, nodes)
				}
			})
		}
	}
}

// BenchmarkDigest is one message through New, Write and Sum, as code written
// for crypto/sha256's hash.Hash does it, beside crypto/sha256; and
// BenchmarkDigestWrites one message written a piece at a time into a hash
// reused by Reset (a struct's fields, a stream read in small buffers).
func BenchmarkDigest(b *testing.B) {
	for _, size := range []int{64, 1024, 64 << 10} {
		msg := pattern(size, 1)
		var sum [Size]byte
		for _, impl := range []struct {
			name string
			new  func() hash.Hash
		}{{"crypto", sha256.New}, {"sha256x", New}} {
			b.Run(fmt.Sprintf("size=%d/impl=%s", size, impl.name), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					h := impl.new()
					h.Write(msg)
					h.Sum(sum[:0])
				}
			})
		}
	}
}

func BenchmarkDigestWrites(b *testing.B) {
	for _, c := range []struct{ size, write int }{{55, 55}, {64, 64}, {128, 128}, {1024, 32}, {1024, 64}, {1000, 100}, {64 << 10, 1024}} {
		msg := pattern(c.size, 1)
		var sum [Size]byte
		for _, impl := range []struct {
			name string
			new  func() hash.Hash
		}{{"crypto", sha256.New}, {"sha256x", New}} {
			b.Run(fmt.Sprintf("size=%d/write=%d/impl=%s", c.size, c.write, impl.name), func(b *testing.B) {
				b.SetBytes(int64(c.size))
				h := impl.new()
				for b.Loop() {
					h.Reset()
					for p := msg; len(p) > 0; p = p[min(c.write, len(p)):] {
						h.Write(p[:min(c.write, len(p))])
					}
					h.Sum(sum[:0])
				}
			})
		}
	}
}

// BenchmarkLevelLayout hashes one level of 1024 nodes of the SSZ and RFC 6962
// joins with the nodes at several byte offsets within a page.
func BenchmarkLevelLayout(b *testing.B) {
	buf := make([]byte, 2048*Size+8192)
	base := int((4096 - uintptr(unsafe.Pointer(&buf[0]))%4096) % 4096)
	out := make([][Size]byte, 1024)
	for _, j := range []struct {
		name string
		j    Join
	}{{"ssz", Join{}}, {"rfc6962", Join{Prefix: []byte{1}}}} {
		for _, off := range []int{0, 8, 32, 64, 1024, 2048, 4064} {
			nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&buf[base+off])), 2048)
			b.Run(fmt.Sprintf("join=%s/offset=%d", j.name, off), func(b *testing.B) {
				for b.Loop() {
					j.j.HashLevel(out, nodes)
				}
			})
		}
	}
}

// BenchmarkPartialGroups times n 64-byte messages and levels of n pairs on
// every plan here whose pairs kernels start with lanes, the lanes taking a
// last partial group whole (part=on) or leaving it on (part=off): what
// plan.Plan.PairsPartial rests on. Compare with benchstat -col /part.
func BenchmarkPartialGroups(b *testing.B) {
	joins := []struct {
		name string
		jn   Join
	}{
		{"level", Join{}},
		{"double", Join{Double: true}},
		{"rfc6962", Join{Prefix: []byte{1}}},
		{"solana", Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}},
	}
	seen := map[*plan.Plan]bool{}
	for _, np := range testPlans() {
		base := np.Plan
		if seen[base] || len(base.Pairs) == 0 || base.Pairs[0].Width < 8 {
			continue
		}
		seen[base] = true
		variant := func(partial plan.PartialMin) *plan.Plan {
			pl := *base
			pl.PairsPartial = partial
			return &pl
		}
		parts := []struct {
			name string
			pl   *plan.Plan
		}{{"off", variant(0)}, {"on", variant(plan.PartialAlways)}}
		w := base.Pairs[0].Width
		for n := 1; n < 2*w; n++ {
			if n == w {
				continue
			}
			nodes := make([][Size]byte, 2*n)
			msgs := make([][]byte, n)
			for i := range nodes {
				copy(nodes[i][:], pattern(Size, i))
			}
			for i := range msgs {
				msgs[i] = pattern(2*Size, i)
			}
			out := make([][Size]byte, n)
			for _, p := range parts {
				name := fmt.Sprintf("plan=%s/n=%d/kind=%%s/part=%s", np.Name, n, p.name)
				b.Run(fmt.Sprintf(name, "many64"), func(b *testing.B) {
					for b.Loop() {
						hashMany(p.pl, out, nil, msgs)
					}
				})
				for _, j := range joins {
					b.Run(fmt.Sprintf(name, j.name), func(b *testing.B) {
						for b.Loop() {
							hashLevel(p.pl, out, j.jn, nodes)
						}
					})
				}
			}
		}
	}
}

// BenchmarkStackDepth hashes one 32-byte message (HashMany,
// HashManyPrefixed, Sum256: its tail staged on the stack) from 64 call
// depths about 100 bytes apart, so its stack buffers cross a page: at some
// depths they alias data 4 KiB apart and cost more. Compare builds depth by
// depth: a moved frame shifts a call across these depths by itself.
func BenchmarkStackDepth(b *testing.B) {
	msgs := [][]byte{pattern(32, 1)}
	out := make([][Size]byte, 1)
	prefix := []byte("LEAF")
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"HashMany", func() { HashMany(out, msgs) }},
		{"HashManyPrefixed", func() { HashManyPrefixed(out, prefix, msgs) }},
		{"Sum256", func() { out[0] = Sum256(msgs[0]) }},
	} {
		for d := range 64 {
			b.Run(fmt.Sprintf("call=%s/depth=%02d", c.name, d), func(b *testing.B) {
				atDepth(d, func() {
					for b.Loop() {
						c.f()
					}
				})
			})
		}
	}
}

// atDepth calls f d frames deeper.
//
//go:noinline
func atDepth(d int, f func()) byte {
	var frame [64]byte
	frame[d%64] = byte(d)
	if d == 0 {
		f()
		return frame[0]
	}
	return atDepth(d-1, f) + frame[d%64]
}
