package bench

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestQuartiles(t *testing.T) {
	for _, tc := range []struct {
		in          []float64
		q1, med, q3 float64
	}{
		{[]float64{5, 1, 4, 2, 3}, 2, 3, 4},
		{[]float64{4, 3, 2, 1}, 1.75, 2.5, 3.25},
		{[]float64{7}, 7, 7, 7},
	} {
		q1, med, q3 := quartiles(tc.in)
		if q1 != tc.q1 || med != tc.med || q3 != tc.q3 {
			t.Errorf("quartiles(%v) = %g %g %g, want %g %g %g", tc.in, q1, med, q3, tc.q1, tc.med, tc.q3)
		}
	}
}

var testModel = linearModel(
	map[Lowering]float64{"native": 17, "oneshot": 3, "twoshot:fp": 9, "twoshot:int8": 11},
	map[Lowering]float64{"native": 250, "oneshot": 120, "twoshot:fp": 420, "twoshot:int8": 900},
)

// TestSweepRecoversModel: chain minus control over K gives back each
// lowering's per-all-reduce time exactly, whatever the drifting overhead.
func TestSweepRecoversModel(t *testing.T) {
	m := &fakeMachine{world: 2, model: testModel}
	plan := Plan{Sizes: []int64{4 << 10, 1 << 20, 64 << 20}, DTypes: []string{"f16", "bf16"},
		Lowerings: []Lowering{"native", "oneshot", "twoshot:fp", "twoshot:int8", Auto}, Chain: 20, Reps: 9, Warmup: 2, Jobs: 3}
	progress := &recordingProgress{}
	var saves []int
	rs := Sweep(m, plan, "peer", progress, func(so []Result) { saves = append(saves, len(so)) })
	if fmt.Sprint(saves) != "[5 10 15 20 25 30]" {
		t.Errorf("results saved after each cell: %v, want 5 more each time", saves)
	}
	if len(rs) != plan.Cells()*len(plan.Lowerings) || progress.done != len(rs) {
		t.Fatalf("%d results, progress %d; want %d", len(rs), progress.done, plan.Cells()*len(plan.Lowerings))
	}
	for _, r := range rs {
		if !r.OK() {
			t.Fatalf("%+v", r)
		}
		l := r.Lowering
		if l == Auto {
			l = LoweringForKey(r.Chose)
			if want := map[int64]string{4 << 10: "oneshot", 1 << 20: "twoshot:fp", 64 << 20: "twoshot:fp"}[r.Bytes]; r.Chose != want {
				t.Errorf("auto at %s chose %q, want %q", FormatSize(r.Bytes), r.Chose, want)
			}
		}
		want := testModel(l, r.DType, r.Bytes)
		if math.Abs(r.US-want) > 1e-3 || math.Abs(r.P25-want) > 1e-3 || math.Abs(r.P75-want) > 1e-3 {
			t.Errorf("%s %s %s: %.4f us (quartiles %.4f, %.4f), want %.4f", r.DType, FormatSize(r.Bytes), r.Lowering, r.US, r.P25, r.P75, want)
		}
		if r.Level != "xla" || r.Link != "peer" || r.World != 2 || r.ChainUS-r.ControlUS <= 0 {
			t.Errorf("%+v: wrong labels or program medians", r)
		}
	}
	// 2 dtypes x 3 sizes cells, each with a control and 5 chains, all closed.
	if m.opened != 6 || m.progs != 36 || m.closed != 6+36 {
		t.Errorf("opened %d cells, compiled %d programs, closed %d things; want 6, 36, 42", m.opened, m.progs, m.closed)
	}
	if !strings.Contains(strings.Join(progress.descs, "|"), "bf16 64M twoshot:int8") {
		t.Errorf("progress descriptions %q lack the last measurement", progress.descs)
	}
}

// TestSweepReportsTheMedian: when repetitions differ, the time reported is
// their median and the quartiles bracket it.
func TestSweepReportsTheMedian(t *testing.T) {
	// Repetition i adds i%5 us per all-reduce: 9 repetitions give 0,1,2,3,4,0,1,2,3.
	m := &fakeMachine{world: 2, model: testModel, jitter: func(pair int) float64 { return float64(pair % 5) }}
	plan := Plan{Sizes: []int64{1 << 20}, DTypes: []string{"f16"}, Lowerings: []Lowering{"oneshot"}, Chain: 10, Reps: 9, Warmup: 0, Jobs: 1}
	rs := Sweep(m, plan, "peer", &recordingProgress{}, nil)
	if len(rs) != 1 || !rs[0].OK() {
		t.Fatalf("%+v", rs)
	}
	r, base := rs[0], testModel("oneshot", "f16", 1<<20)
	if math.Abs(r.US-(base+2)) > 1e-3 || math.Abs(r.P25-(base+1)) > 1e-3 || math.Abs(r.P75-(base+3)) > 1e-3 {
		t.Errorf("us %.3f, p25 %.3f, p75 %.3f; want median %.3f between %.3f and %.3f", r.US, r.P25, r.P75, base+2, base+1, base+3)
	}
}

// TestSweepFailures: a failure costs only the measurements it touches.
func TestSweepFailures(t *testing.T) {
	m := &fakeMachine{world: 2, model: testModel,
		openErr:  map[int64]string{64 << 20: "out of memory"},
		chainErr: map[Lowering]string{"twoshot:int8": "no such kernel"},
		runErr:   map[Lowering]string{"twoshot:fp": "kernel timed out"},
	}
	plan := Plan{Sizes: []int64{4 << 10, 64 << 20}, DTypes: []string{"f16"},
		Lowerings: []Lowering{"native", "twoshot:fp", "twoshot:int8", "oneshot"}, Chain: 4, Reps: 3, Jobs: 2}
	rs := Sweep(m, plan, "host", NopProgress{}, nil)
	want := map[string]string{
		"4K native": "", "4K twoshot:fp": "kernel timed out", "4K twoshot:int8": "no such kernel", "4K oneshot": "",
		"64M native": "out of memory", "64M twoshot:fp": "out of memory", "64M twoshot:int8": "out of memory", "64M oneshot": "out of memory",
	}
	for _, r := range rs {
		k := FormatSize(r.Bytes) + " " + string(r.Lowering)
		if r.Err != want[k] {
			t.Errorf("%s: error %q, want %q", k, r.Err, want[k])
		}
		if r.OK() && math.Abs(r.US-testModel(r.Lowering, "f16", r.Bytes)) > 1e-3 {
			t.Errorf("%s: %.3f us after a neighbour failed", k, r.US)
		}
	}
	if m.opened != 1 || m.closed != 1+4 { // the 4K cell: control, native, twoshot:fp, oneshot
		t.Errorf("opened %d, closed %d; want 1 and 5", m.opened, m.closed)
	}
}

// TestSweepControlFails: without a control no lowering of the cell has a
// time, and every program compiled for it is released.
func TestSweepControlFails(t *testing.T) {
	m := &fakeMachine{world: 2, model: testModel, ctrlErr: "ptxas crashed"}
	plan := Plan{Sizes: []int64{4 << 10}, DTypes: []string{"f16"}, Lowerings: []Lowering{"native", "oneshot"}, Chain: 2, Reps: 2, Jobs: 2}
	for _, r := range Sweep(m, plan, "peer", NopProgress{}, nil) {
		if r.Err != "control program: ptxas crashed" {
			t.Errorf("%s: error %q", r.Lowering, r.Err)
		}
	}
	if m.progs != 2 || m.closed != 1+2 {
		t.Errorf("compiled %d programs, closed %d things; want 2 and 3", m.progs, m.closed)
	}
}
