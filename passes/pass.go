// Package passes holds arc's pass pipeline: the Pass interface, the pipeline
// that runs passes in order, and the passes every target shares: analysis of
// the collectives, selection of a lowering per all-reduce (the policy and its
// cost model), and verification. Target-specific rewrites live in
// lowering/{cuda,rocm,tpu} and plug into the same pipeline.
package passes

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arcpass/arc/ir"
)

// Pass is one step of the pipeline. Run may replace s.Module with an edited
// module and may add to s.Report.
type Pass interface {
	Name() string
	Run(s *State) error
}

// State is what flows from pass to pass.
type State struct {
	Module  *ir.Module
	Target  Target
	Options Options
	Report  *Report
}

// Func makes a Pass of a named function.
func Func(name string, run func(*State) error) Pass { return funcPass{name, run} }

type funcPass struct {
	name string
	run  func(*State) error
}

func (p funcPass) Name() string       { return p.name }
func (p funcPass) Run(s *State) error { return p.run(s) }

// Pipeline runs passes in order.
type Pipeline struct {
	Passes []Pass
	// PrintAfter names passes after which the module is printed to PrintTo
	// ("all" prints after every pass).
	PrintAfter []string
	PrintTo    io.Writer
	// DumpDir, when set, receives the input and the module after each pass
	// as NN-name.mlir files.
	DumpDir string
}

// Names lists the pipeline's pass names in order.
func (p *Pipeline) Names() []string {
	names := make([]string, len(p.Passes))
	for i, ps := range p.Passes {
		names[i] = ps.Name()
	}
	return names
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
	if err := p.CheckPrintAfter(); err != nil {
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
			return fmt.Errorf("%s: %w", ps.Name(), err)
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

func (p *Pipeline) dump(i int, name string, m *ir.Module) error {
	path := filepath.Join(p.DumpDir, fmt.Sprintf("%02d-%s.mlir", i, name))
	return os.WriteFile(path, []byte(m.Src), 0o644)
}
