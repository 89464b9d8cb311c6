// Package harness runs an example model the way both examples do: it builds
// the model's SPMD program, opts into arc with one line (arcgomlx.New), runs
// the same program on a second backend with native all-reduces, and reports
// per-layer output error, step times and the all-reduce time share. With
// --dump-only it only writes the program, on a CPU, through a compile-only
// PJRT plugin (package capture).
package harness

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/spf13/pflag"

	"github.com/arcpass/arc/passes"
)

// Flags are the options every example takes.
type Flags struct {
	TP       int
	DType    string
	Seed     uint64
	Quant    string
	Target   string
	Steps    int
	Warmup   int
	Plugin   string
	Dump     string
	DumpOnly bool
}

// register adds the flags to fs.
func (f *Flags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.TP, "tp", 2, "tensor-parallel ranks: the size of the device mesh")
	fs.StringVar(&f.DType, "dtype", "bf16", "element type of weights and activations: bf16, f16 or f32")
	fs.Uint64Var(&f.Seed, "seed", 1, "seed of the weights and inputs")
	fs.StringVar(&f.Quant, "quant", "none", "arc's quantized codec: "+strings.Join(passes.Quants, ", "))
	fs.StringVar(&f.Target, "target", "", "arc's target, e.g. cuda:nvlink (default: $ARC_TARGET, else detected from the GPUs)")
	fs.IntVar(&f.Steps, "steps", 20, "timed steps of each program; the median is reported")
	fs.IntVar(&f.Warmup, "warmup", 5, "untimed steps of each program before the timed ones")
	fs.StringVar(&f.Plugin, "plugin", "", "the real PJRT plugin, a .so `path` (default: $ARC_PJRT_PLUGIN, else go-xla's cuda plugin)")
	fs.StringVar(&f.Dump, "dump", "", "write the StableHLO program handed to PJRT (before arc) to `FILE` (- for stdout)")
	fs.BoolVar(&f.DumpOnly, "dump-only", false, "write --dump and stop: build and compile the program on a compile-only PJRT plugin, on the CPU, with no device")
}

// elemType is the --dtype as gomlx's type.
func (f *Flags) elemType() (dtypes.DType, error) {
	switch f.DType {
	case "bf16":
		return dtypes.BFloat16, nil
	case "f16":
		return dtypes.Float16, nil
	case "f32":
		return dtypes.Float32, nil
	}
	return dtypes.InvalidDType, fmt.Errorf("--dtype %q: want bf16, f16 or f32", f.DType)
}

// check reports the first flag that makes no sense.
func (f *Flags) check() error {
	switch {
	case f.TP < 1:
		return fmt.Errorf("--tp %d: want at least 1", f.TP)
	case !slices.Contains(passes.Quants, f.Quant):
		return fmt.Errorf("--quant %q: want one of %s", f.Quant, strings.Join(passes.Quants, ", "))
	case f.Steps < 1 || f.Warmup < 0:
		return fmt.Errorf("--steps %d --warmup %d: want at least one step and no negative warmup", f.Steps, f.Warmup)
	case f.DumpOnly && f.Dump == "":
		return errors.New("--dump-only needs --dump FILE")
	}
	_, err := f.elemType()
	return err
}

// Exit codes.
const (
	ExitOK    = 0 // the run succeeded and quantization off matched native within tolerance
	ExitFail  = 1 // the run failed, or arc without quantization differed from native beyond tolerance
	ExitUsage = 2 // bad flags
)

// Main adds the Flags every example takes to fs, which holds the example's
// own flags, parses args with it, then runs m. summary says what the example
// is, for --help. It returns the process's exit code.
func Main(fs *pflag.FlagSet, m Model, summary string, args []string, stdout, stderr io.Writer) int {
	f := &Flags{}
	f.register(fs)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [flags]\n\n%s\n\nflags:\n", fs.Name(), summary)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(stderr, "%s: %v (--help lists the flags)\n", fs.Name(), err)
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		return ExitUsage
	}
	if err := f.check(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return ExitUsage
	}
	dt, _ := f.elemType()
	if err := m.Check(Spec{TP: f.TP, DType: dt}); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return ExitUsage
	}
	r := &runner{flags: *f, model: m, spec: Spec{TP: f.TP, DType: dt}, out: stdout, log: stderr}
	if err := r.run(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return ExitFail
	}
	if !r.passed {
		return ExitFail
	}
	return ExitOK
}
