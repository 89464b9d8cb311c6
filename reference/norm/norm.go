// Package norm is the Go reference of arc's fused kernels: an all-reduce
// whose result s is added to a residual x, h = x + s, and h's rows then
// normalised: RMSNorm, y = h * rsqrt(mean(h*h) + eps) * w, or LayerNorm,
// y = (h - mean(h)) * rsqrt(var(h) + eps) * w (+ b) (docs/KERNELS.md). The
// kernels compute exactly what Apply computes, bit for bit; the arithmetic
// is the program's own, in the program's precision: h in the I/O type T,
// the norm in f32 (the program converts h to f32, or T is f32), every
// operation rounded once. The one freedom arc takes is the order of the
// additions of a row's sums (InOrder), as it takes the order of the
// all-reduce's.
package norm

import (
	"fmt"
	"math"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// Recipe is what the program computes after the all-reduce, with the
// constants it names.
type Recipe struct {
	Norm   string  // abi.NormKinds: "rmsnorm", "layernorm", "layernorm_fast"
	Row    int     // N: the row's elements, the last dimension
	Mean   string  // "mul": sum * Scale; "div": sum / Scale (abi.NormMeans), for every mean
	Scale  float32 // the constant of the mean (1/N or N)
	Eps    float32 // added to the mean square or variance
	Weight string  // "f32": y = T(z * f32(w)); "io": y = T(f32(T(z)) * f32(w)) (abi.NormWeights)
	Bias   bool    // LayerNorm's y = T(z * f32(w) + f32(b))
	// Init is the program's init of LayerNorm's sum of h, +0 (gomlx) or -0
	// (JAX): a row of -0s sums to it (InOrder).
	Init float32
}

// Check reports a recipe the kernels do not have.
func (rc Recipe) Check() error {
	switch {
	case abi.NormKind(rc.Norm) < 0:
		return fmt.Errorf("norm: unknown norm %q (want one of %v)", rc.Norm, abi.NormKinds)
	case rc.Row <= 0:
		return fmt.Errorf("norm: a row of %d elements", rc.Row)
	case abi.NormMean(rc.Mean) < 0:
		return fmt.Errorf("norm: unknown mean %q (want one of %v)", rc.Mean, abi.NormMeans)
	case abi.NormWeight(rc.Weight) < 0:
		return fmt.Errorf("norm: unknown weight %q (want one of %v)", rc.Weight, abi.NormWeights)
	case rc.Layer() && rc.Weight != "f32":
		return fmt.Errorf("norm: %s applies its weight in f32, not %q", rc.Norm, rc.Weight)
	case rc.Bias && !rc.Layer():
		return fmt.Errorf("norm: %s has no bias", rc.Norm)
	case rc.Init != 0 || math.Signbit(float64(rc.Init)) && !rc.Layer():
		return fmt.Errorf("norm: a row sum from %g (+0 or, for LayerNorm, -0)", rc.Init)
	}
	return nil
}

// Layer reports a LayerNorm, which centres the row on its mean.
func (rc Recipe) Layer() bool { return rc.Norm == "layernorm" || rc.Norm == "layernorm_fast" }

func (rc Recipe) String() string {
	bias := ""
	if rc.Bias {
		bias = ", bias"
	}
	if math.Signbit(float64(rc.Init)) {
		bias += ", sum from -0"
	}
	return fmt.Sprintf("%s row %d, mean %s %g, eps %g, weight %s%s", rc.Norm, rc.Row, rc.Mean, rc.Scale, rc.Eps, rc.Weight, bias)
}

// Threads is the number of partial sums a segment's sum of squares is
// split into: one per thread of the kernel's block (ARC_THREADS).
const Threads = 256

// Atom is the number of consecutive elements a thread takes at a time, and
// Segment the elements of a row a kernel block takes at a time: one atom
// per thread.
const (
	Atom    = 8
	Segment = Threads * Atom
)

// SumSquares is the sum of a row's squares in the kernels' order (InOrder),
// each square and each addition rounded to f32 once.
func SumSquares(a []float32) float32 {
	return InOrder(len(a), func(i int) float32 { return float32(a[i] * a[i]) }, 0, 0,
		func(x, y float32) float32 { return x + y })
}

// InOrder is the kernels' order of a row's sum of n terms, for any
// arithmetic (add rounds as the arithmetic does): the row is cut into
// segments of 2048 terms from its start (the last may be short), each
// segment into atoms of 8; partial t of a segment adds, from from, atom
// t's terms in order; the segment's partials are added as a tree, p[t] +=
// p[t + s] for s = 128, 64, ..., 1; the segments' sums are added in order
// to init. Segments of one row may be reduced by different kernel blocks:
// the order is the same. The oracle assumes it for the reductions a fused
// call replaces, so both read this one definition.
//
// from is +0, or the init when the program's is -0 (JAX's): -0 is the
// exact identity of addition, so a sum from it differs from one from +0
// only where every term is -0, and there it is -0, as the program's own
// reduce (which starts every partial from its init) gives.
func InOrder[T any](n int, term func(i int) T, init, from T, add func(a, b T) T) T {
	total := init
	for lo := 0; lo < n; lo += Segment {
		var p [Threads]T
		for t := range p {
			p[t] = from
		}
		for i := lo; i < min(n, lo+Segment); i++ {
			k := (i - lo) / Atom
			p[k] = add(p[k], term(i))
		}
		for s := Threads / 2; s >= 1; s /= 2 {
			for t := range s {
				p[t] = add(p[t], p[t+s])
			}
		}
		total = add(total, p[0])
	}
	return total
}

// RSqrt is 1/sqrt(x) correctly rounded to f32 (IEEE 754's rSqrt, CUDA's
// __frsqrt_rn): ±0 gives ±Inf, +Inf gives +0, a negative x or NaN gives NaN.
func RSqrt(x float32) float32 {
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Copysign(math.Inf(1), float64(x)))
	case math.IsInf(float64(x), 1):
		return 0
	}
	// Within an ulp of the result: one step to the neighbour on the right
	// side of a midpoint m settles it, where 1/sqrt(x) > m exactly when
	// m*m*x < 1. m has 25 significant bits, so m*m is exact in f64 and the
	// fused multiply-add gives the exact sign (never 0: 1/sqrt(x) of an f32
	// x is never a midpoint).
	r := float32(1 / math.Sqrt(float64(x)))
	above := func(m float64) float64 { return math.FMA(m*m, float64(x), -1) }
	if up := math.Nextafter32(r, float32(math.Inf(1))); above((float64(r)+float64(up))/2) < 0 {
		return up
	}
	if down := math.Nextafter32(r, 0); above((float64(r)+float64(down))/2) > 0 {
		return down
	}
	return r
}

// Mean is the program's mean of a row's sum: sum * Scale or sum / Scale.
func (rc Recipe) mean(sum float32) float32 {
	if rc.Mean == "div" {
		return float32(sum / rc.Scale)
	}
	return float32(sum * rc.Scale)
}

// Scalar is an RMSNorm row's factor rsqrt(mean + eps) for its sum of
// squares ss.
func (rc Recipe) Scalar(ss float32) float32 { return RSqrt(float32(rc.mean(ss) + rc.Eps)) }

// Sum is the sum of a row in the kernels' order (InOrder) from init (+0 or
// -0), each addition rounded to f32 once.
func Sum(a []float32, init float32) float32 {
	return InOrder(len(a), func(i int) float32 { return a[i] }, init, init, func(x, y float32) float32 { return x + y })
}

// Stats is a row's centre and factor: the norm is (a - Centre) * Factor,
// each operation rounded once. RMSNorm's centre is none (Centred false).
type Stats struct {
	Centred bool
	Centre  float32 // the row's mean
	Factor  float32 // rsqrt(mean square or variance + eps)
}

// RowStats computes a row's Stats from its elements in f32, as the program
// does: RMSNorm, rsqrt(mean(a*a) + eps); LayerNorm, mean m = mean(a), then
// rsqrt(mean((a - m)^2) + eps), or with the fast variance
// rsqrt(max(0, mean(a*a) - m*m) + eps), the maximum NaN when either is.
func (rc Recipe) RowStats(a []float32) Stats {
	if !rc.Layer() {
		return Stats{Factor: rc.Scalar(SumSquares(a))}
	}
	m := rc.mean(Sum(a, rc.Init))
	var v float32
	if rc.Norm == "layernorm" {
		v = rc.mean(InOrder(len(a), func(i int) float32 { d := float32(a[i] - m); return float32(d * d) }, 0, 0,
			func(x, y float32) float32 { return x + y }))
	} else {
		v = float32(rc.mean(SumSquares(a)) - float32(m*m))
		if v < 0 { // StableHLO's maximum(0, v): NaN stays NaN
			v = 0
		}
	}
	return Stats{Centred: true, Centre: m, Factor: RSqrt(float32(v + rc.Eps))}
}

// Apply computes h = x + s and y = norm(h) * w (+ b) for inputs of type
// dt (little-endian buffers of whole rows; w and b hold one row each, b
// nil without a bias).
func Apply(dt num.DType, rc Recipe, x, s, w, b []byte) (h, y []byte, err error) {
	if err := rc.Check(); err != nil {
		return nil, nil, err
	}
	size := dt.Size()
	n := len(x) / size
	switch {
	case !dt.Valid():
		return nil, nil, fmt.Errorf("norm: invalid dtype %v", dt)
	case len(x) != n*size || len(s) != len(x):
		return nil, nil, fmt.Errorf("norm: %d bytes of residual and %d of sum", len(x), len(s))
	case n%rc.Row != 0:
		return nil, nil, fmt.Errorf("norm: %d elements are not whole rows of %d", n, rc.Row)
	case len(w) != rc.Row*size:
		return nil, nil, fmt.Errorf("norm: a weight of %d bytes for rows of %d %v", len(w), rc.Row, dt)
	case rc.Bias != (b != nil) || b != nil && len(b) != rc.Row*size:
		return nil, nil, fmt.Errorf("norm: a bias of %d bytes for %s", len(b), rc)
	}
	xf, sf, wf := num.Widen(dt, x), num.Widen(dt, s), num.Widen(dt, w)
	var bf []float32
	if rc.Bias {
		bf = num.Widen(dt, b)
	}
	hf := make([]float32, n)
	for i := range hf {
		hf[i] = num.Round(dt, float32(xf[i]+sf[i]))
	}
	yf := make([]float32, n)
	for r := range n / rc.Row {
		row := hf[r*rc.Row : (r+1)*rc.Row]
		st := rc.RowStats(row)
		for j, a := range row {
			if st.Centred {
				a = float32(a - st.Centre)
			}
			z := float32(a * st.Factor)
			if rc.Weight == "io" {
				z = num.Round(dt, z)
			}
			v := float32(z * wf[j])
			if rc.Bias {
				v = float32(v + bf[j])
			}
			yf[r*rc.Row+j] = num.Round(dt, v)
		}
	}
	return num.Narrow(dt, hf), num.Narrow(dt, yf), nil
}

// Expected is what every rank of a fused all-reduce computes: the
// all-reduce of inputs (collective.Expected: the same sum on every rank),
// then Apply with the rank's own residual; the weight and bias (nil
// without one) are the same on every rank.
func Expected(s collective.Spec, rc Recipe, inputs, residuals [][]byte, w, b []byte) (h, y [][]byte, err error) {
	if len(residuals) != len(inputs) {
		return nil, nil, fmt.Errorf("norm: %d residuals for %d inputs", len(residuals), len(inputs))
	}
	sum, err := collective.Expected(s, inputs)
	if err != nil {
		return nil, nil, err
	}
	h, y = make([][]byte, len(inputs)), make([][]byte, len(inputs))
	for r := range inputs {
		if h[r], y[r], err = Apply(s.DType, rc, residuals[r], sum, w, b); err != nil {
			return nil, nil, err
		}
	}
	return h, y, nil
}
