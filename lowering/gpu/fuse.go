package gpu

import (
	"fmt"
	"math"

	"strings"

	"github.com/arcpass/arc/abi"
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
	fused = row.EstUS*imbalance + NormFusedUS(row.Bytes)
	return fused, row.EstUS + NormSeparateUS(row.Bytes), ""
}

// lowerFused replaces an all-reduce that the fuse pass fused, with the ops
// of its residual add and norm, by one call of arc's fused kernel, in the
// add's place; it defines h and y under their names.
func (l *lowerer) lowerFused(op *ir.Op, rows []*passes.Row) error {
	m, ed := l.m, l.ed
	fz, why, _ := l.norms.Match(op)
	if fz == nil {
		return m.Errorf(int(op.Start), "%s: %s = %q, but %s", op.Name, passes.AttrFuse, ir.NormRMS, why)
	}
	if len(rows) != 1 || !runsKernel(rows[0]) {
		return m.Errorf(int(op.Start), "%s: %s = %q on an all-reduce that does not run one of arc's kernels", op.Name, passes.AttrFuse, ir.NormRMS)
	}
	r := rows[0]
	c := r.Collective
	_, reason := passes.Fused(m, op)
	call := FusedCall(l.use(c.Operands[0]), l.use(fz.Residual), l.use(fz.Weight), fz, r, reason)
	ed.Replace(fz.At, fz.H+", "+fz.Y+" = "+call+trailingLoc(m, op))
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

// FusedCall prints the fused form of arc's custom call (ir.NormKey): the
// all-reduce of operand as row decided it, then h = residual + sum and the
// RMSNorm of h's rows with weight, as fz's recipe says. The constants are
// f32 bit patterns, which MLIR reads back exactly.
func FusedCall(operand, residual, weight string, fz *passes.NormFusion, row *passes.Row, reason string) string {
	rc := fz.Recipe
	f32 := func(v float32) string { return fmt.Sprintf("0x%08X : f32", math.Float32bits(v)) }
	flat := row.Flattened
	if len(flat) != len(row.Groups) {
		flat = row.Groups
	}
	cast := 0
	if row.Cast {
		cast = 1
	}
	cfg := fmt.Sprintf("{algo = %s, cast = %d : i64, codec = %s, devices = array<i64: %s>, eps = %s, groups = array<i64: %s>, link = %s, mean = %s, norm = %s, row = %d : i64, scale = %s, weight = %s, world = %d : i64}",
		ir.Quote(row.Algo), cast, ir.Quote(row.Codec), idList(row.Groups), f32(rc.Eps), idList(flat), ir.Quote(row.Link),
		ir.Quote(rc.Mean), ir.Quote(ir.NormRMS), rc.Row, f32(rc.Scale), ir.Quote(rc.Weight), row.GroupSize)
	t, wt := fz.Type, fz.WeightType
	layout, wl := layoutOf(len(t.Shape)), layoutOf(len(wt.Shape))
	return fmt.Sprintf(`"stablehlo.custom_call"(%s, %s, %s) {api_version = 4 : i32, arc.est_us = %s, arc.fuse = %s, arc.fuse_reason = %s, arc.lowering = %s, arc.native_us = %s, arc.reason = %s, backend_config = %s, call_target_name = %s, has_side_effect = true, operand_layouts = [%s, %s, %s], result_layouts = [%s, %s]} : (%s, %s, %s) -> (%s, %s)`,
		operand, residual, weight, passes.USAttr(row.EstUS), ir.Quote(ir.NormRMS), ir.Quote(reason), ir.Quote(row.Lowering),
		passes.USAttr(row.NativeUS), ir.Quote(row.Reason), cfg, ir.Quote(ir.ArcTarget), layout, layout, wl, layout, layout, t, t, wt, t, t)
}
