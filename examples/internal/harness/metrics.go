package harness

import (
	"math"
	"slices"
	"time"

	"github.com/gomlx/gomlx/pkg/core/dtypes"

	"github.com/arcpass/arc/examples/internal/megatron"
)

// Diff compares an output with its reference, element by element.
type Diff struct {
	N      int     // elements compared
	Differ int     // elements whose values differ (NaN equals NaN)
	MaxAbs float64 // max |got - want|
	RelL2  float64 // ||got - want|| / ||want||; 0 when both are zero
}

// Compare measures got against want; they must be the same length.
func Compare(got, want []float32) Diff {
	d := Diff{N: len(want)}
	var errSq, refSq float64
	for i, w := range want {
		if w == w {
			refSq += float64(w) * float64(w)
		}
		g := got[i]
		if g == w || (g != g && w != w) {
			continue
		}
		d.Differ++
		e := math.Abs(float64(g) - float64(w))
		if e != e { // one side is NaN: the error is unbounded
			e = math.Inf(1)
		}
		d.MaxAbs = max(d.MaxAbs, e)
		errSq += e * e
	}
	if errSq > 0 {
		d.RelL2 = math.Sqrt(errSq / refSq)
	}
	return d
}

// Tolerance is how far, in relative L2 error, arc without quantization may
// be from native at an output that `reduces` all-reduces over tp ranks lead
// to. Summing the same tp partial products in another order, or rounding
// after each addition instead of once, moves each sum by at most tp-1 units
// in the last place of dt, that is by at most (tp-1)*eps(dt)*|x|: a relative
// L2 change of at most (tp-1)*eps per all-reduce. The layers between
// all-reduces are normalized and residual, so they pass such a change on
// without growing it much, and the changes of successive all-reduces add up.
// With 2 ranks there is only one order (a+b = b+a), so any difference there
// comes from XLA compiling the code around arc's custom call differently.
func Tolerance(dt dtypes.DType, tp, reduces int) float64 {
	return float64(reduces*max(tp-1, 1)) * megatron.Epsilon(dt)
}

// Median of the durations (the mean of the middle two for an even count).
func Median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// JoinColumns puts the ranks' column blocks back together: shard r holds
// columns [r*cols, (r+1)*cols) of every row.
func JoinColumns(shards [][]float32, cols int) []float32 {
	if len(shards) == 0 || cols == 0 {
		return nil
	}
	rows := len(shards[0]) / cols
	out := make([]float32, 0, rows*cols*len(shards))
	for row := 0; row < rows; row++ {
		for _, s := range shards {
			out = append(out, s[row*cols:(row+1)*cols]...)
		}
	}
	return out
}
