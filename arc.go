// Package arc is the library face of the arc pass tool: it parses a StableHLO
// module, runs the pass pipeline of a target over it and prints the result,
// with a report of what it chose for every collective and why. The arc CLI
// and the runtime's PJRT proxy both call Compile.
package arc

import (
	"errors"
	"fmt"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
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
// The report is the view of the pipeline's one analysis: the decisions as
// the select and fuse passes wrote them on the input (its rows and lines
// are the input's), with the environment the lowered module records;
// `arc inspect` of the output reads the same attributes back from the
// lowered module.
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
		var option *passes.OptionError
		if errors.As(err, &option) {
			return nil, nil, &UsageError{err}
		}
		return nil, nil, err
	}
	a := st.Analysis
	if a == nil { // a pipeline of passes that need none (--passes verify)
		if a, err = passes.Analyse(m, st.Options.DeviceAssignment); err != nil {
			return nil, nil, err
		}
	}
	rep := a.Report(st.Target.Name())
	if rep.Env, err = decision.Env(st.Module); err != nil {
		return nil, nil, fmt.Errorf("internal error: reading the lowered module back: %w", err)
	}
	if note := quantNote(st.Target, st.Options.Quant, rep); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if opt.Strict {
		if err := checkStrict(m, st.Target, st.Options.Quant, rep); err != nil {
			return nil, nil, err
		}
	}
	return []byte(st.Module.Src), rep, nil
}

// prepare checks the options and builds the pipeline state: each setting,
// in the table's order, hands its value on (Settings). What is wrong in a
// file a setting names is bad input; everything else bad usage.
func prepare(opt Options) (*passes.State, *passes.Pipeline, error) {
	st := &passes.State{}
	pipe := &passes.Pipeline{PrintTo: opt.PrintTo}
	for _, s := range Settings {
		if s.apply == nil {
			continue
		}
		if err := s.apply(&opt, st, pipe); err != nil {
			if s.Kind == File {
				return nil, nil, err
			}
			return nil, nil, &UsageError{err}
		}
	}
	if err := pipe.Check(); err != nil {
		return nil, nil, &UsageError{fmt.Errorf("target %s: %v", st.Target.Name(), err)}
	}
	return st, pipe, nil
}
