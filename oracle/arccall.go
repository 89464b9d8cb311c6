package oracle

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// call is an arc_allreduce custom call as the oracle reads its
// backend_config (docs/LOWERINGS.md, "GPU lowerings").
type call struct {
	spec   collective.Spec
	io     elemType
	groups [][]int64 // device ids, each group in rank order
}

func (c *call) String() string {
	return fmt.Sprintf("arc_allreduce %s", c.spec)
}

var dtypes = map[string]num.DType{"f16": num.F16, "bf16": num.BF16, "f32": num.F32}

// evalCall runs operand i of arc's custom call through the Go reference of
// the kernels: the call's groups name global device ids, a process's rank is
// its device's position in its group, and every rank runs collective.Run on
// the inputs in rank order.
func (t *trace) evalCall(s *slot, c *ir.Collective, i int) error {
	op := c.Op
	fail := func(format string, args ...any) error {
		return t.errAt(op, "arc_allreduce: %s", fmt.Sprintf(format, args...))
	}
	if len(c.Operands) != 1 {
		return fail("%d operands (a call reduces one)", len(c.Operands))
	}
	arc, err := decision.ParseCall(t.m, op)
	if err != nil {
		return err
	}
	if !slices.Contains(collective.Algos(), arc.Algo) {
		return fail("unknown algorithm %q (want oneshot, twoshot or hier)", arc.Algo)
	}
	typ := c.OperandTypes[i]
	dt, ok := dtypes[typ.Elem]
	if !ok {
		return fail("operand type %s (the kernels take f16, bf16 and f32)", typ)
	}
	if c.ResultTypes[i].String() != typ.String() {
		return fail("result type %s differs from the operand's %s", c.ResultTypes[i], typ)
	}
	world := arc.World
	codecName := arc.Codec
	if codecName == "none" {
		codecName = ""
	}
	spec := collective.Spec{Algo: arc.Algo, Codec: codecName, DType: dt, World: world, Cast: arc.CastBF16ToFP16}
	if err := spec.Validate(); err != nil {
		return fail("%v", err)
	}
	// The call's devices are global device ids, group-major.
	cl := &call{spec: spec, io: elemOf(typ.Elem), groups: arc.DeviceGroups()}
	s.call = cl
	// Map devices to processes, and check that the groups partition the
	// devices of the grid: a device in no group, or in two, hangs or fails
	// at run time.
	procOf := map[int64]int{}
	for p := range int(t.grid.Size()) {
		d := t.grid.Device(t.grid.Process(p))
		if q, dup := procOf[d]; dup {
			return fail("the device assignment puts processes %v and %v on device %d", t.grid.Process(q), t.grid.Process(p), d)
		}
		procOf[d] = p
	}
	s.groupOf = make([]int32, t.grid.Size())
	for p := range s.groupOf {
		s.groupOf[p] = -1
	}
	for gi, g := range cl.groups {
		if len(g) != world {
			return fail("group %v has %d devices for world %d", g, len(g), world)
		}
		var pg []Process
		for _, d := range g {
			p, ok := procOf[d]
			switch {
			case !ok:
				return fail("group %v names device %d, which runs no process of the %dx%d grid", g, d, t.grid.Replicas, t.grid.Partitions)
			case s.groupOf[p] >= 0:
				return fail("device %d is in two groups", d)
			}
			s.groupOf[p] = int32(gi)
			pg = append(pg, t.grid.Process(p))
		}
		s.groups = append(s.groups, pg)
	}
	for p, g := range s.groupOf {
		if g < 0 {
			return fail("process %v (device %d) is in no group: its call would wait forever", t.grid.Process(p), t.grid.Device(t.grid.Process(p)))
		}
	}
	in := s.in
	n := 0
	if len(in.procs) > 0 {
		n = len(in.procs[0])
	}
	s.out = &value{elem: cl.io, procs: make([][]uint64, len(in.procs))}
	s.bound = make([][]float64, len(in.procs))
	s.exact = make([][]float64, len(in.procs))
	for _, grp := range s.groups {
		inputs := make([][]byte, world)
		xs := make([][]float64, world)
		for r, p := range grp {
			pi := t.grid.index(p)
			buf := make([]byte, n*dt.Size())
			xs[r] = make([]float64, n)
			for k, b := range in.procs[pi] {
				switch dt.Size() {
				case 2:
					buf[2*k], buf[2*k+1] = byte(b), byte(b>>8)
				default:
					buf[4*k], buf[4*k+1], buf[4*k+2], buf[4*k+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
				}
				xs[r][k] = cl.io.toFloat(b)
			}
			inputs[r] = buf
		}
		outs, err := runReference(spec, inputs)
		if err != nil {
			return fail("the reference: %v", err)
		}
		for r := 1; r < world; r++ {
			if d := num.FirstDiff(dt, outs[0], outs[r]); d >= 0 {
				return fail("ranks 0 and %d of group %v disagree at element %d", r, cl.groups[s.groupOf[t.grid.index(grp[0])]], d)
			}
		}
		if want := fpFormula(spec, xs); want != nil {
			if d := num.FirstDiff(dt, outs[0], num.Narrow(dt, want)); d >= 0 {
				return fail("the reference's output differs from docs/FORMATS.md's formula at element %d", d)
			}
		}
		bound, exact := arcBound(spec, cl.io, xs)
		for r, p := range grp {
			pi := t.grid.index(p)
			bits := make([]uint64, n)
			for k := range bits {
				switch dt.Size() {
				case 2:
					bits[k] = uint64(outs[r][2*k]) | uint64(outs[r][2*k+1])<<8
				default:
					bits[k] = uint64(outs[r][4*k]) | uint64(outs[r][4*k+1])<<8 | uint64(outs[r][4*k+2])<<16 | uint64(outs[r][4*k+3])<<24
				}
			}
			s.out.procs[pi] = bits
			s.bound[pi], s.exact[pi] = bound, exact
		}
	}
	return nil
}

// parseArray reads "array<i64: 1, 2, 3>".
func parseArray(v string) ([]int64, error) {
	inner, ok := strings.CutPrefix(strings.TrimSpace(v), "array<i64")
	if !ok || !strings.HasSuffix(inner, ">") {
		return nil, fmt.Errorf("not an array<i64: ...>")
	}
	inner = strings.TrimSpace(strings.TrimSuffix(inner, ">"))
	inner, _ = strings.CutPrefix(inner, ":")
	var out []int64
	for _, f := range strings.Split(inner, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		x, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// runReference is collective.Run, whose simulation panics on an internal
// inconsistency; the oracle reports it instead.
func runReference(spec collective.Spec, inputs [][]byte) (outs [][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return collective.Run(spec, inputs)
}

// fpFormula computes, for the exact algorithms (codec none or fp), the
// output docs/FORMATS.md defines, from the inputs in rank order: sums in f32
// from the first term, rank order, through the fp wire type where the
// algorithm sends sums. nil for the quantized codecs.
func fpFormula(s collective.Spec, xs [][]float64) []float32 {
	if s.Codec != "" && s.Codec != "none" && s.Codec != "fp" || s.Cast && s.DType == num.BF16 {
		return nil // lossy: the bound alone (the cast rounds sums by block, docs/FORMATS.md)
	}
	wire := s.DType
	rt := func(v float32) float32 {
		if s.Codec == "fp" {
			return num.Round(wire, v)
		}
		return v
	}
	n := len(xs[0])
	fold := func(lo, hi, i int) float32 {
		acc := rt(float32(xs[lo][i]))
		for r := lo + 1; r < hi; r++ {
			acc += rt(float32(xs[r][i]))
		}
		return acc
	}
	out := make([]float32, n)
	w := s.World
	for i := range out {
		switch s.Algo {
		case "oneshot":
			out[i] = fold(0, w, i)
		case "twoshot":
			out[i] = rt(fold(0, w, i))
		case "hier":
			out[i] = rt(rt(fold(0, w/2, i)) + rt(fold(w/2, w, i)))
		}
	}
	return out
}

// codecErr bounds |dec(enc(x)) - x| for every element of a block whose
// largest magnitude is m, from docs/FORMATS.md's definition of each codec
// (+Inf where the codec saturates, which the oracle does not check): the
// bound abi's table names for the codec (docs/ACCURACY.md, "Each codec's
// bound"). A codec the table lacks has no bound (+Inf), but arc's calls
// name none: decision.ParseCall refuses them.
func codecErr(codec string, wire elemType, m float64) float64 {
	if codec == "" {
		return 0
	}
	c, _ := abi.CodecOf(codec)
	b := float64(int(1) << max(c.CodeBits-1, 0)) // B = 2^(bits-1) of integer codes
	switch c.Bound {
	case abi.BoundExact:
		return 0
	case abi.BoundRounding: // one rounding to the wire type
		if m >= wire.max {
			return math.Inf(1)
		}
		return wire.unit()*m + wire.eta()
	case abi.BoundHalfStep:
		if m/b > num.F16Max {
			return math.Inf(1)
		}
		// A code is within half a step s = m/B of its value, except the
		// opposite extreme, which clamps to B-1 (within one step); the f16
		// scale's rounding adds up to B units of 2^-25 (subnormal scales)
		// or 2^-11 relative.
		return 1.1*m/b + b*0x1p-24
	case abi.BoundBestOf3:
		// The encoder keeps the mode with the smallest squared error over
		// the block, at most plain codes' (with a scale truncated by up to
		// 3 units of the f16 scale), so no element errs by more than
		// sqrt(32) times the plain codes' bound.
		if m/b > num.F16Max {
			return math.Inf(1)
		}
		return math.Sqrt(32) * (1.1*m/b + 0x1p-18)
	case abi.BoundE4M3: // e4m3 keeps 4 significant bits; subnormal codes step 2^-9 s
		return 1.01*(m/16+m/448*0x1p-10) + 0x1p-135
	}
	return math.Inf(1)
}

// blockMax gives each element the largest value of its block of 32.
func blockMax(v []float64) []float64 {
	out := make([]float64, len(v))
	for b := 0; b < len(v); b += 32 {
		e := min(b+32, len(v))
		m := 0.0
		for _, x := range v[b:e] {
			m = max(m, x)
		}
		for i := b; i < e; i++ {
			out[i] = m
		}
	}
	return out
}

// arcBound bounds, element by element, how far the reference's output for
// inputs xs (rank order) may be from their exact sum, following the data
// path of docs/FORMATS.md: each codec round trip within codecErr of its
// input, each f32 addition rounded once, one rounding to the I/O type.
// It returns the bound and the exact sum.
func arcBound(s collective.Spec, io elemType, xs [][]float64) (bound, exact []float64) {
	w, n := len(xs), len(xs[0])
	// The bf16 cast (docs/FORMATS.md) errs by less than a bf16 rounding of
	// the block's largest value: 2^-11 of each value plus 2^-39 of the
	// largest where it scales to f16, a bf16 rounding where it does not.
	wire := io
	codec := s.Codec
	if s.Algo == "oneshot" {
		codec = ""
	}
	ce := func(m []float64) []float64 {
		out := make([]float64, len(m))
		for i, x := range m {
			out[i] = codecErr(codec, wire, x)
		}
		return out
	}
	abs := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = math.Abs(x)
		}
		return out
	}
	const u32, eta32 = 0x1p-24, 0x1p-150
	eIn := make([][]float64, w)
	for r := range w {
		eIn[r] = ce(blockMax(abs(xs[r])))
	}
	// fold bounds the f32 sum of ranks lo..hi-1's decoded inputs against
	// the exact sum of their inputs, and returns that exact sum.
	fold := func(lo, hi int) (d, sum []float64) {
		d, sum = make([]float64, n), make([]float64, n)
		for i := range n {
			a, e := 0.0, 0.0
			for r := lo; r < hi; r++ {
				sum[i] += xs[r][i]
				a += math.Abs(xs[r][i]) + eIn[r][i]
				e += eIn[r][i]
			}
			d[i] = e + float64(hi-lo-1)*(u32*a*(1+0x1p-20)+eta32)
		}
		return d, sum
	}
	plus := func(a, b []float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = a[i] + b[i]
		}
		return out
	}
	var d, x []float64
	switch s.Algo {
	case "oneshot":
		d, x = fold(0, w)
	case "twoshot":
		d1, sum := fold(0, w)
		x = sum
		d = plus(d1, ce(blockMax(plus(abs(sum), d1))))
	case "hier":
		d0, p0 := fold(0, w/2)
		d1, p1 := fold(w/2, w)
		e0, e1 := ce(blockMax(plus(abs(p0), d0))), ce(blockMax(plus(abs(p1), d1)))
		x = plus(p0, p1)
		dt := make([]float64, n)
		for i := range dt {
			dt[i] = d0[i] + d1[i] + e0[i] + e1[i] + u32*(math.Abs(p0[i])+math.Abs(p1[i])+d0[i]+d1[i]+e0[i]+e1[i])*(1+0x1p-20) + eta32
		}
		d = plus(dt, ce(blockMax(plus(abs(x), dt))))
	}
	bound = make([]float64, n)
	for i := range bound {
		a := 0.0
		for r := range w {
			a += math.Abs(xs[r][i])
		}
		b := d[i] + io.unit()*(math.Abs(x[i])+d[i]) + io.eta()
		bound[i] = b*(1+0x1p-10) + 0x1p-50*a
		if math.IsNaN(bound[i]) || math.IsInf(a, 0) || a >= io.max {
			bound[i] = math.Inf(1) // non-finite or overflowing inputs: not checked
		}
	}
	return bound, x
}
