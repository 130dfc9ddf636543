package bench

import (
	"crypto/sha256"
	"math/bits"
	"reflect"
	"slices"
	"strings"
	"testing"

	ssz "github.com/ferranbt/fastssz"
	"github.com/ferranbt/fastssz/spectests"
	simd "github.com/minio/sha256-simd"
)

// Prysm's own tests of the ported functions, beacon-chain/state/stateutil/
// trie_helpers_test.go at 83d75bcb78f7360fd7ded88b008789e6776e3ae6 (v6.1.0),
// run on the port. Prysm builds its inputs from util.DeterministicGenesisState(t,
// 32): the block roots (SlotsPerHistoricalRoot = 8192 of them, all zero at
// genesis) and the 32 validators' roots under ValidatorRegistryLimit =
// 2^40. Its validators carry BLS interop keys, which need a BLS library:
// here 32 genesis validators with patterned keys stand in, their roots and
// the registry's root computed by fastssz's generated code (spectests),
// the expected roots of the fixed trie by refMerkleize (crypto/sha256
// only), neither through the port nor sha256x.

// refMerkleize is the specs' merkleize(chunks, limit) over crypto/sha256:
// each level padded with the zero subtree of its height when odd.
func refMerkleize(chunks [][32]byte, limit uint64) [32]byte {
	depth := 0
	if limit > 1 {
		depth = bits.Len64(limit - 1)
	}
	var zero [32]byte
	layer := slices.Clone(chunks)
	for d := 0; d < depth; d++ {
		if len(layer)%2 == 1 || len(layer) == 0 {
			layer = append(layer, zero)
		}
		next := make([][32]byte, len(layer)/2)
		for i := range next {
			next[i] = sha256.Sum256(append(layer[2*i][:], layer[2*i+1][:]...))
		}
		layer = next
		zero = sha256.Sum256(append(zero[:], zero[:]...))
	}
	if len(layer) == 0 {
		return zero
	}
	return layer[0]
}

// mixInLength is Prysm's AddInMixin: hash(root || uint64 LE length, padded).
func mixInLength(root [32]byte, n uint64) [32]byte {
	var b [64]byte
	copy(b[:32], root[:])
	for i := range 8 {
		b[32+i] = byte(n >> (8 * i))
	}
	return sha256.Sum256(b[:])
}

// prysmGenesisValidators returns n genesis validators, as
// DeterministicGenesisState makes them but for the keys: 32 ETH effective,
// active from epoch 0, exit and withdrawable at FAR_FUTURE_EPOCH.
func prysmGenesisValidators(n int) []*spectests.Validator {
	vs := make([]*spectests.Validator, n)
	for i := range vs {
		pk := make([]byte, 48)
		wc := make([]byte, 32)
		for j := range pk {
			pk[j] = byte(i*48 + j + 1)
		}
		wc[0] = 0
		copy(wc[1:], pk[:31])
		vs[i] = &spectests.Validator{
			Pubkey: pk, WithdrawalCredentials: wc, EffectiveBalance: 32_000_000_000,
			ExitEpoch: ^uint64(0), WithdrawableEpoch: ^uint64(0),
		}
	}
	return vs
}

// registryRoot is fastssz's generated code for BeaconState.Validators: each
// validator's HashTreeRootWith, merkleized under 2^40 with the length mixed
// in (Prysm's ValidatorRegistryRoot).
func registryRoot(t *testing.T, vs []*spectests.Validator) [32]byte {
	hh := ssz.NewHasher()
	indx := hh.Index()
	for _, v := range vs {
		if err := v.HashTreeRootWith(hh); err != nil {
			t.Fatal(err)
		}
	}
	hh.MerkleizeWithMixin(indx, uint64(len(vs)), 1<<40)
	r, err := hh.HashRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func validatorRoots(t *testing.T, vs []*spectests.Validator) [][32]byte {
	roots := make([][32]byte, len(vs))
	for i, v := range vs {
		r, err := v.HashTreeRoot()
		if err != nil {
			t.Fatal(err)
		}
		roots[i] = r
	}
	return roots
}

// TestPrysmPortReturnTrieLayer is TestReturnTrieLayer_OK: the genesis
// block roots' trie, built twice from the same roots, tops out at their
// root.
func TestPrysmPortReturnTrieLayer(t *testing.T) {
	roots := make([][32]byte, 8192)
	want := refMerkleize(roots, 8192)
	for range 2 {
		layers, err := prysmReturnTrieLayer(roots, uint64(len(roots)))
		if err != nil {
			t.Fatal(err)
		}
		if got := *layers[len(layers)-1][0]; got != want {
			t.Fatalf("ReturnTrieLayer: root %x, want %x", got, want)
		}
		if len(layers) != 14 {
			t.Fatalf("ReturnTrieLayer: %d layers, want 14", len(layers))
		}
	}
}

// TestPrysmPortReturnTrieLayerVariable is TestReturnTrieLayerVariable_OK:
// the registry's trie, built twice, with the length mixed in, is the
// registry's root.
func TestPrysmPortReturnTrieLayerVariable(t *testing.T) {
	vs := prysmGenesisValidators(32)
	want := registryRoot(t, vs)
	roots := validatorRoots(t, vs)
	for range 2 {
		layers := prysmReturnTrieLayerVariable(roots, 1<<40)
		if got := mixInLength(*layers[len(layers)-1][0], uint64(len(vs))); got != want {
			t.Fatalf("ReturnTrieLayerVariable: root %x, want %x", got, want)
		}
	}
}

// TestPrysmPortRecomputeFixed is TestRecomputeFromLayer_FixedSizedArray:
// block roots 24 and 41 changed to "ABC" and "DEF".
func TestPrysmPortRecomputeFixed(t *testing.T) {
	roots := make([][32]byte, 8192)
	layers, err := prysmReturnTrieLayer(roots, uint64(len(roots)))
	if err != nil {
		t.Fatal(err)
	}
	changedIdx := []uint64{24, 41}
	changedRoots := [][32]byte{{'A', 'B', 'C'}, {'D', 'E', 'F'}}
	updated := slices.Clone(roots)
	updated[24], updated[41] = changedRoots[0], changedRoots[1]
	want := refMerkleize(updated, 8192)
	root, _, err := prysmRecomputeFromLayer(changedRoots, changedIdx, layers)
	if err != nil {
		t.Fatal(err)
	}
	if root != want {
		t.Fatalf("RecomputeFromLayer: %x, want %x", root, want)
	}
}

// TestPrysmPortRecomputeVariable is TestRecomputeFromLayer_VariableSizedArray:
// validators 2 and 29 replaced by copies of 10 and 11, slashed, exiting at
// epochs 20 and 40.
func TestPrysmPortRecomputeVariable(t *testing.T) {
	vs := prysmGenesisValidators(32)
	layers := prysmReturnTrieLayerVariable(validatorRoots(t, vs), 1<<40)
	changedIdx := []uint64{2, 29}
	val1, val2 := *vs[10], *vs[11]
	val1.Slashed, val1.ExitEpoch = true, 20
	val2.Slashed, val2.ExitEpoch = true, 40
	changed := []*spectests.Validator{&val1, &val2}
	vs[2], vs[29] = changed[0], changed[1]
	want := registryRoot(t, vs)
	root, _, err := prysmRecomputeFromLayerVariable(validatorRoots(t, changed), changedIdx, layers)
	if err != nil {
		t.Fatal(err)
	}
	if got := mixInLength(root, uint64(len(vs))); got != want {
		t.Fatalf("RecomputeFromLayerVariable: %x, want %x", got, want)
	}
}

// TestPrysmPortBadHashLayer is TestMerkleizeTrieLeaves_BadHashLayer.
func TestPrysmPortBadHashLayer(t *testing.T) {
	_, _, err := prysmMerkleizeTrieLeaves(make([][][32]byte, 20), make([][32]byte, 12))
	if err == nil || !strings.Contains(err.Error(), "hash layer is a non power of 2") {
		t.Fatalf("MerkleizeTrieLeaves of 12: %v, want the power-of-2 error", err)
	}
}

// TestPrysmPortHasher: hash.CustomSHA256Hasher's port hashes over Prysm's
// minio/sha256-simd (its pool's hasher is sha256-simd's, on this CPU
// reflect.TypeOf(simd.New())), and its one hasher, reset after each Sum,
// gives each message's SHA-256.
func TestPrysmPortHasher(t *testing.T) {
	h, want := prysmSHA256Pool.Get(), reflect.TypeOf(simd.New())
	if got := reflect.TypeOf(h); got != want {
		t.Fatalf("the pool's hasher is a %v, Prysm's sha256-simd gives a %v", got, want)
	}
	prysmSHA256Pool.Put(h)
	hasher := prysmHasher()
	for _, n := range []int{64, 0, 64, 1, 200} {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(i + n)
		}
		if got := hasher(msg); got != sha256.Sum256(msg) {
			t.Fatalf("hasher of %d bytes: %x, want %x", n, got, sha256.Sum256(msg))
		}
	}
}

// TestPrysmPortAllocs: where no level is hashed, the port allocates what
// Prysm's functions allocate: MerkleizeTrieLeaves of one leaf its
// chunkBuffer's 64 bytes (bytes.NewBuffer, Grow(64)); ReturnTrieLayerVariable
// of one leaf under a limit of 1 its layers, transformedLeaves, the leaf's
// copy and its buffer's 64 bytes.
func TestPrysmPortAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's build allocates otherwise")
	}
	layers, one := make([][][32]byte, 2), make([][32]byte, 1)
	if n := testing.AllocsPerRun(100, func() { _, _, _ = prysmMerkleizeTrieLeaves(layers, one) }); n != 1 {
		t.Errorf("MerkleizeTrieLeaves of one leaf: %v allocations, Prysm's 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = prysmReturnTrieLayerVariable(one, 1) }); n != 4 {
		t.Errorf("ReturnTrieLayerVariable of one leaf: %v allocations, Prysm's 4", n)
	}
}

// TestPrysmPortRecomputeAllocs: the measured functions allocate what
// Prysm's do (the same counts from trie_helpers.go and crypto/hash/hash.go
// at the cited commit, compiled alone by this toolchain): RecomputeFromLayer
// of 5 paths in a trie of 2^10 leaves 58, a node of each path's 10 behind
// a new pointer (rootVal), each path's combinedChunks (given to the hasher
// as a slice), and 3 for the hasher (its closure, its h, a digest from the
// empty pool); RecomputeFromLayerVariable of 5 paths under 2^40 213.
func TestPrysmPortRecomputeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's build allocates otherwise")
	}
	vals := make([][32]byte, 5)
	layers, err := prysmReturnTrieLayer(make([][32]byte, 1<<10), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	idx := []uint64{3, 100, 101, 500, 1000}
	if n := testing.AllocsPerRun(100, func() { _, layers, _ = prysmRecomputeFromLayer(vals, idx, layers) }); n != 58 {
		t.Errorf("RecomputeFromLayer: %v allocations, Prysm's 58", n)
	}
	vl := prysmReturnTrieLayerVariable(make([][32]byte, 100), 1<<40)
	vidx := []uint64{3, 50, 99, 100, 101}
	if n := testing.AllocsPerRun(100, func() { _, vl, _ = prysmRecomputeFromLayerVariable(vals, vidx, vl) }); n != 213 {
		t.Errorf("RecomputeFromLayerVariable: %v allocations, Prysm's 213", n)
	}
}

// TestPrysmPortVariableAppend: a change past a layer's end appends the new
// parent, as Prysm's recomputeRootFromLayerVariable does (trie_helpers.go
// v6.1.0:226-228), whatever its index, where the unmerged PR 15750 padded
// the layer with zero hashes up to it: leaf 4 set in a trie of leaves 0
// and 1 under a limit of 8 leaves layer 1 two nodes long, the second the
// parent of leaves 4 and 5, and the root returned is the tree's.
func TestPrysmPortVariableAppend(t *testing.T) {
	leaves := [][32]byte{{1}, {2}}
	layers := prysmReturnTrieLayerVariable(slices.Clone(leaves), 8)
	item := [32]byte{5}
	root, layers, err := prysmRecomputeFromLayerVariable([][32]byte{item}, []uint64{4}, layers)
	if err != nil {
		t.Fatal(err)
	}
	var zero [32]byte
	if want := refMerkleize([][32]byte{leaves[0], leaves[1], zero, zero, item}, 8); root != want {
		t.Fatalf("root %x, want %x", root, want)
	}
	if len(layers[1]) != 2 || *layers[1][1] != refMerkleize([][32]byte{item}, 2) {
		t.Fatalf("layer 1: %d nodes, want 2, the second the parent of leaves 4 and 5", len(layers[1]))
	}
}
