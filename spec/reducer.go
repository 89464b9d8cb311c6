package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arcpass/arc/ir"
)

// reducer is what the computation region of an all_reduce holds.
type reducer struct {
	args    []string     // the block's argument names
	argT    []tensorType // and types
	resultT tensorType   // the type the terminator returns: tensor<E>
	// kind is sum, max, min, product, and, or, xor when the body is exactly
	// `return OP(arg0, arg1)` (either order) on tensor<E>, and other
	// otherwise; why says what makes it other.
	kind, why string
}

// binaryKinds names the reductions of the element-wise ops a reducer may be.
var binaryKinds = map[string]string{
	"add": "sum", "maximum": "max", "minimum": "min", "multiply": "product",
	"and": "and", "or": "or", "xor": "xor",
}

// shortName drops the dialect of an op name: "stablehlo.add" -> "add".
func shortName(name string) string {
	if s, ok := strings.CutPrefix(name, "stablehlo."); ok {
		return s
	}
	if s, ok := strings.CutPrefix(name, "mhlo."); ok {
		return s
	}
	return name
}

// readReducer reads the region's structure: one block, its arguments, a
// return of one value. Errors are those of MLIR's verifier
// (verifyReducerShape in StableHLO's TypeInference.cpp), which report at the
// all_reduce.
func (k *Checker) readReducer(c *ir.Collective, fail func(string, ...any) error) (*reducer, error) {
	op := c.Op
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fail("region #0 ('computation') failed to verify constraint: region with 1 blocks")
	}
	b := op.Regions[0].Blocks[0]
	r := &reducer{}
	if b.LabelStart >= 0 {
		label := k.m.Src[b.LabelStart:b.LabelEnd]
		if open := strings.IndexByte(label, '('); open >= 0 {
			end := ir.Closing(label, open)
			if end < 0 {
				return nil, fail("the reduction region's block arguments are not closed")
			}
			for _, a := range ir.SplitTop(label[open+1:end], ',') {
				name, typ, ok := strings.Cut(a, ":")
				if !ok {
					return nil, fail("block argument %q has no type", a)
				}
				t, err := parseTensor(typ)
				if err != nil {
					return nil, fail("reduction region argument %s: %v", strings.TrimSpace(name), err)
				}
				r.args = append(r.args, strings.TrimSpace(name))
				r.argT = append(r.argT, t)
			}
		}
	}
	if len(r.args) != 2 {
		return nil, fail("Reduction-region must take 2 parameters, but takes %d parameter(s)", len(r.args))
	}
	// SingleBlockImplicitTerminator: the dialect's own return.
	wantReturn := strings.TrimSuffix(op.Name, "all_reduce") + "return"
	if len(b.Ops) == 0 || b.Ops[len(b.Ops)-1].Name != wantReturn {
		found := "nothing"
		if len(b.Ops) > 0 {
			found = "'" + b.Ops[len(b.Ops)-1].Name + "'"
		}
		return nil, fail("expects regions to end with '%s', found %s", wantReturn, found)
	}
	ret := b.Ops[len(b.Ops)-1]
	vals := k.m.Operands(ret)
	if len(vals) == 0 {
		return nil, fail("The reduction-region expected to return some value(s)")
	}
	if len(vals) != 1 {
		return nil, fail("Reduction-region here must produce 1 tensors, but produces %d instead", len(vals))
	}
	ins, outs, _ := k.m.FuncType(ret)
	if ins != nil && slices.ContainsFunc(outs, func(t string) bool { return strings.TrimSpace(t) != "" }) {
		// The generic form's "(T) -> R": a return has no results (ZeroResults).
		return nil, k.m.Errorf(int(ret.Start), "'%s' op requires zero results", ret.Name)
	}
	if ins == nil {
		ins = outs
	}
	if len(ins) != 1 {
		return nil, fail("the reduction region's return has %d types for 1 value", len(ins))
	}
	t, err := parseTensor(ins[0])
	if err != nil {
		return nil, fail("Reduction-region here must produce tensor-typed result(s), but produces '%s' instead", ir.CompactType(ir.StripLoc(ins[0])))
	}
	r.resultT = t
	for _, o := range b.Ops[:len(b.Ops)-1] {
		// An element-wise op's custom form ends with ": type"; without it
		// MLIR cannot parse the op, and arc must not read it as a sum.
		if _, isBinary := binaryKinds[shortName(o.Name)]; isBinary && !o.Generic {
			if ins, outs, ok := k.m.FuncType(o); !ok || len(ins)+len(outs) == 0 {
				return nil, k.m.Errorf(int(o.Start), "custom op '%s' expected ':' and its type", o.Name)
			}
			// Its custom form is "%lhs, %rhs : T".
			if n := len(k.m.Operands(o)); n != 2 {
				return nil, k.m.Errorf(int(o.Start), "custom op '%s' takes 2 operands, not %d", o.Name, n)
			}
		}
	}
	r.kind, r.why = k.classify(b, r, vals[0])
	return r, nil
}

// classify decides whether the block is exactly `return OP(arg0, arg1)` with
// OP one of binaryKinds over tensor<E>, either operand order.
func (k *Checker) classify(b *ir.Block, r *reducer, returned string) (kind, why string) {
	if len(b.Ops) != 2 {
		return "other", fmt.Sprintf("its body has %d ops before the return, not one", len(b.Ops)-1)
	}
	op := b.Ops[0]
	name := shortName(op.Name)
	var results []ir.ValueRef
	k.m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			results = append(results, v)
		}
	})
	if len(results) != 1 || results[0].Count != 1 || len(op.Regions) > 0 {
		return "other", fmt.Sprintf("it computes %s", op.Name)
	}
	if returned != results[0].Name {
		return "other", fmt.Sprintf("it returns %s, not the result of %s", returned, op.Name)
	}
	kind, ok := binaryKinds[name]
	if !ok || !strings.HasPrefix(op.Name, "stablehlo.") && !strings.HasPrefix(op.Name, "mhlo.") {
		return "other", fmt.Sprintf("it computes %s", op.Name)
	}
	in := k.m.Operands(op)
	a0, a1 := r.args[0], r.args[1]
	switch {
	case len(in) != 2:
		return "other", fmt.Sprintf("its %s takes %d operands", name, len(in))
	case in[0] == a0 && in[1] == a1, in[0] == a1 && in[1] == a0:
	case in[0] == in[1]:
		return "other", fmt.Sprintf("it computes %s(%s, %s)", name, in[0], in[1])
	default:
		for _, v := range in {
			if v != a0 && v != a1 {
				return "other", fmt.Sprintf("its %s reads %s, which is not an argument of the region", name, v)
			}
		}
	}
	ins, outs, ok := k.m.FuncType(op)
	if !ok || len(ins)+len(outs) == 0 {
		return "other", fmt.Sprintf("its %s has no type", name)
	}
	want := r.resultT.key
	for _, t := range append(ins, outs...) {
		if pt, err := parseTensor(t); err != nil || pt.key != want {
			return "other", fmt.Sprintf("its %s is typed %s, not %s", name, ir.StripLoc(t), r.resultT.text)
		}
	}
	if r.argT[0].key != want || r.argT[1].key != want {
		return "other", fmt.Sprintf("its arguments are %s and %s, not %s", r.argT[0].text, r.argT[1].text, want)
	}
	return kind, ""
}

// verifyShape applies verifyReducerShape's rules for one operand (whose type
// is operand), then the specification's C5, which is stricter for floats and
// booleans: the computation is (tensor<E>, tensor<E>) -> tensor<E> with E
// promotable from the operand's element type (is_promotable: no narrower,
// and a boolean is no integer).
func (r *reducer) verifyShape(operand tensorType, fail func(string, ...any) error) error {
	acc, init := r.resultT, tensorType{text: "tensor<" + operand.elem + ">", elem: operand.elem, e: operand.e}
	floatsAlike := func(a, b tensorType) bool { // compatibleShapeAndElementType, ignoring float precision
		return (a.e.canon == b.e.canon || a.e.class == "float" && b.e.class == "float") && compatibleShape(a, b)
	}
	switch {
	case !compatible(acc, r.argT[0]):
		return fail("The type of reduction-region's parameter at index 0 is different than the corresponding result type: '%s' vs '%s'", r.argT[0].text, acc.text)
	case !floatsAlike(acc, r.argT[1]):
		return fail("The type of reduction-region's parameter at index 1 is different than the corresponding result type: '%s' vs '%s'", r.argT[1].text, acc.text)
	case !compatibleShape(init, acc):
		return fail("The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: '%s' vs '%s'", acc.text, init.text)
	case !mlirPromotable(init.e, acc.e, true):
		return fail("The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: '%s' vs '%s'", acc.text, init.text)
	case !mlirPromotable(operand.e, r.argT[1].e, true):
		return fail("The element-type of reduction-region's argument at index 1 is expected to be promotable from %s, but got %s", operand.elem, r.argT[1].elem)
	case len(r.argT[1].shape) > 0:
		return fail("The rank of reduction-region's argument at index 1 is expected to be <= 0, got %d", len(r.argT[1].shape))
	// MLIR's verifier stops here; the specification's C5 goes on.
	case r.argT[1].key != acc.key:
		return fail("computation must have type (tensor<E>, tensor<E>) -> tensor<E> (all_reduce_c5), but its second argument is '%s' and it returns '%s'", r.argT[1].text, acc.text)
	case !promotable(operand.elem, acc.elem):
		why := "it is narrower"
		if operand.e.class != acc.e.class {
			why = fmt.Sprintf("%s is not %s", kindWords[operand.e.class], kindWords[acc.e.class])
		} else if operand.e.class == "quant" && operand.e.q.expressed != acc.e.q.expressed {
			why = "their expressed types differ"
		}
		return fail("element type '%s' is not promotable to the computation's '%s': %s (all_reduce_c5)", operand.elem, acc.elem, why)
	}
	return nil
}

// kindWords name StableHLO's kinds of element types in messages.
var kindWords = map[string]string{"bool": "a boolean", "int": "an integer", "float": "a float", "complex": "a complex", "quant": "a quantized type"}
