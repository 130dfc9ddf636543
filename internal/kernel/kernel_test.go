package kernel

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Each kernel alone against the generic kernel and crypto/sha256: the lane
// kernels over random queues, returning early and carried on as the
// scheduler would; the single-job entries; the pairs kernels in every form;
// the chain kernels. How batches reach them is internal/sched's and the
// root's tests' concern.

// runnable lists every kernel this CPU can run.
func runnable() []ID {
	var ids []ID
	for _, id := range IDs() {
		if Missing(Lookup(id).Family) == "" {
			ids = append(ids, id)
		}
	}
	return ids
}

func name(id ID) string { return Lookup(id).Family + "-" + Lookup(id).Variant }

// TestLayout checks the sizes the assembly's index arithmetic assumes
// (offsets come from the types themselves: _asm/abi, layout_arm64.h).
func TestLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("no assembly reads these types on a 32-bit platform")
	}
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"sizeof(Job)", unsafe.Sizeof(Job{}), 64},
		{"sizeof(Run)", unsafe.Sizeof(Run{}), 16},
		{"sizeof(Lane)", unsafe.Sizeof(Lane{}), 64},
		{"LaneSet.Lanes", unsafe.Offsetof(LaneSet{}.Lanes), 64},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestInfos checks what the table declares against the kernels' names.
func TestInfos(t *testing.T) {
	for _, id := range IDs() {
		info := Lookup(id)
		if info.Width < 1 || info.Width > MaxLanes && !info.PairsOnly || info.Width > MaxPairsLanes {
			t.Errorf("%s: width %d", name(id), info.Width)
		}
		if c := Lookup(info.Chain); c.Chain != info.Chain || c.Family != info.Family {
			t.Errorf("%s: chain stand-in %s has no chain kernel of its own or another family", name(id), name(info.Chain))
		}
		if info.Pairs != HasPairs(id) {
			t.Errorf("%s: Pairs %v, HasPairs %v", name(id), info.Pairs, HasPairs(id))
		}
	}
}

// message is a message and the job that hashes it whole, its blocks split
// into up to three runs at random points, the last padded.
type message struct {
	data []byte
	job  Job
	out  [Size]byte
}

// newMessage makes a message of n bytes and its job; blocks are laid out in
// one buffer, so that a run may start anywhere (unaligned by off).
func newMessage(r *rand.Rand, n, off int) *message {
	m := &message{data: make([]byte, n)}
	for i := range m.data {
		m.data[i] = byte(r.Uint32())
	}
	nb := (n+8)/BlockSize + 1
	buf := make([]byte, nb*BlockSize+off)[off:]
	copy(buf, m.data)
	buf[n] = 0x80
	binary.BigEndian.PutUint64(buf[nb*BlockSize-8:], 8*uint64(n))
	cuts := []int{0, nb}
	for range r.IntN(3) {
		cuts = append(cuts, r.IntN(nb+1))
	}
	sortInts(cuts)
	k := 0
	for i := 0; i+1 < len(cuts); i++ {
		if cuts[i+1] > cuts[i] {
			m.job.Runs[k] = Run{&buf[cuts[i]*BlockSize], uintptr(cuts[i+1] - cuts[i])}
			k++
		}
	}
	m.job.Init = &IV
	m.job.Out = &m.out
	return m
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// carry turns the busy lanes ls holds after a kernel returned early into the
// jobs that finish them, as the scheduler does.
func carry(ls *LaneSet, jobs []Job, width int, states *[MaxLanes][8]uint32) []Job {
	var rest []Job
	for i := range width {
		l := &ls.Lanes[i]
		if l.Job == 0 {
			continue
		}
		old := jobs[l.Job-1]
		states[i] = l.H
		j := Job{Init: &states[i], Out: old.Out}
		k := 0
		for s := l.Seg; s < 3 && old.Runs[s].N != 0; s++ {
			r := old.Runs[s]
			if s == l.Seg {
				r.P = (*byte)(unsafe.Add(unsafe.Pointer(r.P), (r.N-l.N)*BlockSize))
				r.N = l.N
			}
			j.Runs[k] = r
			k++
		}
		rest = append(rest, j)
	}
	return rest
}

// TestLaneKernels runs random queues on every kernel: to the end
// (MinActive 1), and returning as soon as a lane idles (MinActive = width),
// its busy lanes carried to the generic kernel; every digest must be
// crypto/sha256's.
func TestLaneKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 55, 56, 63, 64, 119, 120, 200, 1000, 4096}
	for _, id := range runnable() {
		if Lookup(id).PairsOnly {
			continue
		}
		t.Run(name(id), func(t *testing.T) {
			width := Lookup(id).Width
			for round := range 60 {
				n := r.IntN(3*width + 3)
				msgs := make([]*message, n)
				jobs := make([]Job, n)
				for i := range msgs {
					size := sizes[r.IntN(len(sizes))]
					if round%3 == 0 {
						size = r.IntN(3000)
					}
					msgs[i] = newMessage(r, size, r.IntN(8))
					jobs[i] = msgs[i].job
				}
				var ls LaneSet
				early := round%2 == 1 && width > 1
				ls.MinActive = 1
				if early {
					ls.MinActive = uintptr(width)
				}
				Hash(id, width, &ls, jobs)
				if early {
					var states [MaxLanes][8]uint32
					rest := carry(&ls, jobs, width, &states)
					var gs LaneSet
					gs.MinActive = 1
					Hash(Generic, 1, &gs, rest)
				}
				for i, m := range msgs {
					if want := sha256.Sum256(m.data); m.out != want {
						t.Fatalf("round %d (early %v), message %d of %d, %d bytes: got %x, want %x", round, early, i, n, len(m.data), m.out, want)
					}
				}
			}
		})
	}
}

// TestMaxSteps runs random queues on every kernel a few steps a call
// (LaneSet.MaxSteps), with MinActive 1 or the width: after each call the
// busy lanes (jobs, blocks left, states) must be those the generic kernel
// leaves with the same width and budget; they and the jobs not taken make
// the next call's queue, and every digest must be crypto/sha256's.
func TestMaxSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type left struct {
		job, blocks uintptr
		h           [8]uint32
	}
	busy := func(ls *LaneSet, jobs []Job, width int) (b []left, taken int) {
		taken = len(jobs)
		for i := range width {
			l := &ls.Lanes[i]
			if l.Job == 0 {
				continue
			}
			n := l.N
			for s := l.Seg + 1; s < 3; s++ {
				n += jobs[l.Job-1].Runs[s].N
			}
			b = append(b, left{l.Job, n, l.H})
		}
		if len(b) == width {
			// Every lane busy: the queue may not be empty, but the lane
			// that took the last job taken is still on it.
			taken = 0
			for _, x := range b {
				taken = max(taken, int(x.job))
			}
		}
		slices.SortFunc(b, func(x, y left) int { return int(x.job) - int(y.job) })
		return b, taken
	}
	for _, id := range runnable() {
		info := Lookup(id)
		if info.PairsOnly || id == Stdlib {
			continue
		}
		t.Run(name(id), func(t *testing.T) {
			width := info.Width
			for round := range 40 {
				n := 1 + r.IntN(3*width+3)
				msgs := make([]*message, n)
				jobs := make([]Job, n)
				for i := range msgs {
					msgs[i] = newMessage(r, r.IntN(1500), r.IntN(8))
					jobs[i] = msgs[i].job
				}
				min := uintptr(1)
				if round%2 == 1 {
					min = uintptr(width)
				}
				var states [2][MaxLanes][8]uint32
				for call := 0; len(jobs) > 0; call++ {
					if call > 10000 {
						t.Fatalf("round %d: no end after %d calls", round, call)
					}
					var ls, gs LaneSet
					ls.MinActive, gs.MinActive = min, min
					ls.MaxSteps = uintptr(1 + r.IntN(40))
					gs.MaxSteps = ls.MaxSteps
					Hash(id, width, &ls, jobs)
					got, taken := busy(&ls, jobs, width)
					// The model writes the same digests to the same places.
					Hash(Generic, width, &gs, jobs)
					want, wantTaken := busy(&gs, jobs, width)
					if !slices.Equal(got, want) || taken != wantTaken {
						t.Fatalf("round %d, call %d (MinActive %d, MaxSteps %d, %d jobs): busy lanes %v, taken %d; the model's %v, %d",
							round, call, min, ls.MaxSteps, len(jobs), got, taken, want, wantTaken)
					}
					if len(got) < int(min) && taken == len(jobs) && len(got) > 0 {
						// Returned under MinActive: the rest on one lane.
						min = 1
					}
					rest := carry(&ls, jobs, width, &states[call%2])
					jobs = append(rest, jobs[taken:]...)
				}
				for i, m := range msgs {
					if want := sha256.Sum256(m.data); m.out != want {
						t.Fatalf("round %d, message %d of %d, %d bytes: got %x, want %x", round, i, n, len(m.data), m.out, want)
					}
				}
			}
		})
	}
}

// TestHashJob runs one job at a time on every kernel's single-job entry.
func TestHashJob(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, id := range runnable() {
		if !Lookup(id).Job {
			if HashJob(id, &Job{}) {
				t.Errorf("%s: HashJob ran a kernel that declares none", name(id))
			}
			continue
		}
		for n := range 300 {
			m := newMessage(r, n*7, n%8)
			if !HashJob(id, &m.job) {
				t.Fatalf("%s: HashJob reports no entry", name(id))
			}
			if want := sha256.Sum256(m.data); m.out != want {
				t.Fatalf("%s: %d bytes: got %x, want %x", name(id), len(m.data), m.out, want)
			}
		}
	}
}

// pairsDoor is one way into the pairs kernels: HashPairs with the call as
// an argument, or the entry of each call.
type pairsDoor struct {
	name             string
	adjacent, double func(id ID, out *[Size]byte, in *byte, n int)
	slices           func(id ID, out *[Size]byte, msgs *[]byte, n int)
	staged           func(id ID, out *[Size]byte, in *byte, n, nb int)
	staged65         func(id ID, out *[Size]byte, in *byte, n int)
}

var pairsDoors = []pairsDoor{
	{
		name:     "HashPairs",
		adjacent: func(id ID, out *[Size]byte, in *byte, n int) { HashPairs(id, Adjacent, out, in, nil, n, 0) },
		double:   func(id ID, out *[Size]byte, in *byte, n int) { HashPairs(id, Double, out, in, nil, n, 0) },
		slices:   func(id ID, out *[Size]byte, msgs *[]byte, n int) { HashPairs(id, Slices, out, nil, msgs, n, 0) },
		staged:   func(id ID, out *[Size]byte, in *byte, n, nb int) { HashPairs(id, Staged, out, in, nil, n, nb) },
		staged65: func(id ID, out *[Size]byte, in *byte, n int) { HashPairs(id, Staged65, out, in, nil, n, 0) },
	},
	{name: "per call", adjacent: HashAdjacent, double: HashDouble, slices: HashSlices, staged: HashStaged, staged65: HashStaged65},
}

// TestPairsKernels runs every pairs kernel in every form on whole groups,
// through both doors of the table.
func TestPairsKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, id := range runnable() {
		if !HasPairs(id) {
			continue
		}
		width := Lookup(id).Width
		for _, door := range pairsDoors {
			t.Run(name(id)+"/"+door.name, func(t *testing.T) {
				if Lookup(id).PairsOnly {
					testAdjacentOnly(t, r, id, width, door)
					return
				}
				testPairsKernel(t, r, id, width, door)
			})
		}
	}
}

// testAdjacentOnly checks a kernel with Adjacent's pairs kernel alone: it
// hashes right, and every other call panics rather than run elsewhere.
func testAdjacentOnly(t *testing.T, r *rand.Rand, id ID, width int, door pairsDoor) {
	for _, groups := range []int{1, 2, 3, 17} {
		n := groups * width
		in := make([]byte, 64*n)
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		out := make([][Size]byte, n)
		door.adjacent(id, &out[0], &in[0], n)
		for i := range out {
			if want := sha256.Sum256(in[64*i:][:64]); out[i] != want {
				t.Fatalf("Adjacent, %d messages: message %d wrong", n, i)
			}
		}
		msgs := [][]byte{in[:64]}
		for what, f := range map[string]func(){
			"Double":   func() { door.double(id, &out[0], &in[0], n) },
			"Slices":   func() { door.slices(id, &out[0], &msgs[0], width) },
			"Staged":   func() { door.staged(id, &out[0], &in[0], n/2, 2) },
			"Staged65": func() { door.staged65(id, &out[0], &in[0], n/2) },
		} {
			func() {
				defer func() {
					if p, _ := recover().(string); !strings.HasPrefix(p, "sha256x: ") {
						t.Errorf("%s: got %v, want a sha256x: panic", what, p)
					}
				}()
				f()
			}()
		}
	}
}

func testPairsKernel(t *testing.T, r *rand.Rand, id ID, width int, door pairsDoor) {
	for _, groups := range []int{1, 2, 3, 17} {
		n := groups * width
		in := make([]byte, 64*n+5)[r.IntN(5):][:64*n]
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		msgs := make([][]byte, n)
		for i := range msgs {
			msgs[i] = in[64*((i*7)%n):][:64] // out of order, some twice
		}
		out := make([][Size]byte, n)
		door.adjacent(id, &out[0], &in[0], n)
		for i := range out {
			if want := sha256.Sum256(in[64*i:][:64]); out[i] != want {
				t.Fatalf("Adjacent, %d messages: message %d wrong", n, i)
			}
		}
		door.double(id, &out[0], &in[0], n)
		for i := range out {
			d := sha256.Sum256(in[64*i:][:64])
			if want := sha256.Sum256(d[:]); out[i] != want {
				t.Fatalf("Double, %d messages: message %d wrong", n, i)
			}
		}
		door.slices(id, &out[0], &msgs[0], n)
		for i := range out {
			if want := sha256.Sum256(msgs[i]); out[i] != want {
				t.Fatalf("Slices, %d messages: message %d wrong", n, i)
			}
		}
		for nb := 1; nb <= 3; nb++ {
			// Messages of nb padded blocks, staged one after another.
			staged := make([]byte, n*nb*BlockSize)
			lens := make([]int, n)
			for i := range lens {
				lens[i] = r.IntN(nb*BlockSize-8-(nb-1)*BlockSize) + (nb-1)*BlockSize
				if nb == 1 {
					lens[i] = r.IntN(BlockSize - 8)
				}
				t := staged[i*nb*BlockSize:][:nb*BlockSize]
				for k := range lens[i] {
					t[k] = byte(r.Uint32())
				}
				t[lens[i]] = 0x80
				binary.BigEndian.PutUint64(t[nb*BlockSize-8:], 8*uint64(lens[i]))
			}
			door.staged(id, &out[0], &staged[0], n, nb)
			for i := range out {
				if want := sha256.Sum256(staged[i*nb*BlockSize:][:lens[i]]); out[i] != want {
					t.Fatalf("Staged, %d messages of %d blocks: message %d wrong", n, nb, i)
				}
			}
		}
	}
	// Staged65: 65-byte messages in two padded blocks, their last bytes
	// every value, in groups of every count above.
	n := (256 + width - 1) / width * width
	staged := make([]byte, n*2*BlockSize)
	for i := range n {
		t := staged[i*2*BlockSize:][:2*BlockSize]
		for k := range 64 {
			t[k] = byte(r.Uint32())
		}
		t[64] = byte(i * 167) // 167 is odd: every byte value once in 256
		t[65] = 0x80
		binary.BigEndian.PutUint64(t[2*BlockSize-8:], 8*65)
	}
	for _, m := range []int{width, 2 * width, 3 * width, n} {
		out := make([][Size]byte, m)
		door.staged65(id, &out[0], &staged[0], m)
		for i := range out {
			if want := sha256.Sum256(staged[i*2*BlockSize:][:65]); out[i] != want {
				t.Fatalf("Staged65, %d messages: message %d (last byte %#x) wrong", m, i, staged[i*2*BlockSize+64])
			}
		}
	}
}

// TestChainKernels advances random chains on every chain kernel and on the
// generic one, which must agree with a crypto/sha256 loop.
func TestChainKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, id := range runnable() {
		info := Lookup(id)
		if info.Chain != id {
			continue
		}
		t.Run(name(id), func(t *testing.T) {
			width := info.Width
			if id == Generic || id == Stdlib {
				width = 3
			}
			for _, steps := range []uint64{1, 2, 7, 64, 1000} {
				var seeds [MaxLanes][Size]byte
				var ls ChainLanes
				for i := range width {
					for k := range seeds[i] {
						seeds[i][k] = byte(r.Uint32())
					}
					h := StateOf(&seeds[i])
					for k := range 8 {
						ls[word(info, width, i, k)] = h[k]
					}
				}
				AdvanceChains(id, width, &ls, steps)
				for i := range width {
					var h [8]uint32
					for k := range 8 {
						h[k] = ls[word(info, width, i, k)]
					}
					var got [Size]byte
					PutDigest(&got, &h)
					if want := ChainStdlib(seeds[i], steps); got != want {
						t.Fatalf("%d steps, chain %d: got %x, want %x", steps, i, got, want)
					}
				}
			}
		})
	}
}

func word(info Info, width, i, k int) int {
	if info.ChainWordMajor {
		return k*width + i
	}
	return 8*i + k
}

func BenchmarkLaneKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, id := range runnable() {
		if Lookup(id).PairsOnly {
			continue
		}
		width := Lookup(id).Width
		msgs := make([]*message, 4*width)
		for i := range msgs {
			msgs[i] = newMessage(r, 64<<10, 0)
		}
		jobs := make([]Job, len(msgs))
		b.Run(fmt.Sprintf("kernel=%s", name(id)), func(b *testing.B) {
			b.SetBytes(int64(len(msgs)) << 16)
			for b.Loop() {
				for i := range msgs {
					jobs[i] = msgs[i].job
				}
				var ls LaneSet
				ls.MinActive = 1
				Hash(id, width, &ls, jobs)
			}
		})
	}
}

// TestPairsEntriesRefuse: every door of the pairs kernels panics, with the
// package's prefix, for a kernel that has none, not hashing elsewhere.
func TestPairsEntriesRefuse(t *testing.T) {
	var out [Size]byte
	in := make([]byte, 3*BlockSize)
	msgs := [][]byte{in[:64]}
	for _, door := range pairsDoors {
		for name, call := range map[string]func(){
			"adjacent": func() { door.adjacent(Generic, &out, &in[0], 1) },
			"double":   func() { door.double(Generic, &out, &in[0], 1) },
			"slices":   func() { door.slices(Generic, &out, &msgs[0], 1) },
			"staged":   func() { door.staged(Generic, &out, &in[0], 1, 1) },
			"staged65": func() { door.staged65(Generic, &out, &in[0], 1) },
		} {
			func() {
				defer func() {
					msg, _ := recover().(string)
					if !strings.HasPrefix(msg, "sha256x: internal error") {
						t.Errorf("%s, %s on the generic kernel: recovered %q, want a sha256x panic", door.name, name, msg)
					}
				}()
				call()
			}()
		}
	}
}

// TestPairsEntriesGrowStack enters every pairs kernel through its per-call
// entry at every depth of a fresh goroutine's stack, so some find it too
// small for the kernel's frame: a kernel reached by the entry's jump
// (entry_amd64.s) must grow it as if called.
func TestPairsEntriesGrowStack(t *testing.T) {
	in := make([]byte, 64*MaxPairsLanes)
	for i := range in {
		in[i] = byte(i * 7)
	}
	for _, id := range runnable() {
		if !HasPairs(id) {
			continue
		}
		n := Lookup(id).Width
		want := make([][Size]byte, n)
		for i := range want {
			want[i] = sha256.Sum256(in[64*i:][:64])
		}
		for depth := 0; depth < 600; depth += 3 {
			done := make(chan [MaxPairsLanes][Size]byte)
			go func() {
				var out [MaxPairsLanes][Size]byte
				descend(depth, func() { HashAdjacent(id, &out[0], &in[0], n) })
				done <- out
			}()
			out := <-done
			for i := range n {
				if out[i] != want[i] {
					t.Fatalf("%s at depth %d: message %d wrong", name(id), depth, i)
				}
			}
		}
	}
}

// descend calls f below depth frames of its own.
//
//go:noinline
func descend(depth int, f func()) {
	var pad [8]uint64
	if depth > 0 {
		descend(depth-1, f)
		pad[depth%8]++
		sinkPad = pad[0]
		return
	}
	f()
}

var sinkPad uint64

// BenchmarkPairsKernels hashes a level of 1024 pairs (Adjacent) on every
// pairs kernel, whole groups of its width.
func BenchmarkPairsKernels(b *testing.B) {
	in := make([]byte, 1024*2*Size)
	for i := range in {
		in[i] = byte(i * 7)
	}
	out := make([][Size]byte, 1024)
	for _, id := range runnable() {
		if !HasPairs(id) {
			continue
		}
		n := 1024 - 1024%Lookup(id).Width
		b.Run(fmt.Sprintf("kernel=%s", name(id)), func(b *testing.B) {
			b.SetBytes(int64(n) * 2 * Size)
			for b.Loop() {
				HashPairs(id, Adjacent, &out[0], &in[0], nil, n, 0)
			}
		})
	}
}
