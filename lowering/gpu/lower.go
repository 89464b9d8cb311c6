// Package gpu is what arc's GPU targets share: the Machine that describes
// one (the kernels it offers, their eligibility rules, the analytic cost
// model) and the rewrite of the all-reduces select gave to one of arc's
// kernels into typed-FFI custom calls of arc_allreduce, the handler that
// arc's runtime registers with the CUDA or ROCm PJRT plugin. Each lowered
// operand becomes one call; operands that stay native stay in one
// all-reduce. Results keep their names where the module spells them one by
// one; a packed result ("%3:2", used as "%3#1") is split into fresh names
// and its uses renamed. lowering/cuda and lowering/rocm are machines of it.
package gpu

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Lower rewrites every all-reduce whose decisions (decision.Write) name one
// of arc's kernels. The decisions come from the module, the groups and
// devices from the analysis.
func Lower(s *passes.State) error {
	a, err := s.Decided()
	if err != nil {
		return err
	}
	m := s.Module
	l := &lowerer{m: m, ed: m.Edit(), renamed: map[string]string{}, rewritten: map[*ir.Op]bool{}, norms: passes.NewNormMatcher(m)}
	byOp := map[*ir.Op][]*passes.Row{}
	var order []*ir.Op
	for i := range a.Rows {
		row := &a.Rows[i]
		c := row.Collective
		if c.Kind != "all_reduce" || c.Arc == nil || decision.IsCall(c) {
			continue // undecided, or lowered already
		}
		if _, seen := byOp[c.Op]; !seen {
			order = append(order, c.Op)
		}
		byOp[c.Op] = append(byOp[c.Op], row)
		if row.RunsKernel() {
			l.rewritten[c.Op] = true
		}
	}
	for _, op := range order { // source order: a value's definition comes before its uses
		lower := l.lowerOp
		if byOp[op][0].Fuse != "" {
			lower = l.lowerFused
		}
		if err := lower(op, byOp[op]); err != nil {
			return err
		}
	}
	if !l.ed.Changed() {
		return nil
	}
	out, err := l.ed.Apply()
	if err != nil {
		return err
	}
	if out, err = markRemainders(out, l.remainders); err != nil {
		return err
	}
	s.Module = out
	return nil
}

type lowerer struct {
	m         *ir.Module
	ed        *ir.Editor
	renamed   map[string]string // "%3#1" -> "%arc0" for packed results split apart
	rewritten map[*ir.Op]bool   // ops whose whole text is replaced
	// remainders holds, in source order, the native all-reduces that
	// lowerOp printed for the operands of a split op that stay native.
	remainders []remainder
	norms      *passes.NormMatcher // the fused all-reduces' norms
}

// remainder is what a split-off native all-reduce records: the decisions
// of its operands, and its shardings cut down to its results.
type remainder struct {
	rows []*passes.Row
	kept []ir.Attr
}

// markRemainders records on the all-reduces that lowering split off (the
// operands of a partly lowered op that stay native) the decisions of their
// own operands only, and the shardings of their own results. They are the
// ops of out that still carry decisions of more operands than they have, in
// source order.
func markRemainders(out *ir.Module, remainders []remainder) (*ir.Module, error) {
	if len(remainders) == 0 {
		return out, nil
	}
	cs, err := out.Collectives()
	if err != nil {
		return nil, err
	}
	ed := out.Edit()
	k := 0
	for _, c := range cs {
		if c.Kind != "all_reduce" || !splitOff(out, c) {
			continue
		}
		if k == len(remainders) {
			return nil, out.Errorf(int(c.Op.Start), "internal error: %s carries the decisions of another op", c.Op.Name)
		}
		r := remainders[k]
		ds := make([]decision.Decision, len(r.rows))
		for i, row := range r.rows {
			ds[i] = row.Decision
		}
		if len(ds) != len(c.OperandTypes) {
			return nil, out.Errorf(int(c.Op.Start), "internal error: %s has %d operands for %d decisions", c.Op.Name, len(c.OperandTypes), len(ds))
		}
		if err := decision.Write(ed, c.Op, ds, r.kept...); err != nil {
			return nil, err
		}
		k++
	}
	if k != len(remainders) {
		return nil, fmt.Errorf("internal error: %d split all-reduces lost", len(remainders)-k)
	}
	return ed.Apply()
}

// splitOff reports an all-reduce that carries the decisions of the op it
// was split from: one per operand of that op, more than it has.
func splitOff(m *ir.Module, c *ir.Collective) bool {
	v, ok := m.Attr(c.Op, decision.AttrLowering)
	elems, isArray := ir.SplitArray(v)
	return ok && isArray && len(elems) != len(c.OperandTypes)
}

// use maps an operand through the renames made so far.
func (l *lowerer) use(v string) string {
	if n, ok := l.renamed[v]; ok {
		return n
	}
	return v
}

// rename points the uses of result k of a packed result at a new name.
func (l *lowerer) rename(op *ir.Op, packed string, k int, to string) {
	l.renamed[fmt.Sprintf("%s#%d", packed, k)] = to
	l.ed.RenameUses(op, packed, k, to, func(o *ir.Op) bool { return l.rewritten[o] })
}

func (l *lowerer) lowerOp(op *ir.Op, rows []*passes.Row) (err error) {
	m, ed := l.m, l.ed
	var lowered, native []*passes.Row
	for _, r := range rows {
		if r.RunsKernel() {
			lowered = append(lowered, r)
		} else {
			native = append(native, r)
		}
	}
	if len(lowered) == 0 {
		return nil // select wrote the native decisions already
	}
	results := resultNames(m, op)
	packed := len(results) == 1 && results[0].Count > 1
	if !packed && len(results) != len(rows) {
		return m.Errorf(int(op.Start), "%s: %d results for %d operands", op.Name, len(results), len(rows))
	}
	loc := trailingLoc(m, op)
	var pieces []string
	for _, r := range lowered {
		c := r.Collective
		name := ""
		if packed {
			name = ed.FreshName("arc")
			l.rename(op, results[0].Name, r.Operand, name)
		} else {
			name = results[r.Operand].Name
		}
		call := callOf(l.use(c.Operands[r.Operand]), c.OperandTypes[r.Operand], r)
		if call.Kept, err = decision.KeptAttrs(m, op, []int{r.Operand}); err != nil {
			return err
		}
		pieces = append(pieces, name+" = "+call.Format()+loc)
	}
	if len(native) > 0 {
		keep := make([]int, len(native))
		for i, r := range native {
			keep[i] = r.Operand
		}
		text, err := m.GenericWith(op, keep, l.use)
		if err != nil {
			return err
		}
		var names []string
		if packed {
			fresh := ed.FreshName("arc")
			for j, k := range keep {
				to := fresh
				if len(keep) > 1 {
					to = fmt.Sprintf("%s#%d", fresh, j)
				}
				l.rename(op, results[0].Name, k, to)
			}
			if len(keep) > 1 {
				fresh = fmt.Sprintf("%s:%d", fresh, len(keep))
			}
			names = []string{fresh}
		} else {
			for _, k := range keep {
				names = append(names, results[k].Name)
			}
		}
		pieces = append(pieces, strings.Join(names, ", ")+" = "+text)
		kept, err := decision.KeptAttrs(m, op, keep)
		if err != nil {
			return err
		}
		l.remainders = append(l.remainders, remainder{native, kept})
	}
	ed.Replace(op, strings.Join(pieces, m.Newline(op)+m.Indent(op)))
	return nil
}

// trailingLoc is the location the op ends with (" loc(#loc4)"), which the
// calls that replace it keep, or "".
func trailingLoc(m *ir.Module, op *ir.Op) string {
	l, err := m.Layout(op)
	if err != nil {
		return ""
	}
	if rest := strings.TrimSpace(m.Src[l.TypeEnd:op.End]); rest != "" {
		return " " + rest
	}
	return ""
}

// resultNames lists how the op names its results.
func resultNames(m *ir.Module, op *ir.Op) []ir.ValueRef {
	var out []ir.ValueRef
	m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			out = append(out, v)
		}
	})
	return out
}

// callOf is the call that runs one operand of an all-reduce through arc's
// kernel, as the select pass decided in row. It names each group twice,
// group-major: as the global device ids the runtime runs the ranks on (rank
// = position in the group), and as flattened process ids, for reading the
// call back.
func callOf(operand string, t ir.TensorType, row *passes.Row) *decision.Call {
	devices := clone(row.Groups)
	flat := clone(row.Flattened)
	if len(flat) != len(devices) {
		flat = clone(devices) // a module arc lowered before recording both
	}
	if row.Algo == "hier" {
		// The kernel pairs rank r with r + W/2: ordered ids put each half of
		// the machine (its NUMA node) first and second.
		for i := range devices {
			order := make([]int, len(devices[i]))
			for j := range order {
				order[j] = j
			}
			sort.SliceStable(order, func(a, b int) bool { return devices[i][order[a]] < devices[i][order[b]] })
			d, f := make([]int64, len(order)), make([]int64, len(order))
			for j, k := range order {
				d[j], f[j] = devices[i][k], flat[i][k]
			}
			devices[i], flat[i] = d, f
		}
	}
	d := row.Decision
	d.Payload = nil
	d.Fuse, d.FuseReason = "", "" // the fused form sets them (fusedCallOf)
	return &decision.Call{
		Target: decision.AllReduce, Decision: d, World: row.GroupSize,
		Devices: slices.Concat(devices...), Groups: slices.Concat(flat...),
		Operands: []string{operand}, OperandTypes: []ir.TensorType{t}, ResultTypes: []ir.TensorType{t},
	}
}

func clone(groups [][]int64) [][]int64 {
	out := make([][]int64, len(groups))
	for i, g := range groups {
		out[i] = append([]int64(nil), g...)
	}
	return out
}
