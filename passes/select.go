package passes

import (
	"fmt"

	"github.com/arcpass/arc/ir"
)

// AnalysePass checks the input, so that a broken module is reported at its
// own lines, not at those of a lowered one: its structure (as Verify does)
// and every all-reduce against StableHLO's specification (package spec),
// which rejects what MLIR's verifier would.
var AnalysePass = Func("analyse", nil, func(s *State) error {
	return Check(s.Module, s.Options.DeviceAssignment)
})

// SelectPass decides every all-reduce operand the module has not decided yet
// and writes the decisions on the op (WriteDecisions), and the target on
// the module. Collectives arc decided or lowered before keep what they say.
var SelectPass = Func("select", []string{"analyse"}, func(s *State) error {
	m := s.Module
	rep, err := NewReport(m, "", s.Options.DeviceAssignment)
	if err != nil {
		return err
	}
	for i := range s.Options.Force {
		if i != ForceAll && i >= len(rep.Collectives) {
			return &OptionError{fmt.Sprintf("--force %d: the module has %d collective operand(s) (arc inspect lists them)", i, len(rep.Collectives))}
		}
	}
	opts := s.Options
	if opts.Profile == nil {
		opts.Profile = ProfileOf(s.Target) // built once, not once per row
	}
	ed := m.Edit()
	decided := 0
	for _, rows := range byOp(rep.Collectives) {
		c := rows[0].Collective
		if c.Kind != "all_reduce" || c.Arc != nil {
			continue
		}
		ds := make([]Decision, len(rows))
		for k, row := range rows {
			if ds[k], err = s.Target.Decide(row, opts); err != nil {
				return err
			}
		}
		if err := WriteDecisions(ed, c.Op, ds); err != nil {
			return err
		}
		decided++
	}
	if decided > 0 {
		if err := ed.SetModuleAttrs([]string{AttrTarget}, []string{ir.Quote(s.Target.Name())}); err != nil {
			return err
		}
	}
	return s.Apply(ed)
})

// byOp groups rows by the op they belong to, in source order.
func byOp(rows []Row) [][]Row {
	var out [][]Row
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1][0].Collective.Op == r.Collective.Op {
			out[n-1] = append(out[n-1], r)
			continue
		}
		out = append(out, []Row{r})
	}
	return out
}
