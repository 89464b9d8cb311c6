// Package arc is the library face of the arc pass tool: it parses a StableHLO
// module, runs the pass pipeline of a target over it and prints the result,
// with a report of what it chose for every collective and why. The arc CLI
// and the runtime's PJRT proxy both call Compile.
package arc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
	"github.com/arcpass/arc/spec"
)

// UsageError is a problem with the options rather than with the input.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Targets lists the names --target takes.
func Targets() []string { return lowering.Names() }

// Compile runs the target's pipeline over src (named name in messages) and
// returns the rewritten module text and the report. Text that no pass
// changed comes back byte-for-byte.
//
// The report describes the decisions as the select pass wrote them on the
// input (its rows and lines are the input's), with the environment the
// lowered module records; `arc inspect` of the output reads the same
// attributes back from the lowered module.
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
	decided := m
	pipe.Observe = func(pass string, m *ir.Module) {
		if pass == passes.SelectPass.Name() {
			decided = m
		}
	}
	if err := pipe.Run(st); err != nil {
		return nil, nil, err
	}
	rep, err := passes.NewReport(decided, st.Target.Name(), st.Options.DeviceAssignment)
	var inputErr *ir.Error
	if errors.As(err, &inputErr) && decided == m {
		return nil, nil, err // what the input itself records (target none decides nothing)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: reading the decisions back: %w", err)
	}
	final, err := passes.NewReport(st.Module, st.Target.Name(), st.Options.DeviceAssignment)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: reading the lowered module back: %w", err)
	}
	rep.Env = final.Env
	if opt.Strict {
		if err := checkStrict(m, st.Target.Name(), rep); err != nil {
			return nil, nil, err
		}
	}
	return []byte(st.Module.Src), rep, nil
}

// prepare checks the options and builds the pipeline state.
func prepare(opt Options) (*passes.State, *passes.Pipeline, error) {
	usage := func(err error) (*passes.State, *passes.Pipeline, error) { return nil, nil, &UsageError{err} }
	if opt.Target == "" {
		return usage(fmt.Errorf("--target is required (targets: %s)", strings.Join(Targets(), ", ")))
	}
	t, err := lowering.Lookup(opt.Target)
	if err != nil {
		return usage(err)
	}
	q, err := ParseQuant(opt.Quant)
	if err != nil {
		return usage(fmt.Errorf("--quant %v", err))
	}
	po := passes.Options{Quant: q, KeepBF16: opt.KeepBF16, MinBytes: opt.MinBytes, MaxBytes: opt.MaxBytes, Force: map[int]passes.Force{}}
	if opt.MinBytes < 0 || opt.MaxBytes < 0 || (opt.MaxBytes > 0 && opt.MinBytes > opt.MaxBytes) {
		return usage(fmt.Errorf("--min-bytes %d and --max-bytes %d do not make a range", opt.MinBytes, opt.MaxBytes))
	}
	if len(opt.Force) > 0 && t.Lower() == nil {
		return usage(fmt.Errorf("--force: target %s lowers nothing", t.Name()))
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
		if err := p.CheckTarget(t.Name(), opt.ProfileAnyTarget); err != nil {
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
	if opt.DeviceAssignment != "" {
		da, err := spec.ParseDeviceAssignment(opt.DeviceAssignment)
		if err != nil {
			return usage(fmt.Errorf("--device-assignment %q: %v", opt.DeviceAssignment, err))
		}
		po.DeviceAssignment = da
	}
	if opt.DeviceCoords != "" {
		coords, err := passes.ParseDeviceCoords(opt.DeviceCoords)
		if err != nil {
			return usage(fmt.Errorf("--device-coords: %v", err))
		}
		po.DeviceCoords = coords
	}
	st := &passes.State{Target: t, Options: po}
	pipe := &passes.Pipeline{Passes: passes.Passes(t), PrintAfter: opt.PrintAfter, PrintTo: opt.PrintTo,
		DumpDir: opt.DumpDir, VerifyEach: opt.VerifyEach}
	if len(opt.Passes) > 0 {
		var some []passes.Pass
		for _, ps := range pipe.Passes {
			if slices.Contains(opt.Passes, ps.Name()) {
				some = append(some, ps)
			}
		}
		for _, name := range opt.Passes {
			if !slices.Contains(pipe.Names(), name) {
				return usage(fmt.Errorf("target %s: --passes %s: no such pass (passes: %s)", t.Name(), name, strings.Join(pipe.Names(), ", ")))
			}
		}
		pipe.Passes, pipe.Partial = some, true
	}
	if err := pipe.Check(); err != nil {
		return usage(fmt.Errorf("target %s: %v", t.Name(), err))
	}
	return st, pipe, nil
}
