package bench

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	ssz "github.com/ferranbt/fastssz"
	"github.com/ferranbt/fastssz/spectests"
	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// The SSZ tables (issue 19): the drop-in's Hash and HashByteSlice against
// gohashtree and hashtree, fastssz's HashTreeRoot of a whole beacon state
// with each as its HashFn, and a validator registry's root through the
// batched API against fastssz's generated code. Compare with benchstat
// -col /impl; one core: -cpu 1.

// sszPairs are the level sizes of the drop-in table.
var sszPairs = []int{1, 2, 4, 16, 1024, 1 << 18}

// A HashFn is one implementation of gohashtree's three functions.
type HashFn struct {
	Name  string
	Hash  func(digests, chunks [][32]byte) error
	Bytes func(digests, chunks []byte) error
}

// HashFns: sha256x's drop-in (named after the plan this process runs),
// gohashtree and hashtree.
func HashFns() []HashFn {
	return []HashFn{
		{"sha256x-" + sha256x.Kernel(), sszx.Hash, sszx.HashByteSlice},
		{"gohashtree", gohashtree.Hash, gohashtree.HashByteSlice},
		{HashtreeName, hashtree.Hash, hashtree.HashByteSlice},
	}
}

// BenchmarkSSZHash: Hash(digests, chunks) of n pairs into a second buffer.
func BenchmarkSSZHash(b *testing.B) {
	for _, n := range sszPairs {
		l := NewLevel(n)
		for _, f := range HashFns() {
			b.Run(fmt.Sprintf("pairs=%d/impl=%s", n, f.Name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := f.Hash(l.Out, l.Nodes); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSSZHashByteSlice: HashByteSlice(chunks, chunks) of n pairs in
// place, as fastssz calls its HashFn.
func BenchmarkSSZHashByteSlice(b *testing.B) {
	for _, n := range sszPairs {
		l := NewLevel(n)
		flat := unsafe.Slice(&l.Nodes[0][0], 64*n)
		for _, f := range HashFns() {
			b.Run(fmt.Sprintf("pairs=%d/impl=%s", n, f.Name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := f.Bytes(flat, flat); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

var state struct {
	once sync.Once
	s    *spectests.BeaconStateBellatrix
	err  error
}

// beaconState returns the Bellatrix beacon state that fastssz v0.1.4 ships
// in its module (spectests/fixtures/beacon_state_bellatrix.ssz, Goerli
// slot 4744352), read from the module cache.
func beaconState(tb testing.TB) *spectests.BeaconStateBellatrix {
	state.once.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ferranbt/fastssz").Output()
		if err != nil {
			state.err = fmt.Errorf("go list fastssz: %v", err)
			return
		}
		data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "spectests", "fixtures", "beacon_state_bellatrix.ssz"))
		if err != nil {
			state.err = err
			return
		}
		s := new(spectests.BeaconStateBellatrix)
		state.err = s.UnmarshalSSZ(data)
		state.s = s
	})
	if state.err != nil {
		tb.Fatal(state.err)
	}
	return state.s
}

// stateRoot is fastssz's generated HashTreeRootWith with hh.
func stateRoot(tb testing.TB, s *spectests.BeaconStateBellatrix, hh *ssz.Hasher) [32]byte {
	hh.Reset()
	if err := s.HashTreeRootWith(hh); err != nil {
		tb.Fatal(err)
	}
	r, err := hh.HashRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// BenchmarkSSZBeaconState: fastssz's HashTreeRoot of the whole state, one
// Hasher reused, each HashFn; fastssz-default is ssz.NewHasher
// (sha256-simd, one pair at a time).
func BenchmarkSSZBeaconState(b *testing.B) {
	s := beaconState(b)
	hashers := []struct {
		name string
		hh   *ssz.Hasher
	}{{"fastssz-default", ssz.NewHasher()}}
	for _, f := range HashFns() {
		hashers = append(hashers, struct {
			name string
			hh   *ssz.Hasher
		}{f.Name, ssz.NewHasherWithHashFn(f.Bytes)})
	}
	for _, h := range hashers {
		b.Run("impl="+h.name, func(b *testing.B) {
			stateRoot(b, s, h.hh) // the Hasher's buffer grown
			b.ReportAllocs()
			for b.Loop() {
				stateRoot(b, s, h.hh)
			}
		})
	}
}

// registryN is the validators of the registry benchmark.
const registryN = 1 << 19

// validators returns n validators of pseudo-random contents, the same for
// the same n.
func validators(n int) []*spectests.Validator {
	r := rand.New(rand.NewPCG(uint64(n), 19))
	vs := make([]*spectests.Validator, n)
	for i := range vs {
		v := &spectests.Validator{Pubkey: make([]byte, 48), WithdrawalCredentials: make([]byte, 32)}
		for j := range v.Pubkey {
			v.Pubkey[j] = byte(r.Uint32())
		}
		for j := range v.WithdrawalCredentials {
			v.WithdrawalCredentials[j] = byte(r.Uint32())
		}
		v.EffectiveBalance = 32e9 - r.Uint64N(2e9)
		v.Slashed = r.IntN(50) == 0
		v.ActivationEligibilityEpoch = r.Uint64N(300000)
		v.ActivationEpoch = v.ActivationEligibilityEpoch + r.Uint64N(1000)
		v.ExitEpoch, v.WithdrawableEpoch = ^uint64(0), ^uint64(0)
		if r.IntN(10) == 0 {
			v.ExitEpoch = v.ActivationEpoch + r.Uint64N(10000)
			v.WithdrawableEpoch = v.ExitEpoch + 256
		}
		vs[i] = v
	}
	return vs
}

// registry is a List[Validator, 2^40] hashed by fastssz's generated code:
// the loop fastssz generates for BeaconState's Validators field.
type registry []*spectests.Validator

func (r registry) HashTreeRootWith(hh *ssz.Hasher) error {
	subIndx := hh.Index()
	num := uint64(len(r))
	if num > 1099511627776 {
		return ssz.ErrIncorrectListSize
	}
	for _, elem := range r {
		if err := elem.HashTreeRootWith(hh); err != nil {
			return err
		}
	}
	hh.MerkleizeWithMixin(subIndx, num, 1099511627776)
	return nil
}

func (r registry) root(tb testing.TB, hh *ssz.Hasher) [32]byte {
	hh.Reset()
	if err := r.HashTreeRootWith(hh); err != nil {
		tb.Fatal(err)
	}
	root, err := hh.HashRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return root
}

// registryBlock is how many validators the batched registry root lays out
// at a time.
const registryBlock = 1024

// A batchedRegistry hashes a registry through the batched API: for each
// block of validators, every public key's root in one call, the eight field
// roots of each validator side by side, every validator's root in one
// call a level; then the list of roots under its limit, mixed with its
// length. Its buffers are reused: no allocation in steady state.
type batchedRegistry struct {
	keys   [registryBlock][48]byte
	kroots [registryBlock][32]byte
	fields [registryBlock * 8][32]byte
	roots  [][32]byte
}

func chunk64(v uint64) (c [32]byte) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

func (h *batchedRegistry) root(vs []*spectests.Validator) [32]byte {
	return sszx.ListRoot(h.containerRoots(vs), 1<<40)
}

// containerRoots returns the validators' roots, a block of them at a time.
func (h *batchedRegistry) containerRoots(vs []*spectests.Validator) [][32]byte {
	if cap(h.roots) < len(vs) {
		h.roots = make([][32]byte, len(vs))
	}
	roots := h.roots[:len(vs)]
	for a := 0; a < len(vs); a += registryBlock {
		blk := vs[a:min(len(vs), a+registryBlock)]
		for i, v := range blk {
			copy(h.keys[i][:], v.Pubkey)
		}
		sszx.PubkeyRoots(h.kroots[:], h.keys[:len(blk)])
		for i, v := range blk {
			f := h.fields[8*i : 8*i+8]
			f[0] = h.kroots[i]
			copy(f[1][:], v.WithdrawalCredentials)
			f[2] = chunk64(v.EffectiveBalance)
			f[3] = [32]byte{}
			if v.Slashed {
				f[3][0] = 1
			}
			f[4] = chunk64(v.ActivationEligibilityEpoch)
			f[5] = chunk64(v.ActivationEpoch)
			f[6] = chunk64(v.ExitEpoch)
			f[7] = chunk64(v.WithdrawableEpoch)
		}
		sszx.ContainerRoots(roots[a:a+len(blk)], h.fields[:8*len(blk)], 8)
	}
	return roots
}

var regData struct {
	once sync.Once
	vs   registry
}

func registryData() registry {
	regData.once.Do(func() { regData.vs = validators(registryN) })
	return regData.vs
}

// BenchmarkSSZRegistry: the root of a List[Validator, 2^40] of 2^19
// validators: sha256x's batched API, and fastssz's generated code with
// gohashtree's, hashtree's and sha256x's HashFn.
func BenchmarkSSZRegistry(b *testing.B) {
	vs := registryData()
	b.Run("impl=sha256x-batched", func(b *testing.B) {
		h := new(batchedRegistry)
		h.root(vs) // its buffers, and the pool's, grown: allocations from here on are per call
		b.ReportAllocs()
		for b.Loop() {
			h.root(vs)
		}
	})
	for _, f := range HashFns() {
		hh := ssz.NewHasherWithHashFn(f.Bytes)
		b.Run("impl=fastssz+"+f.Name, func(b *testing.B) {
			vs.root(b, hh)
			b.ReportAllocs()
			for b.Loop() {
				vs.root(b, hh)
			}
		})
	}
}

// TestSSZSameRoots: every implementation the SSZ benchmarks measure gives
// the same digests and roots: the levels against crypto/sha256, the beacon
// state and the registry against fastssz with gohashtree.
func TestSSZSameRoots(t *testing.T) {
	for _, n := range append([]int{0, 3, 5, 33}, sszPairs...) {
		l := NewLevel(n)
		want := refPairs(l.Nodes)
		for _, f := range HashFns() {
			clear(l.Out)
			if err := f.Hash(l.Out, l.Nodes); err != nil {
				t.Fatal(err)
			}
			flat := append([]byte{}, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(l.Nodes))), 64*n)...)
			if err := f.Bytes(flat, flat); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if l.Out[i] != want[i] || string(flat[32*i:32*i+32]) != string(want[i][:]) {
					t.Fatalf("%s, %d pairs: pair %d differs", f.Name, n, i)
				}
			}
		}
	}
	s := beaconState(t)
	want := stateRoot(t, s, ssz.NewHasherWithHashFn(gohashtree.HashByteSlice))
	for _, f := range HashFns() {
		if got := stateRoot(t, s, ssz.NewHasherWithHashFn(f.Bytes)); got != want {
			t.Fatalf("beacon state with %s: root %x, want %x", f.Name, got, want)
		}
	}
	n := registryN
	if testing.Short() {
		n = 5000
	}
	vs := registryData()[:n]
	want = vs.root(t, ssz.NewHasherWithHashFn(gohashtree.HashByteSlice))
	if got := new(batchedRegistry).root(vs); got != want {
		t.Fatalf("registry batched: %x, want %x", got, want)
	}
}
