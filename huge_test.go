//go:build unix && (amd64 || arm64)

package sha256x

import (
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// Messages near 2^31 and 2^32 bytes, on anonymous memory that is all the
// shared zero page but for a few pages of a pattern near each boundary.
// Hashing 4 GiB takes seconds a plan: only with SHA256X_HUGE set, to the
// plans named (comma-separated) or "all".

func hugePlans(t *testing.T) []string {
	env := os.Getenv("SHA256X_HUGE")
	if env == "" || testing.Short() {
		t.Skip("SHA256X_HUGE not set")
	}
	if env == "all" {
		var names []string
		for _, p := range testPlans() {
			names = append(names, p.Name)
		}
		return names
	}
	return strings.Split(env, ",")
}

func hugePlan(t *testing.T, name string) *plan.Plan {
	for _, p := range testPlans() {
		if p.Name == name || p.Name == "dispatch="+name {
			return p.Plan
		}
	}
	t.Fatalf("no plan %q", name)
	return nil
}

const hugeSize = 1<<32 + 3*4096

var hugeLens = []int{1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<32 + 55, 1<<32 + 56, 1<<32 + 64}

var (
	hugeMem  []byte
	hugeRefs map[int][Size]byte
)

// hugeInput returns the shared input and crypto/sha256's digest of each
// of its prefixes of hugeLens.
func hugeInput(t *testing.T) ([]byte, map[int][Size]byte) {
	if hugeMem != nil {
		return hugeMem, hugeRefs
	}
	m, err := syscall.Mmap(-1, 0, hugeSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, at := range []int{0, 1<<31 - 8192, 1<<32 - 8192} {
		for i := at; i < at+16384 && i < len(m); i++ {
			m[i] = byte(r.Uint32())
		}
	}
	refs := map[int][Size]byte{}
	h := sha256.New()
	prev := 0
	for _, n := range hugeLens {
		h.Write(m[prev:n])
		prev = n
		var d [Size]byte
		h.Sum(d[:0])
		refs[n] = d
	}
	hugeMem, hugeRefs = m, refs
	return m, refs
}

func TestHugeSum256(t *testing.T) {
	for _, name := range hugePlans(t) {
		pl := hugePlan(t, name)
		m, refs := hugeInput(t)
		for _, n := range hugeLens {
			if got := sched.Sum256(pl, m[:n]); got != refs[n] {
				t.Errorf("%s: Sum256 of %d bytes: got %x, want %x", name, n, got, refs[n])
			}
		}
	}
}

func TestHugeHashMany(t *testing.T) {
	for _, name := range hugePlans(t) {
		pl := hugePlan(t, name)
		m, refs := hugeInput(t)
		for _, n := range []int{1<<31 + 1, 1<<32 - 1, 1 << 32, 1<<32 + 55, 1<<32 + 64} {
			// Alone, and beside short messages, so that the lanes carry it.
			msgs := [][]byte{m[:n]}
			for i := range 20 {
				msgs = append(msgs, m[1000+i:1000+i+37*i])
			}
			out := make([][Size]byte, len(msgs))
			hashMany(pl, out[:1], nil, msgs[:1])
			if out[0] != refs[n] {
				t.Errorf("%s: HashMany of one message of %d bytes: got %x, want %x", name, n, out[0], refs[n])
			}
			clear(out)
			hashMany(pl, out, nil, msgs)
			if out[0] != refs[n] {
				t.Errorf("%s: HashMany of %d bytes beside short ones: got %x, want %x", name, n, out[0], refs[n])
			}
			for i, msg := range msgs[1:] {
				if want := sha256.Sum256(msg); out[i+1] != want {
					t.Errorf("%s: HashMany beside %d bytes: message %d wrong", name, n, i+1)
				}
			}
		}
	}
}

func TestHugePrefixed(t *testing.T) {
	for _, name := range hugePlans(t) {
		pl := hugePlan(t, name)
		m, refs := hugeInput(t)
		for _, n := range []int{1<<32 - 1, 1<<32 + 1, 1<<32 + 56} {
			for _, p := range []int{1, 65} {
				msgs := [][]byte{m[p:n], m[p+5 : p+200]}
				out := make([][Size]byte, 2)
				hashMany(pl, out, m[:p], msgs)
				if out[0] != refs[n] {
					t.Errorf("%s: HashManyPrefixed, prefix %d, message %d: got %x, want %x", name, p, n-p, out[0], refs[n])
				}
				if want := sha256.Sum256(append(m[:p:p], m[p+5:p+200]...)); out[1] != want {
					t.Errorf("%s: HashManyPrefixed beside %d bytes: short message wrong", name, n)
				}
				hashMany(pl, out[:1], m[:p], msgs[:1])
				if out[0] != refs[n] {
					t.Errorf("%s: HashManyPrefixed alone, prefix %d, message %d: got %x, want %x", name, p, n-p, out[0], refs[n])
				}
			}
		}
	}
}

func TestHugeDouble(t *testing.T) {
	for _, name := range hugePlans(t) {
		pl := hugePlan(t, name)
		m, refs := hugeInput(t)
		for _, n := range []int{1<<32 + 1, 1<<32 + 56} {
			msgs := [][]byte{m[:n], m[3:67], m[5:100]}
			out := make([][Size]byte, 3)
			sched.HashManyDouble(pl, out, msgs)
			want := sha256.Sum256(func() []byte { d := refs[n]; return d[:] }())
			if out[0] != want {
				t.Errorf("%s: HashManyDouble of %d bytes: got %x, want %x", name, n, out[0], want)
			}
			sched.HashManyDouble(pl, out[:1], msgs[:1])
			if out[0] != want {
				t.Errorf("%s: HashManyDouble alone of %d bytes: got %x, want %x", name, n, out[0], want)
			}
		}
	}
}

func TestHugeWrite(t *testing.T) {
	for _, name := range hugePlans(t) {
		pl := hugePlan(t, name)
		m, refs := hugeInput(t)
		for _, n := range []int{1<<32 + 1, 1<<32 + 55} {
			// One stream: chunks crossing 2^31 and 2^32 of total.
			var s sched.Stream
			cuts := []int{0, 1<<31 - 7, 1<<31 + 3, 1<<32 - 100, 1<<32 + 1, n}
			cuts = slices.Compact(slices.Sorted(slices.Values(cuts)))
			for i := 1; i < len(cuts); i++ {
				if cuts[i] > n {
					break
				}
				s.Write(pl, m[cuts[i-1]:cuts[i]])
			}
			if got := s.Sum256(pl); got != refs[n] {
				t.Errorf("%s: Stream.Write of %d bytes: got %x, want %x", name, n, got, refs[n])
			}
			// WriteMany: one huge chunk, beside streams of short ones.
			ss := make([]*sched.Stream, 5)
			for i := range ss {
				ss[i] = new(sched.Stream)
			}
			chunks := [][]byte{m[:5], m[:7], m[:100], m[:1000], m[:3]}
			sched.WriteMany(pl, ss, chunks, false)
			chunks = [][]byte{m[5:n], m[:70], m[:1], m[:4096], nil}
			sched.WriteMany(pl, ss, chunks, false)
			if got := ss[0].Sum256(pl); got != refs[n] {
				t.Errorf("%s: WriteMany of %d bytes: got %x, want %x", name, n, got, refs[n])
			}
			// A single huge chunk to one stream.
			var one sched.Stream
			sched.WriteMany(pl, []*sched.Stream{&one}, [][]byte{m[:n]}, false)
			if got := one.Sum256(pl); got != refs[n] {
				t.Errorf("%s: WriteMany of one stream, %d bytes: got %x, want %x", name, n, got, refs[n])
			}
		}
	}
}

// TestHugeLevel hashes a level of 2^28+2 nodes (8 GiB; its digests 4 GiB),
// all zero but for regions of a pattern around node 2^25, 2^26, 2^27, 2^28
// and the end, whose digests it checks; with the level in place too.
func TestHugeLevel(t *testing.T) {
	const n = 1<<28 + 2
	names := hugePlans(t)
	mem, err := syscall.Mmap(-1, 0, n*Size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	nodes := unsafe.Slice((*[Size]byte)(unsafe.Pointer(&mem[0])), n)
	var at []int // node indices patterned (even)
	for _, c := range []int{0, 1 << 25, 1 << 26, 1 << 27, 1 << 28, n} {
		for i := max(c-2048, 0); i < min(c+2048, n); i += 2 {
			at = append(at, i)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, i := range at {
		for k := range 2 {
			for b := range Size {
				nodes[i+k][b] = byte(r.Uint32())
			}
		}
	}
	var out [][Size]byte
	for _, name := range names {
		pl := hugePlan(t, name)
		for _, j := range []Join{{}, {Double: true}, {Prefix: []byte{1}}, {Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}} {
			want := make([][Size]byte, len(at))
			for k, i := range at {
				want[k] = joinWant(j, nodes[i], nodes[i+1])
			}
			zero := joinWant(j, [Size]byte{}, [Size]byte{})
			if out == nil {
				out = make([][Size]byte, n/2)
			}
			clear(out[:1<<20])
			hashLevel(pl, out, j, nodes)
			for k, i := range at {
				if out[i/2] != want[k] {
					t.Errorf("%s %+v: out[%d] = %x, want %x", name, j, i/2, out[i/2], want[k])
					break
				}
			}
			for _, i := range []int{1 << 20, 1<<25 + 1<<20, 1<<26 + 1<<20} {
				if out[i] != zero {
					t.Errorf("%s %+v: out[%d] = %x, want %x", name, j, i, out[i], zero)
				}
			}
		}
	}
	// In place, once, on the first plan: the pattern is overwritten.
	pl := hugePlan(t, names[0])
	j := Join{}
	want := make([][Size]byte, len(at))
	for k, i := range at {
		want[k] = joinWant(j, nodes[i], nodes[i+1])
	}
	out = nil
	hashLevel(pl, nodes[:n/2], j, nodes)
	for k, i := range at {
		if nodes[i/2] != want[k] {
			// in place: a node whose index i/2 is also patterned and
			// before i is overwritten only after it is read.
			t.Errorf("%s in place: out[%d] = %x, want %x", names[0], i/2, nodes[i/2], want[k])
			break
		}
	}
}
