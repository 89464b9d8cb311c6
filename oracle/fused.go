package oracle

import (
	"fmt"
	"math"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/norm"
	"github.com/arcpass/arc/reference/num"
)

// arc's fused calls (the fused form of arc_allreduce: the all-reduce, then
// h = x + sum and the RMSNorm of h's rows, decision.Call.Norm) replace an
// all-reduce and the plain ops of its residual add and norm. The oracle
// checks them in three parts:
//
//   - the all-reduce: the call's sum, by the reference, against the
//     original's all-reduce, as for any call (its slot);
//   - the plain ops: the original's, less those the lowering removed (their
//     results are named nowhere in the lowered module) or replaced by a
//     fused call (which defines their names), read the same values as the
//     lowered module's, one by one; the lowered module's values take the
//     original's identities by name;
//   - the numbers: the ops removed and replaced are interpreted (add,
//     subtract, multiply, divide, convert, rsqrt, sqrt, reduce by add over
//     the last dimension, broadcast_in_dim, reshape, constants) on the
//     first rows, each f32 operation rounded once, with the fused calls'
//     sums in place of their all-reduces; each call's h and y, by
//     reference/norm from the same operands, must equal the interpreted
//     values bit for bit. A reduction is added in the kernels' order, and
//     must be within the reordering bound of the left fold: the one freedom
//     a fusion takes.

// fusedCall is one fused call of the lowered module, as interpreted.
type fusedCall struct {
	op              *ir.Op
	slot            *slot
	operand, res, w string // the operands' names
	h, y            string // the results' names
	recipe          norm.Recipe
	typ, wtyp       ir.TensorType
}

// fusedHooks is what the lowered module's interpretation takes from the
// original's.
type fusedHooks struct {
	index []int             // lowered plain op k is original plain op index[k]
	named map[string]string // the original's identity of each value name defined once
}

// readFused reads the norm of a fused call.
func readFused(op *ir.Op, m *ir.Module) (norm.Recipe, error) {
	call, err := decision.ParseCall(m, op)
	if err != nil {
		return norm.Recipe{}, err
	}
	if call == nil || call.Norm == nil {
		return norm.Recipe{}, m.Errorf(int(op.Start), "%s is not arc's fused call", op.Name)
	}
	return *call.Norm, nil
}

// isFused reports an op that is arc's fused call.
func isFused(m *ir.Module, op *ir.Op) bool {
	call, err := decision.ParseCall(m, op)
	return err == nil && call != nil && call.Norm != nil
}

// definedNames lists every value name m defines, and those its fused calls
// define.
func definedNames(m *ir.Module) (all, byFused map[string]bool) {
	all, byFused = map[string]bool{}, map[string]bool{}
	m.Walk(func(op *ir.Op) bool {
		fused := isFused(m, op)
		m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				all[v.Name] = true
				if fused {
					byFused[v.Name] = true
				}
			}
		})
		return true
	})
	return all, byFused
}

// plainOps lists a module's ops as interpret numbers them: every op but the
// all-reduces (and arc's calls) and what their regions hold.
func plainOps(m *ir.Module) ([]*ir.Op, error) {
	cs, err := decision.Collectives(m)
	if err != nil {
		return nil, err
	}
	coll := map[*ir.Op]bool{}
	for _, c := range cs {
		if c.Kind == "all_reduce" {
			coll[c.Op] = true
		}
	}
	var out []*ir.Op
	top := m.ModuleOp()
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, op := range b.Ops {
			if coll[op] || op.Name == "" {
				continue // all-reduces, alias definitions and resource sections (see trace.op)
			}
			if op != top {
				out = append(out, op)
			}
			for _, r := range op.Regions {
				for _, rb := range r.Blocks {
					walk(rb)
				}
			}
		}
	}
	walk(m.Body)
	return out, nil
}

// alignFused pairs the lowered module's plain ops with the original's: the
// original's ops whose results the lowered module names nowhere, or names
// by a fused call, are skipped (with what their regions hold). It returns
// the pairing, the skipped ops in order, and a problem, if any.
func alignFused(a *trace, lowered *ir.Module) (*fusedHooks, []*ir.Op, string) {
	all, byFused := definedNames(lowered)
	if len(byFused) == 0 {
		return nil, nil, ""
	}
	lp, err := plainOps(lowered)
	if err != nil {
		return nil, nil, err.Error()
	}
	skipped := map[*ir.Op]bool{}
	var kept []int
	var removed []*ir.Op
	for k, op := range a.plain {
		if p := op.ParentOp(); p != nil && skipped[p] {
			skipped[op] = true
			continue
		}
		n, gone, fused := 0, 0, false
		a.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				n++
				if !all[v.Name] {
					gone++
				}
				fused = fused || byFused[v.Name]
			}
		})
		if n > 0 && (gone == n || fused) {
			skipped[op] = true
			removed = append(removed, op)
			continue
		}
		kept = append(kept, k)
	}
	if len(kept) != len(lp) {
		return nil, nil, fmt.Sprintf("the lowered module has %d ops besides its all-reduces, the original %d less %d removed or fused", len(lp), len(a.plain), len(a.plain)-len(kept))
	}
	for i, k := range kept {
		if a.plain[k].Name != lp[i].Name {
			return nil, nil, fmt.Sprintf("%s at %s:%s stands where the original has %s (%s)", lp[i].Name, lowered.Name, lowered.Position(int(lp[i].Start)), a.plain[k].Name, a.m.Position(int(a.plain[k].Start)))
		}
	}
	return &fusedHooks{index: kept, named: a.named}, removed, ""
}

// evalFused interprets a fused call: its all-reduce as any arc call (the
// slot), and its two results named with the original's identities.
func (t *trace) evalFused(op *ir.Op, c *ir.Collective, s *slot) error {
	rc, err := readFused(op, t.m)
	if err != nil {
		return err
	}
	names := t.m.Operands(op)
	var results []string
	t.m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			results = append(results, v.Name)
		}
	})
	_, _, ok := t.m.FuncType(op)
	if len(names) != 3 || len(results) != 2 || !ok {
		return t.errAt(op, "the fused call takes 3 operands and names 2 results")
	}
	ins, _, _ := t.m.FuncType(op)
	wt, err := ir.ParseTensorType(ins[2])
	if err != nil {
		return t.errAt(op, "fused call: %v", err)
	}
	fc := &fusedCall{op: op, slot: s, operand: names[0], res: names[1], w: names[2], h: results[0], y: results[1],
		recipe: rc, typ: c.OperandTypes[0], wtyp: wt}
	for _, n := range []string{fc.res, fc.w} {
		if _, err := t.resolve(op, n, -1); err != nil {
			return err
		}
	}
	for i, name := range results {
		key := fmt.Sprintf("fused(%s)#%d", s.key, i)
		if t.hooks != nil {
			if k, ok := t.hooks.named[name]; ok && k != "" {
				key = k
			}
		}
		t.define(name, []string{key})
		t.name(name, []string{key}) // a module lowered again reads them by name
	}
	t.fused = append(t.fused, fc)
	return nil
}

// tensor is a value the chain interpreter computed: the first elements of
// its flattened tensor (whole rows), per process, as f32.
type tensor struct {
	typ   ir.TensorType
	procs [][]float32
}

// chain interprets the original's removed and replaced ops.
type chain struct {
	a       *trace
	rows    int64 // rows of the fused tensor the check covers
	total   int64 // the fused tensor's elements
	row     int64 // and its row's
	env     map[string]*tensor
	sums    map[string]*tensor // an original all-reduce's result name -> the fused call's sum
	procs   int
	defs    map[string]*ir.Op // the original's plain ops by result name
	removed map[string]*ir.Op // the removed and replaced ones
	issues  []string
}

// need is how many leading elements of a tensor of type t the check
// needs: the first rows' share when it has as many rows as the fused
// tensor (or a multiple), else all of them.
func (ch *chain) need(t ir.TensorType) int {
	n, r := t.Elems(), ch.total/ch.row
	if n != ch.row && n%r == 0 {
		return int(n / r * ch.rows)
	}
	return int(n)
}

// checkFused checks the lowered module's fused calls against the original's
// removed ops (see the top of this file).
func checkFused(g Grid, opt Options, a, b *trace, removed []*ir.Op) []string {
	var problems []string
	had := map[string]string{} // the original's own fused calls (a module lowered again), by h
	for _, fc := range a.fused {
		had[fc.h] = a.m.Text(fc.op)
	}
	for _, fc := range b.fused {
		if text, ok := had[fc.h]; ok && text == b.m.Text(fc.op) {
			continue // kept as it was: its sum is its slot's check, h and y keep their identities
		}
		if msg := checkOneFused(g, opt, a, b, fc, removed); msg != "" {
			problems = append(problems, fmt.Sprintf("the fused call at %s:%s: %s", b.m.Name, b.m.Position(int(fc.op.Start)), msg))
		}
	}
	return problems
}

func checkOneFused(g Grid, opt Options, a, b *trace, fc *fusedCall, removed []*ir.Op) string {
	n, row := fc.typ.Elems(), int64(fc.recipe.Row)
	if n <= 0 || row <= 0 || n%row != 0 {
		return fmt.Sprintf("%s is not whole rows of %d", fc.typ, row)
	}
	rows := max(1, min(n/row, int64(opt.maxElems())/row))
	if n/row == row { // square: a row's factor and a weight hold as many elements
		rows = row
	}
	if rows*row*g.Size() > 1<<22 {
		return "" // too large to interpret: the slot's check stands alone
	}
	ch := &chain{a: a, rows: rows, total: n, row: row, env: map[string]*tensor{}, sums: map[string]*tensor{}, procs: int(g.Size()),
		defs: map[string]*ir.Op{}, removed: map[string]*ir.Op{}}
	for _, op := range a.plain {
		a.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				ch.defs[v.Name] = op
			}
		})
	}
	for _, op := range removed {
		a.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				ch.removed[v.Name] = op
			}
		})
	}
	// Every fused call of this shape gets its sum in place of its all-reduce.
	results := ch.allReduceResults()
	for _, other := range b.fused {
		if other.typ.String() != fc.typ.String() {
			continue
		}
		name := ""
		for rn, op := range results {
			for _, s := range a.slots {
				if s.op == op && s.key == other.slot.key {
					name = rn
				}
			}
		}
		if name == "" {
			return "the original has no all-reduce of the call's operand"
		}
		sum, why := ch.sumOf(g, other)
		if why != "" {
			return why
		}
		ch.sums[name] = sum
	}
	x, why := ch.value(fc.res, fc.typ)
	if why != "" {
		return why
	}
	w, why := ch.value(fc.w, fc.wtyp)
	if why != "" {
		return why
	}
	for name, op := range results {
		if ch.sums[name] != nil && fc.slot.op != nil && a.byKey[fc.slot.key] != nil && a.byKey[fc.slot.key].op == op {
			sum := ch.sums[name]
			dt := dtypes[fc.typ.Elem]
			for pi := range sum.procs {
				h, y, _, err := norm.Apply(dt, fc.recipe, num.Narrow(dt, x.procs[pi]), num.Narrow(dt, sum.procs[pi]), num.Narrow(dt, w.procs[pi][:row]))
				if err != nil {
					return err.Error()
				}
				for i, name := range []string{fc.h, fc.y} {
					got, why := ch.value(name, fc.typ)
					if why != "" {
						return why
					}
					want := num.Widen(dt, [][]byte{h, y}[i])
					for e, v := range want {
						u := got.procs[pi][e]
						if u != v && !(u != u && v != v) || u == v && math.Signbit(float64(u)) != math.Signbit(float64(v)) {
							return fmt.Sprintf("process %v, %s element %d: the call gives %g, the ops it replaced %g", g.Process(pi), name, e, v, u)
						}
					}
				}
			}
			return strings.Join(ch.issues, "; ")
		}
	}
	return "the call's all-reduce is not the original's"
}

// sumOf is a fused call's sum on the first rows of every process: the
// reference of its kernel (collective.Run), its operand as the original has it.
func (ch *chain) sumOf(g Grid, fc *fusedCall) (*tensor, string) {
	p, why := ch.value(fc.operand, fc.typ)
	if why != "" {
		return nil, why
	}
	dt := dtypes[fc.typ.Elem]
	c := fc.slot.call
	sum := &tensor{typ: fc.typ, procs: make([][]float32, ch.procs)}
	for _, grp := range fc.slot.groups {
		inputs := make([][]byte, len(grp))
		for r, proc := range grp {
			inputs[r] = num.Narrow(dt, p.procs[g.index(proc)])
		}
		outs, err := collective.Run(c.spec, inputs)
		if err != nil {
			return nil, err.Error()
		}
		for r, proc := range grp {
			sum.procs[g.index(proc)] = num.Widen(dt, outs[r])
		}
	}
	return sum, ""
}

// allReduceResults maps the original's all-reduce result names to their ops.
func (ch *chain) allReduceResults() map[string]*ir.Op {
	out := map[string]*ir.Op{}
	for op := range ch.a.colls {
		ch.a.m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result && v.Count == 1 {
				out[v.Name] = op
			}
		})
	}
	return out
}

// value is a name's value, on the leading elements the check needs: one
// the chain computed, a fused call's sum, a constant, or else a leaf of the
// original (the same elements its interpretation draws).
func (ch *chain) value(name string, t ir.TensorType) (*tensor, string) {
	if v := ch.env[name]; v != nil {
		return v, ""
	}
	if v := ch.sums[name]; v != nil {
		return v, ""
	}
	if op := ch.removed[name]; op != nil {
		if why := ch.eval(op); why != "" {
			return nil, why
		}
		return ch.env[name], ""
	}
	if op := ch.defs[name]; op != nil {
		if v, ok := passes.ViewOp(ch.a.m, op); ok && v.Kind == "constant" {
			if !v.IsSplat {
				return nil, fmt.Sprintf("%s is a constant the oracle does not read", name)
			}
			return ch.fill(t, ch.need(t), func(int, int) float32 { return v.Splat }), ""
		}
	}
	key, ok := ch.a.named[name]
	if !ok || key == "" {
		return nil, fmt.Sprintf("%s has no identity in the original", name)
	}
	e := elemOf(t.Elem)
	if e.class != 'f' {
		return nil, fmt.Sprintf("%s is %s", name, t)
	}
	need := ch.need(t)
	lv := ch.a.values[key]
	if lv == nil || len(lv.procs) == 0 || len(lv.procs[0]) < need {
		if strings.HasPrefix(key, "ar(") || strings.HasPrefix(key, "unknown") {
			return nil, fmt.Sprintf("%s is another all-reduce's result, sampled on fewer elements than a row", name)
		}
		lv = leafValue(ch.a.opt.Seed, key, e, need, ch.procs)
	}
	return ch.fill(t, need, func(p, i int) float32 { return float32(e.toFloat(lv.procs[p][i])) }), ""
}

func (ch *chain) fill(t ir.TensorType, n int, at func(p, i int) float32) *tensor {
	v := &tensor{typ: t, procs: make([][]float32, ch.procs)}
	for p := range v.procs {
		v.procs[p] = make([]float32, n)
		for i := range v.procs[p] {
			v.procs[p][i] = at(p, i)
		}
	}
	return v
}

// round is f32 arithmetic's result in the element type.
func round(elem string, v float32) float32 {
	switch elem {
	case "bf16":
		return num.Round(num.BF16, v)
	case "f16":
		return num.Round(num.F16, v)
	}
	return v
}

// eval interprets one removed op; "" or why not.
func (ch *chain) eval(op *ir.Op) string {
	v, ok := passes.ViewOp(ch.a.m, op)
	if !ok {
		return fmt.Sprintf("the lowering removed %s (%s), which the oracle does not interpret", op.Name, ch.a.m.Position(int(op.Start)))
	}
	if v.Kind == "constant" {
		return ""
	}
	var in []*tensor
	for i, name := range v.Operands {
		t := v.Out
		if i < len(v.Ins) {
			t = v.Ins[i]
		}
		x, why := ch.value(name, t)
		if why != "" {
			return why
		}
		in = append(in, x)
	}
	need := ch.need(v.Out)
	out := &tensor{typ: v.Out, procs: make([][]float32, ch.procs)}
	elem := v.Out.Elem
	for p := range out.procs {
		o := make([]float32, need)
		out.procs[p] = o
		switch v.Kind {
		case "add", "subtract", "multiply", "divide":
			if len(in) != 2 || len(in[0].procs[p]) < need || len(in[1].procs[p]) < need {
				return fmt.Sprintf("%s: operands the oracle holds too few elements of", op.Name)
			}
			for i := range o {
				x, y := in[0].procs[p][i], in[1].procs[p][i]
				switch v.Kind {
				case "add":
					o[i] = round(elem, float32(x+y))
				case "subtract":
					o[i] = round(elem, float32(x-y))
				case "multiply":
					o[i] = round(elem, float32(x*y))
				case "divide":
					o[i] = round(elem, float32(x/y))
				}
			}
		case "convert", "rsqrt", "sqrt", "reshape":
			if len(in) != 1 || len(in[0].procs[p]) < need {
				return fmt.Sprintf("%s: an operand the oracle holds too few elements of", op.Name)
			}
			for i := range o {
				x := in[0].procs[p][i]
				switch v.Kind {
				case "rsqrt":
					o[i] = round(elem, norm.RSqrt(x))
				case "sqrt":
					o[i] = round(elem, float32(math.Sqrt(float64(x))))
				default:
					o[i] = round(elem, x)
				}
			}
		case "broadcast_in_dim":
			from := in[0].typ.Shape
			if len(v.Dims) != len(from) {
				return fmt.Sprintf("%s: dimensions %v", op.Name, v.Dims)
			}
			for i := range o {
				j := projectIndex(int64(i), v.Out.Shape, from, v.Dims)
				if j < 0 || j >= int64(len(in[0].procs[p])) {
					return fmt.Sprintf("%s reads elements the oracle does not hold", op.Name)
				}
				o[i] = in[0].procs[p][j]
			}
		case "reduce":
			last := int64(len(in[0].typ.Shape) - 1)
			if !v.AddsTwo || len(v.Dims) != 1 || v.Dims[0] != last || elem != "f32" || len(in) != 2 {
				return fmt.Sprintf("%s: the oracle interprets only an f32 sum over the last dimension", op.Name)
			}
			n := int(in[0].typ.Shape[last])
			for r := range o {
				if (r+1)*n > len(in[0].procs[p]) {
					return fmt.Sprintf("%s reads elements the oracle does not hold", op.Name)
				}
				terms := in[0].procs[p][r*n : (r+1)*n]
				o[r] = sumInArcOrder(terms, in[1].procs[p][0])
				fold, mag := in[1].procs[p][0], 0.0
				for _, q := range terms {
					fold = float32(fold + q)
					mag += math.Abs(float64(q))
				}
				if bound := 2 * foldBound(elemOf("f32"), n+1, mag); !(math.Abs(float64(o[r])-float64(fold)) <= bound) && !math.IsInf(mag, 0) && mag < math.MaxFloat32/2 {
					ch.issues = append(ch.issues, fmt.Sprintf("%s, row %d: the kernels' order gives %g, the left fold %g: more apart than reordering explains", op.Name, r, o[r], fold))
				}
			}
		default:
			return fmt.Sprintf("the lowering removed %s (%s), which the oracle does not interpret", op.Name, ch.a.m.Position(int(op.Start)))
		}
	}
	ch.env[v.Result] = out
	return ""
}

// sumInArcOrder adds terms as the fused kernels add a row's squares
// (norm.SumSquares, whose terms are squares already), after init.
func sumInArcOrder(terms []float32, init float32) float32 {
	total := init
	for q := 0; q*norm.Segment < len(terms); q++ {
		seg := terms[q*norm.Segment : min(len(terms), (q+1)*norm.Segment)]
		var p [norm.Threads]float32
		for k := 0; k*norm.Atom < len(seg); k++ {
			for _, v := range seg[k*norm.Atom : min(len(seg), (k+1)*norm.Atom)] {
				p[k] = p[k] + v
			}
		}
		for s := norm.Threads / 2; s >= 1; s /= 2 {
			for t := range s {
				p[t] = p[t] + p[t+s]
			}
		}
		total = total + p[0]
	}
	return total
}

// projectIndex maps flat element i of a broadcast_in_dim's result of shape
// to to the flat index of its operand of shape from; -1 when out of range.
func projectIndex(i int64, to, from []int64, dims []int64) int64 {
	idx := make([]int64, len(to))
	for d := len(to) - 1; d >= 0; d-- {
		idx[d] = i % to[d]
		i /= to[d]
	}
	j := int64(0)
	for k, d := range dims {
		if d < 0 || int(d) >= len(to) {
			return -1
		}
		c := idx[d]
		if from[k] == 1 {
			c = 0
		}
		j = j*from[k] + c
	}
	return j
}
