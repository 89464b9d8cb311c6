package passes

import (
	"fmt"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
)

// AnalysePass checks the input, so that a broken module is reported at its
// own lines, not at those of a lowered one: its structure (as Verify does)
// and every all-reduce against StableHLO's specification (package spec),
// which rejects what MLIR's verifier would. arc's calls among them (which
// arc keeps as they are) are checked as arc's own: the handler's keys and
// types (decision.ParseCall), their groups against the module's grid
// (spec), their devices against this compile's device assignment, and
// their kernel against the target and this compile's options (Admitter):
// a call the runtime would refuse, or run other than the module says, or
// that sends a lossy codec this compile does not allow, is an error at
// the call. What it learns is the state's Analysis, which the passes after
// it read.
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
	if err := admit(s, a, false); err != nil {
		return err
	}
	s.Analysis = a
	return nil
})

// SelectPass decides every all-reduce operand and writes the decisions on
// the op (decision.Write), and the target on the module. The decision is
// this compile's, for its target and options: the arc.* decisions an
// all-reduce carries (an earlier compile's, select's output replayed, or
// written by hand) are never obeyed, so that what the output runs is what
// this compile allows (a lossy codec only with its --quant). They are
// replaced where they differ from it, and left as written where they hold
// it already (holds).
// arc's own calls (lowered before) are not all-reduces to decide: the
// analyse pass checked them against the module, and they stay.
var SelectPass = Func("select", []Need{{"analyse", "it decides on the rows analyse checked against StableHLO's rules"}}, func(s *State) error {
	a, err := s.Analysed()
	if err != nil {
		return err
	}
	s.selected = true
	for i := range s.Options.Force {
		if i == ForceAll {
			continue
		}
		if i >= len(a.Rows) {
			return &OptionError{fmt.Sprintf("--force %d: the module has %d collective operand(s) (arc inspect lists them)", i, len(a.Rows))}
		}
		switch c := a.Rows[i].Collective; {
		case c.Kind != "all_reduce":
			return &OptionError{fmt.Sprintf("--force %d: operand %d is read by %s, and arc lowers only all-reduces (arc inspect lists them)", i, i, c.Op.Name)}
		case decision.IsCall(c):
			return &OptionError{fmt.Sprintf("--force %d: operand %d is arc's call already, which a compile keeps as written", i, i)}
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
		if c.Kind != "all_reduce" || decision.IsCall(c) {
			continue
		}
		ds := make([]Decision, len(rows))
		for k, row := range rows {
			if ds[k], err = s.Target.Decide(row, opts); err != nil {
				return err
			}
		}
		decided++
		keep, err := holds(m, c, ds)
		if err != nil {
			return err
		}
		if keep {
			continue // the op says so already: its text stays as written
		}
		if err := decision.Write(ed, c.Op, ds); err != nil {
			return err
		}
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

// holds reports an all-reduce whose marks hold the decisions ds already:
// for every operand the same lowering, codec, kernel, link, cast and
// payload (decision.SamePayload), and no fusion (which the fuse pass decides after select). Such an op is
// left as written, its reason and estimates included: they describe the
// compile that decided it so, as a decision this compile makes alike. So
// arc's own output compiled again with the same target and options, or
// handed on by a proxy that lowers nothing new, comes back byte for byte.
func holds(m *ir.Module, c *ir.Collective, ds []Decision) (bool, error) {
	if c.Arc == nil {
		return false, nil
	}
	for _, name := range []string{decision.AttrFuse, decision.AttrFuseReason} {
		if _, ok := m.Attr(c.Op, name); ok {
			return false, nil
		}
	}
	carried, err := decision.Read(m, c)
	if err != nil || len(carried) != len(ds) {
		return false, err
	}
	for k, d := range ds {
		was := carried[k]
		if was.Lowering != d.Lowering || was.Codec != d.Codec || was.Algo != d.Algo || was.Link != d.Link ||
			was.CastBF16ToFP16 != d.CastBF16ToFP16 || !decision.SamePayload(was.Payload, d.Payload) {
			return false, nil
		}
	}
	return true, nil
}

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
