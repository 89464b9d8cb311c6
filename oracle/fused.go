package oracle

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
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
//   - the plain ops: block by block, the original's ops less those the
//     lowering removed (their results are named nowhere in the lowered
//     block) or replaced by a fused call (which defines their names there)
//     read the same values as the lowered module's, one by one; the
//     call's results take the identities of the original's values of
//     their names in that block;
//   - the numbers: the original's ops are read by the oracle's own reader
//     (read.go), not the compiler's, and interpreted from the call's h and
//     y back to the call's operands, on the first rows of every process:
//     the ops removed and replaced, and the ops they read that derive from
//     constants and the call's operands alone (constants with the values
//     their literals hold); the call's sum stands for the all-reduce's
//     result, its residual and weight are drawn at random in the types the
//     program reads them as. reference/norm computes the call's h and y
//     from the same operands: they must equal the interpreted values bit
//     for bit, and the call must read its operands in the types the
//     program does.

// fusedCall is one fused call of a module, as interpreted.
type fusedCall struct {
	op        *ir.Op
	slot      *slot
	x, w, b   string   // the identities of the residual, the weight and the bias ("" without one)
	h, y      string   // and of the results: the original's, in a lowered module
	ins, outs []string // the types the call states
	recipe    norm.Recipe
}

// fusedHooks is what the lowered module's interpretation takes from the
// original's.
type fusedHooks struct {
	index []int // lowered plain op k is original plain op index[k]
	// fusedKeys are the original's identities of the values a fused call
	// defines ("" where the original's block defines no such name); kept
	// are the original's own fused calls, kept as they were.
	fusedKeys map[*ir.Op][]string
	kept      map[*ir.Op]bool
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

// results lists the names an op defines, one per result ("%r#1" for the
// results of "%r:2").
func results(m *ir.Module, op *ir.Op) []string {
	var out []string
	m.Values(op, func(v ir.ValueRef) {
		if v.Kind != ir.Result {
			return
		}
		if v.Count == 1 {
			out = append(out, v.Name)
			return
		}
		for j := range v.Count {
			out = append(out, v.Name+"#"+strconv.Itoa(j))
		}
	})
	return out
}

// alignFused pairs the lowered module's plain ops with the original's,
// block by block: the original's ops none of whose results the lowered
// block defines, or some of whose results a fused call defines there, are
// removed (with what their regions hold). It returns the pairing, the
// removed ops, and a problem, if any.
func alignFused(a *trace, lowered *ir.Module) (*fusedHooks, map[*ir.Op]bool, string) {
	cs, err := decision.Collectives(lowered)
	if err != nil {
		return nil, nil, err.Error()
	}
	coll, fused := map[*ir.Op]bool{}, map[*ir.Op]bool{}
	for _, c := range cs {
		if c.Kind == "all_reduce" {
			coll[c.Op] = true
			if isFused(lowered, c.Op) {
				fused[c.Op] = true
			}
		}
	}
	if len(fused) == 0 {
		return nil, nil, ""
	}
	a.numberPlain()
	h := &fusedHooks{fusedKeys: map[*ir.Op][]string{}, kept: map[*ir.Op]bool{}}
	removed := map[*ir.Op]bool{}
	var walk func(ob, lb *ir.Block) string
	walk = func(ob, lb *ir.Block) string {
		defs := map[string]*ir.Op{}
		var lops []*ir.Op
		for _, op := range lb.Ops {
			for _, n := range results(lowered, op) {
				defs[n] = op
			}
			if !coll[op] && op.Name != "" {
				lops = append(lops, op)
			}
		}
		// Pair each kept op of the original with the lowered op that
		// defines its results (an op of none: the next such op), so that
		// the lowering may move a pure op earlier (the weight a fused call
		// reads); every other op keeps its order.
		odefs := map[string]*ir.Op{}
		pair := map[*ir.Op]*ir.Op{} // lowered -> original
		place := map[*ir.Op]int{}   // original op -> its place in ob
		var bare []*ir.Op           // lowered plain ops without results, in order
		for _, lop := range lops {
			if len(results(lowered, lop)) == 0 {
				bare = append(bare, lop)
			}
		}
		for i, op := range ob.Ops {
			place[op] = i
			names := results(a.m, op)
			for _, n := range names {
				odefs[n] = op
			}
			if a.colls[op] != nil || op.Name == "" {
				continue // all-reduces and arc's calls, alias definitions: not plain
			}
			gone, byCall := 0, false
			for _, n := range names {
				d := defs[n]
				if d == nil {
					gone++
				}
				byCall = byCall || fused[d]
			}
			if len(names) > 0 && (gone == len(names) || byCall) {
				removed[op] = true
				continue
			}
			var lop *ir.Op
			if len(names) > 0 {
				lop = defs[names[0]]
				for _, n := range names {
					if defs[n] != lop {
						lop = nil
					}
				}
			} else if len(bare) > 0 {
				lop, bare = bare[0], bare[1:]
			}
			if lop == nil || coll[lop] || pair[lop] != nil {
				return fmt.Sprintf("%s at %s:%s has no counterpart in the lowered module", op.Name, a.m.Name, a.m.Position(int(op.Start)))
			}
			if lop.Name != op.Name {
				return fmt.Sprintf("%s at %s:%s stands where the original has %s (%s)", lop.Name, lowered.Name, lowered.Position(int(lop.Start)), op.Name, a.m.Position(int(op.Start)))
			}
			pair[lop] = op
		}
		last := -1 // the original place of the last op that must keep its order
		for _, lop := range lops {
			op := pair[lop]
			if op == nil {
				return fmt.Sprintf("%s at %s:%s stands where the original's block has no more ops", lop.Name, lowered.Name, lowered.Position(int(lop.Start)))
			}
			if !pureOp(op) {
				if place[op] < last {
					return fmt.Sprintf("%s at %s:%s moved before an op it follows in the original (%s): only pure ops move", lop.Name, lowered.Name, lowered.Position(int(lop.Start)), a.m.Position(int(op.Start)))
				}
				last = place[op]
			}
			h.index = append(h.index, a.index[op])
			if len(op.Regions) != len(lop.Regions) {
				return fmt.Sprintf("%s at %s:%s has %d regions, the original's %d", lop.Name, lowered.Name, lowered.Position(int(lop.Start)), len(lop.Regions), len(op.Regions))
			}
			for ri, r := range op.Regions {
				lr := lop.Regions[ri]
				if len(r.Blocks) != len(lr.Blocks) {
					return fmt.Sprintf("%s at %s:%s has %d blocks in region %d, the original's %d", lop.Name, lowered.Name, lowered.Position(int(lop.Start)), len(lr.Blocks), ri, len(r.Blocks))
				}
				for bi, b := range r.Blocks {
					if why := walk(b, lr.Blocks[bi]); why != "" {
						return why
					}
				}
			}
		}
		// A fused call's results are the original's values of their names.
		for _, op := range lb.Ops {
			if !fused[op] {
				continue
			}
			var keys []string
			for _, n := range results(lowered, op) {
				key := ""
				if od := odefs[n]; od != nil {
					j := indexOf(results(a.m, od), n)
					if k, plain := a.index[od]; plain {
						key = fmt.Sprintf("r%d.%d", k+1, j)
					} else if ks := a.resKeys[od]; j < len(ks) {
						key = ks[j]
						if isFused(a.m, od) && a.m.Text(od) == lowered.Text(op) {
							h.kept[op] = true
						}
					}
				}
				keys = append(keys, key)
			}
			h.fusedKeys[op] = keys
		}
		return ""
	}
	ot, lt := a.top, lowered.ModuleOp()
	switch {
	case (ot == nil) != (lt == nil):
		return nil, nil, "the lowered module and the original differ in their module op"
	case ot == nil:
		if why := walk(a.m.Body, lowered.Body); why != "" {
			return nil, nil, why
		}
	default:
		if len(ot.Regions) != len(lt.Regions) {
			return nil, nil, "the lowered module op has other regions than the original's"
		}
		for ri, r := range ot.Regions {
			if len(r.Blocks) != len(lt.Regions[ri].Blocks) {
				return nil, nil, "the lowered module op has other blocks than the original's"
			}
			for bi, b := range r.Blocks {
				if why := walk(b, lt.Regions[ri].Blocks[bi]); why != "" {
					return nil, nil, why
				}
			}
		}
	}
	return h, removed, ""
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// pureOp reports an op the oracle lets a lowering move earlier in its block:
// StableHLO's element-wise arithmetic, converts, reshapes, broadcasts and
// constants, of no region, which compute the same wherever they stand (the
// oracle's own list, not the compiler's).
func pureOp(op *ir.Op) bool {
	switch op.Name {
	case "stablehlo.constant", "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.convert",
		"stablehlo.reshape", "stablehlo.broadcast_in_dim", "mhlo.constant", "mhlo.add", "mhlo.subtract",
		"mhlo.multiply", "mhlo.convert", "mhlo.reshape", "mhlo.broadcast_in_dim":
		return len(op.Regions) == 0
	}
	return false
}

// numberPlain numbers the plain ops.
func (t *trace) numberPlain() {
	if t.index != nil {
		return
	}
	t.index = make(map[*ir.Op]int, len(t.plain))
	for k, op := range t.plain {
		t.index[op] = k
	}
}

// evalFused interprets a fused call: its all-reduce as any arc call (the
// slot), and its two results, which in a lowered module take the
// original's identities (fusedHooks).
func (t *trace) evalFused(op *ir.Op, c *ir.Collective, s *slot) error {
	rc, err := readFused(op, t.m)
	if err != nil {
		return err
	}
	rd, err := readOp(t.m, op)
	if err != nil {
		return t.errAt(op, "fused call: %v", err)
	}
	names := results(t.m, op)
	ins := 3
	if rc.Bias {
		ins = 4
	}
	if len(rd.operands) != ins || len(names) != 2 || len(rd.ins) != ins || len(rd.outs) != 2 {
		return t.errAt(op, "the fused call takes %d operands and names 2 results", ins)
	}
	fc := &fusedCall{op: op, slot: s, ins: rd.ins, outs: rd.outs, recipe: rc}
	leaves := []*string{&fc.x, &fc.w, &fc.b}[:ins-1]
	for i, dst := range leaves {
		name, idx := splitUse(rd.operands[i+1])
		if *dst, err = t.resolve(op, name, idx); err != nil {
			return err
		}
	}
	var keys []string
	if t.hooks != nil {
		keys = t.hooks.fusedKeys[op]
	}
	i := 0
	t.m.Values(op, func(v ir.ValueRef) {
		if v.Kind != ir.Result {
			return
		}
		ks := make([]string, v.Count)
		for j := range ks {
			ks[j] = fmt.Sprintf("fused(%s)#%d", s.key, i)
			if i < len(keys) && keys[i] != "" {
				ks[j] = keys[i]
			}
			i++
		}
		t.define(v.Name, ks)
		t.resKeys[op] = append(t.resKeys[op], ks...)
	})
	fc.h, fc.y = t.resKeys[op][0], t.resKeys[op][1]
	t.fused = append(t.fused, fc)
	return nil
}

// checkFused checks the lowered module's fused calls against the original's
// ops (see the top of this file).
func checkFused(g Grid, opt Options, a, b *trace, removed map[*ir.Op]bool) []string {
	var problems []string
	reached := map[*ir.Op]bool{}
	for _, fc := range b.fused {
		if b.hooks != nil && b.hooks.kept[fc.op] {
			continue // kept as it was: its sum is its slot's check, h and y keep their identities
		}
		if msg := checkOneFused(g, opt, a, fc, removed, reached); msg != "" {
			problems = append(problems, fmt.Sprintf("the fused call at %s:%s: %s", b.m.Name, b.m.Position(int(fc.op.Start)), msg))
		}
	}
	for _, op := range a.plain {
		if removed[op] && !reached[op] {
			problems = append(problems, fmt.Sprintf("the lowering removed %s at %s:%s, which no fused call's results are computed by", op.Name, a.m.Name, a.m.Position(int(op.Start))))
		}
	}
	return problems
}

// tensor is a value the chain interpreter computed: the first elements of
// its flattened tensor (whole rows), per process, each a value of its type.
type tensor struct {
	typ   string // as the program states it
	tt    ir.TensorType
	e     elemType
	procs [][]float64
}

// chain interprets the original's ops that one fused call replaced.
type chain struct {
	a       *trace
	rows    int64 // rows of the fused tensor the check covers
	total   int64 // the fused tensor's elements
	row     int64 // and its row's
	procs   int
	removed map[*ir.Op]bool
	reached map[*ir.Op]bool
	inputs  map[string]*tensor // the call's operands and sum
	env     map[string]*tensor
	derived map[string]int8 // 1 derives from constants and inputs alone, -1 not
	readAs  map[string]string
	issues  []string
}

// maxChain bounds the elements (of all processes) of one value the chain
// holds.
const maxChain = 1 << 22

// need is how many leading elements of a tensor of type t the check
// needs: the first rows' share when it has as many rows as the fused
// tensor (or a multiple), else all of them.
func (ch *chain) need(t ir.TensorType) int64 {
	n, r := t.Elems(), ch.total/ch.row
	if n != ch.row && n%r == 0 {
		return n / r * ch.rows
	}
	return n
}

type readResult struct {
	op  *stOp
	err error
}

// read is the oracle's reading of an original op (cached).
func (ch *chain) read(op *ir.Op) (*stOp, error) {
	if ch.a.reads == nil {
		ch.a.reads = map[*ir.Op]readResult{}
	}
	r, ok := ch.a.reads[op]
	if !ok {
		r.op, r.err = readOp(ch.a.m, op)
		ch.a.reads[op] = r
	}
	return r.op, r.err
}

// opOf is the plain op whose result key is, and which result.
func (ch *chain) opOf(key string) (*ir.Op, int) {
	rest, ok := strings.CutPrefix(key, "r")
	if !ok {
		return nil, -1
	}
	ks, js, ok := strings.Cut(rest, ".")
	k, err1 := strconv.Atoi(ks)
	j, err2 := strconv.Atoi(js)
	if !ok || err1 != nil || err2 != nil || k < 1 || k > len(ch.a.plain) {
		return nil, -1
	}
	return ch.a.plain[k-1], j
}

// operandKeys are the identities of the values a read op uses.
func (ch *chain) operandKeys(op *ir.Op, rd *stOp) ([]string, string) {
	k := ch.a.index[op]
	refs, uses := ch.a.refs[k], ch.a.uses[k]
	out := make([]string, len(rd.operands))
	for i, ref := range rd.operands {
		name, idx := splitUse(ref)
		if idx >= 0 {
			name += "#" + strconv.Itoa(idx)
		}
		at := indexOf(refs, name)
		if at < 0 && idx == 0 {
			at = indexOf(refs, strings.TrimSuffix(name, "#0"))
		}
		if at < 0 {
			return nil, fmt.Sprintf("%s at %s reads %s, which the oracle's reading of the module does not find", op.Name, ch.a.m.Position(int(op.Start)), ref)
		}
		out[i] = uses[at]
	}
	return out, ""
}

// interpreted are the ops the chain computes.
var interpreted = map[string]bool{
	"constant": true, "add": true, "subtract": true, "multiply": true, "divide": true, "maximum": true, "minimum": true,
	"negate": true, "abs": true, "sqrt": true, "rsqrt": true, "convert": true, "reshape": true, "broadcast_in_dim": true, "reduce": true,
	"chlo.square": true,
}

// isDerived reports a value that derives from constants and the call's
// operands alone, through ops the chain interprets.
func (ch *chain) isDerived(key string) bool {
	if _, ok := ch.inputs[key]; ok {
		return true
	}
	switch ch.derived[key] {
	case 1:
		return true
	case -1:
		return false
	}
	ch.derived[key] = -1 // a cycle derives nothing
	op, j := ch.opOf(key)
	if op == nil || j != 0 {
		return false
	}
	rd, err := ch.read(op)
	if err != nil || !interpreted[rd.kind] || rd.results != 1 {
		return false
	}
	if ch.removed[op] {
		ch.derived[key] = 1
		return true
	}
	keys, why := ch.operandKeys(op, rd)
	if why != "" {
		return false
	}
	for _, k := range keys {
		if !ch.isDerived(k) {
			return false
		}
	}
	ch.derived[key] = 1
	return true
}

// mark notes, without interpreting them, the removed ops key is computed by.
func (ch *chain) mark(key string) {
	op, _ := ch.opOf(key)
	if op == nil || !ch.removed[op] || ch.reached[op] {
		return
	}
	ch.reached[op] = true
	rd, err := ch.read(op)
	if err != nil {
		return
	}
	keys, _ := ch.operandKeys(op, rd)
	for _, k := range keys {
		ch.mark(k)
	}
}

// value is the value of an identity, read as type typ: an input, an op the
// chain interprets (the removed ones must be), or else a leaf drawn at
// random.
func (ch *chain) value(key, typ string) (*tensor, string) {
	v := ch.inputs[key]
	if v != nil && typ != "" && v.typ != typ {
		return nil, fmt.Sprintf("the call takes %s as %s, the program reads it as %s", ch.a.describe(key), v.typ, typ)
	}
	if v == nil {
		v = ch.env[key]
	}
	if v == nil {
		op, j := ch.opOf(key)
		if op != nil && ch.removed[op] {
			rd, err := ch.read(op)
			if err != nil {
				return nil, fmt.Sprintf("the lowering removed %s at %s, which the oracle does not read: %v", op.Name, ch.a.m.Position(int(op.Start)), err)
			}
			if !interpreted[rd.kind] || rd.results != 1 || j != 0 {
				return nil, fmt.Sprintf("the lowering removed %s at %s, which the oracle does not interpret", op.Name, ch.a.m.Position(int(op.Start)))
			}
			var why string
			if v, why = ch.eval(op, rd); why != "" {
				return nil, why
			}
		} else if op != nil && ch.isDerived(key) {
			rd, _ := ch.read(op)
			var why string
			if v, why = ch.eval(op, rd); why != "" {
				return nil, why
			}
		} else {
			var why string
			if v, why = ch.leaf(key, typ); why != "" {
				return nil, why
			}
		}
		ch.env[key] = v
	}
	if typ != "" && v.typ != typ {
		return nil, fmt.Sprintf("%s is read as %s, but it is %s", ch.a.describe(key), typ, v.typ)
	}
	return v, ""
}

// blank is a tensor of type typ with the elements the check needs.
func (ch *chain) blank(typ string) (*tensor, string) {
	tt, err := ir.ParseTensorType(typ)
	if err != nil {
		return nil, fmt.Sprintf("a value of type %s", typ)
	}
	e := elemOf(tt.Elem)
	if e.class != 'f' || e.bits > 32 {
		return nil, fmt.Sprintf("a value of type %s, which the oracle does not interpret", typ)
	}
	n := ch.need(tt)
	if n < 0 || n*int64(ch.procs) > maxChain {
		return nil, fmt.Sprintf("a value of type %s, too large to interpret", typ)
	}
	v := &tensor{typ: typ, tt: tt, e: e, procs: make([][]float64, ch.procs)}
	for p := range v.procs {
		v.procs[p] = make([]float64, n)
	}
	return v, ""
}

// leaf draws an opaque value, as the interpretation draws its leaves.
func (ch *chain) leaf(key, typ string) (*tensor, string) {
	v, why := ch.blank(typ)
	if why != "" {
		return nil, fmt.Sprintf("%s: %s", ch.a.describe(key), why)
	}
	lv := leafValue(ch.a.opt.Seed, key, v.e, len(v.procs[0]), ch.procs)
	for p := range v.procs {
		for i, b := range lv.procs[p] {
			v.procs[p][i] = v.e.toFloat(b)
		}
	}
	return v, ""
}

// eval interprets one op; "" or why not.
func (ch *chain) eval(op *ir.Op, rd *stOp) (*tensor, string) {
	where := fmt.Sprintf("%s at %s:%s", op.Name, ch.a.m.Name, ch.a.m.Position(int(op.Start)))
	if len(rd.outs) != 1 {
		return nil, where + ": not one result"
	}
	keys, why := ch.operandKeys(op, rd)
	if why != "" {
		return nil, why
	}
	in := make([]*tensor, len(keys))
	for i, k := range keys {
		if in[i], why = ch.value(k, rd.ins[i]); why != "" {
			return nil, why
		}
		if prev, ok := ch.readAs[k]; ok && prev != rd.ins[i] {
			return nil, fmt.Sprintf("%s reads %s as %s, another op as %s", where, ch.a.describe(k), rd.ins[i], prev)
		}
		ch.readAs[k] = rd.ins[i]
	}
	out, why := ch.blank(rd.outs[0])
	if why != "" {
		return nil, where + ": " + why
	}
	e := out.e
	n := len(out.procs[0])
	short := func(t *tensor, m int) bool { return len(t.procs[0]) < m }
	sameType := func(ts ...*tensor) bool {
		for _, t := range ts {
			if t.typ != out.typ {
				return false
			}
		}
		return true
	}
	switch rd.kind {
	case "constant":
		vals, typ, err := denseValues(rd.value)
		if err != nil {
			return nil, fmt.Sprintf("%s: %v", where, err)
		}
		if typ.String() != out.tt.String() {
			return nil, fmt.Sprintf("%s: a literal of %s for a result of %s", where, typ, out.typ)
		}
		for p := range out.procs {
			for i := range out.procs[p] {
				if len(vals) == 1 {
					out.procs[p][i] = vals[0]
				} else {
					out.procs[p][i] = vals[i]
				}
			}
		}
	case "add", "subtract", "multiply", "divide", "maximum", "minimum":
		if len(in) != 2 || !sameType(in...) {
			return nil, where + ": operands of another type than its result"
		}
		for p := range out.procs {
			for i := range n {
				out.procs[p][i], _ = arith(rd.kind, e, in[0].procs[p][i], in[1].procs[p][i])
			}
		}
	case "chlo.square": // x * x, rounded once
		if len(in) != 1 || !sameType(in...) {
			return nil, where + ": an operand of another type than its result"
		}
		for p := range out.procs {
			for i := range n {
				out.procs[p][i], _ = arith("multiply", e, in[0].procs[p][i], in[0].procs[p][i])
			}
		}
	case "negate", "abs", "sqrt", "rsqrt":
		if len(in) != 1 || !sameType(in...) {
			return nil, where + ": an operand of another type than its result"
		}
		for p := range out.procs {
			for i := range n {
				out.procs[p][i], _ = unary(rd.kind, e, in[0].procs[p][i])
			}
		}
	case "convert", "reshape":
		if len(in) != 1 || in[0].tt.Elems() != out.tt.Elems() || short(in[0], n) || rd.kind == "reshape" && in[0].e.name != e.name {
			return nil, where + ": an operand the oracle holds too few elements of, or of another type"
		}
		for p := range out.procs {
			for i := range n {
				out.procs[p][i] = roundTo(e, in[0].procs[p][i])
			}
		}
	case "broadcast_in_dim":
		if len(in) != 1 || !rd.hasDims || len(rd.dims) != len(in[0].tt.Shape) || in[0].e.name != e.name {
			return nil, fmt.Sprintf("%s: dimensions %v", where, rd.dims)
		}
		for p := range out.procs {
			for i := range n {
				j := projectIndex(int64(i), out.tt.Shape, in[0].tt.Shape, rd.dims)
				if j < 0 || j >= int64(len(in[0].procs[p])) {
					return nil, where + " reads elements the oracle does not hold"
				}
				out.procs[p][i] = in[0].procs[p][j]
			}
		}
	case "reduce":
		last := int64(len(in[0].tt.Shape) - 1)
		if len(in) != 2 || !rd.hasDims || len(rd.dims) != 1 || rd.dims[0] != last || rd.applies == "" ||
			rd.appliesIn != e.name || in[0].e.name != e.name || in[1].e.name != e.name || len(in[1].tt.Shape) != 0 {
			return nil, where + ": the oracle interprets a reduction by add, multiply, maximum or minimum over the last dimension, in its own type"
		}
		width := int(in[0].tt.Shape[last])
		for p := range out.procs {
			init := in[1].procs[p][0]
			for r := range n {
				if (r+1)*width > len(in[0].procs[p]) {
					return nil, where + " reads elements the oracle does not hold"
				}
				terms := in[0].procs[p][r*width : (r+1)*width]
				if rd.applies != "add" {
					acc := init
					for _, x := range terms {
						var ok bool
						if acc, ok = arith(rd.applies, e, acc, x); !ok {
							return nil, fmt.Sprintf("%s applies %s, which the oracle does not interpret", where, rd.applies)
						}
					}
					out.procs[p][r] = acc
					continue
				}
				out.procs[p][r] = sumInArcOrder(e, terms, init)
				fold, mag := init, math.Abs(init)
				for _, x := range terms {
					fold = roundTo(e, fold+x)
					mag += math.Abs(x)
				}
				if bound := 2 * foldBound(e, width+1, mag); !(math.Abs(out.procs[p][r]-fold) <= bound) && !math.IsInf(mag, 0) && mag < e.max/2 {
					ch.issues = append(ch.issues, fmt.Sprintf("%s, row %d: the kernels' order gives %g, the left fold %g: more apart than reordering explains", where, r, out.procs[p][r], fold))
				}
			}
		}
	default:
		return nil, fmt.Sprintf("%s: not interpreted", where)
	}
	return out, ""
}

// sumInArcOrder is the schedule the oracle assumes for a reduction by add
// (StableHLO leaves it to the implementation): the fused kernels' order of
// a row's sum (reference/norm.InOrder), init first, each addition rounded
// once to e; partials start from a -0 init (the identity), else from +0.
func sumInArcOrder(e elemType, terms []float64, init float64) float64 {
	from := 0.0
	if init == 0 {
		from = init
	}
	return norm.InOrder(len(terms), func(i int) float64 { return terms[i] }, init, from,
		func(a, b float64) float64 { return roundTo(e, a+b) })
}

// checkOneFused interprets what one fused call replaced and compares.
func checkOneFused(g Grid, opt Options, a *trace, fc *fusedCall, removed, reached map[*ir.Op]bool) string {
	a.numberPlain()
	ch := &chain{a: a, procs: int(g.Size()), removed: removed, reached: reached, inputs: map[string]*tensor{},
		env: map[string]*tensor{}, derived: map[string]int8{}, readAs: map[string]string{}}
	for _, k := range []string{fc.h, fc.y} {
		ch.mark(k)
	}
	typ, err := ir.ParseTensorType(fc.ins[0])
	row := int64(fc.recipe.Row)
	switch {
	case err != nil:
		return fmt.Sprintf("it reduces %s", fc.ins[0])
	case fc.ins[1] != fc.ins[0] || fc.outs[0] != fc.ins[0] || fc.outs[1] != fc.ins[0]:
		return fmt.Sprintf("its operands and results are %v -> %v: the sum, the residual, h and y are of one type", fc.ins, fc.outs)
	}
	n := typ.Elems()
	if n <= 0 || row <= 0 || n%row != 0 {
		return fmt.Sprintf("%s is not whole rows of %d", typ, row)
	}
	for i := 2; i < len(fc.ins); i++ {
		if wt, err := ir.ParseTensorType(fc.ins[i]); err != nil || wt.Elem != typ.Elem || wt.Elems() != row {
			return fmt.Sprintf("its %s is %s, not %d elements of %s", []string{"weight", "bias"}[i-2], fc.ins[i], row, typ.Elem)
		}
	}
	dt, ok := dtypes[typ.Elem]
	if !ok {
		return fmt.Sprintf("it reduces %s", typ)
	}
	ch.total, ch.row = n, row
	ch.rows = max(1, min(n/row, int64(opt.maxElems())/row))
	if n/row == row { // square: a row's factor and a weight hold as many elements
		ch.rows = row
	}
	if ch.rows*row*g.Size() > maxChain {
		return "" // too large to interpret: the slot's check stands alone
	}
	for _, k := range []string{fc.h, fc.y} {
		if op, _ := ch.opOf(k); op == nil || !removed[op] {
			return fmt.Sprintf("its results are not the values of ops it replaces (%s, %s)", a.describe(fc.h), a.describe(fc.y))
		}
	}
	if fc.slot.call == nil || fc.slot.invalid != nil {
		return "" // the slot's check says why
	}
	sumKey := fc.slot.key
	if a.byKey[sumKey] == nil {
		return "the call's all-reduce is not the original's"
	}
	// The inputs: the call's sum, by the reference, and its residual,
	// weight and bias, as the leaves the interpretation draws.
	sum, why := ch.sumOf(g, fc)
	if why != "" {
		return why
	}
	ch.inputs[sumKey] = sum
	leaves := []string{fc.x, fc.w, fc.b}[:len(fc.ins)-1]
	for i, k := range leaves {
		v, why := ch.leaf(k, fc.ins[i+1])
		if why != "" {
			return why
		}
		ch.inputs[k] = v
	}
	got := make([]*tensor, 2)
	for i, k := range []string{fc.h, fc.y} {
		if got[i], why = ch.value(k, fc.outs[i]); why != "" {
			return why
		}
	}
	// The call reads what the replaced ops read, as they read it.
	for i, k := range append([]string{sumKey}, leaves...) {
		what := []string{"the all-reduce's result", "its residual " + a.describe(fc.x), "its weight " + a.describe(fc.w), "its bias " + a.describe(fc.b)}[i]
		switch as, ok := ch.readAs[k]; {
		case !ok:
			return fmt.Sprintf("the ops it replaces do not read %s", what)
		case as != fc.ins[i]:
			return fmt.Sprintf("it reads %s as %s, the ops it replaces as %s", what, fc.ins[i], as)
		}
	}
	x, w := ch.inputs[fc.x], ch.inputs[fc.w]
	for p := range sum.procs {
		var b []byte
		if fc.b != "" {
			b = narrow(dt, ch.inputs[fc.b].procs[p][:row])
		}
		h, y, err := norm.Apply(dt, fc.recipe, narrow(dt, x.procs[p]), narrow(dt, sum.procs[p]), narrow(dt, w.procs[p][:row]), b)
		if err != nil {
			return err.Error()
		}
		for i, bytes := range [][]byte{h, y} {
			want := num.Widen(dt, bytes)
			for el, v := range want {
				u := float32(got[i].procs[p][el])
				if math.Float32bits(u) != math.Float32bits(v) && !(u != u && v != v) {
					return fmt.Sprintf("process %v, %s element %d: the call gives %g, the ops it replaced %g (the call's %s)",
						g.Process(p), []string{"h", "y"}[i], el, v, u, fc.recipe)
				}
			}
		}
	}
	return strings.Join(ch.issues, "; ")
}

// narrow is values of dt as its bytes.
func narrow(dt num.DType, vs []float64) []byte {
	f := make([]float32, len(vs))
	for i, v := range vs {
		f[i] = float32(v)
	}
	return num.Narrow(dt, f)
}

// sumOf is a fused call's sum on the first rows of every process: the
// reference of its kernel (collective.Run) on its operand.
func (ch *chain) sumOf(g Grid, fc *fusedCall) (*tensor, string) {
	p, why := ch.value(fc.slot.operandKey, fc.ins[0])
	if why != "" {
		return nil, why
	}
	dt := dtypes[p.tt.Elem]
	c := fc.slot.call
	sum, why := ch.blank(fc.ins[0])
	if why != "" {
		return nil, why
	}
	for _, grp := range fc.slot.groups {
		inputs := make([][]byte, len(grp))
		for r, proc := range grp {
			inputs[r] = narrow(dt, p.procs[g.index(proc)])
		}
		outs, err := collective.Run(c.spec, inputs)
		if err != nil {
			return nil, err.Error()
		}
		for r, proc := range grp {
			for i, v := range num.Widen(dt, outs[r]) {
				sum.procs[g.index(proc)][i] = float64(v)
			}
		}
	}
	return sum, ""
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
		} else if from[k] != to[d] {
			return -1
		}
		j = j*from[k] + c
	}
	return j
}
