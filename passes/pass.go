// Package passes holds arc's pass pipeline: the Pass interface, the pass
// table every target runs, the pipeline that runs it, and the passes every
// target shares: analysis of the collectives, selection of a lowering per
// all-reduce, and verification. What a target knows (its cost model, the
// kernels it has, its rewrite) lives in its own package under lowering/,
// behind the Target interface; this package names no platform.
//
// Data flows one way: analyse reads the module once (Analysis, kept in the
// State), select decides on its rows and writes the decisions into the
// module (package decision), the target's lowering pass reads the
// decisions from the module and the facts from the analysis, verify checks
// the result on its own, and the report is a view of the analysis.
package passes

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/internal/safefile"
	"github.com/arcpass/arc/ir"
)

// Pass is one step of the pipeline. Run may replace s.Module with an edited
// module.
type Pass interface {
	Name() string
	// Requires lists the passes that must run before this one, and why.
	Requires() []Need
	Run(s *State) error
}

// Need is a pass another one requires to run before it, and why.
type Need struct{ Pass, Why string }

// State is what flows from pass to pass: the module, the target, the
// options and what the analyse pass learnt. Everything a pass decides is
// written into the module.
type State struct {
	Module  *ir.Module
	Target  Target
	Options Options
	// Analysis is the analyse pass's, of Analysis.Module: the module until
	// a pass other than select rewrites it.
	Analysis *Analysis
	// selected: this compile's select decided the module's all-reduces
	// (see Decided).
	selected bool
}

// Analysed returns the analysis of the state's module: the analyse pass's,
// or, in a pipeline that starts after it (--passes, a per-pass test) or
// after a pass that rewrote the module, a new one.
func (s *State) Analysed() (*Analysis, error) {
	if s.Analysis == nil || s.Analysis.Module != s.Module {
		a, err := Analyse(s.Module, s.Options.DeviceAssignment)
		if err != nil {
			return nil, err
		}
		s.Analysis = a
	}
	return s.Analysis, nil
}

// Decided returns the analysis whose decisions a lowering pass carries out.
// They are this compile's select's, or, in a pipeline without select
// (--passes, a per-pass golden), the ones the module carries: each of
// those is checked first, as select checks its own (Admitter), and one the
// target would not make for its op under this compile's options is an
// error at the op. arc's calls, which the lowering keeps, are checked in
// either case (as the analyse pass checks them, where it ran): one the
// target does not run is an error at the call. A module is never lowered
// other than a compile of it could have decided.
func (s *State) Decided() (*Analysis, error) {
	a, err := s.Analysed()
	if err != nil {
		return nil, err
	}
	return a, admit(s, a, !s.selected)
}

// admit checks arc's calls among the analysis's rows against the target
// and this compile's options (Admitter), and with carried also the
// decisions that plain all-reduces carry. The identity target, which
// lowers nothing, keeps every call as it is.
func admit(s *State, a *Analysis, carried bool) error {
	if s.Target.Lower() == nil {
		return nil
	}
	adm, _ := s.Target.(Admitter)
	for _, row := range a.Rows {
		c := row.Collective
		call := decision.IsCall(c)
		if c.Kind != "all_reduce" || !call && (!carried || c.Arc == nil) {
			continue
		}
		why := s.Target.Name() + " runs none of arc's kernels"
		if call {
			// The call's own facts: its groups are devices it names, its
			// sum and types those its checks held it to.
			row.Collective, row.Unlowerable = nil, ""
		}
		if adm != nil {
			why = adm.Admit(row, row.Decision, s.Options)
		}
		switch {
		case why == "":
		case call:
			return a.Module.Errorf(int(c.Op.Start), "%s: arc's call is not one %s runs here: %s", c.Op.Name, s.Target.Name(), why)
		default:
			return a.Module.Errorf(int(c.Op.Start), "%s: %s = %q on operand %d is not a lowering %s makes here: %s (arc compile without --passes decides afresh)",
				c.Op.Name, decision.AttrLowering, row.Lowering, row.Operand, s.Target.Name(), why)
		}
	}
	return nil
}

// Apply makes ed's edits the state's module; a pass with nothing to change
// leaves the module as it is (text no pass changed comes back byte for byte).
func (s *State) Apply(ed *ir.Editor) error {
	if !ed.Changed() {
		return nil
	}
	out, err := ed.Apply()
	if err != nil {
		return err
	}
	s.Module = out
	return nil
}

// Func makes a Pass of a named function that needs the passes in requires.
func Func(name string, requires []Need, run func(*State) error) Pass {
	return funcPass{name, requires, run}
}

type funcPass struct {
	name     string
	requires []Need
	run      func(*State) error
}

func (p funcPass) Name() string       { return p.name }
func (p funcPass) Requires() []Need   { return p.requires }
func (p funcPass) Run(s *State) error { return p.run(s) }

// Passes is the pass table of a target, in order: the passes every target
// runs, with the target's lowering pass in its place, and fuse before it
// for a target with fused kernels (NormFuser). A target without a
// lowering pass (none) decides nothing, so it runs no selection either.
func Passes(t Target) []Pass {
	lower := t.Lower()
	if lower == nil {
		return []Pass{AnalysePass, VerifyPass}
	}
	if _, ok := t.(NormFuser); ok {
		return []Pass{AnalysePass, SelectPass, FusePass, lower, VerifyPass}
	}
	return []Pass{AnalysePass, SelectPass, lower, VerifyPass}
}

// Pipeline runs passes in order.
type Pipeline struct {
	Passes []Pass
	// PrintAfter names passes after which the module is printed to PrintTo
	// ("all" prints after every pass).
	PrintAfter []string
	PrintTo    io.Writer
	// DumpDir, when set, receives the input and the module after each pass
	// as NN-name.mlir files, each written whole (staged and renamed) or not
	// at all.
	DumpDir string
	// VerifyEach checks the module after every pass (Check), not only at
	// the ends, so that a test sees which pass broke it.
	VerifyEach bool
	// Partial runs a part of a pass table on a module that carries what the
	// missing passes would have written (a per-pass test, or --passes): a
	// required pass may then be absent, but not out of order.
	Partial bool
}

// Names lists the pipeline's pass names in order.
func (p *Pipeline) Names() []string {
	names := make([]string, len(p.Passes))
	for i, ps := range p.Passes {
		names[i] = ps.Name()
	}
	return names
}

// Check reports a pipeline that cannot run: a pass whose required passes do
// not come before it, a name used twice, or a PrintAfter name that is
// neither a pass nor "all".
func (p *Pipeline) Check() error {
	for i, ps := range p.Passes {
		before := p.Names()[:i]
		if slices.Contains(before, ps.Name()) {
			return fmt.Errorf("pass %s appears twice", ps.Name())
		}
		for _, r := range ps.Requires() {
			if !slices.Contains(before, r.Pass) && !(p.Partial && !slices.Contains(p.Names(), r.Pass)) {
				return fmt.Errorf("pass %s needs %s to run before it: %s (pipeline: %s)", ps.Name(), r.Pass, r.Why, strings.Join(p.Names(), ", "))
			}
		}
	}
	return p.CheckPrintAfter()
}

// CheckPrintAfter reports a PrintAfter name that is neither a pass of p nor "all".
func (p *Pipeline) CheckPrintAfter() error {
	for _, name := range p.PrintAfter {
		if name != "all" && !slices.Contains(p.Names(), name) {
			return fmt.Errorf("--print-after %s: no such pass (passes: %s)", name, strings.Join(p.Names(), ", "))
		}
	}
	return nil
}

// Run runs every pass on s, stopping at the first error.
func (p *Pipeline) Run(s *State) error {
	if err := p.Check(); err != nil {
		return err
	}
	if p.DumpDir != "" {
		if err := os.MkdirAll(p.DumpDir, 0o755); err != nil {
			return err
		}
		if err := p.dump(0, "input", s.Module); err != nil {
			return err
		}
	}
	for i, ps := range p.Passes {
		if err := ps.Run(s); err != nil {
			if _, positioned := err.(*ir.Error); positioned {
				return err // a problem of the input, already "FILE:LINE:COL: message"
			}
			if _, option := err.(*OptionError); option {
				return err // the user's option, named by its flag
			}
			return fmt.Errorf("%s: %w", ps.Name(), err)
		}
		if p.VerifyEach {
			if err := Check(s.Module, s.Options.DeviceAssignment); err != nil {
				return fmt.Errorf("internal error: pass %s left an invalid module: %w", ps.Name(), err)
			}
		}
		if slices.Contains(p.PrintAfter, ps.Name()) || slices.Contains(p.PrintAfter, "all") {
			w := p.PrintTo
			if w == nil {
				w = os.Stderr
			}
			fmt.Fprintf(w, "// ----- after %s -----\n%s", ps.Name(), s.Module.Src)
			if !strings.HasSuffix(s.Module.Src, "\n") {
				fmt.Fprintln(w)
			}
		}
		if p.DumpDir != "" {
			if err := p.dump(i+1, ps.Name(), s.Module); err != nil {
				return err
			}
		}
	}
	return nil
}

// dump writes one file of DumpDir whole or not at all, as the CLI writes -o
// (package safefile); a link planted where it goes is replaced, never
// written through.
func (p *Pipeline) dump(i int, name string, m *ir.Module) error {
	path := filepath.Join(p.DumpDir, fmt.Sprintf("%02d-%s.mlir", i, name))
	return safefile.WriteNoFollow(path, []byte(m.Src))
}
