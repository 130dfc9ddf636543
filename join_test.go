package sha256x

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

func joinWant(j Join, l, r [Size]byte) [Size]byte {
	w := j.Width
	if w == 0 {
		w = Size
	}
	h := sha256.New()
	h.Write(j.Prefix)
	h.Write(l[:w])
	h.Write(j.Infix)
	h.Write(r[:w])
	var d [Size]byte
	h.Sum(d[:0])
	if j.Double {
		d = sha256.Sum256(d[:])
	}
	return d
}

var testJoins = []Join{
	{},
	{Prefix: []byte{1}},
	{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20},
	{Prefix: []byte("LEFT"), Infix: []byte("RIGHT")},
	{Prefix: pattern(64, 1)},
	{Prefix: pattern(119, 2)},
	{Prefix: pattern(70, 3), Infix: pattern(49, 4)},
	{Width: 1},
	{Width: 31, Infix: []byte{0}},
	{Prefix: pattern(55, 5), Width: 32},
	{Double: true},
	{Prefix: []byte{1}, Double: true},
	{Width: 20, Infix: []byte{7}, Double: true},
}

// levelSizes are the level sizes the tests hash: every one up to 40 pairs,
// and some past the lane counts and windows.
func levelSizes() []int {
	var ns []int
	for n := 0; n <= 40; n++ {
		ns = append(ns, n)
	}
	return append(ns, 64, 65, 100, 129, 500, 1030)
}

func TestHashLevel(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, j := range testJoins {
			for _, n := range levelSizes() {
				nodes := make([][Size]byte, 2*n)
				for i := range nodes {
					copy(nodes[i][:], pattern(Size, i+n))
				}
				wants := make([][Size]byte, n)
				for i := range wants {
					wants[i] = joinWant(j, nodes[2*i], nodes[2*i+1])
				}
				out := make([][Size]byte, n+1)
				out[n][0] = 0x5a
				hashLevel(pl, out, j, nodes)
				// In place: the level reduces into its own first half.
				hashLevel(pl, nodes, j, nodes)
				for i := range wants {
					if out[i] != wants[i] || nodes[i] != wants[i] {
						t.Fatalf("join %+v, %d pairs, pair %d: got %x, in place %x, want %x", j, n, i, out[i], nodes[i], wants[i])
					}
				}
				if out[n] != [Size]byte{0x5a} {
					t.Fatalf("the entry of out past the level was written")
				}
			}
		}
	})
}

func TestHashLevelPanics(t *testing.T) {
	nodes := make([][Size]byte, 8)
	for _, c := range []struct {
		name, msg string
		f         func()
	}{
		{"odd", "sha256x: HashLevel of an odd number of nodes (3)", func() { Join{}.HashLevel(nodes, nodes[:3]) }},
		{"short out", "sha256x: len(out) = 1 < len(nodes)/2 = 2", func() { Join{}.HashLevel(make([][Size]byte, 1), nodes[:4]) }},
		{"width", "sha256x: Join.Width = 33, not in 0..32", func() { Join{Width: 33}.HashLevel(nodes, nodes[:2]) }},
		{"negative width", "sha256x: Join.Width = -1, not in 0..32", func() { Join{Width: -1}.HashLevel(nodes, nodes[:2]) }},
		{"too long", "sha256x: Join of 184 bytes, more than 183", func() { Join{Prefix: make([]byte, 120)}.HashLevel(nodes, nodes[:2]) }},
		{"overlap", "sha256x: out overlaps nodes, other than in place", func() { Join{}.HashLevel(nodes[1:], nodes[:4]) }},
		{"overlap, one pair", "sha256x: out overlaps nodes, other than in place", func() { Join{}.HashLevel(nodes[1:], nodes[:2]) }},
		{"short out, one pair", "sha256x: len(out) = 0 < len(nodes)/2 = 1", func() { Join{}.HashLevel(nil, nodes[:2]) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Errorf("panic %q, want %q", r, c.msg)
				}
			}()
			c.f()
		})
	}
}

func TestHashLevelAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	nodes := make([][Size]byte, 512)
	out := make([][Size]byte, 256)
	for _, j := range testJoins {
		for _, n := range []int{2, 4, 24, 58, 512} { // the one- and two-pair paths, partial groups of the lanes
			if a := testing.AllocsPerRun(20, func() { j.HashLevel(out, nodes[:n]) }); a != 0 {
				t.Errorf("join %+v, %d nodes: %v allocations", j, n, a)
			}
		}
	}
}

// TestMany64 hashes batches of 64-byte messages, which the pairs kernels
// take whole groups of, at every batch size around the lane counts
// (TestGuardPages has them at page edges).
func TestMany64(t *testing.T) {
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for n := 0; n <= 70; n++ {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = pattern(64, i+n)
			}
			check(t, pl, nil, msgs, nil)
		}
	})
}

// TestHashLevelTemplates alternates joins whose nodes have the same length
// but different prefixes, infixes and widths, which staged levels lay out
// from a template kept between calls.
func TestHashLevelTemplates(t *testing.T) {
	joins := []Join{
		{Prefix: []byte{1}},
		{Prefix: []byte{2}},
		{Infix: []byte{1}},
		{Prefix: []byte{1}, Width: 31, Infix: []byte{3, 4}},
		{Prefix: []byte{1}, Width: 31, Infix: []byte{3, 5}},
		{Prefix: []byte{1, 2, 3}, Width: 31},
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		nodes := make([][Size]byte, 2*40)
		for i := range nodes {
			copy(nodes[i][:], pattern(Size, i))
		}
		out := make([][Size]byte, 40)
		for round := range 3 {
			for _, j := range joins {
				hashLevel(pl, out, j, nodes)
				for i := range out {
					if w := joinWant(j, nodes[2*i], nodes[2*i+1]); out[i] != w {
						t.Fatalf("round %d, join %+v, pair %d: got %x, want %x", round, j, i, out[i], w)
					}
				}
			}
		}
	})
}

// TestHashLevelSmall checks Join.HashLevel on one, two and four pairs,
// straight to the dispatched plan's kernels of that many (four: where
// plan.Small4), for every join: in place, out right before, right after
// and apart from the nodes.
func TestHashLevelSmall(t *testing.T) {
	for _, j := range testJoins {
		for _, n := range []int{1, 2, 4} {
			cases := []struct {
				name       string
				out, nodes int // indices in buf
			}{{"in place", 0, 0}, {"out right before", 0, n}, {"out right after", 2 * n, 0}, {"out apart", 5 * n, n}}
			for _, c := range cases {
				buf := make([][Size]byte, 6*n)
				for i := range buf {
					copy(buf[i][:], pattern(Size, i+3))
				}
				nodes := buf[c.nodes : c.nodes+2*n]
				wants := make([][Size]byte, n)
				for i := range wants {
					wants[i] = joinWant(j, nodes[2*i], nodes[2*i+1])
				}
				j.HashLevel(buf[c.out:], nodes)
				for i := range wants {
					if buf[c.out+i] != wants[i] {
						t.Fatalf("join %+v, %d pairs, %s: pair %d: got %x, want %x", j, n, c.name, i, buf[c.out+i], wants[i])
					}
				}
			}
		}
	}
}

// TestHashLevelOverlapsJoin: out over the Join's Prefix or Infix (a slice
// of an out entry, or of the nodes' first half reduced in place) panics on
// every plan, as HashManyPrefixed does for its prefix: later nodes would
// read a digest as their prefix. One in the nodes, in out past the level,
// or right beside out is fine.
func TestHashLevelOverlapsJoin(t *testing.T) {
	const msg = "sha256x: out overlaps Join.Prefix or Join.Infix"
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, n := range []int{1, 2, 3, 4, 5, 17, 70, 200} {
			for _, infix := range []bool{false, true} {
				for _, inPlace := range []bool{false, true} {
					buf := make([][Size]byte, 3*n+1)
					for i := range buf {
						copy(buf[i][:], pattern(Size, i+n))
					}
					nodes, out := buf[:2*n], buf[2*n:3*n]
					if inPlace {
						out = nodes[:n]
					}
					name := fmt.Sprintf("%d pairs, infix %v, in place %v", n, infix, inPlace)
					mk := func(b []byte) Join {
						if infix {
							return Join{Infix: b, Width: 20}
						}
						return Join{Prefix: b}
					}
					// Over out[0], the first digest written; over out's last byte.
					for _, b := range [][]byte{out[0][3:8], out[n-1][Size-1:]} {
						func() {
							defer func() {
								if r := recover(); r != msg {
									t.Errorf("%s: panic %v, want %q", name, r, msg)
								}
							}()
							hashLevel(pl, out, mk(b), nodes)
						}()
					}
					// Beside out, in out past the level, in the nodes: fine.
					for _, b := range [][]byte{buf[3*n][:5], nodes[2*n-1][:7]} {
						j := mk(b)
						jc := mk(append([]byte(nil), b...))
						wants := make([][Size]byte, n)
						for i := range wants {
							wants[i] = joinWant(jc, nodes[2*i], nodes[2*i+1])
						}
						hashLevel(pl, out, j, nodes)
						for i := range wants {
							if out[i] != wants[i] {
								t.Fatalf("%s: pair %d: got %x, want %x", name, i, out[i], wants[i])
							}
						}
					}
				}
			}
		}
	})
}
