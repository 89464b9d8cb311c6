package passes

import (
	"fmt"

	"github.com/arcpass/arc/ir"
)

// The fuse pass's decision, on each all-reduce that runs one of arc's
// kernels and whose sum a residual add reads: arc.fuse = "rmsnorm" when
// the kernel also does that add and the RMSNorm that follows (MatchNorm),
// else "none"; arc.fuse_reason says why or why not.
const (
	AttrFuse       = "arc.fuse"
	AttrFuseReason = "arc.fuse_reason"
)

// NormFuser is a target with fused kernels: the all-reduce, the residual
// add and the RMSNorm of each row in one kernel.
type NormFuser interface {
	// FuseNorm estimates the fused kernel and the unfused program (the
	// all-reduce, then the norm as a kernel of its own) for a row select
	// decided, or says why the target has no fused kernel for it.
	FuseNorm(row Row, fz *NormFusion) (fusedUS, unfusedUS float64, why string)
}

// FusePass decides, after select, which all-reduces that run one of arc's
// kernels also take the residual add and RMSNorm that follow into the
// kernel: where MatchNorm finds them exactly, the target has the fused
// kernel, and its estimate beats the all-reduce followed by the norm's own
// kernel. Fusion changes nothing but the order of the additions in a row's
// sum of squares. --fuse=false (Options.NoFuse) decides no fusion.
var FusePass = Func("fuse", []string{"select"}, func(s *State) error {
	fuser, ok := s.Target.(NormFuser)
	if !ok {
		return nil
	}
	m := s.Module
	rep, err := NewReport(m, "", s.Options.DeviceAssignment)
	if err != nil {
		return err
	}
	ed := m.Edit()
	norms := NewNormMatcher(m)
	for _, rows := range byOp(rep.Collectives) {
		row := rows[0]
		c := row.Collective
		if c.Kind != "all_reduce" || c.Op.Name == "stablehlo.custom_call" || row.Lowering == "native" || row.Algo == "" {
			continue // native, or lowered before
		}
		if _, done := m.Attr(c.Op, AttrFuse); done {
			continue
		}
		fz, miss, near := norms.Match(c.Op)
		if len(rows) != 1 || fz == nil && !near {
			continue // no residual add follows: nothing to say
		}
		fuse, why := "none", ""
		switch {
		case fz == nil:
			why = "not fused: " + miss
		case s.Options.NoFuse:
			why = "not fused: --fuse=false"
		default:
			fused, unfused, no := fuser.FuseNorm(row, fz)
			switch {
			case no != "":
				why = "not fused: " + no
			case fused >= unfused:
				why = fmt.Sprintf("not fused: est %.1f us fused vs %.1f us with the norm's own kernel", fused, unfused)
			default:
				fuse = ir.NormRMS
				why = fmt.Sprintf("fused with the residual add and %v: est %.1f us vs %.1f us with the norm's own kernel", fz.Recipe, fused, unfused)
			}
		}
		if err := ed.SetAttrs(c.Op, []string{AttrFuse, AttrFuseReason}, []string{ir.Quote(fuse), ir.Quote(why)}); err != nil {
			return err
		}
	}
	return s.Apply(ed)
})

// Fused reads the fuse pass's decision on an all-reduce: the norm it fuses
// ("" when none) and why.
func Fused(m *ir.Module, op *ir.Op) (fuse, reason string) {
	if v, ok := m.Attr(op, AttrFuse); ok && ir.Unquote(v) != "none" {
		fuse = ir.Unquote(v)
	}
	if v, ok := m.Attr(op, AttrFuseReason); ok {
		reason = ir.Unquote(v)
	}
	return fuse, reason
}
