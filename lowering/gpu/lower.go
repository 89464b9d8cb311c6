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
	"sort"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Lower rewrites every all-reduce whose decisions (passes.WriteDecisions)
// name one of arc's kernels. It reads nothing but the module.
func Lower(s *passes.State) error {
	m := s.Module
	rep, err := passes.NewReport(m, "", s.Options.DeviceAssignment)
	if err != nil {
		return err
	}
	l := &lowerer{m: m, ed: m.Edit(), renamed: map[string]string{}, rewritten: map[*ir.Op]bool{}, norms: passes.NewNormMatcher(m)}
	byOp := map[*ir.Op][]*passes.Row{}
	var order []*ir.Op
	for i := range rep.Collectives {
		row := &rep.Collectives[i]
		c := row.Collective
		if c.Kind != "all_reduce" || c.Arc == nil || c.Op.Name == "stablehlo.custom_call" {
			continue // undecided, or lowered already
		}
		if _, seen := byOp[c.Op]; !seen {
			order = append(order, c.Op)
		}
		byOp[c.Op] = append(byOp[c.Op], row)
		if runsKernel(row) {
			l.rewritten[c.Op] = true
		}
	}
	for _, op := range order { // source order: a value's definition comes before its uses
		lower := l.lowerOp
		if fuse, _ := passes.Fused(m, op); fuse != "" {
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
	// remainders holds, in source order, the rows of the native all-reduces
	// that lowerOp printed for the operands of a split op that stay native.
	remainders [][]*passes.Row
	norms      *passes.NormMatcher // the fused all-reduces' norms
}

// markRemainders records on the all-reduces that lowering split off (the
// operands of a partly lowered op that stay native) the decisions of their
// own operands only. They are the ops of out that still carry decisions of
// more operands than they have, in source order.
func markRemainders(out *ir.Module, remainders [][]*passes.Row) (*ir.Module, error) {
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
		if c.Kind != "all_reduce" || c.Op.Name == "stablehlo.custom_call" || !splitOff(out, c) {
			continue
		}
		if k == len(remainders) {
			return nil, out.Errorf(int(c.Op.Start), "internal error: %s carries the decisions of another op", c.Op.Name)
		}
		ds := make([]passes.Decision, len(remainders[k]))
		for i, r := range remainders[k] {
			ds[i] = r.Decision()
		}
		if len(ds) != len(c.OperandTypes) {
			return nil, out.Errorf(int(c.Op.Start), "internal error: %s has %d operands for %d decisions", c.Op.Name, len(c.OperandTypes), len(ds))
		}
		if err := passes.WriteDecisions(ed, c.Op, ds); err != nil {
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
	v, ok := m.Attr(c.Op, passes.AttrLowering)
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

// runsKernel reports a decision that names one of arc's kernels. Other
// decisions (native, or a TPU ring of a module compiled for a TPU before)
// keep their all-reduce.
func runsKernel(r *passes.Row) bool { return r.Lowering != "native" && r.Algo != "" }

func (l *lowerer) lowerOp(op *ir.Op, rows []*passes.Row) error {
	m, ed := l.m, l.ed
	var lowered, native []*passes.Row
	for _, r := range rows {
		if runsKernel(r) {
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
		call := Call(l.use(c.Operands[r.Operand]), c.OperandTypes[r.Operand], r)
		pieces = append(pieces, name+" = "+call+loc)
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
		l.remainders = append(l.remainders, native)
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

// Call prints the custom call (without its result) that runs one operand of
// an all-reduce through arc's kernel, as the select pass decided in row.
// Its backend_config names each group twice, group-major: devices, the
// global device ids the runtime runs the ranks on (rank = position in the
// group), and groups, the same processes as flattened ids (replica *
// num_partitions + partition), for reading the call back.
func Call(operand string, t ir.TensorType, row *passes.Row) string {
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
	cast := 0
	if row.Cast {
		cast = 1
	}
	cfg := fmt.Sprintf("{algo = %s, cast = %d : i64, codec = %s, devices = array<i64: %s>, groups = array<i64: %s>, link = %s, world = %d : i64}",
		ir.Quote(row.Algo), cast, ir.Quote(row.Codec), idList(devices), idList(flat), ir.Quote(row.Link), row.GroupSize)
	layout := layoutOf(len(t.Shape))
	return fmt.Sprintf(`"stablehlo.custom_call"(%s) {api_version = 4 : i32, arc.est_us = %s, arc.lowering = %s, arc.native_us = %s, arc.reason = %s, backend_config = %s, call_target_name = %s, has_side_effect = true, operand_layouts = [%s], result_layouts = [%s]} : (%s) -> %s`,
		operand, passes.USAttr(row.EstUS), ir.Quote(row.Lowering), passes.USAttr(row.NativeUS), ir.Quote(row.Reason), cfg, ir.Quote(ir.ArcTarget), layout, layout, t, t)
}

func clone(groups [][]int64) [][]int64 {
	out := make([][]int64, len(groups))
	for i, g := range groups {
		out[i] = append([]int64(nil), g...)
	}
	return out
}

// idList prints groups flattened, group-major: "0, 1, 2, 3".
func idList(groups [][]int64) string {
	var ids []string
	for _, g := range groups {
		for _, id := range g {
			ids = append(ids, fmt.Sprint(id))
		}
	}
	return strings.Join(ids, ", ")
}

// layoutOf is the row-major layout of a rank-n tensor: dims n-1 .. 0.
func layoutOf(rank int) string {
	if rank == 0 {
		return "dense<> : tensor<0xindex>"
	}
	dims := make([]string, rank)
	for i := range dims {
		dims[i] = fmt.Sprint(rank - 1 - i)
	}
	return fmt.Sprintf("dense<[%s]> : tensor<%dxindex>", strings.Join(dims, ", "), rank)
}
