package plan

import (
	"strconv"

	"github.com/sha256x/sha256x/internal/kernel"
)

// The chain kernels follow the plan chosen for messages: each kernel of a
// plan has a chain kernel of the same family and width (or a stand-in,
// kernel.Info.Chain), so SHA256X_KERNEL, the sha256x_<name> build tags and
// purego choose the chain code too. Chain runs on the plan's single-message
// kernel, Chains on its stages, widest first; streams drain through fewer
// streams down to one.

// A ChainStage is one chain kernel of a chain plan.
type ChainStage struct {
	K         kernel.ID
	Width     int  // lanes or streams
	MinActive int  // hand the busy chains to the next stage below this many, once none wait
	WordMajor bool // the kernel's state: word k of lane i at [k*Width+i], else at [8*i+k]
}

// A ChainPlan is how Chain and Chains run: One, the stage of a single chain;
// Stages, widest first, for batches.
type ChainPlan struct {
	Name   string
	One    ChainStage
	Stages []ChainStage
}

// chainPlanOf returns the chain plan that follows plan pl: each of its
// stages (its ChainStages, where it has them) on the chain kernel of the
// same family and width, and the single-message stage for Chain.
func chainPlanOf(pl *Plan) ChainPlan {
	cp := ChainPlan{Name: pl.Name}
	if pl.Stdlib {
		s := ChainStage{K: kernel.Stdlib, Width: 1, MinActive: 1}
		cp.One, cp.Stages = s, []ChainStage{s}
		return cp
	}
	cp.One = chainStageOf(pl.One[len(pl.One)-1])
	stages := pl.Stages
	if len(pl.ChainStages) > 0 {
		stages = pl.ChainStages
	}
	for _, st := range stages {
		cp.Stages = append(cp.Stages, drain(chainStageOf(st))...)
	}
	// The last stage runs to the end.
	cp.Stages[len(cp.Stages)-1].MinActive = 1
	return cp
}

// chainStageOf maps one stage of a message plan to its chain stage. A wide
// stage hands its last chains to the next stage where the plan hands its
// last messages: a chain step and a message block cost about the same on
// either kernel (BENCHMARKS.md, "Hash chains"). On model 167 the crossing
// for chains may lie lower, which moves only the drain of chains of unequal
// lengths (bench/HISTORY.md, "Hash chains (issue 11)").
func chainStageOf(st Stage) ChainStage {
	c := kernel.Lookup(st.K).Chain
	info := kernel.Lookup(c)
	cs := ChainStage{K: c, Width: info.Width, MinActive: st.MinActive, WordMajor: info.ChainWordMajor}
	if cs.Width == 1 {
		cs.MinActive = 1
	}
	return cs
}

// drain expands one chain stage into the stages a plan runs for it:
// streams drain through fewer streams, down to one, since a chain cannot
// move to a narrower kernel halfway through a block the way a message's
// last blocks do: an idle stream costs a whole step.
func drain(cs ChainStage) []ChainStage {
	info := kernel.Lookup(cs.K)
	if !info.Streams || cs.Width == 1 {
		return []ChainStage{cs}
	}
	two, one := chainKernel(info.Family, 2), chainKernel(info.Family, 1)
	if cs.Width == 2 {
		cs.MinActive = 2
		return []ChainStage{cs, one}
	}
	return []ChainStage{cs, two, one}
}

// chainKernel returns the chain stage of family f's kernel of that width,
// handing over below that many busy chains.
func chainKernel(f string, width int) ChainStage {
	for _, id := range kernel.IDs() {
		if info := kernel.Lookup(id); info.Family == f && info.Width == width && info.Chain == id {
			return ChainStage{K: id, Width: width, MinActive: width, WordMajor: info.ChainWordMajor}
		}
	}
	panic("sha256x: internal error: no chain kernel of family " + f + " and width " + strconv.Itoa(width))
}
