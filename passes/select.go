package passes

import (
	"fmt"

	"github.com/arcpass/arc/decision"
)

// AnalysePass checks the input, so that a broken module is reported at its
// own lines, not at those of a lowered one: its structure (as Verify does)
// and every all-reduce against StableHLO's specification (package spec),
// which rejects what MLIR's verifier would. What it learns is the state's
// Analysis, which the passes after it read.
var AnalysePass = Func("analyse", nil, func(s *State) error {
	if err := verifyStructure(s.Module); err != nil {
		return err
	}
	a, err := Analyse(s.Module, s.Options.DeviceAssignment)
	if err != nil {
		return err
	}
	if err := checkCalls(s.Module, a.collectives); err != nil {
		return err
	}
	if err := checkCallDevices(s.Module, a.collectives, a.checked, s.Options.DeviceAssignment); err != nil {
		return err
	}
	s.Analysis = a
	return nil
})

// SelectPass decides every all-reduce operand the module has not decided yet
// and writes the decisions on the op (decision.Write), and the target on
// the module. Collectives arc decided or lowered before keep what they say.
var SelectPass = Func("select", []Need{{"analyse", "it decides on the rows analyse checked against StableHLO's rules"}}, func(s *State) error {
	a, err := s.Analysed()
	if err != nil {
		return err
	}
	for i := range s.Options.Force {
		if i != ForceAll && i >= len(a.Rows) {
			return &OptionError{fmt.Sprintf("--force %d: the module has %d collective operand(s) (arc inspect lists them)", i, len(a.Rows))}
		}
	}
	opts := s.Options
	if opts.Profile == nil {
		opts.Profile = ProfileOf(s.Target) // built once, not once per row
	}
	m := s.Module
	ed := m.Edit()
	decided := 0
	for _, rows := range byOp(a.Rows) {
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
		if err := decision.Write(ed, c.Op, ds); err != nil {
			return err
		}
		decided++
	}
	if decided > 0 {
		if err := decision.WriteTarget(ed, s.Target.Name()); err != nil {
			return err
		}
	}
	if err := s.Apply(ed); err != nil || s.Module == m {
		return err
	}
	return a.Rebind(s.Module) // select adds attributes only: the rows still hold
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
