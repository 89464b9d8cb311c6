package oracle

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// reducer is an all_reduce's computation as the oracle reads it.
type reducer struct {
	// op is sum, product, max, min, and, or or xor when the region is
	// exactly `return op(arg0, arg1)` (either order) over tensor<E>;
	// "" for any other computation, which the oracle treats as opaque.
	op   string
	elem elemType // E, the type of the region's arguments ("" when unknown)
	// key identifies an opaque computation by the ops it holds.
	key uint64
	// bad says why the region is not a computation of type
	// (tensor<E>, tensor<E>) -> tensor<E> (C5), or "".
	bad string
}

// reducers maps StableHLO op names to the reductions the oracle interprets.
var reducers = map[string]string{
	"add": "sum", "multiply": "product", "maximum": "max", "minimum": "min",
	"and": "and", "or": "or", "xor": "xor",
}

// readReducer reads the computation of an all_reduce.
func readReducer(m *ir.Module, op *ir.Op) reducer {
	r := reducer{key: opaqueKey(m, op)}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		r.bad = fmt.Sprintf("the computation must be one region of one block, not %d region(s)", len(op.Regions))
		return r
	}
	b := op.Regions[0].Blocks[0]
	names, types := blockArgs(m, b)
	if len(names) != 2 || types[0] != types[1] {
		r.bad = fmt.Sprintf("the computation must take two arguments of one type, not (%s)", strings.Join(types, ", "))
		return r
	}
	t, err := ir.ParseTensorType(types[0])
	if err != nil || len(t.Shape) != 0 {
		r.bad = fmt.Sprintf("the computation's arguments must be rank-0 tensors, not %s", types[0])
		return r
	}
	r.elem = elemOf(t.Elem)
	if len(b.Ops) != 2 {
		return r
	}
	body, ret := b.Ops[0], b.Ops[1]
	kind := reducers[shortName(body.Name)]
	if kind == "" || shortName(ret.Name) != "return" || len(body.Regions) != 0 {
		return r
	}
	args := m.Operands(body)
	if len(args) != 2 || !(args[0] == names[0] && args[1] == names[1] || args[0] == names[1] && args[1] == names[0]) {
		return r
	}
	if ins, outs, ok := m.FuncType(body); !ok || !allAre(outs, types[0]) || !allAre(ins, types[0]) {
		return r
	}
	var res []ir.ValueRef
	m.Values(body, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			res = append(res, v)
		}
	})
	rets := m.Operands(ret)
	if len(res) != 1 || res[0].Count != 1 || len(rets) != 1 || (rets[0] != res[0].Name && rets[0] != res[0].Name+"#0") {
		return r
	}
	if _, outs, ok := m.FuncType(ret); ok && len(outs) > 0 && outs[0] != "()" && !allAre(outs, types[0]) {
		return r
	}
	switch {
	case r.elem.class == 'o',
		r.elem.class == 'f' && (kind == "and" || kind == "or" || kind == "xor"):
		return r
	}
	r.op = kind
	return r
}

// allAre reports whether every type in ts is t (an empty list is fine: the
// pretty form may leave the operand types implicit).
func allAre(ts []string, t string) bool {
	for _, x := range ts {
		if ir.CompactType(strings.TrimSpace(x)) != t {
			return false
		}
	}
	return true
}

func shortName(name string) string {
	if s, ok := strings.CutPrefix(name, "stablehlo."); ok {
		return s
	}
	return strings.TrimPrefix(name, "mhlo.")
}

// blockArgs reads the names and types a block label declares:
// "^bb0(%a: tensor<f32>, %b: tensor<f32>):".
func blockArgs(m *ir.Module, b *ir.Block) (names, types []string) {
	if b.LabelStart < 0 {
		return nil, nil
	}
	label := m.Src[b.LabelStart:b.LabelEnd]
	open, close := strings.IndexByte(label, '('), strings.LastIndexByte(label, ')')
	if open < 0 || close < open {
		return nil, nil
	}
	for _, a := range ir.SplitTop(label[open+1:close], ',') {
		name, typ, ok := strings.Cut(a, ":")
		if !ok {
			return nil, nil
		}
		typ = ir.StripLoc(typ)
		names = append(names, strings.TrimSpace(name))
		types = append(types, ir.CompactType(typ)) // tensor<f32 > is tensor<f32>
	}
	return names, types
}

// opaqueKey identifies a computation the oracle does not interpret by the
// names of the ops of its region, so that the same computation written in the
// generic or the pretty form has the same key.
func opaqueKey(m *ir.Module, op *ir.Op) uint64 {
	h := fnv.New64a()
	var walk func(*ir.Op)
	walk = func(o *ir.Op) {
		for _, r := range o.Regions {
			h.Write([]byte{'{'})
			for _, b := range r.Blocks {
				_, types := blockArgs(m, b)
				h.Write([]byte(strings.Join(types, ",") + "|"))
				for _, x := range b.Ops {
					h.Write([]byte(shortName(x.Name) + ";"))
					walk(x)
				}
			}
			h.Write([]byte{'}'})
		}
	}
	walk(op)
	return h.Sum64()
}
