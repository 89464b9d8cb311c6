// Package arc is the library face of the arc pass tool: it parses a StableHLO
// module, runs the pass pipeline of a target over it and prints the result,
// with a report of what it chose for every collective and why. The arc CLI
// and the runtime's PJRT proxy both call Compile.
package arc

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering/cuda"
	"github.com/arcpass/arc/lowering/rocm"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
)

// Options configure one compilation. The zero value plus a Target is a valid
// configuration; the CLI's defaults differ only in CastBF16 (on).
type Options struct {
	Target   string   // required: "none", "cuda:nvlink", "rocm:mi300x", "tpu:v6e-8", ...
	Quant    string   // "" or "none" (default), "fp8", "int8", "int6", "int4", "int4r"
	Profile  string   // a profile JSON file written by `arc tune`; "" uses the built-in one
	Topology string   // a topology JSON file describing the machine; "" uses the target's
	CastBF16 bool     // send bf16 as fp16 where the codec works in fp16 (ROCm)
	MinBytes int64    // all-reduces smaller than this stay native (0: no bound)
	MaxBytes int64    // all-reduces larger than this stay native (0: no bound)
	Force    []string // per-row overrides, "INDEX=LOWERING[:CODEC]" or "all=LOWERING[:CODEC]"
	// LibtpuInitArgs is the user's LIBTPU_INIT_ARGS, which TPU targets extend.
	LibtpuInitArgs string

	PrintAfter []string  // pass names (or "all") after which to print the module
	PrintTo    io.Writer // where PrintAfter goes (default stderr)
	DumpDir    string    // write the module after every pass into this directory
}

// UsageError is a problem with the options rather than with the input.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Passes returns the pipeline of a target, in order.
func Passes(t passes.Target) []passes.Pass {
	list := []passes.Pass{passes.AnalysePass, passes.SelectPass}
	switch t.Platform {
	case "cuda":
		list = append(list, cuda.Pass)
	case "rocm":
		list = append(list, rocm.Pass)
	case "tpu":
		list = append(list, tpu.Pass)
	}
	return append(list, passes.VerifyPass)
}

// Compile runs the target's pipeline over src (named name in messages) and
// returns the rewritten module text and the report. Text that no pass
// changed comes back byte-for-byte.
func Compile(name string, src []byte, opt Options) ([]byte, *passes.Report, error) {
	st, pipe, err := prepare(opt)
	if err != nil {
		return nil, nil, err
	}
	m, err := ir.ParseModule(name, src)
	if err != nil {
		return nil, nil, err
	}
	st.Module = m
	if err := pipe.Run(st); err != nil {
		return nil, nil, err
	}
	return []byte(st.Module.Src), st.Report, nil
}

// prepare checks the options and builds the pipeline state.
func prepare(opt Options) (*passes.State, *passes.Pipeline, error) {
	usage := func(err error) (*passes.State, *passes.Pipeline, error) { return nil, nil, &UsageError{err} }
	if opt.Target == "" {
		return usage(fmt.Errorf("--target is required (targets: %s)", strings.Join(passes.TargetNames(), ", ")))
	}
	t, err := passes.ParseTarget(opt.Target)
	if err != nil {
		return usage(err)
	}
	q := opt.Quant
	if q == "" {
		q = "none"
	}
	if !slices.Contains(passes.Quants, q) {
		return usage(fmt.Errorf("--quant %q: want one of %s", q, strings.Join(passes.Quants, ", ")))
	}
	po := passes.Options{Quant: q, CastBF16: opt.CastBF16, MinBytes: opt.MinBytes, MaxBytes: opt.MaxBytes, Force: map[int]passes.Force{}}
	if opt.MinBytes < 0 || opt.MaxBytes < 0 || (opt.MaxBytes > 0 && opt.MinBytes > opt.MaxBytes) {
		return usage(fmt.Errorf("--min-bytes %d and --max-bytes %d do not make a range", opt.MinBytes, opt.MaxBytes))
	}
	for _, f := range opt.Force {
		i, force, err := passes.ParseForce(f)
		if err != nil {
			return usage(err)
		}
		po.Force[i] = force
	}
	if opt.Profile != "" {
		p, err := passes.LoadProfile(opt.Profile)
		if err != nil {
			return nil, nil, err
		}
		po.Profile = p
	}
	if opt.Topology != "" {
		topo, err := topology.Load(opt.Topology)
		if err != nil {
			return nil, nil, err
		}
		po.Topology = topo
	}
	po.LibtpuInitArgs = opt.LibtpuInitArgs
	st := &passes.State{Target: t, Options: po}
	pipe := &passes.Pipeline{Passes: Passes(t), PrintAfter: opt.PrintAfter, PrintTo: opt.PrintTo, DumpDir: opt.DumpDir}
	if err := pipe.CheckPrintAfter(); err != nil {
		return usage(fmt.Errorf("target %s: %v", t.Name, err))
	}
	return st, pipe, nil
}
