package bench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// KernelOptions configure the kernel-level measurement.
type KernelOptions struct {
	Program  string       // arc's kernel benchmark (gpu/bench, built by make kbench)
	Link     string       // "host": peer access off and NCCL_P2P_DISABLE=1
	GPUs     int          // ranks (0: every GPU)
	Devices  []int        // rank r on the r-th GPU listed (nil: one per GPU); one listed twice: logical ranks, no NCCL
	Lower    LowerOptions // for auto: arc's policy on this target
	Log      io.Writer    // the program's stderr (its errors)
	Progress Progress     // told of each row kbench prints (nil: nothing)
	// Stall stops kbench when it prints nothing for this long (0:
	// DefaultStall): a kernel or NCCL that hangs ends the run with what was
	// measured, not the benchmark.
	Stall time.Duration
}

// DefaultStall is how long kbench may print nothing: its slowest row (256
// MiB, every rep, NCCL's setup included) takes seconds.
const DefaultStall = 5 * time.Minute

// RunKernel times arc's C API and NCCL with kbench, arc's kernel benchmark
// (gpu/bench), in one run for the whole plan: it times K calls in a
// row with CUDA events on every rank and reports the median over --reps of
// the slowest rank's time per call. Auto is added afterwards: at each size,
// the time of what arc's policy picks. kbench runs as a child so that
// NCCL_P2P_DISABLE is set before NCCL starts.
func RunKernel(o KernelOptions, plan Plan) ([]Result, error) {
	if _, err := os.Stat(o.Program); err != nil {
		return nil, fmt.Errorf("kernel benchmark program %s not found: build it on the GPU machine with `make kbench` (or pass --kbench)", o.Program)
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	// kbench runs everything, NCCL included, for an empty --only; and auto
	// is no measurement of its own here, but the time of what it picks.
	if len(kernelOnly(o, plan)) == 0 {
		if o.logical() {
			return nil, fmt.Errorf("logical ranks (--devices %s) time arc's kernels only: name one in --lowerings", joinInts(o.Devices))
		}
		return nil, fmt.Errorf("nothing to time at the kernel level: auto is the time of what arc's policy picks, so name those lowerings too (--lowerings oneshot,twoshot:fp,auto)")
	}
	if o.logical() {
		if slices.Contains(plan.Lowerings, Native) || slices.Contains(plan.Lowerings, ncclSymm) {
			fmt.Fprintf(log, "arc: native is not measured: NCCL refuses ranks that share a GPU (logical ranks, --devices %s)\n", joinInts(o.Devices))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, o.Program, kernelArgs(o, plan)...)
	cmd.Env = os.Environ()
	if o.Link == "host" {
		cmd.Env = append(cmd.Env, "NCCL_P2P_DISABLE=1")
	}
	// kbench and whatever it starts are one process group, killed whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	rows := &rowCounter{w: &out, progress: o.Progress}
	rows.last.Store(time.Now().UnixNano())
	cmd.Stdout, cmd.Stderr = rows, log
	stall := cmp.Or(o.Stall, DefaultStall)
	stalled := make(chan struct{})
	go watch(ctx, rows, stall, func() { close(stalled); cancel() })
	runErr := cmd.Run()
	select {
	case <-stalled:
		runErr = fmt.Errorf("printed nothing for %v, so it was stopped (a kernel or NCCL that hangs?)", stall)
	default:
	}
	rs, err := ReadKernelCSV(&out, o.Link)
	if err != nil {
		if runErr != nil {
			return nil, fmt.Errorf("%s: %v", o.Program, runErr)
		}
		return nil, fmt.Errorf("%s printed no usable CSV: %v", o.Program, err)
	}
	rs = keepPlanned(rs, plan)
	if o.logical() {
		for i := range rs {
			rs[i].GPUs = o.gpus()
		}
	}
	if slices.Contains(plan.Lowerings, Auto) {
		rs = append(rs, PolicyAuto(rs, o.Lower)...)
	}
	if runErr != nil { // keep what it measured before it failed
		fmt.Fprintf(log, "arc: %s: %v (after %d measurements)\n", o.Program, runErr, len(rs))
	}
	return rs, nil
}

// KernelRows is how many rows kbench prints for a plan: per dtype and power
// of two from the smallest to the largest size, one per name in its --only.
func KernelRows(o KernelOptions, plan Plan) int {
	sizes := 0
	for n := plan.Sizes[0]; n <= plan.Sizes[len(plan.Sizes)-1]; n *= 2 {
		sizes++
	}
	return len(plan.DTypes) * sizes * len(kernelOnly(o, plan))
}

// gpus counts the distinct GPUs of Devices.
func (o KernelOptions) gpus() int {
	return len(slices.Compact(slices.Sorted(slices.Values(o.Devices))))
}

// logical reports whether a GPU holds more than one rank: logical ranks,
// whose times are the kernels' own cost on one GPU, not a link's.
func (o KernelOptions) logical() bool { return o.gpus() < len(o.Devices) }

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// watch calls stop once rows has seen no output for stall, unless ctx ends
// first.
func watch(ctx context.Context, rows *rowCounter, stall time.Duration, stop func()) {
	tick := time.NewTicker(min(stall/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if now.Sub(time.Unix(0, rows.last.Load())) >= stall {
				stop()
				return
			}
		}
	}
}

// rowCounter passes kbench's output on and tells progress of each row after
// the header; last is when it last wrote (Unix nanoseconds).
type rowCounter struct {
	w        io.Writer
	progress Progress
	lines    int
	last     atomic.Int64
}

func (c *rowCounter) Write(p []byte) (int, error) {
	c.last.Store(time.Now().UnixNano())
	if c.progress != nil {
		for _, b := range p {
			if b == '\n' {
				if c.lines > 0 {
					c.progress.Add(1)
				}
				c.lines++
			}
		}
	}
	return c.w.Write(p)
}

// kernelArgs is kbench's command line for a plan (see the comment atop
// gpu/kbench/kbench.cu). kbench measures every power of two from
// --min to --max, with its own batch sizes and one warm-up; keepPlanned
// drops the sizes the plan does not list.
func kernelArgs(o KernelOptions, plan Plan) []string {
	args := []string{
		"--link", o.Link, "--dtypes", strings.Join(plan.DTypes, ","),
		"--min", strconv.FormatInt(plan.Sizes[0], 10), "--max", strconv.FormatInt(plan.Sizes[len(plan.Sizes)-1], 10),
		"--reps", strconv.Itoa(plan.Reps), "--only", strings.Join(kernelOnly(o, plan), ","),
	}
	switch {
	case len(o.Devices) > 0:
		args = append(args, "--devices", joinInts(o.Devices))
	case o.GPUs > 0:
		args = append(args, "--world", strconv.Itoa(o.GPUs))
	}
	return args
}

// kernelOnly is kbench's --only for a plan: what it measures per dtype and
// size. Native is NCCL eager and captured in a CUDA graph, native+symm the
// same on buffers registered as NCCL symmetric windows, neither on logical
// ranks (NCCL refuses ranks that share a GPU); XLA's other switches have no
// kernel-level form, and auto is no measurement of its own.
func kernelOnly(o KernelOptions, plan Plan) []string {
	var only []string
	for _, l := range plan.Lowerings {
		switch {
		case o.logical() && (l == Native || l == ncclSymm):
		case l == Native:
			only = append(only, "nccl", string(ncclGraph))
		case l == ncclSymm:
			only = append(only, "nccl-symm", string(ncclSymmGraph))
		case l.IsNative() || l == Auto:
		default: // kbench spells profile keys with "-": twoshot-int8, twoshot-fp8
			only = append(only, strings.Replace(l.Key(), ":", "-", 1))
		}
	}
	return only
}

// keepPlanned drops measurements of sizes and lowerings the plan does not
// ask for; NCCL captured in a CUDA graph comes with native (and with
// native+symm on symmetric windows).
func keepPlanned(rs []Result, plan Plan) []Result {
	sizes := map[int64]bool{}
	for _, n := range plan.Sizes {
		sizes[n] = true
	}
	var out []Result
	for _, r := range rs {
		l := r.Lowering
		switch l {
		case ncclGraph:
			l = Native
		case ncclSymmGraph:
			l = ncclSymm
		}
		if sizes[r.Bytes] && slices.Contains(plan.Lowerings, l) {
			out = append(out, r)
		}
	}
	return out
}

// At the kernel level kbench times NCCL's all-reduce eagerly, as nccl-tests
// calls it ("native"), and captured in a CUDA graph (nccl-graph); and both
// again on buffers registered as symmetric windows (ncclCommWindowRegister,
// NCCL 2.27+), what XLA's symmetric-buffer switch asks NCCL for: native+symm
// and nccl-symm-graph.
const (
	ncclGraph     Lowering = "nccl-graph"
	ncclSymm      Lowering = "native+symm"
	ncclSymmGraph Lowering = "nccl-symm-graph"
)

// ReadKernelCSV reads kbench's CSV: a header row, then one row per
// measurement, with at least the columns world, dtype, bytes, lowering and
// us, and floor_us where kbench prints it (0 for NCCL's rows: no floor).
// Bandwidths and ratios, x_floor among them, are derived again from the
// time.
func ReadKernelCSV(r io.Reader, link string) ([]Result, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no header row")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[strings.TrimSpace(name)] = i
	}
	for _, name := range []string{"world", "dtype", "bytes", "lowering", "us"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("header %q has no %s column", strings.Join(rows[0], ","), name)
		}
	}
	var out []Result
	for n, row := range rows[1:] {
		if len(row) < len(rows[0]) {
			break // a row cut short by a crash ends the useful output
		}
		get := func(name string) string { return strings.TrimSpace(row[col[name]]) }
		world, err1 := strconv.Atoi(get("world"))
		size, err2 := strconv.ParseInt(get("bytes"), 10, 64)
		t, err3 := strconv.ParseFloat(get("us"), 64)
		if err1 != nil || err2 != nil || err3 != nil || world < 1 || size < 1 {
			return nil, fmt.Errorf("line %d: world %q, bytes %q and us %q must be numbers", n+2, get("world"), get("bytes"), get("us"))
		}
		res := Result{Level: "kernel", Link: link, World: world, DType: get("dtype"), Bytes: size,
			Lowering: kernelLowering(get("lowering")), US: t}
		if _, ok := col["floor_us"]; ok { // older kbench printed no floor
			if res.FloorUS, err = strconv.ParseFloat(get("floor_us"), 64); err != nil {
				return nil, fmt.Errorf("line %d: floor_us %q must be a number", n+2, get("floor_us"))
			}
		}
		if t <= 0 {
			res.Err = "kbench reported no time"
		}
		out = append(out, res)
	}
	return out, nil
}

// kernelLowering names a kbench lowering (nccl, oneshot, twoshot-int8, ...)
// the way bench does.
func kernelLowering(name string) Lowering {
	switch name {
	case "nccl":
		return Native
	case "nccl-symm":
		return ncclSymm
	case string(ncclGraph), string(ncclSymmGraph):
		return Lowering(name)
	}
	return LoweringForKey(strings.Replace(name, "-", ":", 1))
}

// PolicyAuto gives each measured cell an auto result: the measurement of
// what arc's policy picks for an all-reduce of that size (decided by
// lowering a one-all-reduce program, as the XLA level does).
func PolicyAuto(rs []Result, o LowerOptions) []Result {
	ix := indexResults(rs)
	var out []Result
	seen := map[series]map[int64]bool{}
	for _, r := range rs {
		s := r.series()
		if seen[s][r.Bytes] {
			continue
		}
		if seen[s] == nil {
			seen[s] = map[int64]bool{}
		}
		seen[s][r.Bytes] = true
		auto := Result{Level: r.Level, Link: r.Link, World: r.World, GPUs: r.GPUs, DType: r.DType, Bytes: r.Bytes, Lowering: Auto}
		_, chose, err := LowerChain(o, Auto, r.DType, r.Bytes/ElemSize(r.DType), r.World, 1)
		if err != nil {
			auto.Err = err.Error()
			out = append(out, auto)
			continue
		}
		auto.Chose = chose
		got, ok := ix[s][r.Bytes][LoweringForKey(chose)]
		switch {
		case !ok:
			auto.Err = fmt.Sprintf("arc's policy picks %s, which was not measured", chose)
		case !got.OK():
			auto.Err = fmt.Sprintf("arc's policy picks %s, which failed: %s", chose, got.Err)
		default:
			auto.US, auto.P25, auto.P75, auto.FloorUS = got.US, got.P25, got.P75, got.FloorUS
		}
		out = append(out, auto)
	}
	return out
}
