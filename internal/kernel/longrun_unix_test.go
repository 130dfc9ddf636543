//go:build unix && (amd64 || arm64)

package kernel

import (
	"slices"
	"syscall"
	"testing"
)

// TestLongRuns gives every lane and stream kernel a job whose first run is
// as long as the contract allows (MaxLaneRun blocks, 2 GiB), a few steps a
// call, beside a short job: after each call the busy lanes (their runs,
// blocks left and states) are those the generic kernel, the contract's
// model, leaves with the same budget. The blocks lie in anonymous memory,
// untouched (the zero page) but for what a call reads.
func TestLongRuns(t *testing.T) {
	const size = MaxLaneRun*BlockSize + 1<<20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	type lane struct {
		job, seg, n uintptr
		h           [8]uint32
	}
	busy := func(ls *LaneSet, width int) (b []lane) {
		for i := range width {
			if l := &ls.Lanes[i]; l.Job != 0 {
				b = append(b, lane{l.Job, l.Seg, l.N, l.H})
			}
		}
		slices.SortFunc(b, func(x, y lane) int { return int(x.job) - int(y.job) })
		return b
	}
	var out [2][Size]byte
	for _, id := range runnable() {
		info := Lookup(id)
		if info.PairsOnly || id == Stdlib || id == Generic {
			continue
		}
		for _, n := range []uintptr{MaxLaneRun/2 + 1, MaxLaneRun - 1, MaxLaneRun} {
			for _, steps := range []uintptr{1, 3, 40} {
				jobs := []Job{
					{Init: &IV, Runs: [3]Run{{&mem[BlockSize], 2}}, Out: &out[0]},
					{Init: &IV, Runs: [3]Run{{&mem[0], n}, {&mem[0], 1}}, Out: &out[1]},
				}
				var ls, gs LaneSet
				ls.MinActive, gs.MinActive = 1, 1
				ls.MaxSteps, gs.MaxSteps = steps, steps
				Hash(id, info.Width, &ls, jobs)
				Hash(Generic, info.Width, &gs, jobs)
				if got, want := busy(&ls, info.Width), busy(&gs, info.Width); !slices.Equal(got, want) {
					t.Errorf("%s: a run of %d blocks, MaxSteps %d: busy lanes %+v; the model's %+v", name(id), n, steps, got, want)
				}
			}
		}
	}
}
