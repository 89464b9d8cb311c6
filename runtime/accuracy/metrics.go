package accuracy

import (
	"math"

	"github.com/arcpass/arc/runtime/collective"
	"github.com/arcpass/arc/runtime/num"
)

// Metrics compare an all-reduce's output with the exact sum.
type Metrics struct {
	RelL2        float64 // ||y - x|| / ||x||, x the exact sum in float64
	MaxAbs       float64 // max |y_i - x_i|
	SNRdB        float64 // 10 log10(||x||^2 / ||y - x||^2); +Inf when exact
	Cosine       float64 // <x, y> / (||x|| ||y||)
	BitsPerValue float64 // wire bits per value
	RanksAgree   bool    // every rank produced the same bits
}

// Exact is the sum of the inputs' values in float64.
func Exact(dt num.DType, inputs [][]byte) []float64 {
	var exact []float64
	for _, in := range inputs {
		v := num.Widen(dt, in)
		if exact == nil {
			exact = make([]float64, len(v))
		}
		for i, x := range v {
			exact[i] += float64(x)
		}
	}
	return exact
}

// Compare measures one output y against the exact sum x.
func Compare(y []float32, x []float64) Metrics {
	var errSq, xSq, ySq, dot, maxAbs float64
	for i, yi := range y {
		d := float64(yi) - x[i]
		errSq += d * d
		xSq += x[i] * x[i]
		ySq += float64(yi) * float64(yi)
		dot += x[i] * float64(yi)
		maxAbs = max(maxAbs, math.Abs(d))
		if d != d {
			maxAbs = math.NaN()
		}
	}
	return Metrics{
		RelL2:  math.Sqrt(errSq / xSq),
		MaxAbs: maxAbs,
		SNRdB:  10 * math.Log10(xSq/errSq),
		Cosine: dot / math.Sqrt(xSq*ySq),
	}
}

// Config is one measurement: an all-reduce on generated inputs.
type Config struct {
	Spec  collective.Spec
	Dist  string
	Elems int
	Seed  uint64
}

// Measure generates the inputs, runs the per-rank simulation and compares
// every rank's output with the exact sum, keeping the worst of each metric.
func Measure(c Config) (Metrics, error) {
	s := c.Spec
	if err := s.Validate(); err != nil {
		return Metrics{}, err
	}
	inputs, err := Inputs(c.Dist, s.DType, s.World, c.Elems, c.Seed)
	if err != nil {
		return Metrics{}, err
	}
	outs, err := collective.Run(s, inputs)
	if err != nil {
		return Metrics{}, err
	}
	exact := Exact(s.DType, inputs)
	m := Metrics{BitsPerValue: s.BitsPerValue(), RanksAgree: true, Cosine: 1}
	for r, out := range outs {
		if string(out) != string(outs[0]) {
			m.RanksAgree = false
		}
		if r > 0 && m.RanksAgree {
			continue // the same bits, the same metrics
		}
		k := Compare(num.Widen(s.DType, out), exact)
		m.RelL2 = worst(m.RelL2, k.RelL2)
		m.MaxAbs = worst(m.MaxAbs, k.MaxAbs)
		m.Cosine = min(m.Cosine, k.Cosine)
		if r == 0 || k.SNRdB < m.SNRdB || k.SNRdB != k.SNRdB {
			m.SNRdB = k.SNRdB
		}
	}
	return m, nil
}

// worst is the larger error, NaN winning.
func worst(a, b float64) float64 {
	if a != a || b != b {
		return math.NaN()
	}
	return max(a, b)
}
