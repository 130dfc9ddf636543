//go:build !purego

package sha256x

// The arm64 chain kernels: one to three interleaved ARMv8 SHA2 streams, 4
// NEON lanes.
const (
	cSha2x1 chainKernel = cArch + iota
	cSha2x2
	cSha2x3
	cNeon4
)

// archChainStage maps a kernel function of a message plan to the chain
// kernel of the same family and width. sha2x4 has no chain counterpart (four
// streams and the constants do not fit in 32 vector registers): three
// streams stand in.
func archChainStage(st stage) chainStage {
	switch st.k {
	case kSha2x1:
		return chainStage{k: cSha2x1, width: 1, minActive: 1}
	case kSha2x2:
		return chainStage{k: cSha2x2, width: 2, minActive: st.minActive}
	case kSha2x3, kSha2x4:
		return chainStage{k: cSha2x3, width: 3, minActive: st.minActive}
	case kNeon4:
		return chainStage{k: cNeon4, width: 4, minActive: st.minActive, wordMajor: true}
	}
	panic("sha256x: internal error: a kernel function without a chain kernel")
}

// archChainStages expands one chain stage into the stages a plan runs for
// it: streams drain through fewer streams, down to one, since an idle
// stream costs a whole step.
func archChainStages(cs chainStage) []chainStage {
	switch cs.k {
	case cSha2x3:
		return []chainStage{cs, {k: cSha2x2, width: 2, minActive: 2}, {k: cSha2x1, width: 1, minActive: 1}}
	case cSha2x2:
		cs.minActive = 2
		return []chainStage{cs, {k: cSha2x1, width: 1, minActive: 1}}
	}
	return []chainStage{cs}
}

// chainVariants lists every chain kernel function alone, for tests and
// benchmarks, with the kernel it belongs to.
func chainVariants() []chainVariant {
	return []chainVariant{
		{"sha2", "x1", chainStage{k: cSha2x1, width: 1, minActive: 1}},
		{"sha2", "x2", chainStage{k: cSha2x2, width: 2, minActive: 1}},
		{"sha2", "x3", chainStage{k: cSha2x3, width: 3, minActive: 1}},
		{"neon", "x4", chainStage{k: cNeon4, width: 4, minActive: 1, wordMajor: true}},
	}
}

func runChainArch(k chainKernel, ls *chainLanes, n uint64) {
	switch k {
	case cSha2x1:
		chainSha2x1(ls, n)
	case cSha2x2:
		chainSha2x2(ls, n)
	case cSha2x3:
		chainSha2x3(ls, n)
	case cNeon4:
		chainNeon4(ls, n)
	}
}
