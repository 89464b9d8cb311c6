package passes

import (
	"fmt"
	"math"
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
	H, Y       string // the names of h and y, which the fused call defines
	Recipe     norm.Recipe
	// Ops are the ops the fused call replaces, in source order: the add
	// that makes h first, the op that makes y last, and between them every
	// op of the norm, and the weight's reshapes and converts that only the
	// norm reads. Constants stay.
	Ops []*ir.Op
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

// NormMatcher matches the all-reduces of one module, reading each block's
// def-use once, so that a pass over every all-reduce costs the module's
// size, not its square.
type NormMatcher struct {
	m    *ir.Module
	uses map[*ir.Block]*blockUses
}

// NewNormMatcher reads nothing yet: each Match reads the block it needs.
func NewNormMatcher(m *ir.Module) *NormMatcher {
	return &NormMatcher{m: m, uses: map[*ir.Block]*blockUses{}}
}

// Match is MatchNorm for one collective of the matcher's module, as the
// analysis read it.
func (nm *NormMatcher) Match(c *ir.Collective) (fz *NormFusion, why string, near bool) {
	op := c.Op
	u := nm.uses[op.Parent]
	if u == nil {
		u = newBlockUses(nm.m, op.Parent)
		nm.uses[op.Parent] = u
	}
	f := &flow{m: nm.m, blockUses: u, removed: map[*ir.Op]bool{}}
	fz, why = f.match(c)
	return fz, why, fz == nil && f.added
}

// blockUses is the def-use of one block: the values its ops define and the
// ops of the block that read them, in their own text or in their regions
// (a region that redefines a name counts as a reader: never fewer readers
// than there are).
type blockUses struct {
	def     map[string]*ir.Op
	readers map[string][]*ir.Op
	pos     map[*ir.Op]int
}

// flow is one match over a block's def-use: the ops it removes.
type flow struct {
	m *ir.Module
	*blockUses
	removed map[*ir.Op]bool
	added   bool // a residual add reads the sum
	// maybe are ops that go with the fusion if only removed ops read them:
	// the weight's reshapes and converts, the broadcasts of constants.
	maybe []*ir.Op
}

func newBlockUses(m *ir.Module, b *ir.Block) *blockUses {
	f := &blockUses{def: map[string]*ir.Op{}, readers: map[string][]*ir.Op{}, pos: map[*ir.Op]int{}}
	for i, op := range b.Ops {
		f.pos[op] = i
		seen := map[string]bool{}
		note := func(o *ir.Op) {
			m.Values(o, func(v ir.ValueRef) {
				if o == op && v.Kind == ir.Result {
					f.def[v.Name] = op
				} else if v.Kind == ir.Use && !seen[v.Name] {
					seen[v.Name] = true
					f.readers[v.Name] = append(f.readers[v.Name], op)
				}
			})
		}
		note(op)
		var nested func(o *ir.Op)
		nested = func(o *ir.Op) {
			for _, r := range o.Regions {
				for _, nb := range r.Blocks {
					for _, in := range nb.Ops {
						note(in)
						nested(in)
					}
				}
			}
		}
		nested(op)
	}
	return f
}

// opv is an op of the norm as the matcher reads it, from either form.
type opv struct {
	op       *ir.Op
	kind     string // the name less "stablehlo."
	result   string
	operands []string
	ins      []ir.TensorType
	out      ir.TensorType
}

func (f *flow) view(op *ir.Op) (opv, bool) {
	v := opv{op: op, kind: strings.TrimPrefix(op.Name, "stablehlo.")}
	if v.kind == op.Name {
		return v, false
	}
	results := 0
	f.m.Values(op, func(r ir.ValueRef) {
		if r.Kind == ir.Result {
			results += r.Count
			v.result = r.Name
		}
	})
	if results != 1 {
		return v, false
	}
	for _, o := range f.m.Operands(op) {
		if !ir.IsValueRef(o) {
			return v, false
		}
		v.operands = append(v.operands, strings.TrimSpace(o))
	}
	ins, outs, ok := f.m.FuncType(op)
	if !ok || len(outs) != 1 {
		return v, false
	}
	var err error
	if v.out, err = ir.ParseTensorType(outs[0]); err != nil || v.out.Elems() < 0 {
		return v, false
	}
	if ins == nil { // the pretty form's one type for every operand and the result
		for range v.operands {
			v.ins = append(v.ins, v.out)
		}
		return v, true
	}
	for _, t := range ins {
		tt, err := ir.ParseTensorType(t)
		if err != nil {
			return v, false
		}
		v.ins = append(v.ins, tt)
	}
	return v, len(v.ins) == len(v.operands)
}

// reader is the one op of the block that reads value, or why there is not one.
func (f *flow) reader(value, what string) (opv, string) {
	rs := f.readers[value]
	if len(rs) != 1 {
		return opv{}, fmt.Sprintf("%s %s has %d readers, not one", what, value, len(rs))
	}
	v, ok := f.view(rs[0])
	if !ok {
		return v, fmt.Sprintf("%s %s is read by %s, which the matcher does not read", what, value, rs[0].Name)
	}
	return v, ""
}

// other is the operand of a binary op that is not value, or "" when both or
// neither are.
func other(v opv, value string) string {
	if len(v.operands) != 2 {
		return ""
	}
	switch {
	case v.operands[0] == value && v.operands[1] != value:
		return v.operands[1]
	case v.operands[1] == value && v.operands[0] != value:
		return v.operands[0]
	}
	return ""
}

func sameType(a, b ir.TensorType) bool { return a.String() == b.String() }

func (f *flow) match(c *ir.Collective) (*NormFusion, string) {
	ar := c.Op
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
	var sum string
	f.m.Values(ar, func(v ir.ValueRef) {
		if v.Kind == ir.Result && v.Count == 1 {
			sum = v.Name
		}
	})
	if sum == "" {
		return nil, "the all-reduce's result is not one named value"
	}
	fz := &NormFusion{AllReduce: ar, Type: t, Recipe: norm.Recipe{Row: int(t.Shape[len(t.Shape)-1])}}

	// h = x + s
	for _, r := range f.readers[sum] {
		f.added = f.added || strings.TrimPrefix(r.Name, "stablehlo.") == "add"
	}
	add, why := f.reader(sum, "the sum")
	if why != "" {
		return nil, why
	}
	if add.kind != "add" || other(add, sum) == "" || !sameType(add.out, t) {
		return nil, fmt.Sprintf("the sum %s is read by %s, not a residual add of its type", sum, add.op.Name)
	}
	fz.Residual, fz.H, fz.At = other(add, sum), add.result, add.op
	f.removed[add.op] = true

	// a = f32(h), unless T is f32
	a := fz.H
	if t.Elem != "f32" {
		var conv opv
		n := 0
		for _, r := range f.readers[fz.H] {
			if v, ok := f.view(r); ok && v.kind == "convert" && v.out.Elem == "f32" {
				conv, n = v, n+1
			}
		}
		switch {
		case n == 0:
			return nil, fmt.Sprintf("h %s is not converted to f32: no RMSNorm in f32 follows (arc's kernels do not run a norm in %s)", fz.H, t.Elem)
		case n > 1:
			return nil, fmt.Sprintf("h %s is converted to f32 %d times", fz.H, n)
		}
		if !sameShape(conv.out, t) {
			return nil, fmt.Sprintf("%s converts h to %s", conv.op.Name, conv.out)
		}
		a = conv.result
		f.removed[conv.op] = true
	}
	f32 := ir.TensorType{Elem: "f32", Shape: t.Shape}

	// q = a * a
	var sq opv
	for _, r := range f.readers[a] {
		if v, ok := f.view(r); ok && v.kind == "multiply" && len(v.operands) == 2 && v.operands[0] == a && v.operands[1] == a {
			if sq.op != nil {
				return nil, fmt.Sprintf("%s is squared twice", a)
			}
			sq = v
		}
	}
	if sq.op == nil {
		return nil, fmt.Sprintf("%s is not squared: no RMSNorm of h follows", a)
	}
	if !sameType(sq.out, f32) {
		return nil, fmt.Sprintf("%s squares h to %s, not in f32", sq.op.Name, sq.out)
	}
	f.removed[sq.op] = true

	// ss = sum over the last dimension
	red, why := f.reader(sq.result, "the square")
	if why != "" {
		return nil, why
	}
	if why := f.sumOfLast(red, sq.result, t); why != "" {
		return nil, why
	}
	f.removed[red.op] = true

	// the row's factor: mean, + eps, rsqrt, in that order, reshapes between
	rowShape := t.Shape[:len(t.Shape)-1]
	layout := make([]int, len(rowShape)) // per dimension: the row dimension it is, or -1 (size 1)
	for i, d := range rowShape {
		layout[i] = i
		if d == 1 {
			layout[i] = -1
		}
	}
	cur, shape, step := red.result, rowShape, 0 // step: 0 mean, 1 eps, 2 rsqrt, 3 done
	var bcast opv
	for bcast.op == nil {
		v, why := f.reader(cur, "the row's "+[]string{"sum", "mean", "mean + eps", "factor"}[step])
		if why != "" {
			return nil, why
		}
		if v.out.Elem != "f32" {
			return nil, fmt.Sprintf("%s makes the row's factor %s: arc's kernel keeps it in f32", v.op.Name, v.out.Elem)
		}
		switch {
		case v.kind == "reshape":
			if layout = reshapeLayout(layout, shape, v.out.Shape); layout == nil {
				return nil, fmt.Sprintf("%s reshapes the row's factor to %s", v.op.Name, v.out)
			}
		case v.kind == "broadcast_in_dim" && v.out.Elems() == (ir.TensorType{Shape: shape}).Elems():
			// only adds dimensions of size 1 (jnp.mean's keepdims): a reshape
			dims, ok := f.dims(v.op, "broadcast_dimensions", "dims")
			if layout = broadcastLayout(layout, shape, v.out.Shape, dims); !ok || layout == nil {
				return nil, fmt.Sprintf("%s moves the row's factor", v.op.Name)
			}
		case v.kind == "broadcast_in_dim" && step == 3:
			if !sameShape(v.out, t) {
				return nil, fmt.Sprintf("%s broadcasts the factor to %s, not to the rows", v.op.Name, v.out)
			}
			dims, ok := f.dims(v.op, "broadcast_dimensions", "dims")
			out := broadcastLayout(layout, shape, v.out.Shape, dims)
			if !ok || out == nil || !rowsOnly(out, t.Shape) {
				return nil, fmt.Sprintf("%s does not broadcast the row's factor along its row", v.op.Name)
			}
			bcast = v
		case v.kind == "multiply" && step == 0, v.kind == "divide" && step == 0, v.kind == "add" && step == 1:
			k := other(v, cur)
			if k == "" || v.kind == "divide" && v.operands[0] != cur {
				return nil, fmt.Sprintf("%s does not apply a constant to the row's %s", v.op.Name, []string{"sum", "mean"}[step])
			}
			val, ok := f.splat(k)
			if !ok {
				return nil, fmt.Sprintf("%s applies %s, not a constant, to the row's %s", v.op.Name, k, []string{"sum", "mean"}[step])
			}
			if step == 0 {
				fz.Recipe.Mean, fz.Recipe.Scale = map[string]string{"multiply": "mul", "divide": "div"}[v.kind], val
			} else {
				fz.Recipe.Eps = val
			}
			step++
		case v.kind == "rsqrt" && step == 2:
			step++
		default:
			return nil, fmt.Sprintf("%s where the norm has %s", v.op.Name,
				[]string{"the mean (a multiply or divide by a constant)", "+ eps", "rsqrt", "the broadcast of the factor"}[step])
		}
		if len(v.operands) > 0 && v.kind != "broadcast_in_dim" && v.kind != "reshape" && !sameShape(v.out, ir.TensorType{Shape: shape}) {
			return nil, fmt.Sprintf("%s changes the factor's shape", v.op.Name)
		}
		f.removed[v.op] = true
		cur, shape = v.result, v.out.Shape
	}
	scaled, why := f.reader(bcast.result, "the broadcast factor")
	if why != "" {
		return nil, why
	}
	if scaled.kind != "multiply" || other(scaled, bcast.result) != a || !sameType(scaled.out, f32) {
		return nil, fmt.Sprintf("%s where the norm scales h by its factor", scaled.op.Name)
	}
	f.removed[scaled.op] = true

	// the weight, before or after the convert back
	next, why := f.reader(scaled.result, "the normalised row")
	if why != "" {
		return nil, why
	}
	var last opv
	switch {
	case next.kind == "multiply":
		w, why := f.weight(other(next, scaled.result), next, t, "f32")
		if why != "" {
			return nil, why
		}
		fz.Recipe.Weight, fz.Weight = "f32", w
		f.removed[next.op] = true
		last = next
		if t.Elem != "f32" {
			conv, why := f.reader(next.result, "the weighted row")
			if why != "" {
				return nil, why
			}
			if conv.kind != "convert" || !sameType(conv.out, t) {
				return nil, fmt.Sprintf("%s where the norm converts back to %s", conv.op.Name, t)
			}
			f.removed[conv.op] = true
			last = conv
		}
	case next.kind == "convert" && t.Elem != "f32" && sameType(next.out, t):
		f.removed[next.op] = true
		mul, why := f.reader(next.result, "the normalised row")
		if why != "" {
			return nil, why
		}
		if mul.kind != "multiply" || !sameType(mul.out, t) {
			return nil, fmt.Sprintf("%s where the norm multiplies by its weight", mul.op.Name)
		}
		w, why := f.weight(other(mul, next.result), mul, t, t.Elem)
		if why != "" {
			return nil, why
		}
		fz.Recipe.Weight, fz.Weight = "io", w
		f.removed[mul.op] = true
		last = mul
	default:
		return nil, fmt.Sprintf("%s where the norm multiplies by its weight", next.op.Name)
	}
	fz.Y = last.result
	if wt, ok := f.argOrTypeOf(fz.Weight); ok {
		fz.WeightType = wt
	}

	// What only the fusion reads goes with it; nothing else may read what
	// it removes, but h and y, which it defines.
	for grew := true; grew; {
		grew = false
		for _, op := range f.maybe {
			if !f.removed[op] && f.onlyRemovedRead(op) {
				f.removed[op], grew = true, true
			}
		}
	}
	for op := range f.removed {
		var res string
		f.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				res = v.Name
			}
		})
		if res == fz.H || res == fz.Y {
			continue
		}
		for _, r := range f.readers[res] {
			if !f.removed[r] {
				return nil, fmt.Sprintf("%s is read by %s besides the norm", res, r.Name)
			}
		}
	}
	for op := range f.removed {
		fz.Ops = append(fz.Ops, op)
	}
	slices.SortFunc(fz.Ops, func(x, y *ir.Op) int { return f.pos[x] - f.pos[y] })
	// The call takes the add's place: its operands must be defined by then.
	for _, v := range []string{fz.Residual, fz.Weight} {
		if d := f.def[v]; d != nil && f.pos[d] > f.pos[add.op] {
			return nil, fmt.Sprintf("%s is defined after the residual add", v)
		}
	}
	if err := fz.Recipe.Check(); err != nil {
		return nil, err.Error()
	}
	return fz, ""
}

func sameShape(a, b ir.TensorType) bool { return slices.Equal(a.Shape, b.Shape) }

// sumOfLast checks that v sums operand over the last dimension of t from
// zero.
func (f *flow) sumOfLast(v opv, operand string, t ir.TensorType) string {
	if v.kind != "reduce" || len(v.operands) != 2 || v.operands[0] != operand {
		return fmt.Sprintf("the square is read by %s, not a reduction", v.op.Name)
	}
	dims, ok := f.dims(v.op, "dimensions", "across dimensions")
	if !ok || !slices.Equal(dims, []int64{int64(len(t.Shape) - 1)}) {
		return fmt.Sprintf("%s sums over dimensions %v, not the last (%d): not a norm of rows", v.op.Name, dims, len(t.Shape)-1)
	}
	if !slices.Equal(v.out.Shape, t.Shape[:len(t.Shape)-1]) || v.out.Elem != "f32" {
		return fmt.Sprintf("%s makes %s", v.op.Name, v.out)
	}
	if init, ok := f.splat(v.operands[1]); !ok || init != 0 {
		return fmt.Sprintf("%s starts from %s, not from 0", v.op.Name, v.operands[1])
	}
	if !f.addsTwo(v.op) {
		return fmt.Sprintf("%s does not add", v.op.Name)
	}
	return ""
}

// addsTwo reports a reduction whose computation is the addition of its two
// arguments: "applies stablehlo.add" or a region that adds them.
func (f *flow) addsTwo(op *ir.Op) bool {
	if len(op.Regions) == 0 {
		return strings.Contains(f.ownText(op), "applies stablehlo.add ")
	}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return false
	}
	b := op.Regions[0].Blocks[0]
	var args []string
	collect := func(v ir.ValueRef) {
		if v.Kind == ir.Arg {
			args = append(args, v.Name)
		}
	}
	if b.Label != "" {
		f.m.LabelArgs(b, collect)
	} else {
		f.m.Values(op, collect) // reducer(%a: ..., %b: ...)
	}
	if len(b.Ops) != 2 || len(args) != 2 {
		return false
	}
	sum, ok := f.view(b.Ops[0])
	if !ok || sum.kind != "add" || other(sum, args[0]) != args[1] {
		return false
	}
	ret := strings.TrimPrefix(b.Ops[1].Name, "stablehlo.")
	operands := f.m.Operands(b.Ops[1])
	return ret == "return" && len(operands) == 1 && strings.TrimSpace(operands[0]) == sum.result
}

// ownText is the op's text outside its regions.
func (f *flow) ownText(op *ir.Op) string {
	s := f.m.Text(op)
	for i := len(op.Regions) - 1; i >= 0; i-- {
		r := op.Regions[i]
		s = s[:r.Start-op.Start] + "{}" + s[r.End-op.Start:]
	}
	return s
}

// dims reads an integer list attribute: generic (name = array<i64: ...>,
// or a dense literal) or the pretty form's "keyword = [...]".
func (f *flow) dims(op *ir.Op, name, keyword string) ([]int64, bool) {
	if op.Generic {
		v, ok := f.m.Attr(op, name)
		if !ok {
			return nil, false
		}
		return parseInts(v)
	}
	s := f.ownText(op)
	i := strings.Index(s, " "+keyword+" = [")
	if i < 0 {
		return nil, false
	}
	s = s[i+len(keyword)+4:]
	j := strings.IndexByte(s, ']')
	if j < 0 {
		return nil, false
	}
	return parseInts(s[:j+1])
}

// parseInts reads "array<i64: 1, 2>", "[1, 2]", "dense<1> : tensor<1xi64>"
// or "dense<[1, 2]> : tensor<2xi64>".
func parseInts(v string) ([]int64, bool) {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, "array<"):
		out, err := ir.IntArray(v)
		return out, err == nil
	case strings.HasPrefix(v, "dense<"):
		rows, err := ir.DenseInts(v)
		if err != nil || len(rows) > 1 {
			return nil, false
		}
		if len(rows) == 0 {
			return []int64{}, true
		}
		return rows[0], true
	}
	elems, ok := ir.SplitArray(v)
	if !ok {
		return nil, false
	}
	out := []int64{}
	for _, e := range elems {
		n, err := strconv.ParseInt(strings.TrimSpace(e), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// splat is the f32 value of a constant of every element the same, spelt
// as the program defines it: a stablehlo.constant, or a broadcast or
// reshape of one; the value as MLIR reads the literal (the nearest double,
// then the nearest f32, or the bits of a hexadecimal literal). Broadcasts
// and reshapes of it that only the fusion reads go with it.
func (f *flow) splat(value string) (float32, bool) {
	var via []*ir.Op
	for {
		op := f.def[value]
		if op == nil {
			return 0, false
		}
		v, ok := f.view(op)
		if !ok || v.out.Elem != "f32" {
			return 0, false
		}
		switch v.kind {
		case "broadcast_in_dim", "reshape":
			if _, ok := f.dims(op, "broadcast_dimensions", "dims"); v.kind == "broadcast_in_dim" && !ok {
				return 0, false // no dims the matcher reads ("dios = []"): not a broadcast it knows
			}
			via = append(via, op)
			value = v.operands[0]
			continue
		case "constant":
			lit, ok := f.literal(op)
			if !ok {
				return 0, false
			}
			x, ok := parseSplat(lit)
			if !ok {
				return 0, false
			}
			f.maybe = append(f.maybe, via...)
			return x, true
		}
		return 0, false
	}
}

// onlyRemovedRead reports an op whose results only removed ops read.
func (f *flow) onlyRemovedRead(op *ir.Op) bool {
	ok := true
	f.m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			for _, r := range f.readers[v.Name] {
				ok = ok && f.removed[r]
			}
		}
	})
	return ok
}

// literal is a constant op's value: "dense<...>".
func (f *flow) literal(op *ir.Op) (string, bool) {
	if op.Generic {
		v, ok := f.m.Attr(op, "value")
		return v, ok
	}
	s := f.ownText(op)
	i := strings.Index(s, "dense<")
	if i < 0 {
		return "", false
	}
	return s[i:], true
}

// parseSplat reads "dense<1.5> : tensor<f32>" or "dense<0x3FC00000>" as f32.
func parseSplat(lit string) (float32, bool) {
	lit = strings.TrimSpace(lit)
	if !strings.HasPrefix(lit, "dense<") {
		return 0, false
	}
	end := strings.IndexByte(lit, '>')
	if end < 0 {
		return 0, false
	}
	s := strings.TrimSpace(lit[len("dense<"):end])
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "\"") {
		return 0, false // not a splat
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		b, err := strconv.ParseUint(s[2:], 16, 32)
		return math.Float32frombits(uint32(b)), err == nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return float32(x), true
}

// typeOf is a value's type: the result type of the op that defines it.
func (f *flow) typeOf(value string) (ir.TensorType, bool) {
	if op := f.def[value]; op != nil {
		if v, ok := f.view(op); ok {
			return v.out, true
		}
	}
	return ir.TensorType{}, false
}

// weight follows operand of mul back through the reshapes, broadcasts and
// widening converts that only move or widen a weight, to the value of
// Row elements of T they start from, and checks that every row of the
// multiply reads it whole. elem is the type the multiply takes the weight
// in.
func (f *flow) weight(operand string, mul opv, t ir.TensorType, elem string) (string, string) {
	if operand == "" {
		return "", fmt.Sprintf("%s does not multiply by a weight", mul.op.Name)
	}
	var path []opv // from the root forward
	root := operand
	for {
		op := f.def[root]
		if op == nil {
			break
		}
		v, ok := f.view(op)
		if !ok || len(v.operands) != 1 {
			break
		}
		widening := v.kind == "convert" && len(v.ins) == 1 && v.ins[0].Elem == t.Elem && v.out.Elem == "f32"
		if v.kind != "reshape" && v.kind != "broadcast_in_dim" && !widening {
			break
		}
		path = append([]opv{v}, path...)
		root = v.operands[0]
	}
	rt, ok := f.argOrTypeOf(root)
	if !ok {
		return "", fmt.Sprintf("the weight %s has no type the matcher reads", root)
	}
	if rt.Elem != t.Elem {
		return "", fmt.Sprintf("the weight %s is %s: arc's kernel takes it in the I/O type %s", root, rt.Elem, t.Elem)
	}
	n := t.Shape[len(t.Shape)-1]
	if rt.Elems() != n {
		return "", fmt.Sprintf("the weight %s holds %d elements, not a row's %d", root, rt.Elems(), n)
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
		switch v.kind {
		case "reshape":
			layout = reshapeLayout(layout, shape, v.out.Shape)
		case "broadcast_in_dim":
			dims, ok := f.dims(v.op, "broadcast_dimensions", "dims")
			if !ok {
				return "", fmt.Sprintf("%s: no broadcast dimensions", v.op.Name)
			}
			layout = broadcastLayout(layout, shape, v.out.Shape, dims)
		}
		if layout == nil {
			return "", fmt.Sprintf("%s moves the weight's elements", v.op.Name)
		}
		shape = v.out.Shape
	}
	wt := ir.TensorType{Elem: elem, Shape: shape}
	if !sameShape(wt, t) || elem != "f32" && len(path) > 0 && path[len(path)-1].out.Elem != elem {
		return "", fmt.Sprintf("the weight reaches %s as %s", mul.op.Name, wt)
	}
	if last, ok := f.argOrTypeOf(operand); !ok || last.Elem != elem {
		return "", fmt.Sprintf("%s multiplies by a weight of another type", mul.op.Name)
	}
	for i, l := range layout {
		want := -1
		if i == len(layout)-1 && n != 1 {
			want = 0
		}
		if l != want {
			return "", fmt.Sprintf("%s reads the weight along another dimension than the row's", mul.op.Name)
		}
	}
	for _, v := range path {
		f.maybe = append(f.maybe, v.op)
	}
	return root, ""
}

// argOrTypeOf is the type of a value an op defines, or of a function or
// block argument (read from its declaration).
func (f *flow) argOrTypeOf(value string) (ir.TensorType, bool) {
	if t, ok := f.typeOf(value); ok {
		return t, true
	}
	if f.def[value] != nil {
		return ir.TensorType{}, false
	}
	var found ir.TensorType
	ok := false
	f.m.Walk(func(op *ir.Op) bool {
		if ok {
			return false
		}
		f.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Arg && v.Name == value && !ok {
				found, ok = argType(f.m.Src, v.Off+len(v.Name))
			}
		})
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				f.m.LabelArgs(b, func(v ir.ValueRef) {
					if v.Kind == ir.Arg && v.Name == value && !ok {
						found, ok = argType(f.m.Src, v.Off+len(v.Name))
					}
				})
			}
		}
		return true
	})
	return found, ok
}

// argType reads the type after an argument's name: ": tensor<...>".
func argType(src string, at int) (ir.TensorType, bool) {
	s := strings.TrimLeft(src[at:], " \t")
	if !strings.HasPrefix(s, ":") {
		return ir.TensorType{}, false
	}
	s = strings.TrimLeft(s[1:], " \t")
	if !strings.HasPrefix(s, "tensor<") {
		return ir.TensorType{}, false
	}
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return ir.TensorType{}, false
	}
	t, err := ir.ParseTensorType(s[:end+1])
	return t, err == nil
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

// OpView is one op as MatchNorm reads it, in either form: what the oracle
// needs to interpret the ops a fusion removed.
type OpView struct {
	Kind     string // the name less "stablehlo."
	Result   string
	Operands []string
	Ins      []ir.TensorType
	Out      ir.TensorType
	Dims     []int64 // broadcast_in_dim's dimensions, reduce's
	Splat    float32 // a constant's value, when Kind is "constant" and every element is it
	IsSplat  bool
	AddsTwo  bool // a reduce whose computation adds its two arguments
}

// ViewOp reads an op of one result for the oracle; false for any other.
func ViewOp(m *ir.Module, op *ir.Op) (OpView, bool) {
	f := &flow{m: m}
	v, ok := f.view(op)
	if !ok {
		return OpView{}, false
	}
	out := OpView{Kind: v.kind, Result: v.result, Operands: v.operands, Ins: v.ins, Out: v.out}
	switch v.kind {
	case "broadcast_in_dim":
		out.Dims, ok = f.dims(op, "broadcast_dimensions", "dims")
	case "reduce":
		out.Dims, ok = f.dims(op, "dimensions", "across dimensions")
		out.AddsTwo = f.addsTwo(op)
	case "constant":
		if lit, found := f.literal(op); found {
			out.Splat, out.IsSplat = parseSplat(lit)
		}
	}
	return out, ok
}
