package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
)

func init() {
	register("bench", "time arc's all-reduce lowerings against native on this machine's GPUs", runBench)
}

func runBench(args []string, io stdio) int {
	fs := newFlags("bench", io)
	var f sweepFlags
	f.add(fs, bench.Lowerings)
	// Not a shared flag: arc tune fits profiles, and one GPU's figures must
	// not become one.
	fs.StringVar(&f.devices, "devices", "", "rank r on the r-th GPU of `LIST` (comma-separated), for --level kernel; "+
		"0,0 runs two logical ranks on GPU 0: the kernels' own cost on one GPU, not a link's")
	var csvPath, plotPath, from, format string
	fs.StringVar(&csvPath, "csv", "", "write every measurement to `FILE.csv`")
	fs.StringVar(&format, "format", "table", "how to print the measurements: table (arc's: microseconds, speedups) or nccl (nccl-tests' all_reduce_perf columns: time, algbw, busbw)")
	fs.StringVar(&from, "from", "", "print the tables (and --plot) of the measurements in `FILE.csv` (written by arc bench --csv) instead of measuring; no GPU needed")
	fs.StringVar(&plotPath, "plot", "", "draw time, speedup and (kernel level) x of the floor against size into `FILE.svg`")
	fs.Usage = func() {
		fmt.Fprintln(io.out, "usage: arc bench [flags]")
		fmt.Fprint(io.out, `
Times one all-reduce per size, dtype and lowering on this machine's GPUs, with
native (XLA/NCCL) measured in the same process and run, and prints a table of
microseconds (rows: sizes; columns: lowerings) with auto's speedup over native.

--level xla: each lowering's time is that of an XLA program chaining --chain
all-reduces minus a control program doing the same work without them, over
--chain; median of --reps runs. Programs are lowered by arc (--force on every
all-reduce; auto: arc's policy) and compiled through arc's PJRT proxy.
--level kernel: arc's C API and NCCL timed directly with CUDA events by arc's
kernel benchmark program (--kbench); auto is what arc's policy picks per size.
A second table gives each kernel's time over its floor (the bytes it must move
through HBM over cudaMemcpy's bandwidth, measured in the same run; over PCIe
with --link host). --devices 0,0 runs two logical ranks on GPU 0, without
NCCL (it refuses ranks that share a GPU): the kernels against their HBM floor.
--link host: peer access off, arc on its host-staged path, NCCL with
NCCL_P2P_DISABLE=1.

Needs a GPU machine, arc built with cgo, libarc_gpu.so (make gpu; --gpu-lib or
ARC_GPU_LIB) and the CUDA PJRT plugin (--plugin or ARC_PJRT_PLUGIN); with
--from FILE.csv it only redraws a saved sweep's tables and plot (pick one kind
of measurement in a mixed file with --level and --link).
`)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(io.err, "arc bench: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if !slices.Contains(bench.Formats, format) {
		fmt.Fprintf(io.err, "arc bench: --format %q: want %s\n", format, strings.Join(bench.Formats, " or "))
		return exitUsage
	}
	if plotPath != "" {
		if err := bench.PlotFormat(plotPath); err != nil {
			fmt.Fprintf(io.err, "arc bench: %v\n", err)
			return exitUsage
		}
	}
	var rs []bench.Result
	saveCSV := csvSaver(csvPath)
	if from != "" {
		var err error
		if rs, err = readMeasurements(from, fs, &f); err != nil {
			failed(io, err)
			return exitInput
		}
	} else {
		f.gpusSet = fs.Changed("gpus")
		plan, err := f.plan()
		if err != nil {
			fmt.Fprintf(io.err, "arc bench: %v\n", err)
			return exitUsage
		}
		if rs, err = f.measure(plan, io, saveCSV); err != nil {
			failed(io, err)
			return exitInput
		}
	}
	// The files first: a reader of the tables (arc bench --from ... | head)
	// may stop reading, and arc with it, before the last line.
	if err := saveCSV(rs); err != nil {
		failed(io, err)
		return exitInput
	}
	if plotPath != "" && anyMeasured(rs) {
		if err := writeFileAtomic(plotPath, func(w writer) error { return bench.WritePlot(w, rs) }); err != nil {
			failed(io, err)
			return exitInput
		}
	}
	if err := bench.WriteReport(io.out, rs, format); err != nil {
		failed(io, err)
		return exitInput
	}
	return measuredExit(rs, io)
}

// csvSaver writes results to path (nothing when path is empty).
func csvSaver(path string) func([]bench.Result) error {
	return func(rs []bench.Result) error {
		if path == "" {
			return nil
		}
		return writeFileAtomic(path, func(w writer) error { return bench.WriteCSV(w, rs) })
	}
}

// failed prints an error from the runtime, whose messages may already say "arc: ".
func failed(io stdio, err error) {
	fmt.Fprintf(io.err, "arc: %s\n", strings.TrimPrefix(err.Error(), "arc: "))
}

// measuredExit fails the command when nothing could be measured.
func measuredExit(rs []bench.Result, io stdio) int {
	if anyMeasured(rs) {
		return exitOK
	}
	fmt.Fprintln(io.err, "arc: every measurement failed (the table's failures say why)")
	return exitInput
}

func anyMeasured(rs []bench.Result) bool {
	for _, r := range rs {
		if r.OK() {
			return true
		}
	}
	return false
}

// sweepFlags are the flags bench and tune share: what to measure, where and how.
type sweepFlags struct {
	level, link, target, quant, profile string
	sizes, dtypes, lowerings            string
	plugin, gpuLib, kbench              string
	devices                             string // --devices (arc bench only)
	devs                                []int  // --devices as plan reads it
	gpusSet                             bool   // --gpus was given, even as 0
	gpus, chain, reps, warmup, jobs     int
	quiet                               bool
	command                             string // bench or tune, for messages
}

func (f *sweepFlags) add(fs *pflag.FlagSet, lowerings []bench.Lowering) {
	f.command = fs.Name()
	names := make([]string, len(lowerings))
	for i, l := range lowerings {
		names[i] = string(l)
	}
	fs.StringVar(&f.level, "level", "xla", "what to time: xla (all-reduces inside XLA programs) or kernel (arc's C API and NCCL)")
	fs.StringVar(&f.link, "link", "peer", "peer (GPUs read each other's memory) or host (peer access off: host-staged arc, NCCL_P2P_DISABLE=1)")
	fs.StringVar(&f.target, "target", "", "arc target the lowerings are compiled for (default cuda:nvlink, or cuda:pcie-nop2p with --link host)")
	fs.StringVar(&f.sizes, "sizes", "4K:256M", "bytes per rank: a range of powers of two (`LO:HI`) or a list (4K,1M,64M)")
	fs.StringVar(&f.dtypes, "dtypes", "f16,bf16", "element types (f16, bf16, f32)")
	fs.StringVar(&f.lowerings, "lowerings", strings.Join(names, ","), "lowerings to time (native, oneshot, twoshot:CODEC, lowprec:fp8, auto)")
	fs.StringVar(&f.quant, "quant", "none", "the codec auto may use (arc compile --quant)")
	fs.StringVar(&f.profile, "profile", "", "cost profile auto uses (`FILE.json`; default: the target's built-in one)")
	fs.StringVar(&f.plugin, "plugin", "", "the CUDA PJRT plugin (`FILE.so`; default ARC_PJRT_PLUGIN, then go-xla's cuda plugin)")
	fs.StringVar(&f.gpuLib, "gpu-lib", "", "arc's kernels, libarc_gpu.so (default ARC_GPU_LIB, then beside arc)")
	fs.StringVar(&f.kbench, "kbench", "build/kbench", "arc's kernel benchmark program, for --level kernel (make kbench)")
	fs.IntVar(&f.gpus, "gpus", 0, "ranks, one per GPU (default every GPU)")
	fs.IntVar(&f.chain, "chain", 20, "all-reduces per chained program (K)")
	fs.IntVar(&f.reps, "reps", 20, "timed runs per measurement; the median is reported (R)")
	fs.IntVar(&f.warmup, "warmup", 3, "untimed runs before the timed ones")
	fs.IntVar(&f.jobs, "jobs", 8, "programs compiled at once")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
}

func (f *sweepFlags) plan() (bench.Plan, error) {
	if f.level != "xla" && f.level != "kernel" {
		return bench.Plan{}, fmt.Errorf("--level %q: want xla or kernel", f.level)
	}
	if f.link != "peer" && f.link != "host" {
		return bench.Plan{}, fmt.Errorf("--link %q: want peer or host", f.link)
	}
	if _, err := lowering.Lookup(f.targetName()); err != nil {
		return bench.Plan{}, fmt.Errorf("--target: %v", err)
	}
	if f.gpus < 0 {
		return bench.Plan{}, fmt.Errorf("--gpus %d: want a positive count (or 0 for every GPU)", f.gpus)
	}
	if err := f.parseDevices(); err != nil {
		return bench.Plan{}, err
	}
	sizes, err := bench.ParseSizes(f.sizes)
	if err != nil {
		return bench.Plan{}, fmt.Errorf("--sizes: %v", err)
	}
	lows, err := bench.ParseLowerings(f.lowerings)
	if err != nil {
		return bench.Plan{}, fmt.Errorf("--lowerings: %v", err)
	}
	p := bench.Plan{Sizes: sizes, DTypes: bench.ParseDTypes(f.dtypes), Lowerings: lows,
		Chain: f.chain, Reps: f.reps, Warmup: f.warmup, Jobs: f.jobs}
	return p, p.Check()
}

// parseDevices reads --devices into devs: GPU numbers, one per rank, as
// many as arc's kernels have ranks for.
func (f *sweepFlags) parseDevices() error {
	if f.devices == "" {
		return nil
	}
	switch {
	case f.level != "kernel":
		return fmt.Errorf("--devices: only with --level kernel (the XLA level runs one rank per GPU)")
	case f.gpusSet:
		return fmt.Errorf("--devices and --gpus: pick one (--devices names each rank's GPU, and so their count)")
	}
	f.devs = nil
	for _, s := range strings.Split(f.devices, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || d < 0 {
			return fmt.Errorf("--devices %q: want GPU numbers separated by commas (0,1; 0,0 for two ranks on GPU 0)", f.devices)
		}
		f.devs = append(f.devs, d)
	}
	worlds := slices.Concat(abi.OneShotWorlds, abi.TwoShotWorlds) // the sizes some kernel of arc's runs
	slices.Sort(worlds)
	worlds = slices.Compact(worlds)
	if !slices.Contains(worlds, len(f.devs)) {
		return fmt.Errorf("--devices %s: a world of %d; arc's kernels run worlds of %s ranks", f.devices, len(f.devs), abi.WorldList(worlds))
	}
	return nil
}

// targetName is --target, or the target of the machine --link describes.
func (f *sweepFlags) targetName() string {
	switch {
	case f.target != "":
		return f.target
	case f.link == "host":
		return "cuda:pcie-nop2p"
	}
	return "cuda:nvlink"
}

func (f *sweepFlags) lower() bench.LowerOptions {
	return bench.LowerOptions{Target: f.targetName(), Quant: f.quant, Profile: f.profile}
}

// measure runs the sweep on this machine's GPUs. save, if not nil, gets the
// results so far after each cell of an XLA-level sweep (a failure to save is
// reported once, and the sweep goes on).
func (f *sweepFlags) measure(plan bench.Plan, io stdio, save func([]bench.Result) error) ([]bench.Result, error) {
	if f.profile != "" { // a bad profile would fail every auto measurement alike
		if _, err := passes.LoadProfile(f.profile); err != nil {
			return nil, err
		}
	}
	if f.level == "kernel" {
		opt := bench.KernelOptions{Program: f.kbench, Link: f.link, GPUs: f.gpus, Devices: f.devs, Lower: f.lower(), Log: io.err}
		if bar := f.progress(io, bench.KernelRows(opt, plan)); bar != nil {
			opt.Progress = bar
			defer bar.Finish("")
		}
		rs, err := bench.RunKernel(opt, plan)
		if err != nil {
			return nil, f.noMachine(err)
		}
		return rs, nil
	}
	m, closeMachine, err := f.xlaMachine()
	if err != nil {
		return nil, f.noMachine(err)
	}
	defer closeMachine()
	bar := f.progress(io, plan.Cells()*len(plan.Lowerings))
	var progress bench.Progress = bench.NopProgress{}
	if bar != nil {
		progress = bar
		defer bar.Finish("")
	}
	var saveErr error
	saved := func(rs []bench.Result) {
		if save != nil && saveErr == nil {
			if saveErr = save(rs); saveErr != nil {
				failed(io, saveErr)
			}
		}
	}
	rs := bench.Sweep(m, plan, f.link, progress, saved)
	if bar != nil {
		bar.Finish(fmt.Sprintf("%d measurements", len(rs)))
	}
	return rs, nil
}

// noMachine adds to why nothing could be measured what works without a
// GPU: --from, with the sweeps docs/bench/ ships.
func (f *sweepFlags) noMachine(err error) error {
	return fmt.Errorf("%v\narc: without a GPU, --from reads a saved sweep: docs/bench/ holds sweeps measured on 2 x H200 "+
		"(arc %s --from docs/bench/h200-xla-peer.csv)", err, f.command)
}

// progress is a bar on stderr (lines every half minute in a log).
func (f *sweepFlags) progress(io stdio, total int) *progressBar {
	if f.quiet {
		return nil
	}
	return newProgressBar(io.err, "arc "+f.command, total)
}
