package bench

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReadKernelCSV(t *testing.T) {
	f, err := os.Open("testdata/kbench.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := ReadKernelCSV(f, "peer")
	if err != nil {
		t.Fatal(err)
	}
	// 16 whole rows; the last one, cut short by a crash, is dropped.
	if len(rs) != 16 {
		t.Fatalf("%d results, want 16", len(rs))
	}
	var got []string
	for _, r := range rs[:5] {
		got = append(got, string(r.Lowering))
	}
	if want := "native nccl-graph oneshot twoshot:fp lowprec:fp8"; strings.Join(got, " ") != want {
		t.Errorf("lowerings %q, want %q", strings.Join(got, " "), want)
	}
	if r := rs[14]; r.Level != "kernel" || r.Link != "peer" || r.World != 2 || r.DType != "f16" || r.Bytes != 64<<20 || r.US != 120 || r.FloorUS != 0 {
		t.Errorf("row 15: %+v", r) // kbench before floor_us: no floor
	}
	if _, err := ReadKernelCSV(strings.NewReader("link,world,dtype,bytes,us\n"), "peer"); err == nil || !strings.Contains(err.Error(), "no lowering column") {
		t.Errorf("header without lowering: %v", err)
	}
	if _, err := ReadKernelCSV(strings.NewReader("world,dtype,bytes,lowering,us\n2,f16,4096,nccl,fast\n"), "peer"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad time: %v", err)
	}
	if _, err := ReadKernelCSV(strings.NewReader("world,dtype,bytes,lowering,us,floor_us\n2,f16,4096,oneshot,3,low\n"), "peer"); err == nil || !strings.Contains(err.Error(), `line 2: floor_us "low"`) {
		t.Errorf("bad floor: %v", err)
	}
}

// TestReadKernelFloors: kbench's floor_us is each result's FloorUS, and
// auto takes the floor of what it picks, as it takes its time.
func TestReadKernelFloors(t *testing.T) {
	rs := readKernelFile(t, "testdata/kbench_logical.csv")
	got := map[string]Result{}
	for _, r := range rs {
		got[FormatSize(r.Bytes)+" "+string(r.Lowering)] = r
	}
	for key, want := range map[string][2]float64{
		"64M twoshot:fp": {142.9, 129.3}, "64M twoshot:int8": {169.4, 99.0}, "64M twoshot:int4": {172.7, 82.83}, "1M oneshot": {6.9, 2.02},
	} {
		if r := got[key]; r.US != want[0] || r.FloorUS != want[1] {
			t.Errorf("%s: %.2f us, floor %.2f; want %.2f and %.2f", key, r.US, r.FloorUS, want[0], want[1])
		}
	}
	if x := got["64M twoshot:fp"].XFloor(); math.Abs(x-142.9/129.3) > 1e-12 {
		t.Errorf("64M twoshot:fp is %.3fx of its floor", x)
	}
	if len(rs) != 28 || (Result{US: 3}).XFloor() != 0 || (Result{US: 3, FloorUS: 1, Err: "boom"}).XFloor() != 0 {
		t.Errorf("%d results; XFloor without a floor or a time must be 0", len(rs))
	}
	auto := map[int64]Result{}
	for _, a := range PolicyAuto(rs, LowerOptions{Target: "cuda:nvlink"}) {
		auto[a.Bytes] = a
	}
	for _, n := range []int64{1 << 20, 64 << 20} {
		a := auto[n]
		chose := got[FormatSize(n)+" "+a.ChoseName()]
		if !a.OK() || chose.FloorUS == 0 || a.US != chose.US || a.FloorUS != chose.FloorUS {
			t.Errorf("auto at %s: %+v; what it chose: %+v", FormatSize(n), a, chose)
		}
	}
}

func readKernelFile(t *testing.T, name string) []Result {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := ReadKernelCSV(f, "peer")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// fakeKbench writes a script that stands in for kbench: it records its
// arguments and NCCL_P2P_DISABLE, prints testdata/kbench.csv (or the CSV
// named) and exits with the given status.
func fakeKbench(t *testing.T, status int, csv ...string) (program, record string) {
	t.Helper()
	dir := t.TempDir()
	name := "testdata/kbench.csv"
	if len(csv) > 0 {
		name = csv[0]
	}
	csvPath, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	record = filepath.Join(dir, "record")
	program = filepath.Join(dir, "kbench")
	script := "#!/bin/sh\necho \"$*|${NCCL_P2P_DISABLE:-unset}\" > " + record + "\ncat " + csvPath + "\necho 'kbench: dying' >&2\nexit " + strconv.Itoa(status) + "\n"
	if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return program, record
}

// checkRanAs compares what fakeKbench recorded (its arguments, then
// NCCL_P2P_DISABLE) with want.
func checkRanAs(t *testing.T, record, want string) {
	t.Helper()
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if string(rec) != want {
		t.Errorf("kbench ran as %q, want %q", rec, want)
	}
}

func TestRunKernel(t *testing.T) {
	program, record := fakeKbench(t, 0)
	plan := Plan{Sizes: []int64{4 << 10, 64 << 20}, DTypes: []string{"f16"}, Reps: 7,
		Lowerings: []Lowering{"native", "oneshot", "lowprec:fp8", Auto}}
	var log bytes.Buffer
	progress := &recordingProgress{}
	rs, err := RunKernel(KernelOptions{Program: program, Link: "host", GPUs: 2, Lower: LowerOptions{Target: "cuda:nvlink"},
		Log: &log, Progress: progress}, plan)
	if err != nil {
		t.Fatal(err)
	}
	checkRanAs(t, record, "--link host --dtypes f16 --min 4096 --max 67108864 --reps 7 --only nccl,nccl-graph,oneshot,twoshot-fp8 --world 2|1\n")
	got := map[string]Result{}
	for _, r := range rs {
		got[FormatSize(r.Bytes)+" "+string(r.Lowering)] = r
	}
	// 8K is not planned, twoshot:fp not asked for: both dropped. Auto is
	// what the built-in cuda:nvlink profile picks, timed by its measurement.
	if len(rs) != 10 || got["8K oneshot"].US != 0 || got["4K twoshot:fp"].US != 0 {
		t.Errorf("%d results: %v", len(rs), got)
	}
	if a := got["4K auto"]; a.Chose != "oneshot" || a.US != 3.2 {
		t.Errorf("auto at 4K: %+v, want oneshot's 3.2 us", a)
	}
	if a := got["64M auto"]; a.Chose != "twoshot:fp" || a.Err != "arc's policy picks twoshot:fp, which was not measured" {
		t.Errorf("auto at 64M: %+v", a)
	}
	// Progress counts the rows as kbench prints them (17 lines follow the
	// fake's header); a real run of this plan prints 1 dtype x 15 sizes x 4.
	if progress.done != 17 || KernelRows(KernelOptions{}, plan) != 60 {
		t.Errorf("progress told of %d rows, KernelRows %d; want 17 and 60", progress.done, KernelRows(KernelOptions{}, plan))
	}
	if got["4K native"].Link != "host" || !strings.Contains(log.String(), "kbench: dying") {
		t.Errorf("link %q; log %q", got["4K native"].Link, log.String())
	}
}

// TestRunKernelLogicalRanks: --devices 0,0 puts two ranks on GPU 0; kbench
// is asked for arc's kernels only, as NCCL refuses ranks that share a GPU,
// and the log says why native is missing.
func TestRunKernelLogicalRanks(t *testing.T) {
	program, record := fakeKbench(t, 0, "testdata/kbench_logical.csv")
	plan := Plan{Sizes: mustSizes("1M:64M"), DTypes: []string{"f16"}, Reps: 7,
		Lowerings: []Lowering{"native", "native+symm", "oneshot", "twoshot:fp", "twoshot:int8", "twoshot:int4", Auto}}
	o := KernelOptions{Program: program, Link: "peer", Devices: []int{0, 0}, Lower: LowerOptions{Target: "cuda:nvlink"}}
	var log bytes.Buffer
	o.Log = &log
	rs, err := RunKernel(o, plan)
	if err != nil {
		t.Fatal(err)
	}
	checkRanAs(t, record, "--link peer --dtypes f16 --min 1048576 --max 67108864 --reps 7 --only oneshot,twoshot-fp,twoshot-int8,twoshot-int4 --devices 0,0|unset\n")
	if got := log.String(); !strings.HasPrefix(got, "arc: native is not measured: NCCL refuses ranks that share a GPU (logical ranks, --devices 0,0)\n") {
		t.Errorf("log %q", got)
	}
	if len(rs) != 35 || KernelRows(o, plan) != 28 {
		t.Errorf("%d results (want 28 and 7 auto), KernelRows %d (want 28)", len(rs), KernelRows(o, plan))
	}
	// Distinct devices run NCCL as before: --devices replaces --world.
	o.Devices, o.GPUs, o.Log = []int{1, 0}, 2, nil
	if args := strings.Join(kernelArgs(o, plan), " "); !strings.Contains(args, "--only nccl,nccl-graph,nccl-symm,nccl-symm-graph,oneshot,") ||
		!strings.HasSuffix(args, " --devices 1,0") {
		t.Errorf("kbench args for --devices 1,0: %s", args)
	}
	// Logical ranks with nothing but native to run: kbench's empty --only
	// would run NCCL.
	o.Devices = []int{0, 0, 0, 0}
	plan.Lowerings = []Lowering{"native", Auto}
	if _, err := RunKernel(o, plan); err == nil || !strings.Contains(err.Error(), "logical ranks (--devices 0,0,0,0) time arc's kernels only") {
		t.Errorf("native alone on logical ranks: %v", err)
	}
}

func TestRunKernelFailures(t *testing.T) {
	plan := Plan{Sizes: []int64{4 << 10}, DTypes: []string{"f16"}, Reps: 3, Lowerings: []Lowering{"native", "oneshot"}}
	if _, err := RunKernel(KernelOptions{Program: "/nonexistent/kbench", Link: "peer"}, plan); err == nil ||
		!strings.Contains(err.Error(), "make kbench") {
		t.Errorf("missing kbench: %v", err)
	}
	// A crash after some rows keeps them and says so.
	program, _ := fakeKbench(t, 1)
	var log bytes.Buffer
	rs, err := RunKernel(KernelOptions{Program: program, Link: "peer", Log: &log}, plan)
	if err != nil || len(rs) != 3 || !strings.Contains(log.String(), "exit status 1 (after 3 measurements)") {
		t.Errorf("crashing kbench: %d results, %v; log %q", len(rs), err, log.String())
	}
	// Auto alone names nothing for kbench to time (an empty --only would
	// time everything); it is refused before kbench runs.
	program, record := fakeKbench(t, 0)
	auto := Plan{Sizes: []int64{4 << 10}, DTypes: []string{"f16"}, Reps: 3, Lowerings: []Lowering{Auto, "native+oneshot"}}
	if _, err := RunKernel(KernelOptions{Program: program, Link: "peer"}, auto); err == nil ||
		!strings.Contains(err.Error(), "name those lowerings too") {
		t.Errorf("auto alone: %v", err)
	}
	if _, err := os.Stat(record); err == nil {
		t.Errorf("kbench ran for a plan of auto alone")
	}
}

// TestKernelSymmetricNCCL: native+symm is kbench's NCCL on symmetric
// windows, eager and in a graph; XLA's other switches have no kernel form.
func TestKernelSymmetricNCCL(t *testing.T) {
	plan := Plan{Sizes: []int64{4 << 10}, DTypes: []string{"bf16"},
		Lowerings: []Lowering{"native", "native+oneshot", "native+symm", "oneshot", Auto}}
	if got := strings.Join(kernelOnly(KernelOptions{}, plan), ","); got != "nccl,nccl-graph,nccl-symm,nccl-symm-graph,oneshot" {
		t.Errorf("--only %s", got)
	}
	csv := "link,world,dtype,bytes,lowering,mode,us\n" +
		"peer,2,bf16,4096,nccl,eager,17\npeer,2,bf16,4096,nccl-graph,graph,9\n" +
		"peer,2,bf16,4096,nccl-symm,eager,8\npeer,2,bf16,4096,nccl-symm-graph,graph,6\npeer,2,bf16,4096,oneshot,graph,3\n"
	rs, err := ReadKernelCSV(strings.NewReader(csv), "peer")
	if err != nil {
		t.Fatal(err)
	}
	rs = keepPlanned(rs, plan)
	var names []string
	for _, r := range rs {
		names = append(names, string(r.Lowering))
	}
	if got := strings.Join(names, " "); got != "native nccl-graph native+symm nccl-symm-graph oneshot" {
		t.Errorf("kept %s", got)
	}
	// The best native of the cell is NCCL on symmetric windows in a graph.
	ix := indexResults(rs)
	if best, ok := ix.bestNative(rs[4]); !ok || best.Lowering != "nccl-symm-graph" || ix.speedupBest(rs[4]) != 2 || ix.speedup(rs[4]) != 17.0/3 {
		t.Errorf("best native %+v, oneshot %.2fx over it", best, ix.speedupBest(rs[4]))
	}
}

// A kbench that stops printing (a kernel or NCCL that hangs) is stopped
// after Stall, with what it measured before and the reason, and with the
// children it started.
func TestRunKernelStall(t *testing.T) {
	dir := t.TempDir()
	csvPath, err := filepath.Abs("testdata/kbench.csv")
	if err != nil {
		t.Fatal(err)
	}
	child := filepath.Join(dir, "child.pid")
	program := filepath.Join(dir, "kbench")
	script := "#!/bin/sh\nhead -n 4 " + csvPath + "\nsleep 60 &\necho $! > " + child + "\nsleep 60\n"
	if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	plan := Plan{Sizes: []int64{4 << 10, 64 << 20}, DTypes: []string{"f16"}, Reps: 3, Lowerings: []Lowering{"native", "oneshot"}}
	var log bytes.Buffer
	start := time.Now()
	rs, err := RunKernel(KernelOptions{Program: program, Link: "peer", Log: &log, Stall: 300 * time.Millisecond}, plan)
	if err != nil || len(rs) != 3 || !strings.Contains(log.String(), "printed nothing for 300ms, so it was stopped") {
		t.Errorf("stalled kbench: %d results, %v; log %q", len(rs), err, log.String())
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the stalled kbench ran %v", d)
	}
	pid, err := os.ReadFile(child)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	time.Sleep(100 * time.Millisecond)
	// Gone, or a zombie its new parent has not reaped yet.
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n))
	if n <= 0 || err == nil && !strings.Contains(string(stat), ") Z ") {
		t.Errorf("kbench's child %d outlived it: %s", n, stat)
	}
}
