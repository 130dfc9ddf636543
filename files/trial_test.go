package files

import (
	"testing"
	"time"
)

// resetTrial starts the process's trial afresh for a test, deciding after
// rounds rounds each way, with decide (if not nil) as decideHook; the
// trial is put back as it was after the test.
func resetTrial(t *testing.T, rounds int, decide func(trialResult) bool) {
	trial.Lock()
	way, mapped, read, result := trial.way.Load(), trial.mapped, trial.read, trial.result
	trial.way.Store(int32(wayTrial))
	trial.mapped, trial.read = nil, nil
	trial.Unlock()
	oldRounds, oldHook := trialRounds, decideHook
	trialRounds, decideHook = rounds, decide
	t.Cleanup(func() {
		trial.Lock()
		trial.way.Store(way)
		trial.mapped, trial.read, trial.result = mapped, read, result
		trial.Unlock()
		trialRounds, decideHook = oldRounds, oldHook
	})
}

// TestDecide: mapped only where the median round mapped is 3% faster a
// byte than the median read or more; a tie, or no timing, reads.
func TestDecide(t *testing.T) {
	for _, c := range []struct {
		name         string
		mapped, read []float64 // ns a byte
		want         bool
		mappedNs     float64 // the medians
		readNs       float64
	}{
		{"the copy dominates (Xeon)", []float64{0.30, 0.29, 0.31}, []float64{0.35, 0.36, 0.34}, true, 0.30, 0.35},
		{"faults dominate (Zen 5 guest)", []float64{0.55, 0.6, 0.5}, []float64{0.28, 0.3, 0.29}, false, 0.55, 0.29},
		{"7% (Zen 4 guest)", []float64{0.186, 0.185, 0.9, 0.184, 0.185, 0.186}, []float64{0.2, 0.199, 0.201, 0.2, 0.05, 0.2}, true, 0.1855, 0.2},
		{"exactly 3%", []float64{0.97, 0.97}, []float64{1, 1}, true, 0.97, 1},
		{"2%: within the margin", []float64{0.98, 0.98}, []float64{1, 1}, false, 0.98, 1},
		{"a tie", []float64{1, 1, 1}, []float64{1, 1, 1}, false, 1, 1},
		{"outliers ignored", []float64{0.8, 0.8, 0.8, 50, 60, 0.8}, []float64{1, 1, 1, 1, 0.01, 0.01}, true, 0.8, 1},
		{"no read rounds", []float64{0.5}, nil, false, 0.5, 0},
		{"no mapped rounds", nil, []float64{0.5}, false, 0, 0.5},
	} {
		r := decide(c.mapped, c.read)
		if r.mapped != c.want || r.mappedNs != c.mappedNs || r.readNs != c.readNs {
			t.Errorf("%s: %+v; want mapped %v, medians %v and %v", c.name, r, c.want, c.mappedNs, c.readNs)
		}
	}
}

// TestTrialRecord: the trial decides once, when it has trialRounds of each
// way, counting no empty or untimed round and none past trialRounds of a
// way, and drops what comes after the decision.
func TestTrialRecord(t *testing.T) {
	var got []trialResult
	resetTrial(t, 3, func(r trialResult) bool { got = append(got, r); return r.mapped })
	us := time.Microsecond
	for _, c := range []struct {
		mapped bool
		d      time.Duration
		bytes  int
	}{
		{true, 100 * us, 1 << 20},
		{false, 200 * us, 0}, // empty: not counted
		{false, 0, 1 << 20},  // untimed: not counted
		{false, 200 * us, 1 << 20},
		{true, 110 * us, 1 << 20},
		{true, 90 * us, 1 << 20},
		{true, 1 * us, 1 << 20}, // a fourth mapped round: dropped
		{false, 210 * us, 1 << 20},
		{false, 400 * us, 2 << 20},
	} {
		if len(got) > 0 {
			t.Fatalf("decided before every round was recorded: %+v", got)
		}
		trialRecord(c.mapped, c.d, c.bytes)
	}
	trialRecord(false, 1*us, 1<<20) // after the decision: dropped
	want := trialResult{mapped: true, mappedNs: 100e3 / (1 << 20), readNs: 200e3 / (1 << 20), rounds: 3}
	if len(got) != 1 || got[0] != want || trial.result != want || trialWay() != wayMapped {
		t.Errorf("decided %+v (way %d); want once, %+v", got, trialWay(), want)
	}
}
