package abi

import (
	"fmt"
	"strings"
)

// A Kernel is one line of the kernel list: one assembly kernel, with the
// entry points it has. The family's generator writes its assembly and stubs
// from this line (_asm/lanes, _asm/shani, _asm/chain; arm64's assembly is
// written by hand, its stubs by _asm/table), and _asm/table writes the
// table internal/kernel dispatches through by ID: a new kernel is one line
// here, and the table cannot drift from the assembly.
type Kernel struct {
	Arch    string // GOARCH
	Family  string // the kernel it belongs to, as SHA256X_KERNEL names it
	Width   int    // lanes or streams
	Streams bool   // interleaved streams (SHA-NI, ARMv8 SHA2), not SIMD lanes
	Job     bool   // an entry for a single job
	Pairs   bool   // pairs kernels for every pairs call
	Chain   bool   // a chain kernel
	// ChainOf is, for a kernel without a chain kernel, the width of the
	// same family's kernel whose chain kernel stands in.
	ChainOf int
	// Lat2 orders the rounds for cores whose vector adds, rotates and
	// ternary logic take two cycles (Zen 5): a shorter chain from e to the
	// next e for two adds more a round, and the schedule computed four
	// words ahead (BENCHMARKS.md, "The lanes on a core of two-cycle vector
	// operations"). Its name and variant end in "Lat2" and "-lat2".
	Lat2 bool
	// PairsOnly kernels have one pairs kernel alone, Adjacent's (a Merkle
	// level's), no entry for the job queue, whose lane sets hold
	// kernel.MaxLanes lanes: two waves of 16 lanes, which pay only where a
	// block has no schedule (BENCHMARKS.md, "Two waves of 16 lanes on Zen
	// 5"); the other calls' kernels would cost the module download 240 KB.
	PairsOnly bool
}

// HasCall reports whether the kernel has a pairs kernel for call c
// (PairsCalls); Staged65 on the lanes is their Staged kernel.
func (k Kernel) HasCall(c int) bool {
	if !k.Pairs {
		return false
	}
	return !k.PairsOnly || PairsCalls[c].Const == "Adjacent"
}

// Kernels lists every assembly kernel, each architecture's in the order
// their IDs take.
var Kernels = []Kernel{
	{Arch: "amd64", Family: "shani", Width: 1, Streams: true, Job: true, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "shani", Width: 2, Streams: true, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "shani", Width: 3, Streams: true, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "shani", Width: 4, Streams: true, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "avx2", Width: 8, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "avx512", Width: 16, Pairs: true, Chain: true},
	{Arch: "amd64", Family: "avx512", Width: 16, Pairs: true, Chain: true, Lat2: true},
	// Two waves of 16 lanes whose rounds alternate (Zen 5), for pairs
	// only; their chains run on one wave's kernel.
	{Arch: "amd64", Family: "avx512", Width: 32, Pairs: true, ChainOf: 16, PairsOnly: true},
	{Arch: "arm64", Family: "neon", Width: 4, Chain: true},
	{Arch: "arm64", Family: "sha2", Width: 1, Streams: true, Chain: true},
	{Arch: "arm64", Family: "sha2", Width: 2, Streams: true, Chain: true},
	{Arch: "arm64", Family: "sha2", Width: 3, Streams: true, Chain: true},
	// Four streams and the chain constants do not fit in 32 vector
	// registers: three streams stand in.
	{Arch: "arm64", Family: "sha2", Width: 4, Streams: true, ChainOf: 3},
}

// Of returns the kernels of one family on one architecture.
func Of(arch, family string) []Kernel {
	var ks []Kernel
	for _, k := range Kernels {
		if k.Arch == arch && k.Family == family {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		panic(fmt.Sprintf("abi: no %s kernel on %s", family, arch))
	}
	return ks
}

// Func is the name of the kernel's lane-set entry, which the other entry
// points' names extend: "shaniX4", "avx512X16".
func (k Kernel) Func() string {
	if k.Lat2 {
		return fmt.Sprintf("%sX%dLat2", k.Family, k.Width)
	}
	return fmt.Sprintf("%sX%d", k.Family, k.Width)
}

// ID is the name of the kernel's ID constant in internal/kernel.
func (k Kernel) ID() string { return strings.ToUpper(k.Func()[:1]) + k.Func()[1:] }

// Variant is how tests and benchmarks name the kernel within its family.
func (k Kernel) Variant() string {
	if k.Lat2 {
		return fmt.Sprintf("x%d-lat2", k.Width)
	}
	return fmt.Sprintf("x%d", k.Width)
}

// JobFunc is the name of the entry for a single job.
func (k Kernel) JobFunc() string { return k.Func() + "Job" }

// ChainFunc is the name of the chain kernel.
func (k Kernel) ChainFunc() string { return k.Func() + "Chain" }

// PairsFunc is the name of the pairs kernel for call c (PairsCalls).
func (k Kernel) PairsFunc(c int) string { return k.Func() + PairsCalls[c].Suffix }

// A PairsCall is one form of input of the pairs kernels, in the order of
// internal/kernel's PairsCall constants.
type PairsCall struct {
	Const  string // its internal/kernel constant
	Suffix string // what its kernel's name adds to Func
	Sig    string // the kernel's Go signature
	Doc    string // what its kernel does, for the stub's comment
}

// PairsCalls lists the pairs calls.
var PairsCalls = []PairsCall{
	{"Adjacent", "Pairs", "func(out *[32]byte, in *byte, n int)", "sets out[i] to SHA-256(in[64i:64i+64]) for i < n"},
	{"Slices", "Slices", "func(out *[32]byte, msgs *[]byte, n int)", "sets out[i] to SHA-256(msgs[i]) for n 64-byte messages"},
	{"Double", "Double", "func(out *[32]byte, in *byte, n int)", "sets out[i] to SHA-256(SHA-256(in[64i:64i+64])) for i < n"},
	{"Staged", "Staged", "func(out *[32]byte, in *byte, n int, nb int)", "sets out[i] to the digest of the i-th message of nb padded blocks from in, for i < n"},
	{"Staged65", "Staged65", "func(out *[32]byte, in *byte, n int, wk *[256][64]uint32)", "sets out[i] to the digest of the i-th 65-byte message staged in two padded blocks from in, for i < n, the second block's W+K taken from wk by its first byte"},
}

// Staged65Lanes is what a lane kernel runs for Staged65: its Staged kernel
// over the two blocks, which schedules the second block as it goes. A table
// row a lane would cost the lanes a gather a round; the streams load theirs.
const Staged65Lanes = "Staged"

// The Go signatures of the other entry points.
const (
	LanesSig = "func(ls *LaneSet, jobs []Job)"
	JobSig   = "func(j *Job)"
	ChainSig = "func(ls *ChainLanes, n uint64)"
)
