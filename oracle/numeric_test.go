package oracle

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// roundBig rounds an exact value to e by brute force: the nearest of the
// type's neighbours of float64(x), ties to the even code.
func roundBig(e elemType, x *big.Float) uint64 {
	f, _ := x.Float64()
	c := e.fromFloat(f)
	best, bestD := c, new(big.Float)
	first := true
	for _, d := range []int64{-2, -1, 0, 1, 2} {
		cand := uint64(int64(c) + d)
		if math.IsNaN(e.toFloat(cand)) || math.IsInf(e.toFloat(cand), 0) {
			continue
		}
		diff := new(big.Float).Sub(x, big.NewFloat(e.toFloat(cand)))
		diff.Abs(diff)
		if first || diff.Cmp(bestD) < 0 || diff.Cmp(bestD) == 0 && cand&1 == 0 {
			best, bestD, first = cand, diff, false
		}
	}
	return best
}

// TestApplyRoundsOnce: a sum or product in f16 or bf16 is the exact result
// rounded once to the type, despite going through float32.
func TestApplyRoundsOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"f16", "bf16"} {
		e := elemOf(name)
		for range 20000 {
			a, b := rng.Uint64()&0xFFFF, rng.Uint64()&0xFFFF
			x, y := e.toFloat(a), e.toFloat(b)
			if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
				continue
			}
			for _, op := range []string{"sum", "product"} {
				exact := new(big.Float).SetPrec(2000)
				if op == "sum" {
					exact.Add(big.NewFloat(x).SetPrec(2000), big.NewFloat(y))
				} else {
					exact.Mul(big.NewFloat(x).SetPrec(2000), big.NewFloat(y))
				}
				f, _ := exact.Float64()
				if math.Abs(f) >= e.max {
					continue // overflow: Inf either way
				}
				got, want := e.apply(op, a, b), roundBig(e, exact)
				if got != want && !(e.toFloat(got) == 0 && e.toFloat(want) == 0) {
					t.Fatalf("%s %s(%v, %v) = %v, want %v", name, op, x, y, e.toFloat(got), e.toFloat(want))
				}
			}
		}
	}
}

func TestMaxMin(t *testing.T) {
	e := elemOf("f32")
	bits := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	nan := bits(float32(math.NaN()))
	pz, nz := bits(0), bits(float32(math.Copysign(0, -1)))
	for _, c := range []struct {
		op      string
		a, b, w uint64
	}{
		{"max", pz, nz, pz}, {"max", nz, pz, pz}, {"min", pz, nz, nz}, {"min", nz, pz, nz},
		{"max", bits(1), nan, nan}, {"min", nan, bits(1), nan},
		{"max", bits(-1), bits(2), bits(2)}, {"min", bits(-1), bits(2), bits(-1)},
	} {
		if got := e.apply(c.op, c.a, c.b); got != c.w && !(e.isNaN(got) && e.isNaN(c.w)) {
			t.Errorf("%s(%#x, %#x) = %#x, want %#x", c.op, c.a, c.b, got, c.w)
		}
	}
	i8, u8 := elemOf("i8"), elemOf("ui8")
	if i8.apply("max", 0xFF, 1) != 1 || u8.apply("max", 0xFF, 1) != 0xFF {
		t.Errorf("signed and unsigned max of 0xFF and 1")
	}
	if i8.apply("sum", 0x7F, 1) != 0x80 || elemOf("i1").apply("sum", 1, 1) != 1 {
		t.Errorf("integer sums wrap, i1 sums are or")
	}
}

func TestPromotable(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"f16", "f32", true}, {"f32", "f16", false}, {"f16", "bf16", true}, {"bf16", "f32", true},
		{"i8", "i32", true}, {"i32", "ui32", true}, {"i32", "f32", false}, {"i1", "i8", true}, {"f32", "complex<f32>", false},
	} {
		if got := promotable(elemOf(c.from), elemOf(c.to)); got != c.ok {
			t.Errorf("promotable(%s, %s) = %v", c.from, c.to, got)
		}
	}
}

// blocks draws test inputs: gaussian values at scales from tiny to large,
// with outliers, zeros and a short last block.
func blocks(rng *rand.Rand, dt num.DType, n int, scale float64) []float64 {
	e := elemOf(dt.String())
	v := make([]float64, n)
	for i := range v {
		x := rng.NormFloat64() * scale
		switch rng.IntN(16) {
		case 0:
			x *= 100
		case 1:
			x = 0
		}
		v[i] = e.toFloat(e.fromFloat(x))
	}
	return v
}

var scales = []float64{1e-30, 1e-9, 1e-5, 1e-3, 1, 100, 3000}

// TestCodecErr: every codec's round trip stays within codecErr of its
// input, on every element of blocks of every scale.
func TestCodecErr(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range codec.Names() {
		for _, dt := range num.DTypes {
			for _, cast := range []bool{false, true} {
				c, err := codec.New(name, dt, cast)
				if err != nil {
					t.Fatal(err)
				}
				wire := elemOf(dt.String())
				if name == "fp" && cast && dt == num.BF16 {
					wire = elemOf("f16")
				}
				for _, sc := range scales {
					for range 40 {
						x := blocks(rng, dt, 32*3+7, sc)
						f := make([]float32, len(x))
						for i := range x {
							f[i] = float32(x[i])
						}
						y := codec.Decode(c, codec.Encode(c, f), len(f))
						abs := make([]float64, len(x))
						for i := range x {
							abs[i] = math.Abs(x[i])
						}
						m := blockMax(abs)
						for i := range x {
							bound := codecErr(name, wire, m[i])
							if d := math.Abs(float64(y[i]) - x[i]); !(d <= bound) && !math.IsInf(bound, 1) {
								t.Fatalf("%s/%v cast=%v scale %g: element %d: %g -> %g, error %g > bound %g (block max %g)", name, dt, cast, sc, i, x[i], y[i], d, bound, m[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestArcBound: the reference's output of every algorithm, codec, type and
// world is within arcBound of the exact sum, and fpFormula is the
// reference's output bit for bit where it applies.
func TestArcBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, algo := range collective.Algos() {
		for _, cname := range collective.Codecs(algo) {
			for _, w := range collective.Worlds(algo) {
				for _, dt := range num.DTypes {
					for _, cast := range []bool{false, true} {
						s := collective.Spec{Algo: algo, Codec: cname, DType: dt, World: w, Cast: cast}
						e := elemOf(dt.String())
						for _, sc := range scales {
							n := 32*2 + 5
							xs := make([][]float64, w)
							inputs := make([][]byte, w)
							for r := range xs {
								xs[r] = blocks(rng, dt, n, sc)
								f := make([]float32, n)
								for i := range f {
									f[i] = float32(xs[r][i])
								}
								inputs[r] = num.Narrow(dt, f)
							}
							outs, err := collective.Run(s, inputs)
							if err != nil {
								t.Fatal(err)
							}
							out := num.Widen(dt, outs[0])
							bound, exact := arcBound(s, e, xs)
							for i := range out {
								if d := math.Abs(float64(out[i]) - exact[i]); !(d <= bound[i]) && !math.IsInf(bound[i], 1) {
									t.Fatalf("%v scale %g: element %d: %g, exact %g: error %g > bound %g", s, sc, i, out[i], exact[i], d, bound[i])
								}
							}
							if want := fpFormula(s, xs); want != nil {
								if d := num.FirstDiff(dt, outs[0], num.Narrow(dt, want)); d >= 0 {
									t.Fatalf("%v: fpFormula differs at %d", s, d)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFoldBound: left folds in every float type, of up to 256 terms in any
// order, stay within foldBound of the exact sum.
func TestFoldBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"f16", "bf16", "f32", "f64"} {
		e := elemOf(name)
		for _, n := range []int{2, 3, 8, 17, 256} {
			for range 200 {
				xs := make([]uint64, n)
				a := 0.0
				exact := new(big.Float).SetPrec(4000)
				for i := range xs {
					xs[i] = randomElem(e, rng.Uint64())
					a += math.Abs(e.toFloat(xs[i]))
					exact.Add(exact, big.NewFloat(e.toFloat(xs[i])))
				}
				acc := xs[0]
				for _, x := range xs[1:] {
					acc = e.apply("sum", acc, x)
				}
				ex, _ := exact.Float64()
				if d := math.Abs(e.toFloat(acc) - ex); d > foldBound(e, n, a) {
					t.Fatalf("%s, %d terms: error %g > bound %g", name, n, d, foldBound(e, n, a))
				}
			}
		}
	}
}
