package oracle

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/norm"
)

// readNamed parses src and reads the op that defines name (or, for
// "return", the first return) in the function fn.
func readNamed(t *testing.T, src, fn, name string) *stOp {
	t.Helper()
	m, err := ir.ParseString("read.mlir", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var found *ir.Op
	inFn := ""
	m.Walk(func(op *ir.Op) bool {
		if op.Name == "func.func" {
			inFn = ""
			for _, f := range m.Funcs() {
				if f.Op == op {
					inFn = f.Name
				}
			}
			if sym, ok := m.Attr(op, "sym_name"); ok {
				inFn = ir.Unquote(sym)
			}
			if name == "func" && inFn == fn {
				found = op
			}
			return true
		}
		if inFn != fn || found != nil {
			return true
		}
		if name == "return" && shortKind(op.Name) == "return" && op.Parent.Parent.Parent.Name == "func.func" {
			found = op
		}
		for _, r := range results(m, op) {
			if r == name {
				found = op
			}
		}
		return true
	})
	if found == nil {
		t.Fatalf("no %s in @%s", name, fn)
	}
	rd, err := readOp(m, found)
	if err != nil {
		t.Fatalf("reading %s: %v", m.Text(found), err)
	}
	return rd
}

const readModule = `module @m {
  func.func private @helper(%w: tensor<64xbf16> {mhlo.sharding = "{replicated}"} loc("w: tensor<64xf32>"), %x: tensor<4x64xf32> loc(#loc1)) -> tensor<64xbf16> {
    %c = stablehlo.constant {note = dense<5.120000e+02> : tensor<f32>} dense<1.024000e+03> : tensor<f32> loc("dense<7.0>")
    %c2 = stablehlo.constant dense<[1.0, 2.5, -0.0, 0x7F800000]> : tensor<4xf32>
    %c3 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %c4 = stablehlo.constant dense<0x3F80> : tensor<bf16>
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %m = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32> loc("applies stablehlo.add across dimensions = [0]")
    %s = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%a: tensor<f32>, %b: tensor<f32>)  {
      %r = stablehlo.add %b, %a : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }
    %odd = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%a: tensor<f32>, %b: tensor<f32>)  {
      %r = stablehlo.add %a, %a : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }
    %bc = stablehlo.broadcast_in_dim %m, dims = [0] {note = "dims = [1]"} : (tensor<4xf32>) -> tensor<4x64xf32>
    %cv = stablehlo.convert %bc : (tensor<4x64xf32>) -> tensor<4x64xbf16>
    %ad = stablehlo.add %cv, %cv {mhlo.frontend_attributes = {x = "stablehlo.multiply"}} : tensor<4x64xbf16>
    %rs = stablehlo.rsqrt %m : tensor<4xf32> loc("stablehlo.sqrt")
    %rh = stablehlo.reshape %m : (tensor<4xf32>) -> tensor<4x1xf32>
    return %w : tensor<64xbf16>
  }
  func.func @main(%w: tensor<64xf32>) -> tensor<64xf32> {
    return %w : tensor<64xf32>
  }
}
#loc1 = loc("x")
`

const readGenericModule = `module @g {
  "func.func"() <{function_type = (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4xf32>, sym_name = "gen"}> ({
  ^bb0(%x: tensor<4x64xf32> loc("%y: tensor<1xf32>"), %w: tensor<64xf32>):
    %c = "stablehlo.constant"() {note = dense<5.120000e+02> : tensor<f32>, value = dense<1.024000e+03> : tensor<f32>} : () -> tensor<f32>
    %p = "stablehlo.constant"() <{value = dense<2.500000e-01> : tensor<f32>}> {value2 = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %z = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %s = "stablehlo.reduce"(%x, %z) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32> loc("applies stablehlo.add")
    %d = "stablehlo.reduce"(%x, %z) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {dimensions = dense<1> : tensor<1xi64>} : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %b = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %q = "stablehlo.divide"(%s, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%q) : (tensor<4xf32>) -> ()
  }) : () -> ()
}
`

// The oracle reads each op as its form defines it: a constant's value, not
// another dense attribute or text in its location; a reduction's
// computation from `applies` or its region, not from its location; a
// function's arguments from its own header.
func TestReadOps(t *testing.T) {
	for _, c := range []struct {
		src, fn, name string
		check         func(*stOp) string
	}{
		{readModule, "helper", "%c", func(r *stOp) string { return r.value }},
		{readModule, "helper", "%m", func(r *stOp) string { return r.applies + " " + r.appliesIn + " " + fmtInts(r.dims) }},
		{readModule, "helper", "%s", func(r *stOp) string { return r.applies + " " + strings.Join(r.operands, ",") }},
		{readModule, "helper", "%odd", func(r *stOp) string { return "[" + r.applies + "]" }},
		{readModule, "helper", "%bc", func(r *stOp) string {
			return fmtInts(r.dims) + " " + strings.Join(r.ins, ",") + " -> " + strings.Join(r.outs, ",")
		}},
		{readModule, "helper", "%cv", func(r *stOp) string {
			return r.kind + " " + strings.Join(r.ins, ",") + " -> " + strings.Join(r.outs, ",")
		}},
		{readModule, "helper", "%ad", func(r *stOp) string {
			return r.kind + " " + strings.Join(r.operands, ",") + " " + strings.Join(r.outs, ",")
		}},
		{readModule, "helper", "%rs", func(r *stOp) string { return r.kind + " " + strings.Join(r.outs, ",") }},
		{readModule, "helper", "%rh", func(r *stOp) string { return r.kind + " " + strings.Join(r.outs, ",") }},
		{readModule, "helper", "func", func(r *stOp) string { return strings.Join(r.args, ",") + " " + strings.Join(r.argTypes, ",") }},
		{readModule, "main", "func", func(r *stOp) string { return strings.Join(r.args, ",") + " " + strings.Join(r.argTypes, ",") }},
		{readModule, "helper", "return", func(r *stOp) string {
			return r.kind + " " + strings.Join(r.operands, ",") + " " + strings.Join(r.ins, ",")
		}},
		{readGenericModule, "gen", "%c", func(r *stOp) string { return r.value }},
		{readGenericModule, "gen", "%p", func(r *stOp) string { return r.value }},
		{readGenericModule, "gen", "%s", func(r *stOp) string { return r.applies + " " + fmtInts(r.dims) }},
		{readGenericModule, "gen", "%d", func(r *stOp) string { return r.applies + " " + fmtInts(r.dims) }},
		{readGenericModule, "gen", "%b", func(r *stOp) string { return fmtInts(r.dims) + " " + strings.Join(r.outs, ",") }},
		{readGenericModule, "gen", "func", func(r *stOp) string { return strings.Join(r.args, ",") + " " + strings.Join(r.argTypes, ",") }},
		{readGenericModule, "gen", "return", func(r *stOp) string { return r.kind + " " + strings.Join(r.operands, ",") }},
	} {
		got := c.check(readNamed(t, c.src, c.fn, c.name))
		want := map[string]string{
			"helper %c":     "dense<1.024000e+03> : tensor<f32>",
			"helper %m":     "maximum f32 [1]",
			"helper %s":     "add %x,%z",
			"helper %odd":   "[]",
			"helper %bc":    "[0] tensor<4xf32> -> tensor<4x64xf32>",
			"helper %cv":    "convert tensor<4x64xf32> -> tensor<4x64xbf16>",
			"helper %ad":    "add %cv,%cv tensor<4x64xbf16>",
			"helper %rs":    "rsqrt tensor<4xf32>",
			"helper %rh":    "reshape tensor<4x1xf32>",
			"helper func":   "%w,%x tensor<64xbf16>,tensor<4x64xf32>",
			"main func":     "%w tensor<64xf32>",
			"helper return": "return %w tensor<64xbf16>",
			"gen %c":        "dense<1.024000e+03> : tensor<f32>",
			"gen %p":        "dense<2.500000e-01> : tensor<f32>",
			"gen %s":        "maximum [1]",
			"gen %d":        "add [1]",
			"gen %b":        "[] tensor<4xf32>",
			"gen func":      "%x,%w tensor<4x64xf32>,tensor<64xf32>",
			"gen return":    "return %q",
		}[c.fn+" "+c.name]
		if got != want {
			t.Errorf("@%s %s: read %q, want %q", c.fn, c.name, got, want)
		}
	}
}

func fmtInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// What the reader refuses: an attribute given twice, a constant with no
// literal the oracle reads.
func TestReadRefuses(t *testing.T) {
	for _, src := range []string{
		`%c = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>`,
		`%c = "stablehlo.broadcast_in_dim"(%a) <{broadcast_dimensions = array<i64: 0>}> {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4x4xf32>`,
		`%c = stablehlo.constant dense_resource<blob> : tensor<f32>`,
		`%c = stablehlo.add %a, %b : tensor<4xf32>, tensor<4xf32>`,
	} {
		m, err := ir.ParseString("bad.mlir", "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n  "+src+"\n  return\n}\n")
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		var op *ir.Op
		m.Walk(func(o *ir.Op) bool {
			if strings.HasPrefix(o.Name, "stablehlo.") {
				op = o
			}
			return true
		})
		if rd, err := readOp(m, op); err == nil {
			t.Errorf("%s: read as %+v, want an error", src, rd)
		}
	}
}

// Literals are read as MLIR reads them: the nearest double, then the
// nearest value of the type (not through f32 for bf16), or the type's bits.
func TestDenseValues(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want []float64
	}{
		{"dense<1.024000e+03> : tensor<f32>", []float64{1024}},
		{"dense<9.99999997E-7> : tensor<4x1xf32>", []float64{float64(float32(9.99999997e-7))}},
		{"dense<0x3F800000> : tensor<f32>", []float64{1}},
		{"dense<0x3F80> : tensor<bf16>", []float64{1}},
		{"dense<[[1.0, 2.5], [-0.0, 0x7F800000]]> : tensor<2x2xf32>", []float64{1, 2.5, math.Copysign(0, -1), math.Inf(1)}},
		{`dense<"0x0000803F00000040"> : tensor<2xf32>`, []float64{1, 2}},
		// 1 + 2^-8 + 2^-30: to f32 first, 1 + 2^-8, a tie that bf16
		// rounds to even, 1; from the double, above the tie, 1 + 2^-7.
		{"dense<1.00390625093132257461547851562> : tensor<bf16>", []float64{1 + 0x1p-7}},
		{"dense<65520.0> : tensor<f16>", []float64{math.Inf(1)}},
		{"dense<65519.0> : tensor<f16>", []float64{65504}},
	} {
		got, _, err := denseValues(c.lit)
		if err != nil || !slices.EqualFunc(got, c.want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("%s: %v %v, want %v", c.lit, got, err, c.want)
		}
	}
	for _, bad := range []string{"dense<[1.0, 2.0]> : tensor<3xf32>", "dense<1> : tensor<i32>", `dense<"0x0000"> : tensor<f32>`} {
		if got, _, err := denseValues(bad); err == nil {
			t.Errorf("%s: read %v, want an error", bad, got)
		}
	}
}

// roundTo rounds a double once to each type, as brute force does.
func TestRoundTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"f32", "bf16", "f16"} {
		e := elemOf(name)
		for range 20000 {
			x := math.Ldexp(rng.Float64()+0.5, rng.IntN(60)-40+e.minExp/4)
			if rng.IntN(2) == 0 {
				x = -x
			}
			if 2*math.Abs(x) >= e.max {
				continue
			}
			want := e.toFloat(roundBig(e, new(big.Float).SetFloat64(x)))
			if got := roundTo(e, x); math.Float64bits(got) != math.Float64bits(want) && !(got == 0 && want == 0) {
				t.Fatalf("%s: roundTo(%g) = %g, want %g", name, x, got, want)
			}
		}
	}
}

// rsqrt is correctly rounded: it agrees with reference/norm's (computed
// another way) on f32, and with brute force on bf16 and f16.
func TestRSqrt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	f32 := elemOf("f32")
	for range 200000 {
		x := math.Float32frombits(rng.Uint32() & 0x7FFFFFFF)
		if x != x {
			continue
		}
		if got, want := rsqrt(f32, float64(x)), float64(norm.RSqrt(x)); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("rsqrt(%g) = %g, norm.RSqrt %g", x, got, want)
		}
	}
	for _, name := range []string{"bf16", "f16"} {
		e := elemOf(name)
		for bits := uint64(1); bits < 0x7C00; bits++ {
			x := e.toFloat(bits)
			if math.IsInf(x, 0) || x != x {
				continue
			}
			exact := new(big.Float).SetPrec(200).Sqrt(new(big.Float).SetPrec(200).SetFloat64(x))
			exact.Quo(new(big.Float).SetPrec(200).SetInt64(1), exact)
			if got, want := rsqrt(e, x), e.toFloat(roundBig(e, exact)); got != want {
				t.Fatalf("%s rsqrt(%g) = %g, want %g", name, x, got, want)
			}
		}
	}
	for _, c := range [][2]float64{{0, math.Inf(1)}, {math.Copysign(0, -1), math.Inf(-1)}, {math.Inf(1), 0}} {
		if got := rsqrt(f32, c[0]); got != c[1] || math.Signbit(got) != math.Signbit(c[1]) {
			t.Errorf("rsqrt(%g) = %g, want %g", c[0], got, c[1])
		}
	}
	if got := rsqrt(f32, -1); got == got {
		t.Errorf("rsqrt(-1) = %g, want NaN", got)
	}
}
