package passes

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
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
var FusePass = Func("fuse", []Need{{"select", "it fuses the norms after the all-reduces select gave to arc's kernels"}}, func(s *State) error {
	fuser, ok := s.Target.(NormFuser)
	if !ok {
		return nil
	}
	a, err := s.Analysed()
	if err != nil {
		return err
	}
	m := s.Module
	ed := m.Edit()
	norms := NewNormMatcher(m)
	claimed := map[*ir.Op]*ir.Op{} // an op a fusion replaces -> its all-reduce
	fusions := map[*ir.Op]*NormFusion{}
	for _, rows := range byOp(a.Rows) {
		row := rows[0]
		c := row.Collective
		if c.Kind != "all_reduce" || decision.IsCall(c) || !row.RunsKernel() {
			continue // native, or lowered before
		}
		if _, done := m.Attr(c.Op, decision.AttrFuse); done {
			continue
		}
		fz, miss, near := norms.Match(c)
		if len(rows) != 1 || fz == nil && !near {
			continue // no residual add follows: nothing to say
		}
		fuse, why := "", ""
		other := (*ir.Op)(nil)
		if fz != nil {
			for _, op := range fz.Ops {
				if c := claimed[op]; c != nil && other == nil {
					other = c
				}
			}
		}
		switch {
		case fz == nil:
			why = "not fused: " + miss
		case other != nil:
			why = fmt.Sprintf("not fused: its residual add and norm are fused with the all-reduce at %s", m.Position(int(other.Start)))
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
				fuse = fz.Recipe.Norm
				why = fmt.Sprintf("fused with the residual add and %v: est %.1f us vs %.1f us with the norm's own kernel", fz.Recipe, fused, unfused)
				for _, op := range fz.Ops {
					claimed[op] = c.Op
				}
				fusions[c.Op] = fz
			}
		}
		if note := epilogueNote(fz); note != "" {
			for i := range a.Rows {
				if a.Rows[i].Collective.Op == c.Op {
					a.Rows[i].Epilogue = note
				}
			}
		}
		if err := decision.WriteFuse(ed, c.Op, fuse, why); err != nil {
			return err
		}
	}
	if err := s.Apply(ed); err != nil || s.Module == m {
		return err
	}
	was := make([]*ir.Op, len(a.Rows))
	for i := range a.Rows {
		was[i] = a.Rows[i].Collective.Op
	}
	if err := a.Rebind(s.Module); err != nil { // fuse adds attributes only, as select does
		return err
	}
	keep(m, s.Module, a, was, fusions)
	return nil
})

// epilogueNote is what --explain says of an FP8 epilogue after y
// (nothing where none follows): matched but not fused, while the kernels
// do not have it (abi.KernelEpilogues), or why it is not one.
func epilogueNote(fz *NormFusion) string {
	switch {
	case fz == nil:
		return ""
	case fz.FP8 != nil && !slices.Contains(abi.KernelEpilogues, "fp8_e4m3"):
		return fmt.Sprintf("FP8 epilogue matched (%v), but arc's fused kernels do not have it yet: its ops stay, reading y", fz.FP8)
	case fz.FP8Miss != "":
		return "no FP8 epilogue: " + fz.FP8Miss
	}
	return ""
}

// keep gives the rows of the fused all-reduces their fusions, taken from m,
// the module fuse matched them in, to n, the one it wrote (rows' ops were
// was in m): the lowering then carries them out without matching again.
// Where n's ops cannot be told from m's, it gives none, and the lowering
// matches again.
func keep(m, n *ir.Module, a *Analysis, was []*ir.Op, fused map[*ir.Op]*NormFusion) {
	to := map[*ir.Op]*ir.Op{}
	for _, fz := range fused {
		ops := append(append([]*ir.Op{fz.AllReduce, fz.At, fz.Last}, fz.Ops...), fz.Hoist...)
		if fz.FP8 != nil {
			ops = append(ops, fz.FP8.Ops...)
		}
		for _, op := range ops {
			to[op] = nil
		}
	}
	if len(fused) == 0 || !m.Counterparts(n, to) {
		return
	}
	for i := range a.Rows {
		if fz := fused[was[i]]; fz != nil {
			a.Rows[i].Fusion = fz.in(to)
		}
	}
}
