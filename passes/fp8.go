package passes

import (
	"fmt"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/norm"
	"github.com/arcpass/arc/reference/num"
)

// FP8Epilogue is a static-scale FP8 quantization that the program applies
// to a fused norm's y (reference/norm.FP8): q = f8E4M3FN(clip(f32(y) op
// Scale, -448, 448)), y itself kept in T for whoever else reads it. The
// matcher records it; arc's kernels do not compute it yet
// (abi.KernelEpilogues), so its ops stay in the program, reading y.
type FP8Epilogue struct {
	norm.FP8
	Lo, Hi float32 // the clip's bounds: ±448, e4m3's largest magnitude
	// Clip says how the program clips: "clamp", "maximum, minimum" (in
	// its order), or "call @name" of a private function whose body is one
	// of those.
	Clip string
	Q    string // q's name: the convert's result
	// Ops are the epilogue's ops in the all-reduce's block, in source
	// order: the convert of y to f32 (none when T is f32), the scale, the
	// clip (or the call) and the convert to f8E4M3FN, which is last.
	Ops []*ir.Op
}

func (e *FP8Epilogue) String() string {
	return fmt.Sprintf("%v by %s", e.FP8, e.Clip)
}

// fp8Elem is the element type of the epilogue's q.
const fp8Elem = "f8E4M3FN"

// epilogue looks for an FP8 quantization of y after a match: where a
// convert to f8E4M3FN follows y within a few ops, it records the epilogue
// (fz.FP8) or why it is not one (fz.FP8Miss). It changes nothing the
// fusion replaces.
func (f *flow) epilogue() {
	fz := f.fz
	if !f.feedsFP8(fz.Last, fz.Y, 6) {
		return
	}
	e, why := f.matchFP8()
	if why != "" {
		fz.FP8Miss = why
		return
	}
	fz.FP8 = e
}

// feedsFP8 reports a convert to f8E4M3FN within depth ops after value
// (defined by def), through ops of the block, calls included.
func (f *flow) feedsFP8(def *ir.Op, value string, depth int) bool {
	if depth == 0 {
		return false
	}
	for _, r := range f.readersOf(def, value) {
		if r.Parent != f.block {
			continue
		}
		if h := f.op(r); isOp(h, "convert") && single(h) && out(h).Elem == fp8Elem {
			return true
		}
		res := f.results(r)
		if len(res) == 1 && f.feedsFP8(r, res[0], depth-1) {
			return true
		}
	}
	return false
}

// results are the values op defines.
func (f *flow) results(op *ir.Op) []string {
	var out []string
	f.m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			out = append(out, v.Name)
		}
	})
	return out
}

// matchFP8 matches the epilogue after y, step by step.
func (f *flow) matchFP8() (*FP8Epilogue, string) {
	fz, e := f.fz, &FP8Epilogue{}
	cur, at := fz.Y, fz.Last
	if fz.Type.Elem != "f32" {
		var conv *ir.HLO
		for _, r := range f.readersOf(at, cur) {
			if v := f.op(r); isOp(v, "convert") && single(v) && sameType(out(v), f.f32()) && r.Parent == f.block {
				if conv != nil {
					return nil, fmt.Sprintf("y %s is converted to f32 twice", cur)
				}
				conv = v
			}
		}
		if conv == nil {
			return nil, fmt.Sprintf("y %s is not converted to f32 before its scale", cur)
		}
		e.Ops = append(e.Ops, conv.Op)
		cur, at = conv.Results[0], conv.Op
	}
	// The scale: the one divide or multiply of cur by a splat constant
	// (y, in f32, may have other readers; its convert only this one).
	var scale *ir.HLO
	for _, r := range f.readersOf(at, cur) {
		v := f.op(r)
		if (!isOp(v, "divide") && !isOp(v, "multiply")) || !single(v) || r.Parent != f.block {
			continue
		}
		k := other(v, cur)
		if k == "" || isOp(v, "divide") && v.Operands[0] != cur {
			continue
		}
		val, ok := f.splat(r, k)
		if !ok {
			continue
		}
		if scale != nil {
			return nil, fmt.Sprintf("%s is scaled twice", cur)
		}
		scale = v
		e.FP8 = norm.FP8{Op: map[string]string{"divide": "div", "multiply": "mul"}[v.Kind], Scale: val}
	}
	if scale == nil {
		return nil, fmt.Sprintf("%s is not divided or multiplied by a constant scale", cur)
	}
	if len(e.Ops) > 0 && len(f.readersOf(at, cur)) != 1 {
		return nil, fmt.Sprintf("f32(y) %s is read besides its scale", cur)
	}
	if !sameType(out(scale), f.f32()) {
		return nil, fmt.Sprintf("%s scales y to %s", scale.Op.Name, out(scale))
	}
	e.Ops = append(e.Ops, scale.Op)
	last, why := f.clip(e, scale.Op, scale.Results[0])
	if why != "" {
		return nil, why
	}
	q, why := f.reader(last, f.results(last)[0], "the clipped row")
	if why != "" {
		return nil, why
	}
	if !isOp(q, "convert") || out(q).Elem != fp8Elem || !sameShape(out(q), fz.Type) {
		return nil, fmt.Sprintf("%s where the epilogue converts to %s", q.Op.Name, fp8Elem)
	}
	if e.Lo != -num.E4M3Max || e.Hi != num.E4M3Max {
		return nil, fmt.Sprintf("the clip's bounds are [%g, %g], not e4m3's [-%d, %d]", e.Lo, e.Hi, num.E4M3Max, num.E4M3Max)
	}
	e.Ops, e.Q = append(e.Ops, q.Op), q.Results[0]
	return e, ""
}

// clip reads the clip of the scaled row v (defined by def): a clamp, a
// maximum and a minimum (either order, either operand order), or a call
// of a private function whose body is one of those. It sets the bounds
// and returns the op that makes the clipped row.
func (f *flow) clip(e *FP8Epilogue, def *ir.Op, v string) (*ir.Op, string) {
	rs := f.readersOf(def, v)
	if len(rs) != 1 || rs[0].Parent != f.block {
		return nil, fmt.Sprintf("the scaled row %s has %d readers, not one clip", v, len(rs))
	}
	op := rs[0]
	if op.Name == "func.call" || op.Name == "call" {
		lo, hi, why := f.clipCall(op, v)
		if why != "" {
			return nil, why
		}
		e.Lo, e.Hi, e.Clip = lo, hi, "call @"+f.m.Callee(op)
		e.Ops = append(e.Ops, op)
		return op, ""
	}
	h := f.op(op)
	switch {
	case isOp(h, "convert") && single(h) && out(h).Elem == fp8Elem:
		return nil, fmt.Sprintf("the scaled row %s is converted to %s unclipped: XLA's convert gives NaN past e4m3's range, where the kernel would saturate", v, fp8Elem)
	case isOp(h, "clamp") && single(h) && len(h.Operands) == 3 && h.Operands[1] == v:
		lo, ok1 := f.splat(op, h.Operands[0])
		hi, ok2 := f.splat(op, h.Operands[2])
		if !ok1 || !ok2 {
			return nil, fmt.Sprintf("%s clips to bounds that are not constants", op.Name)
		}
		e.Lo, e.Hi, e.Clip = lo, hi, "clamp"
		e.Ops = append(e.Ops, op)
		return op, ""
	case (isOp(h, "maximum") || isOp(h, "minimum")) && single(h):
		k1, ok := f.splat(op, other(h, v))
		if other(h, v) == "" || !ok {
			return nil, fmt.Sprintf("%s of the scaled row and no constant", op.Name)
		}
		want := map[string]string{"maximum": "minimum", "minimum": "maximum"}[h.Kind]
		h2, why := f.reader(op, h.Results[0], "the half-clipped row")
		if why != "" {
			return nil, why
		}
		if !isOp(h2, want) {
			return nil, fmt.Sprintf("%s follows %s where the clip has %s", h2.Op.Name, op.Name, want)
		}
		k2, ok := f.splat(h2.Op, other(h2, h.Results[0]))
		if other(h2, h.Results[0]) == "" || !ok {
			return nil, fmt.Sprintf("%s of the clipped row and no constant", h2.Op.Name)
		}
		e.Lo, e.Hi = k1, k2
		if h.Kind == "minimum" {
			e.Lo, e.Hi = k2, k1
		}
		e.Clip = h.Kind + ", " + want
		e.Ops = append(e.Ops, op, h2.Op)
		return h2.Op, ""
	}
	return nil, fmt.Sprintf("the scaled row %s is read by %s, not a clip (clamp, or maximum and minimum)", v, op.Name)
}

// clipSym is a value of a clip's callee read symbolically: the clipped
// operand x, a splat constant, or a maximum or minimum of a value and a
// constant.
type clipSym struct {
	kind string // "x", "const", "maximum", "minimum", "clamp"
	k    float32
	lo   float32 // a clamp's
	of   *clipSym
}

// clipCall reads the body of the function that call (reading x) calls: it
// must be exactly a clip of x between two of the call's operands that are
// splat constants, through converts, broadcasts and reshapes of those.
func (f *flow) clipCall(call *ir.Op, x string) (lo, hi float32, why string) {
	name := f.m.Callee(call)
	var fn *ir.Op
	for _, fc := range f.m.Funcs() {
		if fc.Name == name {
			fn = fc.Op
		}
	}
	switch {
	case fn == nil:
		return 0, 0, fmt.Sprintf("%s calls @%s, which the module does not define", call.Name, name)
	case len(fn.Regions) != 1 || len(fn.Regions[0].Blocks) != 1:
		return 0, 0, fmt.Sprintf("@%s is not one block", name)
	case len(f.results(call)) != 1:
		return 0, 0, fmt.Sprintf("@%s returns more than one value", name)
	}
	args := f.m.Operands(call)
	bad := func(op *ir.Op, what string) (float32, float32, string) {
		return 0, 0, fmt.Sprintf("@%s %s at %s: not a clip", name, what, f.m.Position(int(op.Start)))
	}
	syms := map[string]*clipSym{}
	// sym is the symbol of value as op, in the callee, sees it.
	sym := func(op *ir.Op, value string) *clipSym {
		if s := syms[value]; s != nil {
			return s
		}
		d, ok := f.def(op, value)
		if !ok || d.Op != fn || d.Arg < 0 || d.Arg >= len(args) {
			return nil
		}
		if args[d.Arg] == x {
			return &clipSym{kind: "x"}
		}
		if k, ok := f.splat(call, args[d.Arg]); ok {
			return &clipSym{kind: "const", k: k}
		}
		return nil
	}
	var ret *clipSym
	for _, op := range fn.Regions[0].Blocks[0].Ops {
		if op.Name == "func.return" || op.Name == "return" {
			ops := f.m.Operands(op)
			if len(ops) != 1 || ret != nil {
				return bad(op, "returns other than one value")
			}
			if ret = sym(op, ops[0]); ret == nil {
				return bad(op, "returns an unknown value")
			}
			continue
		}
		h := f.op(op)
		if !single(h) {
			return bad(op, "has "+op.Name)
		}
		var s *clipSym
		var a []*clipSym
		for _, v := range h.Operands {
			a = append(a, sym(op, v))
		}
		switch h.Kind {
		case "constant":
			if k, ok := h.SplatF32(); ok {
				s = &clipSym{kind: "const", k: k}
			}
		case "convert", "broadcast_in_dim", "reshape":
			switch {
			case len(a) != 1 || a[0] == nil:
			case a[0].kind == "const" && out(h).Elem == "f32":
				s = a[0] // a splat stays the same splat
			case h.Kind == "convert" && len(h.OperandTypes) == 1 && sameType(out(h), h.OperandTypes[0]):
				s = a[0] // the identity
			}
		case "maximum", "minimum":
			if len(a) == 2 && a[0] != nil && a[1] != nil {
				if a[0].kind == "const" && a[1].kind != "const" {
					a[0], a[1] = a[1], a[0]
				}
				if a[0].kind != "const" && a[1].kind == "const" {
					s = &clipSym{kind: h.Kind, k: a[1].k, of: a[0]}
				}
			}
		case "clamp":
			if len(a) == 3 && a[0] != nil && a[1] != nil && a[2] != nil && a[0].kind == "const" && a[2].kind == "const" && a[1].kind == "x" {
				s = &clipSym{kind: "clamp", lo: a[0].k, k: a[2].k, of: a[1]}
			}
		}
		if s == nil {
			return bad(op, "computes "+op.Name+" of what the matcher does not read as a clip's")
		}
		syms[h.Results[0]] = s
	}
	switch {
	case ret == nil:
		return 0, 0, fmt.Sprintf("@%s returns nothing", name)
	case ret.kind == "clamp":
		return ret.lo, ret.k, ""
	case ret.kind == "minimum" && ret.of.kind == "maximum" && ret.of.of.kind == "x":
		return ret.of.k, ret.k, ""
	case ret.kind == "maximum" && ret.of.kind == "minimum" && ret.of.of.kind == "x":
		return ret.k, ret.of.k, ""
	}
	return 0, 0, fmt.Sprintf("@%s does not return a maximum and a minimum of its operand", name)
}
