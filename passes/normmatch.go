package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/norm"
)

// NormFusion is an all-reduce whose sum the program adds to a residual and
// whose rows it then normalises by their root mean square, exactly as arc's
// fused kernels compute it (reference/norm): h = x + s in the I/O type T,
// then, in f32 (the program converts h to f32, or T is f32),
// y = T(h * rsqrt(sum(h*h) op c + eps) * w) with the weight applied before
// or after the convert back.
type NormFusion struct {
	AllReduce *ir.Op
	At        *ir.Op        // the residual add, whose place the fused call takes
	Type      ir.TensorType // the sum's, the residual's, h's and y's type
	Residual  string        // x, as the add spells it
	Weight    string        // w: Row elements of T, as the program defines them
	// WeightType is w's type: any shape of Row elements whose one
	// dimension larger than 1 is the row's.
	WeightType ir.TensorType
	// Bias and BiasType are a LayerNorm's b, as the weight ("" without one).
	Bias     string
	BiasType ir.TensorType
	H, Y     string // the names of h and y, which the fused call defines
	// Last is the op that defines y: the fused call's second result takes
	// its place (and its sharding), as the first takes the add's.
	Last   *ir.Op
	Recipe norm.Recipe
	// Ops are the ops the fused call replaces, in source order: the add
	// that makes h first, the op that makes y last, and between them every
	// op of the norm, and the weight's reshapes and converts that only the
	// norm reads. Constants stay.
	Ops []*ir.Op
	// Hoist are ops after the add that make the weight (Gemma's 1 + w, a
	// convert of w), in source order: pure ops whose operands the add sees
	// or another of them makes. The lowering moves them before the fused
	// call, which takes the add's place; moved, they compute what they did.
	Hoist []*ir.Op
	// FP8 is the FP8 quantization the program applies to y, where it
	// does (nil: none, or FP8Miss says why what follows y is not one).
	// None of its ops are in Ops: the fused call leaves them reading y.
	FP8     *FP8Epilogue
	FP8Miss string
}

// in is the fusion with its ops taken to their counterparts in another
// module (ir.Module.Counterparts), or nil where one has none.
func (fz *NormFusion) in(to map[*ir.Op]*ir.Op) *NormFusion {
	out := *fz
	out.Ops, out.Hoist = make([]*ir.Op, len(fz.Ops)), make([]*ir.Op, len(fz.Hoist))
	for i, op := range fz.Ops {
		out.Ops[i] = to[op]
	}
	for i, op := range fz.Hoist {
		out.Hoist[i] = to[op]
	}
	out.AllReduce, out.At, out.Last = to[fz.AllReduce], to[fz.At], to[fz.Last]
	if fz.FP8 != nil {
		e := *fz.FP8
		e.Ops = make([]*ir.Op, len(fz.FP8.Ops))
		for i, op := range fz.FP8.Ops {
			e.Ops[i] = to[op]
		}
		if out.FP8 = &e; slices.Contains(e.Ops, nil) {
			return nil
		}
	}
	if out.AllReduce == nil || out.At == nil || out.Last == nil || slices.Contains(out.Ops, nil) || slices.Contains(out.Hoist, nil) {
		return nil
	}
	return &out
}

// MatchNorm reads what the program does with the result of the all-reduce
// op: a NormFusion when it is the residual add and RMSNorm, exactly; else
// nil and why not, in words, and whether a residual add follows (a near
// miss, worth saying). Every value the fusion removes must be read by the
// fusion's own ops only (h may be read anywhere: the kernel writes it too).
// A pass that matches many ops uses one NormMatcher instead.
func MatchNorm(m *ir.Module, op *ir.Op) (fz *NormFusion, why string, near bool) {
	cs, err := m.Collectives()
	if err != nil {
		return nil, "not an all-reduce", false
	}
	for _, c := range cs {
		if c.Op == op {
			return NewNormMatcher(m).Match(c)
		}
	}
	return nil, "not an all-reduce", false
}

// NormMatcher matches the all-reduces of one module. It reads the module's
// values once, at the first Match (where each is defined, by MLIR's scoping,
// and which ops read it), so that matching every all-reduce costs the
// module's size, not its square.
type NormMatcher struct {
	m *ir.Module
	g *defUse
	// added holds the names ("%x" of "%x#1", any scope) of the values that
	// the module's adds read: a sum none of them reads has no residual add,
	// which a match can say without the def-use.
	added map[string]bool
}

// NewNormMatcher reads nothing yet.
func NewNormMatcher(m *ir.Module) *NormMatcher { return &NormMatcher{m: m} }

// Match is MatchNorm for one collective of the matcher's module, as the
// analysis read it.
func (nm *NormMatcher) Match(c *ir.Collective) (fz *NormFusion, why string, near bool) {
	if !nm.readByAdd(c.Op) {
		return nil, "no add reads the sum", false
	}
	if nm.g == nil {
		nm.g = newDefUse(nm.m)
	}
	f := &flow{defUse: nm.g, removed: map[*ir.Op]bool{}, block: c.Op.Parent}
	fz, why = f.match(c)
	return fz, why, fz == nil && f.added
}

// readByAdd says whether an add of StableHLO or MHLO reads a value of op's
// name, in any scope: where none does, no residual add follows op, and
// the module's def-use (its cost) is not needed to say so.
func (nm *NormMatcher) readByAdd(op *ir.Op) bool {
	if nm.added == nil {
		nm.added = map[string]bool{}
		nm.m.Walk(func(o *ir.Op) bool {
			if o.Name == "stablehlo.add" || o.Name == "mhlo.add" {
				nm.m.Values(o, func(v ir.ValueRef) {
					if v.Kind == ir.Use {
						nm.added[v.Name] = true
					}
				})
			}
			return true
		})
	}
	read := false
	nm.m.Values(op, func(v ir.ValueRef) { read = read || v.Kind == ir.Result && nm.added[v.Name] })
	return read
}

// defUse is a module's values: where each is defined (ir.Defs, MLIR's
// scoping: a name means the definition its use sees), the ops that read
// each definition (an op nested in a region reads what its own text
// names), every op's place in its block, and each op read as StableHLO.
type defUse struct {
	m       *ir.Module
	defs    *ir.Defs
	readers map[ir.Def][]*ir.Op
	pos     map[*ir.Op]int
	hlo     map[*ir.Op]*ir.HLO
}

func newDefUse(m *ir.Module) *defUse {
	g := &defUse{m: m, defs: m.Defs(nil), readers: map[ir.Def][]*ir.Op{}, pos: map[*ir.Op]int{}, hlo: map[*ir.Op]*ir.HLO{}}
	var block func(b *ir.Block)
	block = func(b *ir.Block) {
		for i, op := range b.Ops {
			g.pos[op] = i
			m.Values(op, func(v ir.ValueRef) {
				if v.Kind != ir.Use {
					return
				}
				ref := v.Name
				if v.Index >= 0 {
					ref += "#" + strconv.Itoa(v.Index)
				}
				if d, ok := g.defs.Lookup(op, ref); ok {
					if rs := g.readers[d]; len(rs) == 0 || rs[len(rs)-1] != op {
						g.readers[d] = append(rs, op)
					}
				}
			})
			for _, r := range op.Regions {
				for _, nb := range r.Blocks {
					block(nb)
				}
			}
		}
	}
	block(m.Body)
	return g
}

// op is an op read as StableHLO (nil when it is not one).
func (g *defUse) op(op *ir.Op) *ir.HLO {
	h, seen := g.hlo[op]
	if !seen {
		h, _ = g.m.HLO(op)
		g.hlo[op] = h
	}
	return h
}

// def is the definition of value as op sees it.
func (g *defUse) def(op *ir.Op, value string) (ir.Def, bool) { return g.defs.Lookup(op, value) }

// readersOf are the ops that read value as op sees it (op may define it).
func (g *defUse) readersOf(op *ir.Op, value string) []*ir.Op {
	d, ok := g.def(op, value)
	if !ok {
		return nil
	}
	return g.readers[d]
}

// typeOf is the type of value as op sees it, where its definition states it.
func (g *defUse) typeOf(op *ir.Op, value string) (ir.TensorType, bool) {
	d, ok := g.def(op, value)
	if !ok {
		return ir.TensorType{}, false
	}
	if d.Result >= 0 {
		if h := g.op(d.Op); h != nil && d.Result < len(h.ResultTypes) {
			return h.ResultTypes[d.Result], true
		}
	}
	s, why := g.defs.Type(d)
	if why != "" {
		return ir.TensorType{}, false
	}
	t, err := ir.ParseTensorType(s)
	return t, err == nil
}

// flow is one match: the ops it removes, all in the all-reduce's block.
type flow struct {
	*defUse
	fz      *NormFusion
	block   *ir.Block
	removed map[*ir.Op]bool
	hoisted map[*ir.Op]bool // fz.Hoist's ops
	added   bool            // a residual add reads the sum
	init    float32         // the init of the last row sum sumsRows read
	// maybe are ops that go with the fusion if only removed ops read them:
	// the weight's reshapes and converts, the broadcasts of constants.
	maybe []*ir.Op
}

// single is an op of one result read as StableHLO.
func single(h *ir.HLO) bool { return h != nil && len(h.Results) == 1 && len(h.ResultTypes) == 1 }

// out is a single op's result type.
func out(h *ir.HLO) ir.TensorType { return h.ResultTypes[0] }

// reader is the one op that reads value (defined by def), an op of one
// result in the all-reduce's block, or why there is not one.
func (f *flow) reader(def *ir.Op, value, what string) (*ir.HLO, string) {
	rs := f.readersOf(def, value)
	if len(rs) != 1 {
		return nil, fmt.Sprintf("%s %s has %d readers, not one", what, value, len(rs))
	}
	h := f.op(rs[0])
	switch {
	case rs[0].Parent != f.block:
		return nil, fmt.Sprintf("%s %s is read %s", what, value, where(rs[0]))
	case !single(h):
		return nil, fmt.Sprintf("%s %s is read by %s, which the matcher does not read", what, value, rs[0].Name)
	}
	return h, ""
}

// where says where an op outside the all-reduce's block sits: inside the
// op whose region holds it, or in another block.
func where(op *ir.Op) string {
	if b := op.Parent; b != nil && b.Parent != nil && b.Parent.Parent != nil {
		return "inside " + b.Parent.Parent.Name
	}
	return "in another block"
}

// other is the operand of a binary op that is not value, or "" when both
// or neither are.
func other(h *ir.HLO, value string) string {
	if len(h.Operands) != 2 {
		return ""
	}
	switch a, b := h.Operands[0], h.Operands[1]; {
	case a == value && b != value:
		return b
	case b == value && a != value:
		return a
	}
	return ""
}

func sameType(a, b ir.TensorType) bool  { return a.String() == b.String() }
func sameShape(a, b ir.TensorType) bool { return slices.Equal(a.Shape, b.Shape) }

// isOp reports an op of StableHLO's or MHLO's kind.
func isOp(h *ir.HLO, kind string) bool { return h != nil && h.Kind == kind }

// match follows the sum of c through the residual add and the norm, one
// step at a time.
func (f *flow) match(c *ir.Collective) (*NormFusion, string) {
	sum, why := f.allReduce(c)
	if why != "" {
		return nil, why
	}
	h, why := f.residualAdd(sum)
	if why != "" {
		return nil, why
	}
	a, why := f.inF32(h)
	if why != "" {
		return nil, why
	}
	var z *ir.HLO
	if f.summed(a) != nil {
		z, why = f.layer(a)
	} else {
		z, why = f.rms(a)
	}
	if why != "" {
		return nil, why
	}
	if why := f.weighted(z); why != "" {
		return nil, why
	}
	if why := f.closure(); why != "" {
		return nil, why
	}
	if why := f.statedTypes(); why != "" {
		return nil, why
	}
	if err := f.fz.Recipe.Check(); err != nil {
		return nil, err.Error()
	}
	f.epilogue()
	return f.fz, ""
}

// rms: RMSNorm's rows, a times rsqrt(mean(a*a) + eps) broadcast along the
// row. It returns the multiply.
func (f *flow) rms(a *ir.HLO) (*ir.HLO, string) {
	sq, why := f.square(a)
	if why != "" {
		return nil, why
	}
	ss, why := f.rowSum(sq)
	if why != "" {
		return nil, why
	}
	k, why := f.factor(ss)
	if why != "" {
		return nil, why
	}
	return f.scaled(k, a)
}

// allReduce checks that c is a sum of one operand in a type the kernels
// take, with rows, and returns its result.
func (f *flow) allReduce(c *ir.Collective) (*ir.HLO, string) {
	if c.Kind != "all_reduce" {
		return nil, "not an all-reduce"
	}
	if c.Reduction != "sum" || len(c.Operands) != 1 || len(c.ResultTypes) != 1 {
		return nil, "only a sum of one operand is fused"
	}
	t := c.ResultTypes[0]
	if t.Elem != "f16" && t.Elem != "bf16" && t.Elem != "f32" {
		return nil, fmt.Sprintf("the kernels take f16, bf16 and f32, not %s", t.Elem)
	}
	if len(t.Shape) == 0 || t.Elems() <= 0 {
		return nil, fmt.Sprintf("%s has no rows", t)
	}
	ar := f.op(c.Op)
	if ar == nil || len(ar.Results) != 1 {
		return nil, "the all-reduce's result is not one named value"
	}
	f.fz = &NormFusion{AllReduce: c.Op, Type: t, Recipe: norm.Recipe{Norm: "rmsnorm", Row: int(t.Shape[len(t.Shape)-1])}}
	return ar, ""
}

// residualAdd: h = x + s, in the sum's type. It returns the add.
func (f *flow) residualAdd(sum *ir.HLO) (*ir.HLO, string) {
	s := sum.Results[0]
	for _, r := range f.readersOf(sum.Op, s) {
		f.added = f.added || isOp(f.op(r), "add")
	}
	add, why := f.reader(sum.Op, s, "the sum")
	if why != "" {
		return nil, why
	}
	if !isOp(add, "add") || other(add, s) == "" || !sameType(out(add), f.fz.Type) {
		return nil, fmt.Sprintf("the sum %s is read by %s, not a residual add of its type", s, add.Op.Name)
	}
	f.fz.Residual, f.fz.H, f.fz.At = other(add, s), add.Results[0], add.Op
	f.removed[add.Op] = true
	return add, ""
}

// inF32: a = f32(h), unless T is f32 (a is h then). It returns a's op.
func (f *flow) inF32(h *ir.HLO) (*ir.HLO, string) {
	t := f.fz.Type
	if t.Elem == "f32" {
		return h, ""
	}
	var conv *ir.HLO
	n := 0
	for _, r := range f.readersOf(h.Op, f.fz.H) {
		if v := f.op(r); isOp(v, "convert") && single(v) && out(v).Elem == "f32" && r.Parent == f.block {
			conv, n = v, n+1
		}
	}
	switch {
	case n == 0:
		return nil, fmt.Sprintf("h %s is not converted to f32: no RMSNorm in f32 follows (arc's kernels do not run a norm in %s)", f.fz.H, t.Elem)
	case n > 1:
		return nil, fmt.Sprintf("h %s is converted to f32 %d times", f.fz.H, n)
	case !sameShape(out(conv), t):
		return nil, fmt.Sprintf("%s converts h to %s", conv.Op.Name, out(conv))
	}
	f.removed[conv.Op] = true
	return conv, ""
}

// f32 is the rows' shape in f32.
func (f *flow) f32() ir.TensorType { return ir.TensorType{Elem: "f32", Shape: f.fz.Type.Shape} }

// square: q = a * a, in f32: a multiply, or chlo.square of a (JAX prints
// jnp.square so; for real numbers CHLO defines it as the multiply).
func (f *flow) square(a *ir.HLO) (*ir.HLO, string) {
	av := a.Results[0]
	var sq *ir.HLO
	for _, r := range f.readersOf(a.Op, av) {
		if v := f.op(r); squares(v, av) {
			if sq != nil {
				return nil, fmt.Sprintf("%s is squared twice", av)
			}
			sq = v
		}
	}
	switch {
	case sq == nil && f.centred(a):
		return nil, fmt.Sprintf("%s has a value subtracted before it is squared (LayerNorm's h - mean(h)), but no reduce of h makes that value: arc fuses a LayerNorm whose mean is the row's sum times or divided by a constant", av)
	case sq == nil:
		return nil, fmt.Sprintf("%s is not squared: no RMSNorm of h follows", av)
	case sq.Op.Parent != f.block:
		return nil, fmt.Sprintf("%s is squared %s", av, where(sq.Op))
	case !sameType(out(sq), f.f32()):
		return nil, fmt.Sprintf("%s squares h to %s, not in f32", sq.Op.Name, out(sq))
	}
	f.removed[sq.Op] = true
	return sq, ""
}

// statedTypes says where an op the fusion replaces, or one it moves, states
// an operand's type otherwise than the value's definition does (MLIR
// refuses such a use; the matcher read the op by its stated types).
func (f *flow) statedTypes() string {
	var check func(op *ir.Op, nested bool) string
	check = func(op *ir.Op, nested bool) string {
		if h := f.op(op); h != nil {
			for i, v := range h.Operands {
				if i >= len(h.OperandTypes) {
					break
				}
				d, ok := f.def(op, v)
				if !ok {
					continue
				}
				stated, why := f.defs.Type(d)
				switch {
				case why != "" && nested: // a reducer's block argument always states its type
					return fmt.Sprintf("%s at %s uses %s, whose type the matcher cannot read (%s)", op.Name, f.m.Position(int(op.Start)), v, why)
				case why != "":
					continue
				}
				// a definition's type that is no tensor type (a reducer's
				// block argument of "tensorr<6x>") is as wrong as another
				t, err := ir.ParseTensorType(stated)
				if err != nil || !sameType(t, h.OperandTypes[i]) {
					return fmt.Sprintf("%s at %s uses %s as %s, which is %s", op.Name, f.m.Position(int(op.Start)), v, h.OperandTypes[i], stated)
				}
			}
		}
		for _, r := range op.Regions { // a reduction's body: the ops the kernel computes too
			for _, b := range r.Blocks {
				for _, o := range b.Ops {
					if why := check(o, true); why != "" {
						return why
					}
				}
			}
		}
		return ""
	}
	for _, ops := range [][]*ir.Op{f.fz.Ops, f.fz.Hoist} {
		for _, op := range ops {
			if why := check(op, false); why != "" {
				return why
			}
		}
	}
	return ""
}

// squares reports whether v computes x * x and nothing else.
func squares(v *ir.HLO, x string) bool {
	switch {
	case !single(v):
		return false
	case isOp(v, "multiply"):
		return len(v.Operands) == 2 && v.Operands[0] == x && v.Operands[1] == x
	case isOp(v, "chlo.square"):
		return len(v.Operands) == 1 && v.Operands[0] == x
	}
	return false
}

// centred reports whether a is read as the minuend of a subtract whose
// difference is squared: LayerNorm's x - mean(x), for the reason only.
func (f *flow) centred(a *ir.HLO) bool {
	av := a.Results[0]
	for _, r := range f.readersOf(a.Op, av) {
		d := f.op(r)
		if !isOp(d, "subtract") || !single(d) || len(d.Operands) != 2 || d.Operands[0] != av {
			continue
		}
		for _, q := range f.readersOf(d.Op, d.Results[0]) {
			if squares(f.op(q), d.Results[0]) {
				return true
			}
		}
	}
	return false
}

// rowSum: the sum of the squares over the last dimension, from zero.
func (f *flow) rowSum(sq *ir.HLO) (*ir.HLO, string) {
	red, why := f.reader(sq.Op, sq.Results[0], "the square")
	if why != "" {
		return nil, why
	}
	if !isOp(red, "reduce") || len(red.Operands) != 2 || red.Operands[0] != sq.Results[0] {
		return nil, fmt.Sprintf("the square is read by %s, not a reduction", red.Op.Name)
	}
	return red, f.sumsRows(red)
}

// sumsRows checks that red, a reduce of one operand, sums it over the last
// dimension from zero, in f32, and removes it.
func (f *flow) sumsRows(red *ir.HLO) string {
	t := f.fz.Type
	if !single(red) {
		return fmt.Sprintf("%s is not a reduction of one operand", red.Op.Name)
	}
	dims, ok := red.Ints("dimensions")
	if !ok || !slices.Equal(dims, []int64{int64(len(t.Shape) - 1)}) {
		return fmt.Sprintf("%s sums over dimensions %v, not the last (%d): not a norm of rows", red.Op.Name, dims, len(t.Shape)-1)
	}
	if !slices.Equal(out(red).Shape, t.Shape[:len(t.Shape)-1]) || out(red).Elem != "f32" {
		return fmt.Sprintf("%s makes %s", red.Op.Name, out(red))
	}
	// ±0: JAX starts sums from -0, gomlx from +0 (a row of -0s sums to
	// the init: the recipe's Init, for LayerNorm's sum of h)
	init, ok := f.splat(red.Op, red.Operands[1])
	if !ok || init != 0 {
		return fmt.Sprintf("%s starts from %s, not from 0", red.Op.Name, red.Operands[1])
	}
	f.init = init
	if r := f.m.Reducer(red); r != "stablehlo.add" && r != "mhlo.add" {
		return fmt.Sprintf("%s does not add", red.Op.Name)
	}
	f.removed[red.Op] = true
	return ""
}

// factor: the row's factor from its sum of squares, rsqrt(sum op c + eps)
// (the mean, + eps, rsqrt, in that order, reshapes between), broadcast
// along the row. It returns the broadcast.
func (f *flow) factor(red *ir.HLO) (*ir.HLO, string) {
	t := f.fz.Type
	rowShape := t.Shape[:len(t.Shape)-1]
	layout := make([]int, len(rowShape)) // per dimension: the row dimension it is, or -1 (size 1)
	for i, d := range rowShape {
		layout[i] = i
		if d == 1 {
			layout[i] = -1
		}
	}
	words := []string{"sum", "mean", "mean + eps", "factor"}
	cur, shape, step := red, rowShape, 0 // step: 0 mean, 1 eps, 2 rsqrt, 3 done
	for {
		v, why := f.reader(cur.Op, cur.Results[0], "the row's "+words[step])
		if why != "" {
			return nil, why
		}
		if out(v).Elem != "f32" {
			return nil, fmt.Sprintf("%s makes the row's factor %s: arc's kernel keeps it in f32", v.Op.Name, out(v).Elem)
		}
		broadcastOnly := isOp(v, "broadcast_in_dim") && out(v).Elems() == (ir.TensorType{Shape: shape}).Elems()
		switch {
		case isOp(v, "reshape"):
			if layout = reshapeLayout(layout, shape, out(v).Shape); layout == nil {
				return nil, fmt.Sprintf("%s reshapes the row's factor to %s", v.Op.Name, out(v))
			}
		case broadcastOnly: // only adds dimensions of size 1 (jnp.mean's keepdims): a reshape
			dims, ok := v.Ints("broadcast_dimensions")
			if layout = broadcastLayout(layout, shape, out(v).Shape, dims); !ok || layout == nil {
				return nil, fmt.Sprintf("%s moves the row's factor", v.Op.Name)
			}
		case isOp(v, "broadcast_in_dim") && step == 3:
			if !sameShape(out(v), t) {
				return nil, fmt.Sprintf("%s broadcasts the factor to %s, not to the rows", v.Op.Name, out(v))
			}
			dims, ok := v.Ints("broadcast_dimensions")
			bl := broadcastLayout(layout, shape, out(v).Shape, dims)
			if !ok || bl == nil || !rowsOnly(bl, t.Shape) {
				return nil, fmt.Sprintf("%s does not broadcast the row's factor along its row", v.Op.Name)
			}
			f.removed[v.Op] = true
			return v, ""
		case step == 0 && (isOp(v, "multiply") || isOp(v, "divide")), step == 1 && isOp(v, "add"):
			if why := f.constantStep(v, cur.Results[0], step); why != "" {
				return nil, why
			}
			step++
		case step == 2 && isOp(v, "rsqrt"):
			step++
		default:
			return nil, fmt.Sprintf("%s where the norm has %s", v.Op.Name,
				[]string{"the mean (a multiply or divide by a constant)", "+ eps", "rsqrt", "the broadcast of the factor"}[step])
		}
		if !isOp(v, "broadcast_in_dim") && !isOp(v, "reshape") && !sameShape(out(v), ir.TensorType{Shape: shape}) {
			return nil, fmt.Sprintf("%s changes the factor's shape", v.Op.Name)
		}
		f.removed[v.Op] = true
		cur, shape = v, out(v).Shape
	}
}

// constantStep reads the mean's constant (step 0: times c or divided by c)
// or epsilon (step 1: + eps) that v applies to the factor so far, cur.
func (f *flow) constantStep(v *ir.HLO, cur string, step int) string {
	val, why := f.constantOf(v, cur, []string{"sum", "mean"}[step])
	if why != "" {
		return why
	}
	if step == 0 {
		f.fz.Recipe.Mean, f.fz.Recipe.Scale = map[string]string{"multiply": "mul", "divide": "div"}[v.Kind], val
	} else {
		f.fz.Recipe.Eps = val
	}
	return ""
}

// constantOf is the splat constant that v, a binary op, applies to cur, the
// row's what so far (a divide must divide cur), or why it applies none.
func (f *flow) constantOf(v *ir.HLO, cur, what string) (float32, string) {
	k := other(v, cur)
	if k == "" || isOp(v, "divide") && v.Operands[0] != cur {
		return 0, fmt.Sprintf("%s does not apply a constant to the row's %s", v.Op.Name, what)
	}
	val, ok := f.splat(v.Op, k)
	if !ok {
		return 0, fmt.Sprintf("%s applies %s, not a constant, to the row's %s", v.Op.Name, k, what)
	}
	return val, ""
}

// scaled: the rows a times their broadcast factor, in f32.
func (f *flow) scaled(bcast, a *ir.HLO) (*ir.HLO, string) {
	z, why := f.reader(bcast.Op, bcast.Results[0], "the broadcast factor")
	if why != "" {
		return nil, why
	}
	if !isOp(z, "multiply") || other(z, bcast.Results[0]) != a.Results[0] || !sameType(out(z), f.f32()) {
		return nil, fmt.Sprintf("%s where the norm scales h by its factor", z.Op.Name)
	}
	f.removed[z.Op] = true
	return z, ""
}

// weighted: the weight, before the convert back to T (in f32) or after it
// (in T). It sets y, the weight and its placement.
func (f *flow) weighted(z *ir.HLO) string {
	t := f.fz.Type
	next, why := f.reader(z.Op, z.Results[0], "the normalised row")
	if why != "" {
		return why
	}
	var last *ir.HLO
	switch {
	case isOp(next, "multiply"):
		w, wt, why := f.weight(other(next, z.Results[0]), next, "f32")
		if why != "" {
			return why
		}
		f.fz.Recipe.Weight, f.fz.Weight, f.fz.WeightType = "f32", w, wt
		f.removed[next.Op] = true
		last = next
		if f.fz.Recipe.Layer() {
			if last, why = f.biased(last); why != "" {
				return why
			}
		}
		if t.Elem != "f32" {
			conv, why := f.reader(last.Op, last.Results[0], "the weighted row")
			if why != "" {
				return why
			}
			if !isOp(conv, "convert") || !sameType(out(conv), t) {
				return fmt.Sprintf("%s where the norm converts back to %s", conv.Op.Name, t)
			}
			f.removed[conv.Op] = true
			last = conv
		}
	case isOp(next, "convert") && t.Elem != "f32" && sameType(out(next), t):
		f.removed[next.Op] = true
		mul, why := f.reader(next.Op, next.Results[0], "the normalised row")
		if why != "" {
			return why
		}
		if !isOp(mul, "multiply") || !sameType(out(mul), t) {
			return fmt.Sprintf("%s where the norm multiplies by its weight", mul.Op.Name)
		}
		w, wt, why := f.weight(other(mul, next.Results[0]), mul, t.Elem)
		if why != "" {
			return why
		}
		f.fz.Recipe.Weight, f.fz.Weight, f.fz.WeightType = "io", w, wt
		f.removed[mul.Op] = true
		last = mul
	default:
		return fmt.Sprintf("%s where the norm multiplies by its weight", next.Op.Name)
	}
	f.fz.Y, f.fz.Last = last.Results[0], last.Op
	return ""
}

// biased: a LayerNorm's bias, added in f32 to the weighted row, if the
// program adds one (y is then the add). It returns the op that makes y so
// far.
func (f *flow) biased(mul *ir.HLO) (*ir.HLO, string) {
	rs := f.readersOf(mul.Op, mul.Results[0])
	if len(rs) != 1 {
		return mul, "" // y itself, or read twice: closure says which
	}
	add := f.op(rs[0])
	if !isOp(add, "add") || !single(add) || rs[0].Parent != f.block || other(add, mul.Results[0]) == "" || !sameType(out(add), f.f32()) {
		return mul, ""
	}
	b, bt, why := f.weight(other(add, mul.Results[0]), add, "f32")
	if why != "" {
		return nil, strings.Replace(why, "weight", "bias", 1)
	}
	if !sameType(bt, f.fz.WeightType) {
		return nil, fmt.Sprintf("the bias %s is %s, the weight %s", b, bt, f.fz.WeightType)
	}
	f.fz.Recipe.Bias, f.fz.Bias, f.fz.BiasType = true, b, bt
	f.removed[add.Op] = true
	return add, ""
}

// closure adds what only the fusion reads (the weight's reshapes and
// converts, constants' broadcasts) to the ops it removes, then checks that
// nothing else reads what it removes but h and y, which the fused call
// defines, and that the call, in the add's place, reads only values
// defined before it.
func (f *flow) closure() string {
	for grew := true; grew; {
		grew = false
		for _, op := range f.maybe {
			if !f.removed[op] && f.onlyRemovedRead(op) {
				f.removed[op], grew = true, true
			}
		}
	}
	for op := range f.removed {
		h := f.op(op)
		for _, res := range h.Results {
			if res == f.fz.H || res == f.fz.Y {
				continue
			}
			for _, r := range f.readersOf(op, res) {
				if !f.removed[r] {
					return fmt.Sprintf("%s is read by %s besides the norm", res, r.Name)
				}
			}
		}
	}
	for op := range f.removed {
		f.fz.Ops = append(f.fz.Ops, op)
	}
	slices.SortFunc(f.fz.Ops, func(x, y *ir.Op) int { return f.pos[x] - f.pos[y] })
	for _, v := range []string{f.fz.Residual, f.fz.Weight, f.fz.Bias} {
		if v == "" {
			continue
		}
		d, ok := f.def(f.fz.At, v)
		if !ok {
			return fmt.Sprintf("%s has no definition the residual add sees", v)
		}
		switch {
		case d.Op == f.fz.At && d.Result >= 0:
			return fmt.Sprintf("%s is h itself, which the fused call defines", v)
		case f.removed[d.Op]:
			return fmt.Sprintf("%s is made by the norm's own ops", v)
		case f.after(d):
			if why := f.hoist(d.Op); why != "" {
				return fmt.Sprintf("%s is defined after the residual add, and %s", v, why)
			}
		}
	}
	slices.SortFunc(f.fz.Hoist, func(x, y *ir.Op) int { return f.pos[x] - f.pos[y] })
	return ""
}

// after reports a definition by an op of the block at or after the
// residual add: a value the fused call, in the add's place, does not see.
func (f *flow) after(d ir.Def) bool {
	return d.Result >= 0 && d.Op.Parent == f.block && f.pos[d.Op] >= f.pos[f.fz.At]
}

// movable are the ops hoist moves: pure, of no region, each computing the
// same bits wherever it stands.
var movable = map[string]bool{"constant": true, "add": true, "subtract": true, "multiply": true, "convert": true,
	"reshape": true, "broadcast_in_dim": true}

// hoist takes op, which makes the weight after the residual add, and the ops
// after the add it reads, into fz.Hoist, or says why they cannot move.
func (f *flow) hoist(op *ir.Op) string {
	if f.hoisted[op] {
		return ""
	}
	h := f.op(op)
	switch {
	case op == f.fz.At || f.removed[op]:
		return "it reads what the norm makes"
	case h == nil || len(op.Regions) > 0 || !movable[h.Kind]:
		return fmt.Sprintf("it is made by %s, which arc does not move before the add", op.Name)
	}
	for _, v := range h.Operands {
		d, ok := f.def(op, v)
		if !ok {
			return fmt.Sprintf("%s has no definition", v)
		}
		if f.after(d) {
			if why := f.hoist(d.Op); why != "" {
				return why
			}
		}
	}
	if f.hoisted == nil {
		f.hoisted = map[*ir.Op]bool{}
	}
	f.hoisted[op] = true
	f.fz.Hoist = append(f.fz.Hoist, op)
	return ""
}

// splat is the f32 value of a constant of every element the same, as op
// sees value: a stablehlo.constant, or a broadcast or reshape of one (which
// go with the fusion if only it reads them).
func (f *flow) splat(op *ir.Op, value string) (float32, bool) {
	var via []*ir.Op
	for {
		d, ok := f.def(op, value)
		if !ok || d.Result != 0 {
			return 0, false
		}
		h := f.op(d.Op)
		if !single(h) || out(h).Elem != "f32" {
			return 0, false
		}
		switch h.Kind {
		case "broadcast_in_dim", "reshape":
			if _, ok := h.Ints("broadcast_dimensions"); h.Kind == "broadcast_in_dim" && !ok {
				return 0, false
			}
			if d.Op.Parent == f.block {
				via = append(via, d.Op)
			}
			op, value = d.Op, h.Operands[0]
			continue
		case "constant":
			x, ok := h.SplatF32()
			if ok {
				f.maybe = append(f.maybe, via...)
			}
			return x, ok
		}
		return 0, false
	}
}

// onlyRemovedRead reports an op whose results only removed ops read.
func (f *flow) onlyRemovedRead(op *ir.Op) bool {
	h := f.op(op)
	if h == nil {
		return false
	}
	for _, res := range h.Results {
		for _, r := range f.readersOf(op, res) {
			if !f.removed[r] {
				return false
			}
		}
	}
	return true
}

// weight follows operand of mul back through the reshapes, broadcasts and
// widening converts that only move or widen a weight, to the value of Row
// elements of T they start from (returned with its type), and checks that
// every row of the multiply reads it whole. elem is the type the multiply
// takes the weight in. A LayerNorm's bias, which an add reads, is read the
// same way.
func (f *flow) weight(operand string, mul *ir.HLO, elem string) (string, ir.TensorType, string) {
	t := f.fz.Type
	if operand == "" {
		return "", ir.TensorType{}, fmt.Sprintf("%s does not multiply by a weight", mul.Op.Name)
	}
	var path []*ir.HLO // from the root forward
	root, user := operand, mul.Op
	for {
		d, ok := f.def(user, root)
		if !ok || d.Result != 0 || d.Op.Parent != f.block {
			break
		}
		v := f.op(d.Op)
		if !single(v) || len(v.Operands) != 1 {
			break
		}
		widening := isOp(v, "convert") && v.OperandTypes[0].Elem == t.Elem && out(v).Elem == "f32"
		if !isOp(v, "reshape") && !isOp(v, "broadcast_in_dim") && !widening {
			break
		}
		path = append([]*ir.HLO{v}, path...)
		root, user = v.Operands[0], d.Op
	}
	if d, ok := f.def(user, root); ok && (d.Op == f.fz.At || f.removed[d.Op]) {
		return "", ir.TensorType{}, fmt.Sprintf("the weight %s is h or made from it", root)
	}
	rt, ok := f.typeOf(user, root)
	if !ok {
		return "", ir.TensorType{}, fmt.Sprintf("the weight %s has no type the matcher reads", root)
	}
	if rt.Elem != t.Elem {
		return "", ir.TensorType{}, fmt.Sprintf("the weight %s is %s: arc's kernel takes it in the I/O type %s", root, rt.Elem, t.Elem)
	}
	n := t.Shape[len(t.Shape)-1]
	if rt.Elems() != n {
		return "", ir.TensorType{}, fmt.Sprintf("the weight %s holds %d elements, not a row's %d", root, rt.Elems(), n)
	}
	layout := make([]int, len(rt.Shape))
	for i, d := range rt.Shape {
		layout[i] = -1
		if d != 1 {
			layout[i] = 0
		}
	}
	shape := rt.Shape
	for _, v := range path {
		switch v.Kind {
		case "reshape":
			layout = reshapeLayout(layout, shape, out(v).Shape)
		case "broadcast_in_dim":
			dims, ok := v.Ints("broadcast_dimensions")
			if !ok {
				return "", ir.TensorType{}, fmt.Sprintf("%s: no broadcast dimensions", v.Op.Name)
			}
			layout = broadcastLayout(layout, shape, out(v).Shape, dims)
		}
		if layout == nil {
			return "", ir.TensorType{}, fmt.Sprintf("%s moves the weight's elements", v.Op.Name)
		}
		shape = out(v).Shape
	}
	wt := ir.TensorType{Elem: elem, Shape: shape}
	if !sameShape(wt, t) || elem != "f32" && len(path) > 0 && out(path[len(path)-1]).Elem != elem {
		return "", ir.TensorType{}, fmt.Sprintf("the weight reaches %s as %s", mul.Op.Name, wt)
	}
	if last, ok := f.typeOf(mul.Op, operand); !ok || last.Elem != elem {
		return "", ir.TensorType{}, fmt.Sprintf("%s multiplies by a weight of another type", mul.Op.Name)
	}
	for i, l := range layout {
		want := -1
		if i == len(layout)-1 && n != 1 {
			want = 0
		}
		if l != want {
			return "", ir.TensorType{}, fmt.Sprintf("%s reads the weight along another dimension than the row's", mul.Op.Name)
		}
	}
	for _, v := range path {
		f.maybe = append(f.maybe, v.Op)
	}
	return root, rt, ""
}

// reshapeLayout carries a layout (per dimension: which dimension of the
// source it is, -1 for a dimension of size 1) through a reshape that only
// adds or drops dimensions of size 1; nil for any other.
func reshapeLayout(layout []int, from, to []int64) []int {
	var kept []int
	var sizes []int64
	for i, d := range from {
		if d != 1 {
			kept, sizes = append(kept, layout[i]), append(sizes, d)
		}
	}
	out := make([]int, len(to))
	k := 0
	for i, d := range to {
		out[i] = -1
		if d == 1 {
			continue
		}
		if k >= len(sizes) || sizes[k] != d {
			return nil
		}
		out[i] = kept[k]
		k++
	}
	if k != len(sizes) {
		return nil
	}
	return out
}

// broadcastLayout carries a layout through broadcast_in_dim(dims) from
// shape from to shape to; nil when dims do not fit.
func broadcastLayout(layout []int, from, to []int64, dims []int64) []int {
	if len(dims) != len(from) {
		return nil
	}
	out := make([]int, len(to))
	for i := range out {
		out[i] = -1
	}
	used := map[int64]bool{}
	for i, d := range dims {
		if d < 0 || d >= int64(len(to)) || used[d] || from[i] != 1 && from[i] != to[d] {
			return nil
		}
		used[d] = true
		if from[i] != 1 {
			out[d] = layout[i]
		}
	}
	return out
}

// rowsOnly reports a layout of the row's factor broadcast to the rows:
// dimension i of the rows is row dimension i (or of size 1), the last is
// broadcast.
func rowsOnly(layout []int, shape []int64) bool {
	for i, l := range layout {
		want := i
		if i == len(layout)-1 || shape[i] == 1 {
			want = -1
		}
		if l != want {
			return false
		}
	}
	return true
}
