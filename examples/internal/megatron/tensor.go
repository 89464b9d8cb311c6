// Package megatron holds what the examples share to build Megatron-style
// tensor-parallel models in gomlx: the tensors of a model and how they are
// split across the ranks of a one-axis device mesh, their deterministic
// values, and the layers (column-parallel and row-parallel linear layers,
// layer norm, GELU MLP, causal attention) as SPMD graph functions. Each
// row-parallel layer sums its partial products with exactly one all-reduce.
package megatron

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/gomlx/gomlx/pkg/core/dtypes"

	"github.com/arcpass/arc/reference/num"
)

// Split says how a tensor's logical value is divided among the tp ranks.
type Split int

const (
	Replicated Split = iota // every rank holds the whole tensor
	Columns                 // rank r holds the r-th block of the last axis (column-parallel weights)
	Rows                    // rank r holds the r-th block of the first axis (row-parallel weights)
)

// Init says how a tensor's values are drawn.
type Init struct {
	Kind  InitKind
	Scale float64 // Uniform: the bound; Const: the value; Tokens: the vocabulary size
}

// InitKind is a distribution of initial values.
type InitKind int

const (
	Uniform InitKind = iota // uniform in [-Scale, Scale), as PyTorch's default for linear layers
	Const                   // every element equals Scale
	Tokens                  // integers uniform in [0, Scale)
)

// Tensor is one input of a model: a weight or an activation.
type Tensor struct {
	Name  string
	DType dtypes.DType
	Shape []int // the logical (unsplit) shape
	Split Split
	Init  Init
}

// Size is the number of elements of the logical tensor.
func (t Tensor) Size() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// ShardShape is the shape each of tp ranks holds.
func (t Tensor) ShardShape(tp int) ([]int, error) {
	s := append([]int(nil), t.Shape...)
	axis := t.splitAxis()
	if axis < 0 {
		return s, nil
	}
	if s[axis]%tp != 0 {
		return nil, fmt.Errorf("%s: axis %d of %v does not split into %d equal parts", t.Name, axis, t.Shape, tp)
	}
	s[axis] /= tp
	return s, nil
}

func (t Tensor) splitAxis() int {
	switch {
	case t.Split == Columns && len(t.Shape) > 0:
		return len(t.Shape) - 1
	case t.Split == Rows && len(t.Shape) > 0:
		return 0
	}
	return -1
}

// Values draws the logical tensor's elements, row-major, from seed and the
// tensor's name: the same seed gives the same model on every machine.
func (t Tensor) Values(seed uint64) []float32 {
	h := fnv.New64a()
	h.Write([]byte(t.Name))
	r := rng{state: seed ^ h.Sum64()}
	v := make([]float32, t.Size())
	for i := range v {
		switch t.Init.Kind {
		case Uniform:
			v[i] = float32(t.Init.Scale * (2*r.uniform() - 1))
		case Const:
			v[i] = float32(t.Init.Scale)
		case Tokens:
			v[i] = float32(r.next() % uint64(t.Init.Scale))
		}
	}
	return v
}

// Shard is rank's block of the logical values v.
func (t Tensor) Shard(v []float32, tp, rank int) ([]float32, error) {
	shape, err := t.ShardShape(tp)
	if err != nil {
		return nil, err
	}
	axis := t.splitAxis()
	if axis < 0 {
		return append([]float32(nil), v...), nil
	}
	// Rows of the shard: the axes before `axis` (outer) by the block of `axis` times the axes after it (inner).
	inner := 1
	for _, d := range t.Shape[axis+1:] {
		inner *= d
	}
	outer := len(v) / (t.Shape[axis] * inner)
	block := shape[axis] * inner
	out := make([]float32, 0, outer*block)
	for o := 0; o < outer; o++ {
		start := o*t.Shape[axis]*inner + rank*block
		out = append(out, v[start:start+block]...)
	}
	return out, nil
}

// Encode is the little-endian bytes of v in dtype: floats round to nearest
// even, Int32 takes integer values.
func Encode(dtype dtypes.DType, v []float32) ([]byte, error) {
	if dtype == dtypes.Int32 {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(x)))
		}
		return b, nil
	}
	d, err := NumDType(dtype)
	if err != nil {
		return nil, err
	}
	return num.Narrow(d, v), nil
}

// Decode widens the little-endian bytes of a float tensor to float32 (exact).
func Decode(dtype dtypes.DType, b []byte) ([]float32, error) {
	d, err := NumDType(dtype)
	if err != nil {
		return nil, err
	}
	return num.Widen(d, b), nil
}

// NumDType maps gomlx's float types to arc's.
func NumDType(dtype dtypes.DType) (num.DType, error) {
	switch dtype {
	case dtypes.Float16:
		return num.F16, nil
	case dtypes.BFloat16:
		return num.BF16, nil
	case dtypes.Float32:
		return num.F32, nil
	}
	return 0, fmt.Errorf("dtype %s: want bf16, f16 or f32", dtype)
}

// Epsilon is the machine epsilon of a float type: the distance from 1 to the
// next larger value, so one unit in the last place of x is at most Epsilon*|x|.
func Epsilon(dtype dtypes.DType) float64 {
	switch dtype {
	case dtypes.Float16:
		return math.Ldexp(1, -10)
	case dtypes.BFloat16:
		return math.Ldexp(1, -7)
	}
	return math.Ldexp(1, -23)
}

// rng is SplitMix64: tiny, fast, and the same on every platform.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// uniform is in [0, 1): 53 random bits.
func (r *rng) uniform() float64 { return float64(r.next()>>11) / (1 << 53) }
