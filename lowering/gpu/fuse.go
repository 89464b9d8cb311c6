package gpu

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	if !slices.Contains(abi.KernelNorms, fz.Recipe.Norm) {
		return 0, 0, fmt.Sprintf("arc's fused kernels run %v, not %s yet", abi.KernelNorms, fz.Recipe.Norm)
	}
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
	mark := rows[0].Fuse
	if len(rows) != 1 || !rows[0].RunsKernel() {
		return m.Errorf(int(op.Start), "%s: %s = %q on an all-reduce that does not run one of arc's kernels", op.Name, decision.AttrFuse, mark)
	}
	if abi.NormKind(mark) < 0 {
		return m.Errorf(int(op.Start), "%s: %s = %q: arc fuses %v", op.Name, decision.AttrFuse, mark, abi.NormKinds)
	}
	fz, why := rows[0].Fusion, ""
	if fz == nil || fz.AllReduce != op { // fused by an earlier compile, or --passes without fuse
		fz, why, _ = l.norms.Match(rows[0].Collective)
	}
	switch {
	case fz == nil:
		return m.Errorf(int(op.Start), "%s: %s = %q, but %s", op.Name, decision.AttrFuse, mark, why)
	case fz.Recipe.Norm != mark:
		return m.Errorf(int(op.Start), "%s: %s = %q, but the program's norm is %s", op.Name, decision.AttrFuse, mark, fz.Recipe.Norm)
	}
	operands := []string{l.use(rows[0].Collective.Operands[0]), l.use(fz.Residual), l.use(fz.Weight)}
	if fz.Bias != "" {
		operands = append(operands, l.use(fz.Bias))
	}
	call := fusedCallOf(operands, fz, rows[0])
	kept, err := fusedKept(m, fz)
	if err != nil {
		return err
	}
	call.Kept = kept
	// The ops that make the weight after the add move before the call, in
	// their order, each on a line of the add's indentation.
	var moved strings.Builder
	indent := m.Src[strings.LastIndexByte(m.Src[:fz.At.Start], '\n')+1 : fz.At.Start]
	for _, o := range fz.Hoist {
		moved.WriteString(m.Src[o.Start:o.End] + "\n")
		if strings.TrimSpace(indent) == "" {
			moved.WriteString(indent)
		}
		deleteOp(m, ed, o)
	}
	ed.Replace(fz.At, moved.String()+fz.H+", "+fz.Y+" = "+call.Format()+trailingLoc(m, op))
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
// all-reduce of operands[0] as row decided it, then h = residual + sum and
// the norm of h's rows with the weight (and bias), as fz's recipe says;
// operands are the sum's, the residual, the weight and the bias if any.
func fusedCallOf(operands []string, fz *passes.NormFusion, row *passes.Row) *decision.Call {
	c := callOf(operands[0], fz.Type, row)
	rc := fz.Recipe
	rc.Eps = plantedEps(rc.Eps)
	c.Norm, c.Fuse, c.FuseReason = &rc, row.Fuse, row.FuseReason
	c.Operands = append(c.Operands, operands[1:]...)
	c.OperandTypes = append(c.OperandTypes, fz.Type, fz.WeightType)
	if fz.Bias != "" {
		c.OperandTypes = append(c.OperandTypes, fz.BiasType)
	}
	c.ResultTypes = append(c.ResultTypes, fz.Type)
	return c
}

// fusedKept is what the fused call keeps of the ops it replaces, as a
// call of one result keeps its all-reduce's (decision.KeptAttrs): h takes
// the shardings of the add that made it, y those of the op that made y,
// each falling back to the all-reduce's (a value of the same type), and
// then to the other result's; the frontend attributes are the
// all-reduce's, with the entries of the replaced ops it does not have.
func fusedKept(m *ir.Module, fz *passes.NormFusion) ([]ir.Attr, error) {
	of := func(op *ir.Op) (map[string]string, error) {
		kept, err := decision.KeptAttrs(m, op, []int{0})
		out := map[string]string{}
		for _, a := range kept {
			out[a.Name] = a.Value
		}
		return out, err
	}
	ar, err := of(fz.AllReduce)
	if err != nil {
		return nil, err
	}
	h, err := of(fz.At)
	if err != nil {
		return nil, err
	}
	y, err := of(fz.Last)
	if err != nil {
		return nil, err
	}
	var out []ir.Attr
	for _, name := range []string{"mhlo.sharding", "sdy.sharding"} {
		hv, yv := cmp.Or(h[name], ar[name], y[name]), cmp.Or(y[name], ar[name], h[name])
		if hv == "" {
			continue
		}
		v, ok := joinShardings(name, hv, yv)
		if !ok {
			return nil, m.Errorf(int(fz.At.Start), "%s: cannot give the fused call the shardings %s and %s", fz.At.Name, hv, yv)
		}
		out = append(out, ir.Attr{Name: name, Value: v})
	}
	var entries []ir.Attr
	seen := map[string]bool{}
	for _, op := range append([]*ir.Op{fz.AllReduce}, fz.Ops...) {
		v, ok := ir.AttrValue(m.OpAttrs(op), "mhlo.frontend_attributes")
		if !ok {
			continue
		}
		dict, ok := ir.SplitDict(v)
		if !ok {
			return nil, m.Errorf(int(op.Start), "%s: mhlo.frontend_attributes is not a dictionary", op.Name)
		}
		for _, e := range dict {
			if !seen[e.Name] {
				seen[e.Name] = true
				entries = append(entries, e)
			}
		}
	}
	if len(entries) > 0 {
		parts := make([]string, len(entries))
		for i, e := range entries {
			parts[i] = e.Name
			if e.Value != "" {
				parts[i] += " = " + e.Value
			}
		}
		out = append(out, ir.Attr{Name: "mhlo.frontend_attributes", Value: "{" + strings.Join(parts, ", ") + "}"})
	}
	return out, nil
}

// joinShardings is the sharding of a call of two results from each
// result's own: HLO's tuple "{{a}, {b}}", or Shardy's per-value list.
func joinShardings(name, h, y string) (string, bool) {
	if name == "mhlo.sharding" {
		a, b := strings.TrimSpace(ir.Unquote(h)), strings.TrimSpace(ir.Unquote(y))
		if !strings.HasPrefix(a, "{") || !strings.HasPrefix(b, "{") {
			return "", false
		}
		return ir.Quote("{" + a + ", " + b + "}"), true
	}
	const pre, suf = "#sdy.sharding_per_value<[", "]>"
	a, b := strings.TrimSpace(h), strings.TrimSpace(y)
	if !strings.HasPrefix(a, pre) || !strings.HasSuffix(a, suf) || !strings.HasPrefix(b, pre) || !strings.HasSuffix(b, suf) {
		return "", false
	}
	ea, eb := a[len(pre):len(a)-len(suf)], b[len(pre):len(b)-len(suf)]
	if len(ir.SplitTop(ea, ',')) != 1 || len(ir.SplitTop(eb, ',')) != 1 {
		return "", false
	}
	return pre + ea + ", " + eb + suf, true
}
