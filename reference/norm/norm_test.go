package norm

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arcpass/arc/internal/golden"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// exactRSqrt is 1/sqrt(x) to 200 bits, rounded once to f32.
func exactRSqrt(x float32) float32 {
	v := new(big.Float).SetPrec(200).SetFloat64(float64(x))
	v.Sqrt(v)
	v.Quo(new(big.Float).SetPrec(200).SetInt64(1), v)
	f, _ := v.Float32()
	return f
}

func TestRSqrtIsCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(x float32) {
		if got, want := RSqrt(x), exactRSqrt(x); got != want {
			t.Fatalf("RSqrt(%g = %#x) = %#x, want %#x", x, math.Float32bits(x), math.Float32bits(got), math.Float32bits(want))
		}
	}
	for range 300000 {
		check(math.Float32frombits(rng.Uint32N(0x7F800000-1) + 1)) // every positive finite f32, subnormals included
	}
	for e := -149; e < 128; e++ { // around every power of two, where the ulp changes
		p := float32(math.Ldexp(1, e))
		for _, x := range []float32{p, math.Nextafter32(p, 0), math.Nextafter32(p, float32(math.Inf(1)))} {
			if x > 0 && !math.IsInf(float64(x), 0) {
				check(x)
			}
		}
	}
	inf := float32(math.Inf(1))
	for _, c := range []struct{ x, want float32 }{{0, inf}, {float32(math.Copysign(0, -1)), -inf}, {inf, 0}} {
		if got := RSqrt(c.x); got != c.want || math.Signbit(float64(got)) != math.Signbit(float64(c.want)) {
			t.Errorf("RSqrt(%g) = %g, want %g", c.x, got, c.want)
		}
	}
	for _, x := range []float32{-1, -inf, float32(math.NaN()), -0x1p-149} {
		if got := RSqrt(x); got == got {
			t.Errorf("RSqrt(%g) = %g, want NaN", x, got)
		}
	}
}

// fold adds the squares of a from +0, left to right.
func fold(a []float32) float32 {
	var s float32
	for _, v := range a {
		s = s + float32(v*v)
	}
	return s
}

// orderRow makes a row whose sum of squares depends on the order of the
// additions: large squares that cancel the small ones' contribution unless
// those are added first.
func orderRow(n int) []float32 {
	a := make([]float32, n)
	for i := range a {
		a[i] = 1 + float32(i%7)*0x1p-12
	}
	a[0] = 0x1p13
	return a
}

func TestSumSquaresOrder(t *testing.T) {
	// Whole numbers whose sums stay exact: any order gives the exact sum.
	a := make([]float32, 3000)
	exact := 0.0
	for i := range a {
		a[i] = float32(i%23) - 11
		exact += float64(a[i]) * float64(a[i])
	}
	if got := SumSquares(a); float64(got) != exact {
		t.Fatalf("SumSquares of whole numbers = %g, want %g", got, exact)
	}
	// Two atoms: partials 0 and 1, added last by the tree.
	row := orderRow(16)
	if got, want := SumSquares(row), fold(row[:8])+fold(row[8:]); got != want {
		t.Errorf("16 elements: %g, want atom 0's sum + atom 1's %g", got, want)
	}
	if SumSquares(row) == fold(row) {
		t.Errorf("16 elements: the test row does not tell the orders apart")
	}
	// Atom 256 starts the second segment: its sum is added to the first's.
	row = make([]float32, 8*257)
	copy(row, orderRow(8))
	copy(row[8*256:], orderRow(8)[1:])
	if got, want := SumSquares(row), fold(orderRow(8))+fold(orderRow(8)[1:]); got != want {
		t.Errorf("atoms 0 and 256: %g, want segment 0's sum + segment 1's %g", got, want)
	}
	if SumSquares(row) == fold(append(orderRow(8), orderRow(8)[1:]...)) {
		t.Errorf("atoms 0 and 256: the test row does not tell the orders apart")
	}
	// A short last atom: its missing elements add nothing.
	row = orderRow(13)
	if got, want := SumSquares(row), fold(row[:8])+fold(row[8:]); got != want {
		t.Errorf("13 elements: %g, want %g", got, want)
	}
	// The tree: partials t and t+128 meet first, so atoms 1 and 129 are
	// added before atom 0 joins.
	row = make([]float32, 8*130)
	row[0], row[8], row[8*129] = 0x1p12, 1+0x1p-12, 1+0x1p-11
	p0, p1, p129 := float32(0x1p24), float32((1+0x1p-12)*(1+0x1p-12)), float32((1+0x1p-11)*(1+0x1p-11))
	if got, want := SumSquares(row), p0+(p1+p129); got != want || want == (p0+p1)+p129 {
		t.Errorf("atoms 0, 1 and 129: %g, want p0 + (p1 + p129) = %g (not (p0 + p1) + p129 = %g)", got, want, (p0+p1)+p129)
	}
}

func bf16Bytes(v ...float32) []byte { return num.Narrow(num.BF16, v) }

func TestApplyFollowsTheRecipe(t *testing.T) {
	// One bf16 row of 8: h = x + s rounded to bf16, the norm in f32.
	x := bf16Bytes(1, 2, 3, 4, -1, -2, -3, 0.5)
	s := bf16Bytes(0.00390625, 0, 0, 0, 0, 0, 0, 0.25) // 1 + 2^-8 rounds to 1 in bf16 (ties to even)
	w := bf16Bytes(1, 1, 1, 1, 2, 2, 2, 0.5)
	rc := Recipe{Norm: "rmsnorm", Row: 8, Mean: "mul", Scale: 0.125, Eps: 1e-5, Weight: "f32"}
	h, y, err := Apply(num.BF16, rc, x, s, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	hf := num.Widen(num.BF16, h)
	if hf[0] != 1 || hf[7] != 0.75 {
		t.Errorf("h = %v, want 1 (x + s rounded to bf16) and 0.75", hf)
	}
	ss := fold(hf) // small whole squares: exact in any order
	k := RSqrt(float32(ss*0.125) + 1e-5)
	yf := num.Widen(num.BF16, y)
	for j, a := range hf {
		want := num.Round(num.BF16, float32(float32(a*k)*num.Widen(num.BF16, w)[j]))
		if yf[j] != want {
			t.Errorf("y[%d] = %g, want %g", j, yf[j], want)
		}
	}
	// "div" by N is the same as "mul" by 1/N when both are exact.
	rc2 := rc
	rc2.Mean, rc2.Scale = "div", 8
	if _, y2, _ := Apply(num.BF16, rc2, x, s, w, nil); !bytes.Equal(y, y2) {
		t.Errorf("div 8 and mul 1/8 differ")
	}
	// The weight in bf16 after the convert rounds twice: some row shows it.
	differ := false
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		v := make([]float32, 64)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		xs, ws := num.Narrow(num.BF16, v), num.Narrow(num.BF16, v[:])
		zero := make([]byte, len(xs))
		r1 := Recipe{Norm: "rmsnorm", Row: 64, Mean: "div", Scale: 64, Eps: 1e-6, Weight: "f32"}
		r2 := r1
		r2.Weight = "io"
		_, ya, _ := Apply(num.BF16, r1, xs, zero, ws, nil)
		_, yb, _ := Apply(num.BF16, r2, xs, zero, ws, nil)
		differ = differ || !bytes.Equal(ya, yb)
	}
	if !differ {
		t.Error("weight f32 and io never differ on 50 random bf16 rows")
	}
}

func TestApplyRejects(t *testing.T) {
	rc := Recipe{Norm: "rmsnorm", Row: 4, Mean: "mul", Scale: 0.25, Eps: 1e-5, Weight: "f32"}
	ln := Recipe{Norm: "layernorm", Row: 4, Mean: "mul", Scale: 0.25, Eps: 1e-5, Weight: "f32", Bias: true}
	b := func(n int) []byte { return make([]byte, 4*n) }
	for _, c := range []struct {
		name       string
		rc         Recipe
		x, s, w, b []byte
	}{
		{"partial row", rc, b(6), b(6), b(4), nil},
		{"short weight", rc, b(8), b(8), b(3), nil},
		{"sum size", rc, b(8), b(4), b(4), nil},
		{"mean", Recipe{Norm: "rmsnorm", Row: 4, Mean: "avg", Weight: "f32"}, b(4), b(4), b(4), nil},
		{"weight", Recipe{Norm: "rmsnorm", Row: 4, Mean: "mul", Weight: "f64"}, b(4), b(4), b(4), nil},
		{"row", Recipe{Norm: "rmsnorm", Row: 0, Mean: "mul", Weight: "f32"}, b(4), b(4), b(4), nil},
		{"norm", Recipe{Norm: "groupnorm", Row: 4, Mean: "mul", Weight: "f32"}, b(4), b(4), b(4), nil},
		{"no norm", Recipe{Row: 4, Mean: "mul", Weight: "f32"}, b(4), b(4), b(4), nil},
		{"rmsnorm bias", Recipe{Norm: "rmsnorm", Row: 4, Mean: "mul", Weight: "f32", Bias: true}, b(4), b(4), b(4), b(4)},
		{"layernorm io weight", Recipe{Norm: "layernorm", Row: 4, Mean: "mul", Weight: "io"}, b(4), b(4), b(4), nil},
		{"missing bias", ln, b(4), b(4), b(4), nil},
		{"short bias", ln, b(4), b(4), b(4), b(3)},
		{"unwanted bias", rc, b(4), b(4), b(4), b(4)},
	} {
		if _, _, err := Apply(num.F32, c.rc, c.x, c.s, c.w, c.b); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// LayerNorm's rows: on whole numbers whose sums are exact in any order, y
// is the program's arithmetic step by step; the fast variance clamps at
// zero where rounding makes mean(a*a) - m*m negative; NaN and Inf reach
// every element of their row only.
func TestLayerNormFollowsTheRecipe(t *testing.T) {
	f32 := func(v ...float32) []byte { return num.Narrow(num.F32, v) }
	x := f32(1, 2, 3, 6, 10, 20, 30, 40)
	zero := make([]byte, len(x))
	w, b := f32(1, 2, 0.5, -1), f32(0.25, 0, -3, 1)
	for _, kind := range []string{"layernorm", "layernorm_fast"} {
		rc := Recipe{Norm: kind, Row: 4, Mean: "div", Scale: 4, Eps: 1e-5, Weight: "f32", Bias: true}
		_, y, err := Apply(num.F32, rc, x, zero, w, b)
		if err != nil {
			t.Fatal(err)
		}
		yf, xf, wf, bf := num.Widen(num.F32, y), num.Widen(num.F32, x), num.Widen(num.F32, w), num.Widen(num.F32, b)
		for r := range 2 {
			a := xf[4*r : 4*r+4]
			m := float32((a[0] + a[1] + a[2] + a[3]) / 4)
			var v float32
			for _, e := range a {
				v += (e - m) * (e - m)
			}
			k := RSqrt(float32(v/4) + 1e-5) // exact: the deviations are quarters
			for j, e := range a {
				if want := float32(float32(float32(float32(e-m)*k)*wf[j]) + bf[j]); yf[4*r+j] != want {
					t.Errorf("%s row %d y[%d] = %g, want %g", kind, r, j, yf[4*r+j], want)
				}
			}
		}
	}
	// A constant row: mean(a*a) - m*m rounds below zero; clamped, the
	// factor is rsqrt(eps) and y is the bias.
	c := float32(1.3425)
	row := f32(c, c, c)
	fast := Recipe{Norm: "layernorm_fast", Row: 3, Mean: "div", Scale: 3, Eps: 1e-6, Weight: "f32"}
	a := num.Widen(num.F32, row)
	m := float32(Sum(a, 0) / 3)
	if v := float32(float32(SumSquares(a)/3) - float32(m*m)); v >= 0 {
		t.Fatalf("the constant row's fast variance is %g, not below zero: the test does not test the clamp", v)
	}
	if st := fast.RowStats(a); st.Factor != RSqrt(1e-6) {
		t.Errorf("clamped factor %g, want rsqrt(eps) = %g", st.Factor, RSqrt(1e-6))
	}
	for _, kind := range []string{"layernorm", "layernorm_fast"} {
		rc := Recipe{Norm: kind, Row: 4, Mean: "mul", Scale: 0.25, Eps: 1e-5, Weight: "f32"}
		bad := f32(1, float32(math.NaN()), 3, 4, 1, 2, 3, 4, float32(math.Inf(1)), 0, 0, 0)
		_, y, err := Apply(num.F32, rc, bad, make([]byte, len(bad)), f32(1, 1, 1, 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		yf := num.Widen(num.F32, y)
		for j, v := range yf {
			if nan := v != v; nan != (j < 4 || j >= 8) {
				t.Errorf("%s y[%d] = %g: NaN must fill rows 0 and 2 only", kind, j, v)
			}
		}
	}
}

// A row of -0s sums to the program's init: from JAX's -0 its mean is -0
// and the deviations +0; from gomlx's +0 they are -0, and y's zeros take
// the other sign. Any other row sums alike from either.
func TestLayerNormSumInit(t *testing.T) {
	negz := float32(math.Copysign(0, -1))
	x := num.Narrow(num.F32, []float32{negz, negz, negz, negz, 1, -2, 3, negz})
	w := num.Narrow(num.F32, []float32{1, 1, 1, 1})
	zero := make([]byte, len(x))
	for i := range zero {
		zero[i] = []byte{0, 0, 0, 0x80}[i%4] // -0 sums: h = -0 + -0 = -0
	}
	var ys [2][]float32 // from +0, from -0 (as map keys they are one)
	for i, init := range []float32{0, negz} {
		rc := Recipe{Norm: "layernorm", Row: 4, Mean: "mul", Scale: 0.25, Eps: 1e-5, Weight: "f32", Init: init}
		_, y, err := Apply(num.F32, rc, x, zero, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		ys[i] = num.Widen(num.F32, y)
		if want := math.Signbit(float64(init)); math.Signbit(float64(Sum(num.Widen(num.F32, x)[:4], init))) != want {
			t.Errorf("a row of -0s sums from %g to the other sign", init)
		}
	}
	pos, neg := ys[0], ys[1]
	for j := range 4 {
		if math.Signbit(float64(pos[j])) == math.Signbit(float64(neg[j])) || pos[j] != 0 {
			t.Errorf("y[%d] of the -0 row: %g from +0, %g from -0: want zeros of opposite signs", j, pos[j], neg[j])
		}
	}
	for j := 4; j < 8; j++ {
		if math.Float32bits(pos[j]) != math.Float32bits(neg[j]) {
			t.Errorf("y[%d]: %g from +0, %g from -0: a row with other values must not depend on the init", j, pos[j], neg[j])
		}
	}
	if err := (Recipe{Norm: "rmsnorm", Row: 4, Mean: "mul", Weight: "f32", Init: negz}).Check(); err == nil {
		t.Error("RMSNorm with a sum from -0: no error (its init is not read)")
	}
	if err := (Recipe{Norm: "layernorm", Row: 4, Mean: "mul", Weight: "f32", Init: 1}).Check(); err == nil {
		t.Error("a sum from 1: no error")
	}
}

// splitmix is a deterministic generator, so the golden inputs are the same
// bits on every machine.
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// value is a whole number scaled by a power of two: the same f32 anywhere.
func (s *splitmix) value(scale int) float32 {
	v := s.next()
	return float32(int64(v>>40)-1<<23) * float32(math.Ldexp(1, scale-23))
}

// goldenBuffers are every rank's input and residual and the weight; row 1
// (of 3 or more) carries zeros of both signs and values near the type's
// largest, whose squares overflow f32 for f32 I/O; the last row a NaN in
// one rank's input and an Inf residual.
func goldenBuffers(dt num.DType, world, rows, n int) (in, res [][]byte, w []byte) {
	rng := splitmix(uint64(dt)<<40 | uint64(world)<<32 | uint64(rows)<<16 | uint64(n))
	huge := map[num.DType]float32{num.F16: 60000, num.BF16: 1e38, num.F32: 1e38}[dt]
	in, res = make([][]byte, world), make([][]byte, world)
	for r := range world {
		v, x := make([]float32, rows*n), make([]float32, rows*n)
		for i := range v {
			v[i], x[i] = rng.value(-2-r%3), rng.value(1)
		}
		if rows >= 3 {
			for j := range n {
				switch j % 4 {
				case 0:
					v[n+j] = float32(math.Copysign(0, -1))
				case 1:
					x[n+j] = huge / float32(world)
				}
			}
			last := (rows - 1) * n
			x[last+1] = float32(math.Inf(1))
			if r == world-1 {
				v[last+2] = float32(math.NaN())
			}
		}
		in[r], res[r] = num.Narrow(dt, v), num.Narrow(dt, x)
	}
	wv := make([]float32, n)
	for j := range wv {
		wv[j] = rng.value(0)
	}
	return in, res, num.Narrow(dt, wv)
}

// goldenBias is a bias of n elements: values near the weight's.
func goldenBias(dt num.DType, n int) []byte {
	rng := splitmix(uint64(dt)<<40 | uint64(n) | 1<<60)
	b := make([]float32, n)
	for j := range b {
		b[j] = rng.value(-1)
	}
	return num.Narrow(dt, b)
}

// goldenCases: each kernel (oneshot; twoshot with every codec) at every
// type, at every world (the codecs at world 4), with both means and weight
// placements; rows of 32 to 96 elements, and one of 2112 (more than a block's
// 256 atoms).
func goldenCases(t *testing.T) []Case {
	var cases []Case
	recipes := []Recipe{
		{Norm: "rmsnorm", Mean: "mul", Scale: 0.015625, Eps: 1e-5, Weight: "f32"},
		{Norm: "rmsnorm", Mean: "div", Scale: 64, Eps: 1e-6, Weight: "io"},
		{Norm: "layernorm", Mean: "div", Scale: 40, Eps: 1e-5, Weight: "f32", Bias: true, Init: float32(math.Copysign(0, -1))},
		{Norm: "layernorm_fast", Mean: "mul", Scale: 0.03125, Eps: 1e-6, Weight: "f32"},
	}
	add := func(s collective.Spec, rc Recipe, rows, n int) {
		rc.Row = n
		in, res, w := goldenBuffers(s.DType, s.World, rows, n)
		var b []byte
		if rc.Bias {
			b = goldenBias(s.DType, n)
		}
		k, err := NewCase(s, rc, in, res, w, b)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, k)
	}
	for i, dt := range num.DTypes {
		for _, world := range []int{2, 4, 8} {
			add(collective.Spec{Algo: "oneshot", DType: dt, World: world}, recipes[world/2%2], 3, 40)
			if world != 4 {
				add(collective.Spec{Algo: "twoshot", Codec: "fp", DType: dt, World: world}, recipes[i%2], 3, 32)
			}
		}
		for j, c := range collective.Codecs("twoshot") {
			add(collective.Spec{Algo: "twoshot", Codec: c, DType: dt, World: 4}, recipes[(i+j)%2], 3, 32)
		}
	}
	add(collective.Spec{Algo: "oneshot", DType: num.BF16, World: 2}, recipes[0], 1, 2112)
	add(collective.Spec{Algo: "twoshot", Codec: "fp", DType: num.BF16, World: 2, Cast: true}, recipes[0], 3, 96)
	// LayerNorm, both variances, with and without a bias: every type at
	// worlds 2, 4 and 8, one-shot and two-shot, and rows across segments.
	for i, dt := range num.DTypes {
		for j, world := range []int{2, 4, 8} {
			ln := recipes[2+(i+j)%2]
			ln.Bias = j != 1
			add(collective.Spec{Algo: "oneshot", DType: dt, World: world}, ln, 3, 40)
			add(collective.Spec{Algo: "twoshot", Codec: "fp", DType: dt, World: world}, ln, 3, 64)
		}
		add(collective.Spec{Algo: "twoshot", Codec: "int8", DType: dt, World: 4}, recipes[2], 3, 32)
	}
	add(collective.Spec{Algo: "oneshot", DType: num.BF16, World: 2}, recipes[2], 1, 4160)
	add(collective.Spec{Algo: "oneshot", DType: num.F32, World: 2}, recipes[3], 2, 2112)
	return cases
}

func TestGolden(t *testing.T) {
	cases := goldenCases(t)
	path := filepath.Join("..", "testdata", "norm", "cases.golden")
	var buf bytes.Buffer
	if err := WriteGolden(&buf, cases); err != nil {
		t.Fatal(err)
	}
	if *golden.Update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadGoldenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cases) {
		t.Fatalf("%s holds %d cases, the reference makes %d (go test -update rewrites it)", path, len(got), len(cases))
	}
	for i, k := range got {
		w := cases[i]
		if k.Spec != w.Spec || k.Recipe != w.Recipe {
			t.Fatalf("case %d: %v %v, the reference's %v %v", i, k.Spec, k.Recipe, w.Spec, w.Recipe)
		}
		for r := range k.H {
			if num.FirstDiff(k.Spec.DType, k.H[r], w.H[r]) >= 0 || num.FirstDiff(k.Spec.DType, k.Y[r], w.Y[r]) >= 0 {
				t.Fatalf("case %d (%v), rank %d: the file's outputs differ from the reference's", i, k.Spec, r)
			}
		}
	}
	if _, err := ReadGolden(bytes.NewReader(buf.Bytes()[:buf.Len()-3])); err == nil {
		t.Error("a truncated file reads without error")
	}
}

// The ranks' residuals differ, so do their outputs; the sums they add do not.
func TestExpectedPerRank(t *testing.T) {
	s := collective.Spec{Algo: "twoshot", Codec: "int8", DType: num.F16, World: 4}
	in, res, w := goldenBuffers(s.DType, 4, 2, 64)
	rc := Recipe{Norm: "rmsnorm", Row: 64, Mean: "mul", Scale: 1.0 / 64, Eps: 1e-5, Weight: "f32"}
	h, y, err := Expected(s, rc, in, res, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := collective.Expected(s, in)
	for r := range 4 {
		hr, yr, _ := Apply(s.DType, rc, res[r], sum, w, nil)
		if !bytes.Equal(hr, h[r]) || !bytes.Equal(yr, y[r]) {
			t.Errorf("rank %d: Expected differs from Apply on the rank's residual", r)
		}
	}
	if bytes.Equal(h[0], h[1]) {
		t.Error("ranks 0 and 1 have the same h although their residuals differ")
	}
}
