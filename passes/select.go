package passes

import (
	"fmt"
)

// AnalysePass checks the input (as the verify pass does, so that a broken
// module is reported at its own lines, not at those of a lowered one) and
// lists its collectives in the report.
var AnalysePass = Func("analyse", func(s *State) error {
	cs, err := verify(s.Module)
	if err != nil {
		return err
	}
	s.Report = newReport(s.Module, cs, s.Target.Name)
	return nil
})

// SelectPass records a decision for every all-reduce row: the lowering, its
// codec, the reason and the estimated time. Rows of other collectives say why
// they stay as they are. Rows arc lowered before keep what the module says.
var SelectPass = Func("select", func(s *State) error {
	if s.Report == nil {
		return fmt.Errorf("select needs the analyse pass first")
	}
	for i := range s.Options.Force {
		if i != ForceAll && i >= len(s.Report.Collectives) {
			return fmt.Errorf("--force %d: the module has %d collective operand(s)", i, len(s.Report.Collectives))
		}
	}
	opts := s.Options
	if opts.Profile == nil {
		opts.Profile = BuiltinProfile(s.Target) // built once, not once per row
	}
	for i := range s.Report.Collectives {
		row := &s.Report.Collectives[i]
		if row.Collective != nil && row.Collective.Arc != nil {
			if row.Reason == "" {
				row.Reason = "already lowered by arc"
			}
			continue
		}
		d, err := Decide(s.Target, opts, *row)
		if err != nil {
			return err
		}
		row.Lowering, row.Codec, row.Reason = d.Lowering, d.Codec, d.Reason
		row.Algo, row.Link, row.Cast = d.Algo, d.Link, d.Cast
		row.EstUS, row.NativeUS = d.EstUS, d.NativeUS
	}
	return nil
})
