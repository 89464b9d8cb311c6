// Package normgen writes StableHLO modules of an all-reduce sum followed by
// a residual add and an RMSNorm, and near misses of it, for fuzzing the
// fuse pass (passes.MatchNorm) against the semantic oracle (package
// oracle): FuzzNorm, at the repository's root, compiles each for
// cuda:nvlink and checks it.
//
// A Case is a handful of choices, one byte each (Bytes, Decode: any bytes
// are a case, so the fuzzing engine mutates them freely): the printed form
// (JAX's pretty form or go-xla's generic form), the I/O type, the shape,
// the process count, the mean (divide by N, multiply by 1/N, or by another
// constant), epsilon, where the weight is applied, which results are
// returned, plain or misleading locations, and one near miss: constants
// whose attribute dictionaries hold other dense values, locations with
// op-like text, a reduction by maximum or minimum, argument and value names
// shadowed by other functions (one with another type for the weight),
// epsilon after the rsqrt or outside a sqrt, a weight along another
// dimension, a second reader of an intermediate value, converts in odd
// places, a reduction from 1, a LayerNorm, a sum over another axis, a sum
// read twice, non-splat (which the matcher does not read) and hexadecimal
// constants, the norm in a function main calls. Case.Exact says which cases
// compute exactly a norm arc's kernels fuse, in a form the matcher reads.
package normgen

import (
	"fmt"
	"math"
	"strings"

	"github.com/arcpass/arc/reference/num"
)

// Near misses (Case.Near).
const (
	Exact         = iota
	ConstAttr     // the mean's and epsilon's constants carry an attribute dictionary holding other dense values
	LocText       // every op's location holds op-like text
	MaxReducer    // the row's reduction is a maximum
	MaxLocAdd     // a maximum whose location says "applies stablehlo.add "
	MinReducer    // the row's reduction is a minimum
	Shadow        // another function with main's argument and value names: first, of other types (Sub%3 = 0); after main (1); first, of main's types (2)
	ShadowWeight  // another function's %w is of the I/O type; main's is f32, multiplied in f32 without a convert
	EpsAfterRsqrt // y = a * (rsqrt(mean) + eps)
	EpsOutside    // y = a / (sqrt(mean) + eps)
	WeightOther   // the weight runs along the rows, not along a row (square shapes)
	SecondReader  // an intermediate value (Sub: which) is returned too
	FactorRound   // the row's factor goes through the I/O type and back
	NormInIO      // the norm in the I/O type, without the convert to f32
	FactorConvert // the row's factor converted f32 to f32
	InitOne       // the row's sum starts from 1
	LayerNorm     // a LayerNorm (Sub: the mean of the squared deviations; h - mean written twice, as JAX does; flax's fast variance; the fast variance unclamped; mean - h)
	OtherAxis     // the sum runs over the rows, not along them
	SumTwice      // the all-reduce's sum is also returned
	ListConst     // the constants are written element by element
	HexConst      // the constants are written as hexadecimal bits
	Callee        // the norm is in a function main calls, whose value names main's shadow
	nearCount
)

var nearNames = []string{"exact", "const-attr", "loc-text", "max-reducer", "max-loc-add", "min-reducer", "shadow",
	"shadow-weight", "eps-after-rsqrt", "eps-outside", "weight-other-dim", "second-reader", "factor-round",
	"norm-in-io", "factor-convert", "init-one", "layernorm", "other-axis", "sum-twice", "list-const", "hex-const", "callee"}

// Case is one generated module's choices.
type Case struct {
	Generic bool // go-xla's generic form, else JAX's pretty form
	Elem    int  // bf16, f32, f16
	Shape   int  // Shapes
	Procs   int  // 2, 4, 8
	Mean    int  // divide by N, multiply by 1/N, divide by N/2, multiply by 0.1
	Eps     int  // Epsilons
	Weight  int  // "f32" (convert the weight up, multiply in f32, convert back), "io" (convert back, multiply in the I/O type), "f32" of a [1, N] weight
	Return  int  // y; y and h; h and y
	Locs    bool // every op has a location
	Near    int  // the near miss
	Sub     int  // its variant
	Square  bool // the square as chlo.square (JAX's jnp.square), else a multiply
}

// Elems, Shapes and Epsilons are the choices' values.
var (
	Elems    = []string{"bf16", "f32", "f16"}
	Shapes   = [][2]int{{4, 64}, {2, 256}, {1, 128}, {8, 32}, {3, 96}, {2, 4096}, {1, 8192}, {32, 32}}
	Epsilons = []float64{1e-6, 1e-5, 0.25, 1e-12, 0}
)

// Bytes is the case as the bytes Decode reads.
func (c Case) Bytes() []byte {
	b := func(v bool) byte {
		if v {
			return 1
		}
		return 0
	}
	return []byte{b(c.Generic), byte(c.Elem), byte(c.Shape), byte(c.Procs), byte(c.Mean), byte(c.Eps), byte(c.Weight), byte(c.Return), b(c.Locs), byte(c.Near), byte(c.Sub), b(c.Square)}
}

// Decode reads a case from any bytes (missing ones are 0: an exact match).
func Decode(data []byte) Case {
	at := func(i, n int) int {
		if i >= len(data) {
			return 0
		}
		return int(data[i]) % n
	}
	return Case{Generic: at(0, 2) == 1, Elem: at(1, len(Elems)), Shape: at(2, len(Shapes)), Procs: at(3, 3), Mean: at(4, 4),
		Eps: at(5, len(Epsilons)), Weight: at(6, 3), Return: at(7, 3), Locs: at(8, 2) == 1, Near: at(9, nearCount), Sub: at(10, 9),
		Square: at(11, 2) == 1}
}

func (c Case) String() string {
	form := "pretty"
	if c.Generic {
		form = "generic"
	}
	sq := ""
	if c.Square {
		sq = " chlo.square"
	}
	return fmt.Sprintf("%s %s %v x%d mean%d eps%g weight%d return%d locs %v %s/%d%s", form, Elems[c.Elem], c.shape(), c.procs(),
		c.Mean, Epsilons[c.Eps], c.Weight, c.Return, c.Locs, nearNames[c.Near], c.Sub, sq)
}

// Exact reports a case whose program is exactly a norm arc's kernels
// compute, in the forms docs/LOWERINGS.md ("Fusion") says the matcher
// reads, whatever else it holds: a matcher that reads it right fuses it
// (where the cost model lowers its all-reduce to arc's kernel).
func (c Case) Exact() bool {
	f32 := Elems[c.Elem] == "f32"
	switch c.Near {
	case Exact, ConstAttr, LocText, Shadow, HexConst, Callee:
		return true
	case ShadowWeight, NormInIO: // in f32, the weight is of the I/O type and the norm in f32
		return f32
	case SecondReader: // in f32, a is h (which may be read anywhere) and the weighted row is y
		return f32 && (c.Sub == 0 || c.Sub == 8)
	}
	return false
}

func (c Case) shape() [2]int {
	if c.Near == WeightOther {
		return [2]int{64, 64}
	}
	return Shapes[c.Shape]
}

func (c Case) procs() int { return []int{2, 4, 8}[c.Procs] }

// gen writes one function's ops.
type gen struct {
	c     Case
	lines []string
	n     int
	ind   string
	locs  int
}

func (g *gen) fresh() string {
	g.n++
	return fmt.Sprintf("%%%d", g.n-1)
}

func (g *gen) loc(what string) string {
	g.locs++
	switch {
	case g.c.Near == LocText:
		return fmt.Sprintf(` loc("applies stablehlo.add across dimensions = [0] dims = [1] %s dense<5.120000e+02> : tensor<f32> %%%d = stablehlo.multiply")`, what, g.locs)
	case g.c.Near == MaxLocAdd && what == "reduce":
		return ` loc("applies stablehlo.add ")`
	case g.c.Locs:
		return fmt.Sprintf(` loc("jit(block)/%s"(%q:%d:%d))`, what, "model.py", 10+g.locs, 4)
	}
	return ""
}

func (g *gen) emit(format string, args ...any) {
	g.lines = append(g.lines, g.ind+fmt.Sprintf(format, args...))
}

func tensor(shape []int, elem string) string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range shape {
		fmt.Fprintf(&b, "%dx", d)
	}
	return b.String() + elem + ">"
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// binary writes r = op(a, b) of type t.
func (g *gen) binary(op, a, b, t string) string {
	r := g.fresh()
	if g.c.Generic {
		g.emit(`%s = "stablehlo.%s"(%s, %s) : (%s, %s) -> %s%s`, r, op, a, b, t, t, t, g.loc(op))
	} else {
		g.emit(`%s = stablehlo.%s %s, %s : %s%s`, r, op, a, b, t, g.loc(op))
	}
	return r
}

// square writes r = a * a: a multiply, or chlo.square as JAX prints
// jnp.square.
func (g *gen) square(a, t string) string {
	if !g.c.Square {
		return g.binary("multiply", a, a, t)
	}
	r := g.fresh()
	if g.c.Generic {
		g.emit(`%s = "chlo.square"(%s) : (%s) -> %s%s`, r, a, t, t, g.loc("square"))
	} else {
		g.emit(`%s = chlo.square %s : %s -> %s%s`, r, a, t, t, g.loc("square"))
	}
	return r
}

// unary writes r = op(a): rsqrt, sqrt (one type), convert, reshape.
func (g *gen) unary(op, a, from, to string) string {
	r := g.fresh()
	switch {
	case g.c.Generic:
		g.emit(`%s = "stablehlo.%s"(%s) : (%s) -> %s%s`, r, op, a, from, to, g.loc(op))
	case from == to && op != "reshape":
		g.emit(`%s = stablehlo.%s %s : %s%s`, r, op, a, to, g.loc(op))
	default:
		g.emit(`%s = stablehlo.%s %s : (%s) -> %s%s`, r, op, a, from, to, g.loc(op))
	}
	return r
}

func (g *gen) broadcast(a, from, to string, dims []int) string {
	r := g.fresh()
	if g.c.Generic {
		g.emit(`%s = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64%s>} : (%s) -> %s%s`, r, a, colonList(dims), from, to, g.loc("broadcast_in_dim"))
	} else {
		g.emit(`%s = stablehlo.broadcast_in_dim %s, dims = [%s] : (%s) -> %s%s`, r, a, ints(dims), from, to, g.loc("broadcast_in_dim"))
	}
	return r
}

func colonList(dims []int) string {
	if len(dims) == 0 {
		return ""
	}
	return ": " + ints(dims)
}

// literal spells a value of elem as the case's constants are spelt: a
// splat, hexadecimal bits, or every element in nested lists.
func (g *gen) literal(x float64, elem string, shape []int) string {
	one := fmt.Sprintf("%e", x)
	if g.c.Near == HexConst {
		switch elem {
		case "f32":
			one = fmt.Sprintf("0x%08X", math.Float32bits(float32(x)))
		case "bf16":
			one = fmt.Sprintf("0x%04X", num.BF16FromF32(float32(x)))
		case "f16":
			one = fmt.Sprintf("0x%04X", num.F16FromF32(float32(x)))
		}
	}
	if g.c.Near != ListConst || len(shape) == 0 {
		return one
	}
	var nest func(dims []int) string
	nest = func(dims []int) string {
		if len(dims) == 0 {
			return one
		}
		inner := nest(dims[1:])
		return "[" + strings.TrimSuffix(strings.Repeat(inner+", ", dims[0]), ", ") + "]"
	}
	return nest(shape)
}

// constant writes a constant of shape (all elements x).
func (g *gen) constant(x float64, shape []int, elem string) string {
	r := g.fresh()
	lit := fmt.Sprintf("dense<%s> : %s", g.literal(x, elem, shape), tensor(shape, elem))
	other := ""
	if g.c.Near == ConstAttr && x != 0 {
		other = fmt.Sprintf("dense<%e> : %s", x*0.5+0.1, tensor(nil, elem))
	}
	switch {
	case g.c.Generic && other != "":
		g.emit(`%s = "stablehlo.constant"() {note = %s, value = %s, zz = %s} : () -> %s%s`, r, other, lit, other, tensor(shape, elem), g.loc("constant"))
	case g.c.Generic:
		g.emit(`%s = "stablehlo.constant"() {value = %s} : () -> %s%s`, r, lit, tensor(shape, elem), g.loc("constant"))
	case other != "":
		g.emit(`%s = stablehlo.constant {note = %s} %s%s`, r, other, lit, g.loc("constant"))
	default:
		g.emit(`%s = stablehlo.constant %s%s`, r, lit, g.loc("constant"))
	}
	return r
}

// scalar is a constant of shape, as the form builds it: JAX and go-xla
// broadcast a scalar constant.
func (g *gen) scalar(x float64, shape []int, elem string) string {
	if g.c.Near == ListConst || g.c.Near == ConstAttr && g.c.Sub%2 == 1 {
		return g.constant(x, shape, elem)
	}
	c := g.constant(x, nil, elem)
	return g.broadcast(c, tensor(nil, elem), tensor(shape, elem), nil)
}

// reduce writes the row's reduction of a (shape in, f32) over dim from init.
func (g *gen) reduce(op, a, init string, in, out []int, dim int, elem string) string {
	r := g.fresh()
	s := tensor(nil, elem)
	from, to := tensor(in, elem), tensor(out, elem)
	loc := g.loc("reduce")
	switch {
	case g.c.Generic:
		g.emit(`%s = "stablehlo.reduce"(%s, %s) ({`, r, a, init)
		g.emit(`  ^bb0(%%lhs: %s, %%rhs: %s):`, s, s)
		g.emit(`    %%r = "stablehlo.%s"(%%lhs, %%rhs) : (%s, %s) -> %s`, op, s, s, s)
		g.emit(`    "stablehlo.return"(%%r) : (%s) -> ()`, s)
		g.emit(`}) {dimensions = array<i64: %d>} : (%s, %s) -> %s%s`, dim, from, s, to, loc)
	case g.c.Sub%2 == 1 && g.c.Near != MaxLocAdd:
		g.emit(`%s = stablehlo.reduce(%s init: %s) across dimensions = [%d] : (%s, %s) -> %s`, r, a, init, dim, from, s, to)
		g.emit(` reducer(%%lhs: %s, %%rhs: %s)  {`, s, s)
		g.emit(`  %%r = stablehlo.%s %%lhs, %%rhs : %s`, op, s)
		g.emit(`  stablehlo.return %%r : %s`, s)
		g.emit(`}%s`, loc)
	default:
		g.emit(`%s = stablehlo.reduce(%s init: %s) applies stablehlo.%s across dimensions = [%d] : (%s, %s) -> %s%s`, r, a, init, op, dim, from, s, to, loc)
	}
	return r
}

func (g *gen) allReduce(a, t, elem string) string {
	r := g.fresh()
	n := g.c.procs()
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	s := tensor(nil, elem)
	attrs := fmt.Sprintf(`<{replica_groups = dense<[[%s]]> : tensor<1x%dxi64>}>`, ints(ids), n)
	if !g.c.Generic { // as JAX writes a psum over a mesh axis
		attrs = fmt.Sprintf(`<{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[%s]]> : tensor<1x%dxi64>, use_global_device_ids}>`, ints(ids), n)
	}
	g.emit(`%s = "stablehlo.all_reduce"(%s) %s ({`, r, a, attrs)
	g.emit(`^bb0(%%a: %s, %%b: %s):`, s, s)
	g.emit(`  %%s = "stablehlo.add"(%%a, %%b) : (%s, %s) -> %s`, s, s, s)
	g.emit(`  "stablehlo.return"(%%s) : (%s) -> ()`, s)
	g.emit(`}) : (%s) -> %s%s`, t, t, g.loc("all_reduce"))
	return r
}

// norm writes the block's ops after the all-reduce of p: h = x + s, the
// RMSNorm of h's rows times w, and returns what the function returns
// (names and types).
func (g *gen) norm(p, x, w, wType string) (rets, types []string) {
	c := g.c
	elem := Elems[c.Elem]
	sh := c.shape()
	rows, row := sh[0], sh[1]
	full := []int{rows, row}
	T := tensor(full, elem)
	F := tensor(full, "f32")
	s := g.allReduce(p, T, elem)
	h := g.binary("add", x, s, T)
	extra := map[string][2]string{} // second readers: name -> type
	if c.Near == SumTwice {
		extra["sum"] = [2]string{s, T}
	}
	a, work, Fw := h, elem, T
	if elem != "f32" && c.Near != NormInIO {
		a = g.unary("convert", h, T, F)
		work, Fw = "f32", F
	}
	squared := a       // what the variance squares
	var meanCol string // LayerNorm's mean, [rows, 1], for the fast variance
	if c.Near == LayerNorm {
		zero := g.constant(0, nil, work)
		sum := g.reduce("add", a, zero, full, []int{rows}, 1, work)
		rt := tensor([]int{rows}, work)
		mean := g.binary("divide", sum, g.scalar(float64(row), []int{rows}, work), rt)
		centre := func() string {
			mb := g.broadcast(mean, rt, Fw, []int{0})
			if c.Sub == layerReversed {
				return g.binary("subtract", mb, a, Fw)
			}
			return g.binary("subtract", a, mb, Fw)
		}
		d := centre()
		squared = d
		if c.Sub == layerFast || c.Sub == layerUnclamped {
			squared = a
			meanCol = g.unary("reshape", mean, rt, tensor([]int{rows, 1}, work))
		}
		if c.Sub == layerTwice {
			d = centre() // y's own h - mean
		}
		a = d
	}
	sq := g.square(squared, Fw)
	if c.Near == SecondReader && c.Sub == 0 {
		extra["a"] = [2]string{a, Fw}
	}
	if c.Near == SecondReader && c.Sub == 1 {
		extra["square"] = [2]string{sq, Fw}
	}
	init := 0.0
	if c.Near == InitOne {
		init = 1
	}
	zero := g.constant(init, nil, work)
	op := "add"
	switch c.Near {
	case MaxReducer, MaxLocAdd:
		op = "maximum"
	case MinReducer:
		op = "minimum"
	}
	var col string // the row's factor, [rows, 1]
	colT := tensor([]int{rows, 1}, work)
	if c.Near == OtherAxis {
		// Sum over the rows: one value per column, normalised as if a row's.
		ss := g.reduce(op, sq, zero, full, []int{row}, 0, work)
		r1 := g.unary("reshape", ss, tensor([]int{row}, work), tensor([]int{1, row}, work))
		one := tensor([]int{1, row}, work)
		mean := g.binary("divide", r1, g.scalar(float64(row), []int{1, row}, work), one)
		e := g.binary("add", mean, g.scalar(Epsilons[c.Eps], []int{1, row}, work), one)
		f := g.unary("rsqrt", e, one, one)
		fb := g.broadcast(f, one, Fw, []int{0, 1})
		z := g.binary("multiply", a, fb, Fw)
		return g.weight(z, w, wType, h, T, Fw, elem, work, extra)
	}
	ss := g.reduce(op, sq, zero, full, []int{rows}, 1, work)
	if c.Near == SecondReader && c.Sub == 2 {
		extra["sum of squares"] = [2]string{ss, tensor([]int{rows}, work)}
	}
	var mean string
	if c.Generic { // go-xla: the mean on [rows], then a reshape
		rt := tensor([]int{rows}, work)
		k, opm := meanConst(c.Mean, row)
		mean = g.binary(opm, ss, g.scalar(k, []int{rows}, work), rt)
		mean = g.unary("reshape", mean, rt, colT)
	} else { // JAX: a reshape, then the mean
		r1 := g.unary("reshape", ss, tensor([]int{rows}, work), colT)
		k, opm := meanConst(c.Mean, row)
		mean = g.binary(opm, r1, g.scalar(k, []int{rows, 1}, work), colT)
	}
	if c.Near == SecondReader && c.Sub == 3 {
		extra["mean"] = [2]string{mean, colT}
	}
	if meanCol != "" { // the fast variance: mean(h*h) - mean^2, clamped at 0
		mean = g.binary("subtract", mean, g.square(meanCol, colT), colT)
		if c.Sub == layerFast {
			mean = g.binary("maximum", g.scalar(0, []int{rows, 1}, work), mean, colT)
		}
	}
	eps := Epsilons[c.Eps]
	switch c.Near {
	case EpsAfterRsqrt:
		f := g.unary("rsqrt", mean, colT, colT)
		col = g.binary("add", f, g.scalar(eps, []int{rows, 1}, work), colT)
	case EpsOutside:
		sq := g.unary("sqrt", mean, colT, colT)
		d := g.binary("add", sq, g.scalar(eps, []int{rows, 1}, work), colT)
		db := g.broadcast(d, colT, Fw, []int{0, 1})
		z := g.binary("divide", a, db, Fw)
		return g.weight(z, w, wType, h, T, Fw, elem, work, extra)
	default:
		e := g.binary("add", mean, g.scalar(eps, []int{rows, 1}, work), colT)
		if c.Near == SecondReader && c.Sub == 4 {
			extra["mean + eps"] = [2]string{e, colT}
		}
		col = g.unary("rsqrt", e, colT, colT)
	}
	switch c.Near {
	case FactorRound:
		ct := tensor([]int{rows, 1}, elem)
		col = g.unary("convert", g.unary("convert", col, colT, ct), ct, colT)
	case FactorConvert:
		col = g.unary("convert", col, colT, colT)
	}
	if c.Near == SecondReader && c.Sub == 5 {
		extra["factor"] = [2]string{col, colT}
	}
	fb := g.broadcast(col, colT, Fw, []int{0, 1})
	if c.Near == SecondReader && c.Sub == 6 {
		extra["broadcast factor"] = [2]string{fb, Fw}
	}
	z := g.binary("multiply", a, fb, Fw)
	if c.Near == SecondReader && c.Sub == 7 {
		extra["z"] = [2]string{z, Fw}
	}
	return g.weight(z, w, wType, h, T, Fw, elem, work, extra)
}

// LayerNorm's variants (Case.Sub of the LayerNorm near miss).
const (
	layerDeviations = iota // the mean of the squared deviations
	layerTwice             // the same, h - mean written twice (JAX: once per use)
	layerFast              // flax's fast variance, max(0, mean(h*h) - mean^2)
	layerUnclamped         // the fast variance without the clamp: not what the kernel computes
	layerReversed          // mean - h: not a LayerNorm
	layerVariants
)

// LayerExact reports a LayerNorm case that is exactly what arc's LayerNorm
// kernels compute, in a form the matcher reads: a variance the kernels
// have, whose mean divides by N as the mean of h does (meanConst 0), the
// weight in f32 (LayerNorm has no weight in the I/O type).
func (c Case) LayerExact() bool {
	return c.Near == LayerNorm && c.Sub <= layerFast && c.Mean == 0 && (c.Weight != 1 || Elems[c.Elem] == "f32")
}

func meanConst(mean, row int) (float64, string) {
	switch mean {
	case 1:
		return 1 / float64(row), "multiply"
	case 2:
		return float64(row) / 2, "divide"
	case 3:
		return 0.1, "multiply"
	}
	return float64(row), "divide"
}

// weight applies the weight to z and lists the results.
func (g *gen) weight(z, w, wType, h, T, Fw, elem, work string, extra map[string][2]string) (rets, types []string) {
	c := g.c
	row := c.shape()[1]
	dims := []int{1}
	if c.Near == WeightOther {
		dims = []int{0}
	}
	var y string
	switch {
	case c.Near == ShadowWeight:
		// main's w is f32, multiplied in f32 as it is.
		wb := g.broadcast(w, wType, Fw, dims)
		y = g.binary("multiply", z, wb, Fw)
		if work != elem {
			y = g.unary("convert", y, Fw, T)
		}
	case c.Weight == 1 && work != elem: // io: back to T, then the weight in T
		zt := g.unary("convert", z, Fw, T)
		if c.Near == SecondReader && c.Sub == 8 {
			extra["weighted"] = [2]string{zt, T}
		}
		wb := g.broadcast(w, wType, T, dims)
		y = g.binary("multiply", zt, wb, T)
	default: // f32: the weight widened, then back to T
		wv, wt := w, wType
		if c.Weight == 2 {
			wt = tensor([]int{row}, elem)
			wv = g.unary("reshape", w, wType, wt)
		}
		if work != elem {
			f := tensor([]int{row}, work)
			wv = g.unary("convert", wv, wt, f)
			wt = f
		}
		wb := g.broadcast(wv, wt, Fw, dims)
		y = g.binary("multiply", z, wb, Fw)
		if c.Near == SecondReader && c.Sub == 8 {
			extra["weighted"] = [2]string{y, Fw}
		}
		if work != elem {
			y = g.unary("convert", y, Fw, T)
		}
	}
	switch c.Return {
	case 0:
		rets, types = []string{y}, []string{T}
	case 1:
		rets, types = []string{y, h}, []string{T, T}
	default:
		rets, types = []string{h, y}, []string{T, T}
	}
	for _, k := range []string{"sum", "a", "square", "sum of squares", "mean", "mean + eps", "factor", "broadcast factor", "z", "weighted"} {
		if e, ok := extra[k]; ok {
			rets, types = append(rets, e[0]), append(types, e[1])
		}
	}
	return rets, types
}

// ret writes the function's return.
func (g *gen) ret(rets, types []string) {
	if g.c.Generic {
		g.emit(`"func.return"(%s) : (%s) -> ()%s`, strings.Join(rets, ", "), strings.Join(types, ", "), g.loc("return"))
	} else {
		g.emit(`return %s : %s%s`, strings.Join(rets, ", "), strings.Join(types, ", "), g.loc("return"))
	}
}

func results(types []string) string {
	if len(types) == 1 {
		return types[0]
	}
	return "(" + strings.Join(types, ", ") + ")"
}

// Module writes the case's module.
func (c Case) Module() string {
	elem := Elems[c.Elem]
	sh := c.shape()
	rows, row := sh[0], sh[1]
	T := tensor([]int{rows, row}, elem)
	wType := tensor([]int{row}, elem)
	switch {
	case c.Weight == 2 && c.Near != ShadowWeight:
		wType = tensor([]int{1, row}, elem)
	case c.Near == ShadowWeight:
		wType = tensor([]int{row}, "f32")
	case c.Near == WeightOther:
		wType = tensor([]int{rows}, elem)
	}
	// Replicas in both forms: a partitioned program's all-reduce outside
	// shard_map's manual region stays native (XLA's partitioner refuses a
	// side-effecting call there), and the flattened ids of the pretty form's
	// psum name the same devices over replicas.
	grid := fmt.Sprintf("mhlo.num_partitions = 1 : i32, mhlo.num_replicas = %d : i32", c.procs())
	var out []string
	out = append(out, fmt.Sprintf("// normgen: %s", c), fmt.Sprintf("module @norm attributes {%s} {", grid))
	helper := func() {
		// The same names as main's, other types: a reader that looks a
		// name up across the module finds these first.
		hw := tensor([]int{row}, elem) // ShadowWeight: the weight arc's kernel takes
		switch {
		case c.Near == Shadow && c.Sub%3 == 2:
			hw = wType // the same as main's
		case c.Near == Shadow:
			hw = tensor([]int{2 * row}, "f32")
		}
		ht := tensor([]int{rows + 1, row}, "f32")
		g := &gen{c: c, ind: "    "}
		g.c.Near = Exact
		g.c.Locs = false
		a := g.binary("add", "%arg1", "%arg1", ht)
		b := g.binary("multiply", a, "%arg0", ht)
		out = append(out, fmt.Sprintf("  func.func private @helper(%%arg0: %s, %%arg1: %s, %%w: %s) -> (%s, %s) {", ht, ht, hw, ht, hw))
		out = append(out, g.lines...)
		out = append(out, fmt.Sprintf("    return %s, %%w : %s, %s", b, ht, hw))
		out = append(out, "  }")
	}
	if c.Near == Shadow && c.Sub%3 != 1 || c.Near == ShadowWeight {
		helper()
	}
	args := fmt.Sprintf("%%arg0: %s, %%arg1: %s, %%w: %s", T, T, wType)
	if c.Near == Callee {
		g := &gen{c: c, ind: "    "}
		rets, types := g.norm("%arg0", "%arg1", "%w", wType)
		g.ret(rets, types)
		out = append(out, fmt.Sprintf("  func.func private @block(%s) -> %s {", args, results(types)))
		out = append(out, g.lines...)
		out = append(out, "  }")
		m := &gen{c: c, ind: "    "}
		m.c.Near = Exact
		// main numbers its values as @block does, and calls it between.
		x := m.binary("add", "%arg1", "%arg1", T)
		r := m.fresh()
		names := make([]string, len(types))
		for i := range names {
			names[i] = fmt.Sprintf("%s#%d", r, i)
		}
		if len(types) == 1 {
			names[0] = r
			m.emit("%s = func.call @block(%%arg0, %s, %%w) : (%s, %s, %s) -> %s", r, x, T, T, wType, results(types))
		} else {
			m.emit("%s:%d = func.call @block(%%arg0, %s, %%w) : (%s, %s, %s) -> %s", r, len(types), x, T, T, wType, results(types))
		}
		m.ret(names, types)
		out = append(out, fmt.Sprintf("  func.func public @main(%s) -> %s {", args, results(types)))
		out = append(out, m.lines...)
		out = append(out, "  }")
	} else {
		g := &gen{c: c, ind: "    "}
		rets, types := g.norm("%arg0", "%arg1", "%w", wType)
		g.ret(rets, types)
		out = append(out, fmt.Sprintf("  func.func public @main(%s) -> %s {", args, results(types)))
		out = append(out, g.lines...)
		out = append(out, "  }")
	}
	if c.Near == Shadow && c.Sub%3 == 1 {
		helper()
	}
	out = append(out, "}")
	return strings.Join(out, "\n") + "\n"
}

// Seeds are the cases the fuzz targets start from: the exact norm in both
// forms, every I/O type, weight placement, mean and shape; every near miss
// (each variant) in both forms, in bf16 and in one of f32 and f16.
func Seeds() []Case {
	var out []Case
	for gen := range 2 {
		for elem := range Elems {
			for w := range 3 {
				k := 3*elem + w
				out = append(out, Case{Generic: gen == 1, Elem: elem, Shape: (k + gen) % len(Shapes), Procs: k % 3, Mean: (w + gen) % 4,
					Eps: k % len(Epsilons), Weight: w, Return: (elem + w) % 3, Locs: w == 1, Square: (k+gen)%2 == 1})
			}
		}
		for near := 1; near < nearCount; near++ {
			subs := 1
			switch near {
			case SecondReader:
				subs = 9
			case Shadow:
				subs = 3
			case ConstAttr, MaxReducer, MinReducer:
				subs = 2
			case LayerNorm:
				subs = layerVariants
			}
			for sub := range subs {
				for i, elem := range []int{0, 1 + (near+sub)%2} {
					c := Case{Generic: gen == 1, Elem: elem, Shape: (near + sub + i) % 5, Procs: (near + i) % 3, Mean: (near + i) % 4,
						Eps: near % len(Epsilons), Weight: (near + sub + i) % 3, Return: (near + sub + i) % 3, Locs: (near+i)%2 == 0, Near: near, Sub: sub,
						Square: (near+sub+i)%3 == 0}
					out = append(out, c)
				}
			}
		}
	}
	return out
}
