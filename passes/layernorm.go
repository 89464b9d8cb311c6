package passes

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/ir"
)

// LayerNorm, as JAX and gomlx print it after a = f32(h):
//
//	m   = sum(a) op c                       (op c: times 1/N or divided by N)
//	d   = a - broadcast(m)                  (JAX computes it once per use)
//	var = sum(d*d) op c                     (layernorm)
//	    | max(0, sum(a*a) op c - m*m)       (layernorm_fast, flax's)
//	k   = rsqrt(var + eps)
//	z   = d * broadcast(k)
//
// then weighted as RMSNorm's z is, with a bias added in f32 (weighted,
// biased). Between the steps on a row's statistics the program may reshape
// them or add dimensions of size 1 (keepdims); rowVal follows them.

// rowVal is a value of one element per row: the op that makes it, its
// shape, and per dimension the row dimension it is (-1: size 1).
type rowVal struct {
	h      *ir.HLO
	shape  []int64
	layout []int
}

// value is the rowVal's name.
func (v rowVal) value() string { return v.h.Results[0] }

// summed is the reduce that reads a as its operand, if any: LayerNorm sums
// h's rows, RMSNorm only their squares.
func (f *flow) summed(a *ir.HLO) *ir.HLO {
	for _, r := range f.readersOf(a.Op, a.Results[0]) {
		if v := f.op(r); isOp(v, "reduce") && len(v.Operands) == 2 && v.Operands[0] == a.Results[0] && v.Operands[1] != a.Results[0] {
			return v
		}
	}
	return nil
}

// startRow is the rowVal of a row sum (sumsRows checked its shape).
func (f *flow) startRow(red *ir.HLO) rowVal {
	t := f.fz.Type
	shape := t.Shape[:len(t.Shape)-1]
	layout := make([]int, len(shape))
	for i, d := range shape {
		layout[i] = i
		if d == 1 {
			layout[i] = -1
		}
	}
	return rowVal{red, shape, layout}
}

// moved is v carried through op when op only reshapes a row value or adds
// dimensions of size 1 to it (a reshape, jnp's keepdims broadcast), in f32.
func (f *flow) moved(v rowVal, op *ir.HLO) (rowVal, bool) {
	if !single(op) || len(op.Operands) != 1 || op.Operands[0] != v.value() || out(op).Elem != "f32" ||
		out(op).Elems() != (ir.TensorType{Shape: v.shape}).Elems() {
		return rowVal{}, false
	}
	var layout []int
	switch {
	case isOp(op, "reshape"):
		layout = reshapeLayout(v.layout, v.shape, out(op).Shape)
	case isOp(op, "broadcast_in_dim"):
		dims, ok := op.Ints("broadcast_dimensions")
		if !ok {
			return rowVal{}, false
		}
		layout = broadcastLayout(v.layout, v.shape, out(op).Shape, dims)
	}
	if layout == nil {
		return rowVal{}, false
	}
	return rowVal{op, out(op).Shape, layout}, true
}

// next follows v's one reader through the ops that only move it (removing
// them) to the first that computes, and returns it with the value it reads.
func (f *flow) next(v rowVal, what string) (*ir.HLO, rowVal, string) {
	for {
		r, why := f.reader(v.h.Op, v.value(), what)
		if why != "" {
			return nil, v, why
		}
		mv, ok := f.moved(v, r)
		if !ok {
			if out(r).Elem != "f32" {
				return nil, v, fmt.Sprintf("%s makes %s %s: arc's kernel keeps it in f32", r.Op.Name, what, out(r).Elem)
			}
			return r, v, ""
		}
		f.removed[r.Op] = true
		v = mv
	}
}

// elementwise checks that op, which reads v, keeps v's shape, and removes it.
func (f *flow) elementwise(op *ir.HLO, v rowVal) (rowVal, string) {
	if !slices.Equal(out(op).Shape, v.shape) || out(op).Elem != "f32" {
		return rowVal{}, fmt.Sprintf("%s makes %s from the row's %v", op.Op.Name, out(op), v.shape)
	}
	f.removed[op.Op] = true
	return rowVal{op, v.shape, v.layout}, ""
}

// toRows checks that op broadcasts v along the row to the rows' shape.
func (f *flow) toRows(op *ir.HLO, v rowVal, what string) string {
	t := f.fz.Type
	if !isOp(op, "broadcast_in_dim") || !single(op) || !sameShape(out(op), t) || out(op).Elem != "f32" {
		return fmt.Sprintf("%s where the norm broadcasts %s along the row", op.Op.Name, what)
	}
	dims, ok := op.Ints("broadcast_dimensions")
	bl := broadcastLayout(v.layout, v.shape, out(op).Shape, dims)
	if !ok || bl == nil || !rowsOnly(bl, t.Shape) {
		return fmt.Sprintf("%s does not broadcast %s along its row", op.Op.Name, what)
	}
	f.removed[op.Op] = true
	return ""
}

// meanOf reads the program's mean of a row sum: the sum times or divided by
// a constant, as the mean of LayerNorm's first statistic set it (first:
// set it). It returns the mean's rowVal.
func (f *flow) meanOf(sum rowVal, what string, first bool) (rowVal, string) {
	op, v, why := f.next(sum, "the row's "+what)
	if why != "" {
		return rowVal{}, why
	}
	if !isOp(op, "multiply") && !isOp(op, "divide") {
		return rowVal{}, fmt.Sprintf("%s where the norm takes the mean of the row's %s (a multiply or divide by a constant)", op.Op.Name, what)
	}
	c, why := f.constantOf(op, v.value(), what)
	if why != "" {
		return rowVal{}, why
	}
	mean := map[string]string{"multiply": "mul", "divide": "div"}[op.Kind]
	rc := &f.fz.Recipe
	switch {
	case first:
		rc.Mean, rc.Scale = mean, c
	case mean != rc.Mean || c != rc.Scale:
		return rowVal{}, fmt.Sprintf("%s takes the mean of the row's %s as %s %g, the mean as %s %g: arc's kernel takes both alike", op.Op.Name, what, mean, c, rc.Mean, rc.Scale)
	}
	return f.elementwise(op, v)
}

// layer matches LayerNorm's statistics from a = f32(h) to z, the centred
// rows times their factor. It returns the multiply that makes z.
func (f *flow) layer(a *ir.HLO) (*ir.HLO, string) {
	av := a.Results[0]
	s1 := f.summed(a)
	if why := f.sumsRows(s1); why != "" {
		return nil, why
	}
	f.fz.Recipe.Init = f.init
	m, why := f.meanOf(f.startRow(s1), "sum", true)
	if why != "" {
		return nil, why
	}
	// The mean's readers: moves of it, broadcasts along the row that a -
	// reads (the centred rows d), and for the fast variance its square.
	var centred, meanSquares []*ir.HLO
	var squareOf []rowVal
	for queue := []rowVal{m}; len(queue) > 0; queue = queue[1:] {
		v := queue[0]
		for _, r := range f.readersOf(v.h.Op, v.value()) {
			op := f.op(r)
			if r.Parent != f.block || !single(op) {
				return nil, fmt.Sprintf("the mean %s is read by %s", v.value(), r.Name)
			}
			if mv, ok := f.moved(v, op); ok && !sameShape(out(op), f.fz.Type) {
				f.removed[r] = true
				queue = append(queue, mv)
				continue
			}
			if squares(op, v.value()) {
				meanSquares, squareOf = append(meanSquares, op), append(squareOf, v)
				continue
			}
			if why := f.toRows(op, v, "the mean"); why != "" {
				return nil, why
			}
			if len(f.readersOf(op.Op, op.Results[0])) == 0 {
				delete(f.removed, op.Op) // a broadcast nothing reads is not the norm's
			}
			for _, s := range f.readersOf(op.Op, op.Results[0]) {
				d := f.op(s)
				if !isOp(d, "subtract") || !single(d) || s.Parent != f.block || len(d.Operands) != 2 || d.Operands[0] != av ||
					d.Operands[1] != op.Results[0] || !sameType(out(d), f.f32()) {
					return nil, fmt.Sprintf("the broadcast mean %s is read by %s, not subtracted from h", op.Results[0], s.Name)
				}
				f.removed[s] = true
				centred = append(centred, d)
			}
		}
	}
	if len(centred) == 0 {
		return nil, "the row's mean is not subtracted from h: no LayerNorm follows"
	}
	isCentred := func(v string) bool {
		return slices.ContainsFunc(centred, func(d *ir.HLO) bool { return d.Results[0] == v })
	}
	// The variance: of the deviations, or the fast one.
	var sq *ir.HLO
	for _, d := range centred {
		for _, r := range f.readersOf(d.Op, d.Results[0]) {
			if v := f.op(r); squares(v, d.Results[0]) {
				if sq != nil {
					return nil, "the deviations from the mean are squared twice"
				}
				sq = v
			}
		}
	}
	var variance rowVal
	if sq != nil {
		f.fz.Recipe.Norm = "layernorm"
		if len(meanSquares) > 0 {
			return nil, fmt.Sprintf("%s squares the mean besides the deviations", meanSquares[0].Op.Name)
		}
		if variance, why = f.deviations(sq); why != "" {
			return nil, why
		}
	} else {
		f.fz.Recipe.Norm = "layernorm_fast"
		if variance, why = f.fastVariance(a, meanSquares, squareOf); why != "" {
			return nil, why
		}
	}
	// rsqrt(var + eps), broadcast along the row, times d.
	op, v, why := f.next(variance, "the row's variance")
	if why != "" {
		return nil, why
	}
	if !isOp(op, "add") {
		return nil, fmt.Sprintf("%s where the norm adds eps to the row's variance", op.Op.Name)
	}
	eps, why := f.constantOf(op, v.value(), "variance")
	if why != "" {
		return nil, why
	}
	f.fz.Recipe.Eps = eps
	if v, why = f.elementwise(op, v); why != "" {
		return nil, why
	}
	if op, v, why = f.next(v, "the row's variance + eps"); why != "" {
		return nil, why
	}
	if !isOp(op, "rsqrt") {
		return nil, fmt.Sprintf("%s where the norm takes rsqrt of the row's variance + eps", op.Op.Name)
	}
	if v, why = f.elementwise(op, v); why != "" {
		return nil, why
	}
	if op, v, why = f.next(v, "the row's factor"); why != "" {
		return nil, why
	}
	if why := f.toRows(op, v, "the row's factor"); why != "" {
		return nil, why
	}
	z, why := f.reader(op.Op, op.Results[0], "the broadcast factor")
	if why != "" {
		return nil, why
	}
	if !isOp(z, "multiply") || !isCentred(other(z, op.Results[0])) || !sameType(out(z), f.f32()) {
		return nil, fmt.Sprintf("%s where the norm scales the centred rows by their factor", z.Op.Name)
	}
	f.removed[z.Op] = true
	return z, ""
}

// deviations: the mean of the squared deviations, sum(d*d) op c.
func (f *flow) deviations(sq *ir.HLO) (rowVal, string) {
	if sq.Op.Parent != f.block || !sameType(out(sq), f.f32()) {
		return rowVal{}, fmt.Sprintf("%s squares the deviations to %s, not in f32", sq.Op.Name, out(sq))
	}
	f.removed[sq.Op] = true
	red, why := f.rowSum(sq)
	if why != "" {
		return rowVal{}, why
	}
	return f.meanOf(f.startRow(red), "squared deviations", false)
}

// fastVariance: max(0, sum(a*a) op c - m*m), the square of the mean one
// of meanSquares (of the rowVals squareOf).
func (f *flow) fastVariance(a *ir.HLO, meanSquares []*ir.HLO, squareOf []rowVal) (rowVal, string) {
	av := a.Results[0]
	var sq *ir.HLO
	for _, r := range f.readersOf(a.Op, av) {
		if v := f.op(r); squares(v, av) {
			if sq != nil {
				return rowVal{}, fmt.Sprintf("%s is squared twice", av)
			}
			sq = v
		}
	}
	if sq == nil {
		return rowVal{}, "neither the deviations from the mean nor h are squared: no variance follows"
	}
	if sq.Op.Parent != f.block || !sameType(out(sq), f.f32()) {
		return rowVal{}, fmt.Sprintf("%s squares h to %s, not in f32", sq.Op.Name, out(sq))
	}
	f.removed[sq.Op] = true
	red, why := f.rowSum(sq)
	if why != "" {
		return rowVal{}, why
	}
	m2, why := f.meanOf(f.startRow(red), "squares", false)
	if why != "" {
		return rowVal{}, why
	}
	op, v, why := f.next(m2, "the row's mean square")
	if why != "" {
		return rowVal{}, why
	}
	if !isOp(op, "subtract") || len(op.Operands) != 2 || op.Operands[0] != v.value() {
		return rowVal{}, fmt.Sprintf("%s where the fast variance subtracts the squared mean", op.Op.Name)
	}
	i := slices.IndexFunc(meanSquares, func(s *ir.HLO) bool { return s.Results[0] == op.Operands[1] })
	switch {
	case i < 0:
		return rowVal{}, fmt.Sprintf("%s subtracts %s, not the mean squared", op.Op.Name, op.Operands[1])
	case len(meanSquares) != 1:
		return rowVal{}, "the mean is squared twice"
	case !slices.Equal(squareOf[i].layout, v.layout) || !slices.Equal(squareOf[i].shape, v.shape):
		return rowVal{}, fmt.Sprintf("%s subtracts the squared mean laid out otherwise than the mean square", op.Op.Name)
	}
	if _, why := f.elementwise(meanSquares[i], squareOf[i]); why != "" {
		return rowVal{}, why
	}
	if v, why = f.elementwise(op, v); why != "" {
		return rowVal{}, why
	}
	// max(0, v), either operand first: StableHLO's maximum keeps NaN.
	if op, v, why = f.next(v, "the row's fast variance"); why != "" {
		return rowVal{}, why
	}
	zero, ok := f.splat(op.Op, other(op, v.value()))
	if !isOp(op, "maximum") || other(op, v.value()) == "" || !ok || zero != 0 {
		return rowVal{}, fmt.Sprintf("%s where the fast variance is clamped at zero (a maximum with 0)", op.Op.Name)
	}
	return f.elementwise(op, v)
}
