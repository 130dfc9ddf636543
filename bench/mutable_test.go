package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	ssz "github.com/ferranbt/fastssz"
	"github.com/ferranbt/fastssz/spectests"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// The "Trees that change" tables (issue 39): a 2^20-chunk tree with k of
// its chunks changed, its root recomputed by sha256x's hashtree.Chunks,
// by the port of Prysm's RecomputeFromLayer (prysmtrie_test.go), by a full
// rebuild (hashtree.Merkleize: one Join{}.HashLevel a level) and by
// fastssz with gohashtree; then a slot on a 2^20-validator registry and its
// balances, against fastssz's full HashTreeRoot of the two fields; Copy of
// that state, and the slot after a copy. One core:
//
//	go test -run '^$' -bench 'Mutable' -cpu 1 -count 3 .

// mutableN is the chunks of the list table.
const mutableN = 1 << 20

// mutableKs are the numbers of changed chunks of the list table.
var mutableKs = []int{1, 512, 8192, 65536, mutableN}

// changes returns k distinct random indices below n, sorted (as Prysm
// passes them), and two sets of k chunks to set there in turn. At k =
// 2^20 every chunk changes: Chunks takes them as one stretch (SetRange),
// the rebuild as one copy.
func changes(r *rand.Rand, n, k int) ([]uint64, [2][][32]byte) {
	idx := make([]uint64, k)
	for j, i := range slices.Sorted(slices.Values(r.Perm(n)[:k])) {
		idx[j] = uint64(i)
	}
	return idx, [2][][32]byte{randRoots(r, k), randRoots(r, k)}
}

// fastsszVector is fastssz's generated code for a Vector[Root, n]: each
// root appended, then merkleized.
func fastsszVector(hh *ssz.Hasher, leaves [][32]byte) [32]byte {
	hh.Reset()
	indx := hh.Index()
	for i := range leaves {
		hh.Append(leaves[i][:])
	}
	hh.Merkleize(indx)
	r, err := hh.HashRoot()
	if err != nil {
		panic(err)
	}
	return r
}

// changeSets returns sets of k random indices below n, each set sorted and
// no index in two, with two sets of chunks each: enough sets that the list
// table writes about 2^18 chunks before it meets a set again, so that an
// operation finds the paths it changes as a slot finds them, not where the
// one before left them (a single set, changed over and over, keeps its few
// thousand nodes in the caches; BENCHMARKS.md, "Trees that change: dirty
// nodes gathered a level at a time").
func changeSets(r *rand.Rand, n, k int) []changeSet {
	sets := make([]changeSet, max(1, min(changePool, n)/k)) // no index in two
	perm := r.Perm(n)
	for s := range sets {
		idx := make([]uint64, k)
		for j, i := range slices.Sorted(slices.Values(perm[s*k : (s+1)*k])) {
			idx[j] = uint64(i)
		}
		sets[s] = changeSet{idx, [2][][32]byte{randRoots(r, k), randRoots(r, k)}}
	}
	return sets
}

// changePool is about the chunks that changeSets' sets write in turn.
const changePool = 1 << 18

// changeSet is one operation of the list table: the indices and, in
// turn, two sets of chunks to write there.
type changeSet struct {
	idx  []uint64
	vals [2][][32]byte
}

// next returns the indices and the chunks of operation it.
func next(sets []changeSet, it int) ([]uint64, [][32]byte) {
	s := &sets[it%len(sets)]
	return s.idx, s.vals[it/len(sets)&1]
}

func BenchmarkMutableList(b *testing.B) {
	r := rand.New(rand.NewPCG(39, 2))
	leaves := randRoots(r, mutableN)
	for _, k := range mutableKs {
		sets := changeSets(r, mutableN, k)
		// The changes in one call, as Prysm's function takes them: SetMany
		// (SetRange for every chunk, a stretch); and a Set each, as a
		// state transition's loop writes them.
		for _, impl := range []string{"sha256x", "sha256x-Set"} {
			b.Run(fmt.Sprintf("k=%d/impl=%s", k, impl), func(b *testing.B) {
				if k == mutableN && impl == "sha256x-Set" {
					b.Skip("every chunk: SetRange, the sha256x row")
				}
				c := sszx.NewChunks(leaves, mutableN)
				b.ReportAllocs()
				it := 0
				for b.Loop() {
					idx, v := next(sets, it)
					it++
					switch {
					case k == mutableN:
						c.SetRange(0, v)
					case impl == "sha256x":
						c.SetMany(idx, v)
					default:
						for j, i := range idx {
							c.Set(i, v[j])
						}
					}
					c.Root()
				}
			})
		}
		b.Run(fmt.Sprintf("k=%d/impl=prysm", k), func(b *testing.B) {
			if k == mutableN {
				b.Skip("every path of the tree: about 3 s a root (issue 39), the full rebuild's 100 times")
			}
			layers, err := prysmReturnTrieLayer(slices.Clone(leaves), mutableN)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			it := 0
			for b.Loop() {
				idx, v := next(sets, it)
				it++
				_, layers, err = prysmRecomputeFromLayer(v, idx, layers)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("k=%d/impl=rebuild-HashLevel", k), func(b *testing.B) {
			cur := slices.Clone(leaves)
			b.ReportAllocs()
			it := 0
			for b.Loop() {
				idx, v := next(sets, it)
				it++
				if k == mutableN {
					copy(cur, v)
				} else {
					for j, i := range idx {
						cur[i] = v[j]
					}
				}
				sszx.Merkleize(cur, mutableN)
			}
		})
		b.Run(fmt.Sprintf("k=%d/impl=fastssz+gohashtree", k), func(b *testing.B) {
			cur := slices.Clone(leaves)
			hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
			b.ReportAllocs()
			it := 0
			for b.Loop() {
				idx, v := next(sets, it)
				it++
				for j, i := range idx {
					cur[i] = v[j]
				}
				fastsszVector(hh, cur)
			}
		})
	}
}

// TestMutableListRoots: the four implementations of the list table agree
// after changes at each k, on a tree of 2^16 chunks.
func TestMutableListRoots(t *testing.T) {
	n := 1 << 16
	r := rand.New(rand.NewPCG(39, 3))
	leaves := randRoots(r, n)
	c := sszx.NewChunks(leaves, uint64(n))
	layers, err := prysmReturnTrieLayer(slices.Clone(leaves), uint64(n))
	if err != nil {
		t.Fatal(err)
	}
	hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
	for _, k := range []int{1, 512, n / 16, n} {
		idx, vals := changes(r, n, k)
		for j, i := range idx {
			c.Set(i, vals[0][j])
			leaves[i] = vals[0][j]
		}
		var root [32]byte
		root, layers, err = prysmRecomputeFromLayer(vals[0], idx, layers)
		if err != nil {
			t.Fatal(err)
		}
		want := sszx.Merkleize(leaves, uint64(n))
		if c.Root() != want || root != want || fastsszVector(hh, leaves) != want {
			t.Fatalf("k=%d: sha256x %x, prysm %x, fastssz %x, rebuild %x", k, c.Root(), root, fastsszVector(hh, leaves), want)
		}
	}
}

// validatorFields returns the eight field roots of each validator, one
// validator after another, the public keys' roots in one batched call.
func validatorFields(vs []*spectests.Validator) [][32]byte {
	keys := make([][48]byte, len(vs))
	for i, v := range vs {
		copy(keys[i][:], v.Pubkey)
	}
	kroots := make([][32]byte, len(vs))
	sszx.PubkeyRoots(kroots, keys)
	fields := make([][32]byte, 8*len(vs))
	for i, v := range vs {
		f := fields[8*i : 8*i+8]
		f[0] = kroots[i]
		copy(f[1][:], v.WithdrawalCredentials)
		f[2] = chunk64(v.EffectiveBalance)
		if v.Slashed {
			f[3][0] = 1
		}
		f[4] = chunk64(v.ActivationEligibilityEpoch)
		f[5] = chunk64(v.ActivationEpoch)
		f[6] = chunk64(v.ExitEpoch)
		f[7] = chunk64(v.WithdrawableEpoch)
	}
	return fields
}

// balancesRoot is fastssz's generated code for BeaconState.Balances
// (spectests/structs_encoding.go, BeaconStateBellatrix's Field (12)).
func balancesRoot(hh *ssz.Hasher, bals []uint64) [32]byte {
	hh.Reset()
	subIndx := hh.Index()
	for _, i := range bals {
		hh.AppendUint64(i)
	}
	hh.FillUpTo32()
	numItems := uint64(len(bals))
	hh.MerkleizeWithMixin(subIndx, numItems, ssz.CalculateLimit(1099511627776, numItems, 8))
	r, err := hh.HashRoot()
	if err != nil {
		panic(err)
	}
	return r
}

// A beaconLists is the two fields of a beacon state that change every
// slot, as sha256x keeps them.
type beaconLists struct {
	vals *sszx.ContainerList
	bals *sszx.BasicList[uint64]
}

func newBeaconLists(vs []*spectests.Validator, bals []uint64) beaconLists {
	return beaconLists{sszx.NewContainerList(8, validatorFields(vs), 1<<40), sszx.NewBasicList(bals, 1<<40)}
}

// gloasLists is beaconLists on Gloas's ProgressiveLists (EIP-7688).
type gloasLists struct {
	vals *sszx.ProgressiveContainerList
	bals *sszx.ProgressiveBasicList[uint64]
}

func newGloasLists(vs []*spectests.Validator, bals []uint64) gloasLists {
	return gloasLists{sszx.NewProgressiveContainerList(8, validatorFields(vs)), sszx.NewProgressiveBasicList(bals)}
}

// stateLists is what the tests and the chain do to either: each method
// calls the lists concretely, since a slot's 700 Gets and Sets through
// interfaces took 7% longer and doubled the next copy's page faults
// (bench/data/zen3-2026-12-07i/harness-ab3.txt).
type stateLists interface {
	copy() stateLists
	slot(r *rand.Rand, vs []*spectests.Validator, bals []uint64, nb, nv int)
	epoch(r *rand.Rand, buf []uint64)
	setBalances(bals []uint64) // SetRange(0, bals)
	roots() [2][32]byte
	compact()
	len() uint64
	// rebuilt returns the roots rebuilt from vs and bals: fastssz's
	// HashTreeRoot of the two fields (with gohashtree) for Lists;
	// ContainerRoots, ProgressiveListRoot and ProgressiveBasicListRoot for
	// Gloas's (cross-checked against dynamic-ssz in the interop module).
	rebuilt(tb testing.TB, hh *ssz.Hasher, vs []*spectests.Validator, bals []uint64) [2][32]byte
}

func (l beaconLists) copy() stateLists { return beaconLists{l.vals.Copy(), l.bals.Copy()} }
func (l beaconLists) slot(r *rand.Rand, vs []*spectests.Validator, bals []uint64, nb, nv int) {
	slot(r, l, vs, bals, nb, nv)
}
func (l beaconLists) epoch(r *rand.Rand, buf []uint64) { epoch(r, l, buf) }
func (l beaconLists) setBalances(bals []uint64)        { l.bals.SetRange(0, bals) }
func (l beaconLists) roots() [2][32]byte               { return [2][32]byte{l.vals.Root(), l.bals.Root()} }
func (l beaconLists) compact()                         { l.vals.Compact(); l.bals.Compact() }
func (l beaconLists) len() uint64                      { return l.bals.Len() }
func (l beaconLists) rebuilt(tb testing.TB, hh *ssz.Hasher, vs []*spectests.Validator, bals []uint64) [2][32]byte {
	return [2][32]byte{registry(vs).root(tb, hh), balancesRoot(hh, bals)}
}

func (g gloasLists) copy() stateLists { return gloasLists{g.vals.Copy(), g.bals.Copy()} }

// slot is slot's changes on Gloas's lists: its code again, the lists'
// types in place of the Lists', so that both call their lists concretely.
func (g gloasLists) slot(r *rand.Rand, vs []*spectests.Validator, bals []uint64, nb, nv int) {
	n := g.bals.Len()
	for range nb {
		i := r.Uint64N(n)
		v := g.bals.Get(i) + 1 + r.Uint64N(20000)
		g.bals.Set(i, v)
		if bals != nil {
			bals[i] = v
		}
	}
	for j := range nv {
		i := r.Uint64N(g.vals.Len())
		switch j % 3 {
		case 0:
			eb := 31e9 + r.Uint64N(1e9)
			g.vals.SetField(i, 2, chunk64(eb))
			if vs != nil {
				vs[i].EffectiveBalance = eb
			}
		case 1:
			g.vals.SetField(i, 3, chunk64(1)) // slashed
			if vs != nil {
				vs[i].Slashed = true
			}
		default:
			e := 200000 + r.Uint64N(1000)
			g.vals.SetField(i, 6, chunk64(e))
			g.vals.SetField(i, 7, chunk64(e+256))
			if vs != nil {
				vs[i].ExitEpoch, vs[i].WithdrawableEpoch = e, e+256
			}
		}
	}
}

func (g gloasLists) epoch(r *rand.Rand, buf []uint64) {
	for i := range buf {
		buf[i] = g.bals.Get(uint64(i)) + 1 + r.Uint64N(20000)
	}
	g.bals.SetRange(0, buf)
	g.slot(r, nil, nil, 0, 2000)
}
func (g gloasLists) setBalances(bals []uint64) { g.bals.SetRange(0, bals) }
func (g gloasLists) roots() [2][32]byte        { return [2][32]byte{g.vals.Root(), g.bals.Root()} }
func (g gloasLists) compact()                  { g.vals.Compact(); g.bals.Compact() }
func (g gloasLists) len() uint64               { return g.bals.Len() }
func (g gloasLists) rebuilt(tb testing.TB, hh *ssz.Hasher, vs []*spectests.Validator, bals []uint64) [2][32]byte {
	roots := make([][32]byte, len(vs))
	sszx.ContainerRoots(roots, validatorFields(vs), 8)
	return [2][32]byte{sszx.ProgressiveListRoot(roots), sszx.ProgressiveBasicListRoot(bals)}
}

// slot changes what a slot changes: nb balances (rewards and penalties of
// attesters and the proposer) and nv validators (an effective balance, a
// slashing, an exit), in the spectests objects (nil: not kept) and in l.
func slot(r *rand.Rand, l beaconLists, vs []*spectests.Validator, bals []uint64, nb, nv int) {
	n := l.bals.Len()
	for range nb {
		i := r.Uint64N(n)
		v := l.bals.Get(i) + 1 + r.Uint64N(20000)
		l.bals.Set(i, v)
		if bals != nil {
			bals[i] = v
		}
	}
	for j := range nv {
		i := r.Uint64N(l.vals.Len())
		switch j % 3 {
		case 0:
			eb := 31e9 + r.Uint64N(1e9)
			l.vals.SetField(i, 2, chunk64(eb))
			if vs != nil {
				vs[i].EffectiveBalance = eb
			}
		case 1:
			l.vals.SetField(i, 3, chunk64(1)) // slashed
			if vs != nil {
				vs[i].Slashed = true
			}
		default:
			e := 200000 + r.Uint64N(1000)
			l.vals.SetField(i, 6, chunk64(e))
			l.vals.SetField(i, 7, chunk64(e+256))
			if vs != nil {
				vs[i].ExitEpoch, vs[i].WithdrawableEpoch = e, e+256
			}
		}
	}
}

// TestMutableBellatrix: the real Bellatrix state's registry and balances
// kept by sha256x, changed as slots and an epoch change them, copied and
// diverging: every root equals fastssz's (with gohashtree) of the same
// objects. The same registry and balances as Gloas's ProgressiveLists
// (form=gloas): every root equals a rebuild by ProgressiveListRoot and
// ProgressiveBasicListRoot.
func TestMutableBellatrix(t *testing.T) {
	s := beaconState(t)
	for _, form := range []string{"list", "gloas"} {
		t.Run("form="+form, func(t *testing.T) {
			vs := make([]*spectests.Validator, len(s.Validators))
			for i, v := range s.Validators {
				c := *v
				vs[i] = &c
			}
			mutableBellatrix(t, form, vs, slices.Clone(s.Balances))
		})
	}
}

func mutableBellatrix(t *testing.T, form string, vs []*spectests.Validator, bals []uint64) {
	hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
	check := func(what string, l stateLists, vs []*spectests.Validator, bals []uint64) {
		t.Helper()
		got, want := l.roots(), l.rebuilt(t, hh, vs, bals)
		if got[0] != want[0] {
			t.Fatalf("%s: validators %x, rebuilt %x", what, got[0], want[0])
		}
		if got[1] != want[1] {
			t.Fatalf("%s: balances %x, rebuilt %x", what, got[1], want[1])
		}
	}
	var l stateLists = newBeaconLists(vs, bals)
	if form == "gloas" {
		l = newGloasLists(vs, bals)
	}
	check("as read", l, vs, bals)
	t.Logf("%d validators, %d balances", len(vs), len(bals))
	r := rand.New(rand.NewPCG(39, 4))
	for i := range 4 {
		l.slot(r, vs, bals, 700, 16)
		check(fmt.Sprintf("slot %d", i), l, vs, bals)
	}
	l.slot(r, vs, bals, 4*len(bals), 2000) // an epoch: most balances, many validators
	check("epoch", l, vs, bals)
	for i := range bals { // every balance, as one stretch
		bals[i] -= uint64(i % 1000)
	}
	l.setBalances(bals)
	check("every balance", l, vs, bals)
	// A copy diverges; the original keeps its roots.
	before := l.roots()
	c := l.copy()
	vs2, bals2 := slices.Clone(vs), slices.Clone(bals)
	for i, v := range vs2 { // the copy's own validators
		w := *v
		vs2[i] = &w
	}
	c.slot(r, vs2, bals2, 700, 16)
	check("the copy", c, vs2, bals2)
	if l.roots() != before {
		t.Fatal("a change to the copy changed the original")
	}
	l.slot(r, vs, bals, 700, 16) // the original moves on apart
	check("original after the copy", l, vs, bals)
	check("the copy after the original moved", c, vs2, bals2)
}

// slotN is the validators (and balances) of the slot benchmark.
const slotN = 1 << 20

// epoch changes what an epoch's boundary changes in l: every balance (buf
// holds them, len(buf) = l.bals.Len()) and 2,000 validators.
func epoch(r *rand.Rand, l beaconLists, buf []uint64) {
	for i := range buf {
		buf[i] = l.bals.Get(uint64(i)) + 1 + r.Uint64N(20000)
	}
	l.bals.SetRange(0, buf)
	slot(r, l, nil, nil, 0, 2000)
}

func slotData() ([]*spectests.Validator, []uint64) {
	vs := validators(slotN)
	r := rand.New(rand.NewPCG(39, 5))
	bals := make([]uint64, slotN)
	for i := range bals {
		bals[i] = 32e9 + r.Uint64N(1e9)
	}
	return vs, bals
}

// BenchmarkMutableSlot: a slot (700 balances and 16 validators changed) on
// a 2^20-validator registry and its balances, both roots recomputed:
// sha256x's lists; the same after a Copy each slot of the lists as built
// (the first root of a copy, every page it writes copied; a slot on a copy
// of the last slot's state is BenchmarkMutableChain's ms-slot); fastssz's
// full HashTreeRoot of the two fields with gohashtree.
// BenchmarkMutableCopy: Copy of both lists.
func BenchmarkMutableSlot(b *testing.B) {
	vs, bals := slotData()
	l := newBeaconLists(vs, bals)
	b.Run("impl=sha256x", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		b.ReportAllocs()
		for b.Loop() {
			slot(r, l, nil, nil, 700, 16)
			l.vals.Root()
			l.bals.Root()
		}
	})
	b.Run("impl=sha256x-after-Copy", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		b.ReportAllocs()
		faults := minorFaults()
		for b.Loop() {
			c := beaconLists{l.vals.Copy(), l.bals.Copy()}
			slot(r, c, nil, nil, 700, 16)
			c.vals.Root()
			c.bals.Root()
		}
		if f := minorFaults(); faults >= 0 && f >= 0 {
			b.ReportMetric(float64(f-faults)/float64(b.N), "faults/op")
		}
	})
	b.Run("impl=fastssz+gohashtree", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
		o := beaconLists{l.vals.Copy(), l.bals.Copy()} // the changes' values
		b.ReportAllocs()
		for b.Loop() {
			slot(r, o, vs, bals, 700, 16)
			registry(vs).root(b, hh)
			balancesRoot(hh, bals)
		}
	})
}

// BenchmarkMutableProgressive is BenchmarkMutableList's k changes on a
// ProgressiveList of 2^20 roots (a Set each, as a state transition writes
// them; every root, SetRange), against ProgressiveListRoot of the current
// roots (impl=rebuild).
func BenchmarkMutableProgressive(b *testing.B) {
	r := rand.New(rand.NewPCG(39, 2))
	leaves := randRoots(r, mutableN)
	for _, k := range mutableKs {
		sets := changeSets(r, mutableN, k)
		b.Run(fmt.Sprintf("k=%d/impl=sha256x", k), func(b *testing.B) {
			l := sszx.NewProgressiveList(leaves)
			b.ReportAllocs()
			for it := 0; b.Loop(); it++ {
				idx, v := next(sets, it)
				if k == mutableN {
					l.SetRange(0, v)
				}
				for j, i := range idx[:len(idx)%mutableN] {
					l.Set(i, v[j])
				}
				l.Root()
			}
		})
		b.Run(fmt.Sprintf("k=%d/impl=rebuild", k), func(b *testing.B) {
			cur := slices.Clone(leaves)
			b.ReportAllocs()
			for it := 0; b.Loop(); it++ {
				idx, v := next(sets, it)
				for j, i := range idx {
					cur[i] = v[j]
				}
				sszx.ProgressiveListRoot(cur)
			}
		})
	}
}

// BenchmarkGloasSlot is BenchmarkMutableSlot on Gloas's lists (EIP-7688:
// ProgressiveLists), against the roots rebuilt from the values each slot
// (impl=rebuild): the validators' roots a block at a time, as the batched
// registry of ssz_test.go hashes them, then ProgressiveListRoot, and
// ProgressiveBasicListRoot.
func BenchmarkGloasSlot(b *testing.B) {
	vs, bals := slotData()
	l := newGloasLists(vs, bals)
	b.Run("impl=sha256x", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		b.ReportAllocs()
		for b.Loop() {
			l.slot(r, nil, nil, 700, 16)
			l.vals.Root()
			l.bals.Root()
		}
	})
	b.Run("impl=sha256x-after-Copy", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		b.ReportAllocs()
		for b.Loop() {
			c := gloasLists{l.vals.Copy(), l.bals.Copy()}
			c.slot(r, nil, nil, 700, 16)
			c.vals.Root()
			c.bals.Root()
		}
	})
	b.Run("impl=rebuild", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		o := gloasLists{l.vals.Copy(), l.bals.Copy()} // the changes' values
		var h batchedRegistry
		b.ReportAllocs()
		for b.Loop() {
			o.slot(r, vs, bals, 700, 16)
			sszx.ProgressiveListRoot(h.containerRoots(vs))
			sszx.ProgressiveBasicListRoot(bals)
		}
	})
}

func BenchmarkMutableCopy(b *testing.B) {
	vs, bals := slotData()
	l := newBeaconLists(vs, bals)
	l.vals.Root()
	l.bals.Root()
	b.ReportAllocs()
	for b.Loop() {
		_ = beaconLists{l.vals.Copy(), l.bals.Copy()}
	}
}

// BenchmarkMutableChain: a beacon node's steady state, each slot on a copy
// of the last slot's state (the one before it dropped), an epoch every 32
// slots (every balance and 2,000 validators changed); b.N slots in one
// chain. It reports, besides the time a slot of either kind, the mean time
// of the slots that are not an epoch's (ms-slot) and of the epochs'
// (ms-epoch), collections included: the first root of a copy as a node
// pays it, which grows with the chain as the memory it holds, and with it
// the collector's work, grows (BENCHMARKS.md, "Trees that change: pages
// copied allocated alone"); the memory the last state holds after them
// beyond the state as built (MB-held: the heap after a collection, against
// the same after the build), the time of Compact on both lists
// (ms-Compact) and what the state holds after it (MB-held-compacted). Run
// it with a fixed count: -test.benchtime 4800x is 150 epochs, 16 hours of
// a node.
func BenchmarkMutableChain(b *testing.B) {
	vs, bals := slotData()
	chain(b, newBeaconLists(vs, bals))
}

// BenchmarkGloasChain is BenchmarkMutableChain on Gloas's lists
// (EIP-7688: ProgressiveLists).
func BenchmarkGloasChain(b *testing.B) {
	vs, bals := slotData()
	chain(b, newGloasLists(vs, bals))
}

// chain runs BenchmarkMutableChain's chain from l.
func chain(b *testing.B, l stateLists) {
	l.roots()
	buf := make([]uint64, l.len()) // an epoch's balances, before the heap is read
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	built := ms.HeapAlloc
	r := rand.New(rand.NewPCG(1, 1))
	p := l
	l = nil
	b.ReportAllocs()
	s := 0
	var took [2]time.Duration // slots, epochs
	var n [2]int
	faults := minorFaults()
	for b.Loop() {
		t0 := time.Now()
		c := p.copy()
		e := 0
		if s++; s%32 == 0 {
			e = 1
			c.epoch(r, buf)
		} else {
			c.slot(r, nil, nil, 700, 16)
		}
		c.roots()
		p = c
		took[e] += time.Since(t0)
		n[e]++
	}
	b.StopTimer()
	if f := minorFaults(); faults >= 0 && f >= 0 {
		b.ReportMetric(float64(f-faults)/float64(n[0]+n[1]), "faults/op")
	}
	for e, unit := range []string{"ms-slot", "ms-epoch"} {
		if n[e] > 0 {
			b.ReportMetric(float64(took[e].Microseconds())/1e3/float64(n[e]), unit)
		}
	}
	held := func() float64 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return float64(int64(ms.HeapAlloc)-int64(built)) / (1 << 20)
	}
	b.ReportMetric(held(), "MB-held")
	// Compact, and what the state holds then.
	t0 := time.Now()
	p.compact()
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1e3, "ms-Compact")
	b.ReportMetric(held(), "MB-held-compacted")
	runtime.KeepAlive(p)
}
