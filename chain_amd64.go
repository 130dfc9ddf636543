//go:build !purego

package sha256x

// The amd64 chain kernels: one to four interleaved SHA-NI streams, 8 AVX2
// lanes, 16 AVX-512 lanes.
const (
	cShani1 chainKernel = cArch + iota
	cShani2
	cShani3
	cShani4
	cAVX2
	cAVX512
)

// archChainStage maps a kernel function of a message plan to the chain
// kernel of the same family and width. A wide stage hands its last chains
// to the next stage where the plan hands its last messages: a chain step
// and a message block cost about the same on either kernel, so the busy
// lanes at which the wide kernel's speed per lane falls below the next
// one's are about the same (on this project's Intel Xeon, 16 AVX-512 lanes
// take about 5.7 single SHA-NI steps, BENCHMARKS.md "Hash chains"; the
// avx512+shani2 plan hands over below 11 busy lanes).
func archChainStage(st stage) chainStage {
	switch st.k {
	case kShani1:
		return chainStage{k: cShani1, width: 1, minActive: 1}
	case kShani2:
		return chainStage{k: cShani2, width: 2, minActive: st.minActive}
	case kShani3:
		return chainStage{k: cShani3, width: 3, minActive: st.minActive}
	case kShani4:
		return chainStage{k: cShani4, width: 4, minActive: st.minActive}
	case kAVX2:
		return chainStage{k: cAVX2, width: 8, minActive: st.minActive, wordMajor: true}
	case kAVX512:
		return chainStage{k: cAVX512, width: 16, minActive: st.minActive, wordMajor: true}
	}
	panic("sha256x: internal error: a kernel function without a chain kernel")
}

// archChainStages expands one chain stage into the stages a plan runs for
// it: SHA-NI streams drain through fewer streams, down to one, since a
// chain cannot move to a narrower kernel halfway through a block the way a
// message's last blocks do: an idle stream costs a whole step.
func archChainStages(cs chainStage) []chainStage {
	switch cs.k {
	case cShani4, cShani3:
		return []chainStage{cs, {k: cShani2, width: 2, minActive: 2}, {k: cShani1, width: 1, minActive: 1}}
	case cShani2:
		cs.minActive = 2
		return []chainStage{cs, {k: cShani1, width: 1, minActive: 1}}
	}
	return []chainStage{cs}
}

// chainVariants lists every chain kernel function alone, for tests and
// benchmarks, with the kernel it belongs to.
func chainVariants() []chainVariant {
	return []chainVariant{
		{"shani", "x1", chainStage{k: cShani1, width: 1, minActive: 1}},
		{"shani", "x2", chainStage{k: cShani2, width: 2, minActive: 1}},
		{"shani", "x3", chainStage{k: cShani3, width: 3, minActive: 1}},
		{"shani", "x4", chainStage{k: cShani4, width: 4, minActive: 1}},
		{"avx2", "x8", chainStage{k: cAVX2, width: 8, minActive: 1, wordMajor: true}},
		{"avx512", "x16", chainStage{k: cAVX512, width: 16, minActive: 1, wordMajor: true}},
	}
}

func runChainArch(k chainKernel, ls *chainLanes, n uint64) {
	switch k {
	case cShani1:
		chainShani1(ls, n)
	case cShani2:
		chainShani2(ls, n)
	case cShani3:
		chainShani3(ls, n)
	case cShani4:
		chainShani4(ls, n)
	case cAVX2:
		chainAvx2(ls, n)
	case cAVX512:
		chainAvx512(ls, n)
	}
}
