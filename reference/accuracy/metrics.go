package accuracy

import (
	"errors"
	"math"
	"runtime"
	"sync"

	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
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

// The size and seed of `arc accuracy`'s inputs unless flags say otherwise:
// docs/ACCURACY.md's table, and the acceptance tests, use them.
const (
	DefaultElems = 1 << 16 // values per rank
	DefaultSeed  = 1
)

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
	if err := c.Spec.Validate(); err != nil {
		return Metrics{}, err
	}
	in, err := newInputSet(c)
	if err != nil {
		return Metrics{}, err
	}
	return measure(c.Spec, in)
}

// inputSet is one set of generated inputs with their exact sum; configs
// that differ only in algorithm and codec share it.
type inputSet struct {
	inputs [][]byte
	exact  []float64
}

func newInputSet(c Config) (*inputSet, error) {
	inputs, err := Inputs(c.Dist, c.Spec.DType, c.Spec.World, c.Elems, c.Seed)
	if err != nil {
		return nil, err
	}
	return &inputSet{inputs, Exact(c.Spec.DType, inputs)}, nil
}

func measure(s collective.Spec, in *inputSet) (Metrics, error) {
	outs, err := collective.Run(s, in.inputs)
	if err != nil {
		return Metrics{}, err
	}
	m := Metrics{BitsPerValue: s.BitsPerValue(), RanksAgree: true, Cosine: 1}
	for r, out := range outs {
		if string(out) != string(outs[0]) {
			m.RanksAgree = false
		}
		if r > 0 && m.RanksAgree {
			continue // the same bits, the same metrics
		}
		k := Compare(num.Widen(s.DType, out), in.exact)
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

// MeasureAll measures configs on all cores, generating each set of inputs
// once. progress, if not nil, is called (never concurrently) after each
// measurement with the number done so far.
func MeasureAll(configs []Config, progress func(done int)) ([]Metrics, error) {
	type key struct {
		dist         string
		dt           num.DType
		world, elems int
		seed         uint64
	}
	sets := map[key]func() (*inputSet, error){}
	inputs := make([]func() (*inputSet, error), len(configs)) // configs[i]'s set, made once
	for i, c := range configs {
		k := key{c.Dist, c.Spec.DType, c.Spec.World, c.Elems, c.Seed}
		if sets[k] == nil {
			sets[k] = sync.OnceValues(func() (*inputSet, error) { return newInputSet(c) })
		}
		inputs[i] = sets[k]
	}
	results := make([]Metrics, len(configs))
	errs := make([]error, len(configs))
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(configs)) {
		wg.Go(func() {
			for i := range next {
				in, err := inputs[i]()
				if err == nil { // measure's collective.Run validates the spec
					results[i], err = measure(configs[i].Spec, in)
				}
				errs[i] = err
				mu.Lock()
				done++
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		})
	}
	for i := range configs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results, errors.Join(errs...)
}
