//go:build purego || !(amd64 || arm64)

package sha256x

// Without assembly, chains run on the generic kernel or crypto/sha256, as
// the plan says.

func archChainStage(stage) chainStage {
	panic("sha256x: no assembly chain kernels" + buildNote)
}

func archChainStages(cs chainStage) []chainStage { return []chainStage{cs} }

func chainVariants() []chainVariant { return nil }

func runChainArch(chainKernel, *chainLanes, uint64) {
	panic("sha256x: no assembly chain kernels" + buildNote)
}
