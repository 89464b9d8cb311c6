package gpu

import (
	"fmt"
	"math"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// FuseNorm is the NormFuser side of a GPU machine: oneshot and twoshot have
// fused kernels (abi.CheckFused), two-shot's rows are owned by one rank
// each, and the estimates are the all-reduce's plus the norm's in the
// kernel (NormFusedUS) against the all-reduce's plus the norm's own kernel
// (NormSeparateUS).
func (m *Machine) FuseNorm(row passes.Row, fz *passes.NormFusion) (fused, unfused float64, why string) {
	n := int64(fz.Recipe.Row)
	es := ir.ElemBytes(fz.Type.Elem)
	if err := abi.CheckFused(row.Algo, n, es); err != nil {
		return 0, 0, err.Error()
	}
	rows := fz.Type.Elems() / n
	imbalance := 1.0
	if row.Algo == "twoshot" {
		w := int64(row.GroupSize)
		if rows < w {
			return 0, 0, fmt.Sprintf("%d row(s) for %d ranks: two-shot's rows are owned by one rank each", rows, w)
		}
		imbalance = float64((rows+w-1)/w) / (float64(rows) / float64(w))
	}
	if row.EstUS <= 0 || math.IsInf(row.EstUS, 0) {
		return 0, 0, "the all-reduce has no estimate"
	}
	fused = row.EstUS*imbalance + NormFusedUS(row.Algo, row.Bytes)
	return fused, row.EstUS + NormSeparateUS(row.Bytes), ""
}

// lowerFused replaces an all-reduce that the fuse pass fused, with the ops
// of its residual add and norm, by one call of arc's fused kernel, in the
// add's place; it defines h and y under their names.
func (l *lowerer) lowerFused(op *ir.Op, rows []*passes.Row) error {
	m, ed := l.m, l.ed
	if len(rows) != 1 || !rows[0].RunsKernel() {
		return m.Errorf(int(op.Start), "%s: %s = %q on an all-reduce that does not run one of arc's kernels", op.Name, decision.AttrFuse, decision.NormRMS)
	}
	fz, why, _ := l.norms.Match(rows[0].Collective)
	if fz == nil {
		return m.Errorf(int(op.Start), "%s: %s = %q, but %s", op.Name, decision.AttrFuse, decision.NormRMS, why)
	}
	call := fusedCallOf(l.use(rows[0].Collective.Operands[0]), l.use(fz.Residual), l.use(fz.Weight), fz, rows[0])
	ed.Replace(fz.At, fz.H+", "+fz.Y+" = "+call.Format()+trailingLoc(m, op))
	for _, o := range append([]*ir.Op{op}, fz.Ops...) {
		if o != fz.At {
			deleteOp(m, ed, o)
		}
	}
	return nil
}

// deleteOp removes an op, and its line when nothing else is on it.
func deleteOp(m *ir.Module, ed *ir.Editor, op *ir.Op) {
	start, end := int(op.Start), int(op.End)
	line := strings.LastIndexByte(m.Src[:start], '\n') + 1
	rest := end
	for rest < len(m.Src) && (m.Src[rest] == ' ' || m.Src[rest] == '\t' || m.Src[rest] == '\r') {
		rest++
	}
	if strings.TrimSpace(m.Src[line:start]) == "" && (rest == len(m.Src) || m.Src[rest] == '\n') {
		start, end = line, min(rest+1, len(m.Src))
	}
	ed.ReplaceSpan(start, end, "")
}

// fusedCallOf is the fused form of arc's call (decision.Call.Norm): the
// all-reduce of operand as row decided it, then h = residual + sum and the
// RMSNorm of h's rows with weight, as fz's recipe says.
func fusedCallOf(operand, residual, weight string, fz *passes.NormFusion, row *passes.Row) *decision.Call {
	c := callOf(operand, fz.Type, row)
	rc := fz.Recipe
	rc.Eps = plantedEps(rc.Eps)
	c.Norm, c.Fuse, c.FuseReason = &rc, row.Fuse, row.FuseReason
	c.Operands = append(c.Operands, residual, weight)
	c.OperandTypes = append(c.OperandTypes, fz.Type, fz.WeightType)
	c.ResultTypes = append(c.ResultTypes, fz.Type)
	return c
}
