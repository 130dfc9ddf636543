package interop

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	dynssz "github.com/pk910/dynamic-ssz"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// Gloas's registry and balances (consensus-specs v1.7.0-alpha.13,
// specs/gloas/beacon-chain.md: validators ProgressiveList[Validator],
// balances ProgressiveList[Gwei], participation ProgressiveList[
// ParticipationFlags]) kept as ProgressiveContainerList and
// ProgressiveBasicList, changed as slots and epochs change them, copied,
// appended to and cut, each root against dynamic-ssz's of the same values.

type gloasValidator struct {
	Pubkey                     [48]byte
	WithdrawalCredentials      [32]byte
	EffectiveBalance           uint64
	Slashed                    bool
	ActivationEligibilityEpoch uint64
	ActivationEpoch            uint64
	ExitEpoch                  uint64
	WithdrawableEpoch          uint64
}

type progValidators struct {
	X []gloasValidator `ssz-type:"progressive-list"`
}

// fields returns v's eight field roots.
func (v *gloasValidator) fields() [][32]byte {
	f := make([][32]byte, 8)
	sszx.PubkeyRoots(f[:1], [][48]byte{v.Pubkey})
	f[1] = v.WithdrawalCredentials
	for i, u := range []uint64{v.EffectiveBalance, 0, v.ActivationEligibilityEpoch, v.ActivationEpoch, v.ExitEpoch, v.WithdrawableEpoch} {
		binary.LittleEndian.PutUint64(f[2+i][:], u)
	}
	if v.Slashed {
		f[3][0] = 1
	}
	return f
}

func randValidator(r *rand.Rand) gloasValidator {
	var v gloasValidator
	for i := range v.Pubkey {
		v.Pubkey[i] = byte(r.Uint32())
	}
	v.WithdrawalCredentials[0], v.WithdrawalCredentials[31] = 1, byte(r.Uint32())
	v.EffectiveBalance, v.Slashed = r.Uint64N(1<<36), r.IntN(9) == 0
	v.ActivationEligibilityEpoch, v.ActivationEpoch, v.ExitEpoch, v.WithdrawableEpoch = r.Uint64N(1e6), r.Uint64N(1e6), ^uint64(0), r.Uint64()
	return v
}

// gloasLists is one state's registry, balances and participation, kept
// both ways.
type gloasLists struct {
	vals  *sszx.ProgressiveContainerList
	bals  *sszx.ProgressiveBasicList[uint64]
	parts *sszx.ProgressiveBasicList[uint8]
	v     []gloasValidator
	b     []uint64
	p     []uint8
}

func (s *gloasLists) copy() *gloasLists {
	return &gloasLists{s.vals.Copy(), s.bals.Copy(), s.parts.Copy(), slices.Clone(s.v), slices.Clone(s.b), slices.Clone(s.p)}
}

// check compares the three roots with dynamic-ssz's.
func (s *gloasLists) check(t *testing.T, d *dynssz.DynSsz, what string) {
	t.Helper()
	if got, want := oneField(t, s.vals.Root()), dynRoot(t, d, &progValidators{s.v}); got != want {
		t.Fatalf("%s: registry of %d: %x, dynamic-ssz %x", what, len(s.v), got, want)
	}
	if got, want := oneField(t, s.bals.Root()), dynRoot(t, d, &progUint64s{s.b}); got != want {
		t.Fatalf("%s: balances of %d: %x, dynamic-ssz %x", what, len(s.b), got, want)
	}
	if got, want := oneField(t, s.parts.Root()), dynRoot(t, d, &progBytes{s.p}); got != want {
		t.Fatalf("%s: participation of %d: %x, dynamic-ssz %x", what, len(s.p), got, want)
	}
}

func TestProgressiveListsDynamicSSZ(t *testing.T) {
	d := dynssz.NewDynSsz(nil)
	slots := 24
	if testing.Short() {
		slots = 8
	}
	for _, n0 := range []int{0, 1, 21, 342, 1365, 5462} {
		n := n0
		r := rand.New(rand.NewPCG(7688, uint64(n)))
		s := &gloasLists{v: make([]gloasValidator, n), b: make([]uint64, n), p: make([]uint8, n)}
		var fields [][32]byte
		for i := range n {
			s.v[i], s.b[i], s.p[i] = randValidator(r), r.Uint64N(1<<36), uint8(r.IntN(8))
			fields = append(fields, s.v[i].fields()...)
		}
		s.vals, s.bals, s.parts = sszx.NewProgressiveContainerList(8, fields), sszx.NewProgressiveBasicList(s.b), sszx.NewProgressiveBasicList(s.p)
		s.check(t, d, fmt.Sprintf("%d built", n))
		states := []*gloasLists{s}
		for slot := range slots {
			if r.IntN(3) == 0 && len(states) < 3 { // a fork: both go on
				states = append(states, states[r.IntN(len(states))].copy())
			}
			s := states[r.IntN(len(states))]
			n := len(s.b)
			switch {
			case n > 0 && slot%8 == 7: // an epoch: every balance and flag
				for i := range s.b {
					s.b[i] += r.Uint64N(1 << 20)
					s.p[i] = uint8(r.IntN(8))
				}
				s.bals.SetRange(0, s.b)
				s.parts.SetRange(0, s.p)
			case n > 0:
				for range 1 + r.IntN(60) {
					i := r.IntN(n)
					s.b[i] -= r.Uint64N(1 << 10)
					s.bals.Set(uint64(i), s.b[i])
					s.p[i] |= 1 << r.IntN(3)
					s.parts.Set(uint64(i), s.p[i])
				}
				for range r.IntN(4) {
					i := r.IntN(n)
					s.v[i].EffectiveBalance, s.v[i].Slashed = r.Uint64N(1<<36), true
					s.vals.Set(uint64(i), s.v[i].fields())
				}
			}
			switch r.IntN(6) {
			case 0: // deposits
				for range 1 + r.IntN(30) {
					v := randValidator(r)
					s.v, s.b, s.p = append(s.v, v), append(s.b, v.EffectiveBalance), append(s.p, 0)
					s.vals.Append(v.fields())
					s.bals.Append(v.EffectiveBalance)
					s.parts.Append(0)
				}
			case 1: // cut (not a state transition's, but the lists' own)
				k := r.IntN(len(s.b) + 1)
				s.v, s.b, s.p = s.v[:k], s.b[:k], s.p[:k]
				s.vals.Truncate(uint64(k))
				s.bals.Truncate(uint64(k))
				s.parts.Truncate(uint64(k))
			}
			for k, s := range states {
				s.check(t, d, fmt.Sprintf("from %d, slot %d, state %d", n0, slot, k))
			}
		}
	}
}
