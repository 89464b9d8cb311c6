// Package arccall rewrites the all-reduces that the select pass gave to one of
// arc's GPU kernels into typed-FFI custom calls of arc_allreduce, the handler
// that arc's runtime registers with the CUDA or ROCm PJRT plugin. Each lowered
// operand becomes one call; operands that stay native stay in one all-reduce.
// Results keep their names where the module spells them one by one; a packed
// result ("%3:2", used as "%3#1") is split into fresh names and its uses
// renamed. The CUDA and ROCm lowerings are this rewrite with their own rules.
package arccall

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Lower rewrites every all-reduce of s.Module according to the report's
// decisions, and records native decisions on the all-reduces that stay.
func Lower(s *passes.State) error {
	m := s.Module
	l := &lowerer{m: m, ed: m.Edit(), renamed: map[string]string{}, rewritten: map[*ir.Op]bool{}}
	byOp := map[*ir.Op][]*passes.Row{}
	var order []*ir.Op
	for i := range s.Report.Collectives {
		row := &s.Report.Collectives[i]
		c := row.Collective
		if c == nil || c.Kind != "all_reduce" || c.Arc != nil {
			continue
		}
		if _, seen := byOp[c.Op]; !seen {
			order = append(order, c.Op)
		}
		byOp[c.Op] = append(byOp[c.Op], row)
		if row.Lowering != "native" && row.Lowering != "" {
			l.rewritten[c.Op] = true
		}
	}
	for _, op := range order { // source order: a value's definition comes before its uses
		if err := l.lowerOp(op, byOp[op]); err != nil {
			return err
		}
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
}

// markRemainders records the native decision on the all-reduces that
// lowering split off, as on every other native all-reduce, so that a second
// compile keeps them as they are. They are the all-reduces of out that carry
// no decision yet, in source order.
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
		if c.Kind != "all_reduce" || c.Arc != nil {
			continue
		}
		if k == len(remainders) {
			return nil, out.Errorf(int(c.Op.Start), "internal error: %s left without a decision", c.Op.Name)
		}
		if err := passes.MarkNative(ed, c.Op, remainders[k]); err != nil {
			return nil, err
		}
		k++
	}
	if k != len(remainders) {
		return nil, fmt.Errorf("internal error: %d split all-reduces lost", len(remainders)-k)
	}
	return ed.Apply()
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

func (l *lowerer) lowerOp(op *ir.Op, rows []*passes.Row) error {
	m, ed := l.m, l.ed
	var lowered, native []*passes.Row
	for _, r := range rows {
		if r.Lowering == "native" || r.Lowering == "" {
			native = append(native, r)
		} else {
			lowered = append(lowered, r)
		}
	}
	if len(lowered) == 0 {
		return passes.MarkNative(ed, op, native)
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
func Call(operand string, t ir.TensorType, row *passes.Row) string {
	groups := append([][]int64(nil), row.Groups...)
	if row.Algo == "hier" {
		// The kernel pairs rank r with r + W/2: ordered ids put each half of
		// the machine (its NUMA node) first and second.
		for i, g := range groups {
			sorted := append([]int64(nil), g...)
			sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
			groups[i] = sorted
		}
	}
	var ids []string
	for _, g := range groups {
		for _, id := range g {
			ids = append(ids, fmt.Sprint(id))
		}
	}
	cast := 0
	if row.Cast {
		cast = 1
	}
	cfg := fmt.Sprintf("{algo = %s, cast = %d : i64, codec = %s, groups = array<i64: %s>, link = %s, world = %d : i64}",
		ir.Quote(row.Algo), cast, ir.Quote(row.Codec), strings.Join(ids, ", "), ir.Quote(row.Link), row.GroupSize)
	layout := layoutOf(len(t.Shape))
	return fmt.Sprintf(`"stablehlo.custom_call"(%s) {api_version = 4 : i32, arc.est_us = %s, arc.lowering = %s, arc.native_us = %s, arc.reason = %s, backend_config = %s, call_target_name = %s, has_side_effect = true, operand_layouts = [%s], result_layouts = [%s]} : (%s) -> %s`,
		operand, usAttr(row.EstUS), ir.Quote(row.Lowering), usAttr(row.NativeUS), ir.Quote(row.Reason), cfg, ir.Quote(ir.ArcTarget), layout, layout, t, t)
}

// usAttr prints a time estimate as an f64 attribute. MLIR reads "7" as an
// integer, so a whole number keeps its ".0".
func usAttr(us float64) string {
	s := strconv.FormatFloat(math.Round(us*100)/100, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s + " : f64"
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
