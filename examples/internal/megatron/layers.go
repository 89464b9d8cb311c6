package megatron

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// Reduce sums a row-parallel layer's partial products across the ranks.
type Reduce func(partial *graph.Node) *graph.Node

// AllReduce is Megatron's reduction: one all-reduce (sum) over every rank of the graph's mesh.
func AllReduce(partial *graph.Node) *graph.Node {
	return partial.Graph().Distributed().AllReduceOne(partial, backends.ReduceOpSum)
}

// Skip keeps each rank's partial product: the control program does the same
// compute as the model without its collectives, which times their share.
func Skip(partial *graph.Node) *graph.Node { return partial }

// Weights are a graph's parameters by name.
type Weights map[string]*graph.Node

// Get returns the named parameter; a missing one is a bug in the model's code.
func (w Weights) Get(name string) *graph.Node {
	n, ok := w[name]
	if !ok {
		panic(fmt.Sprintf("megatron: the model uses %q, which it did not declare", name))
	}
	return n
}

// Params declares one graph parameter per tensor, in order, with the shape
// of one rank's shard.
func Params(g *graph.Graph, tensors []Tensor, tp int) (Weights, error) {
	w := Weights{}
	for _, t := range tensors {
		shape, err := t.ShardShape(tp)
		if err != nil {
			return nil, err
		}
		w[t.Name] = graph.Parameter(g, t.Name, shapes.Make(t.DType, shape...))
	}
	return w, nil
}

// ColumnLinear is x·w + b with w split by columns: x [tokens, in] is whole on
// every rank, the output [tokens, out/tp] is this rank's columns. No communication.
func ColumnLinear(x, w, b *graph.Node) *graph.Node {
	return graph.Add(graph.MatMul(x, w), graph.InsertAxes(b, 0))
}

// RowLinear is x·w + b with w split by rows: x [tokens, in/tp] holds this
// rank's columns of the input, so x·w is a partial sum that one all-reduce
// completes; b is added once, after it.
func RowLinear(x, w, b *graph.Node, reduce Reduce) *graph.Node {
	return graph.Add(reduce(graph.MatMul(x, w)), graph.InsertAxes(b, 0))
}

// LayerNorm normalizes the last axis, in float32, and scales by gain and bias.
func LayerNorm(x, gain, bias *graph.Node) *graph.Node {
	const eps = 1e-5
	dt := x.DType()
	x32 := graph.ConvertDType(x, dtypes.Float32)
	centered := graph.Sub(x32, graph.ReduceAndKeep(x32, graph.ReduceMean, -1))
	variance := graph.ReduceAndKeep(graph.Square(centered), graph.ReduceMean, -1)
	y := graph.Mul(centered, graph.Rsqrt(graph.AddScalar(variance, eps)))
	row := func(v *graph.Node) *graph.Node { return graph.InsertAxes(graph.ConvertDType(v, dtypes.Float32), 0) }
	return graph.ConvertDType(graph.Add(graph.Mul(y, row(gain)), row(bias)), dt)
}

// GELU is the tanh approximation, computed in float32.
func GELU(x *graph.Node) *graph.Node {
	dt := x.DType()
	x32 := graph.ConvertDType(x, dtypes.Float32)
	inner := graph.MulScalar(graph.Add(x32, graph.MulScalar(graph.Mul(x32, graph.Square(x32)), 0.044715)), math.Sqrt(2/math.Pi))
	y := graph.Mul(graph.MulScalar(x32, 0.5), graph.AddScalar(graph.Tanh(inner), 1))
	return graph.ConvertDType(y, dt)
}

// MLP is Megatron's feed-forward block: GELU(x·w1 + b1)·w2 + b2 with w1 split
// by columns and w2 by rows, so the hidden activations never leave their rank
// and the block ends in one all-reduce. Its tensors are prefix+"w1" etc.
func MLP(x *graph.Node, w Weights, prefix string, reduce Reduce) *graph.Node {
	h := GELU(ColumnLinear(x, w.Get(prefix+"w1"), w.Get(prefix+"b1")))
	return RowLinear(h, w.Get(prefix+"w2"), w.Get(prefix+"b2"), reduce)
}

// MLPTensors declares MLP's tensors for hidden size h and feed-forward size f.
func MLPTensors(prefix string, dt dtypes.DType, h, f int) []Tensor {
	return []Tensor{
		{Name: prefix + "w1", DType: dt, Shape: []int{h, f}, Split: Columns, Init: Init{Uniform, 1 / math.Sqrt(float64(h))}},
		{Name: prefix + "b1", DType: dt, Shape: []int{f}, Split: Columns, Init: Init{Uniform, 0.02}},
		{Name: prefix + "w2", DType: dt, Shape: []int{f, h}, Split: Rows, Init: Init{Uniform, 1 / math.Sqrt(float64(f))}},
		{Name: prefix + "b2", DType: dt, Shape: []int{h}, Split: Replicated, Init: Init{Uniform, 0.02}},
	}
}

// NormTensors declares a layer norm's gain (ones) and bias (zeros) for hidden size h.
func NormTensors(prefix string, dt dtypes.DType, h int) []Tensor {
	return []Tensor{
		{Name: prefix + "gain", DType: dt, Shape: []int{h}, Split: Replicated, Init: Init{Const, 1}},
		{Name: prefix + "bias", DType: dt, Shape: []int{h}, Split: Replicated, Init: Init{Const, 0}},
	}
}

// Norm applies the layer norm declared by NormTensors(prefix, ...).
func Norm(x *graph.Node, w Weights, prefix string) *graph.Node {
	return LayerNorm(x, w.Get(prefix+"gain"), w.Get(prefix+"bias"))
}

// AttentionShape is the geometry of a self-attention block on one rank.
type AttentionShape struct {
	Batch, Seq int // x holds Batch*Seq tokens, sequence-major within a batch row
	Heads      int // this rank's heads: the model's heads / tp
	HeadDim    int
}

// Attention is Megatron's causal self-attention: the q, k and v projections
// are split by columns, whole heads per rank, so each rank attends with its
// own heads; the output projection is split by rows and ends in one all-reduce.
// Scores and softmax are computed in float32.
func Attention(x *graph.Node, w Weights, prefix string, s AttentionShape, reduce Reduce) *graph.Node {
	dt := x.DType()
	heads := func(name string) *graph.Node { // [tokens, heads*dim] -> [batch, heads, seq, dim]
		z := ColumnLinear(x, w.Get(prefix+"w"+name), w.Get(prefix+"b"+name))
		return graph.TransposeAllDims(graph.Reshape(z, s.Batch, s.Seq, s.Heads, s.HeadDim), 0, 2, 1, 3)
	}
	q, k, v := heads("q"), heads("k"), heads("v")
	scores := graph.MulScalar(graph.ConvertDType(graph.Einsum("bhqd,bhkd->bhqk", q, k), dtypes.Float32), 1/math.Sqrt(float64(s.HeadDim)))
	g := x.Graph()
	causal := graph.Where(graph.LowerTriangular(g, s.Seq), graph.Scalar(g, dtypes.Float32, 0), graph.Scalar(g, dtypes.Float32, -1e9))
	scores = graph.Add(scores, graph.Reshape(causal, 1, 1, s.Seq, s.Seq))
	probs := graph.ConvertDType(graph.Softmax(scores, -1), dt)
	ctx := graph.Einsum("bhqk,bhkd->bhqd", probs, v)
	ctx = graph.Reshape(graph.TransposeAllDims(ctx, 0, 2, 1, 3), s.Batch*s.Seq, s.Heads*s.HeadDim)
	return RowLinear(ctx, w.Get(prefix+"wo"), w.Get(prefix+"bo"), reduce)
}

// AttentionTensors declares Attention's tensors for hidden size h split into heads of headDim.
func AttentionTensors(prefix string, dt dtypes.DType, h, heads, headDim int) []Tensor {
	inner := heads * headDim
	bound := 1 / math.Sqrt(float64(h))
	var ts []Tensor
	for _, name := range []string{"q", "k", "v"} {
		ts = append(ts,
			Tensor{Name: prefix + "w" + name, DType: dt, Shape: []int{h, inner}, Split: Columns, Init: Init{Uniform, bound}},
			Tensor{Name: prefix + "b" + name, DType: dt, Shape: []int{inner}, Split: Columns, Init: Init{Uniform, 0.02}})
	}
	return append(ts,
		Tensor{Name: prefix + "wo", DType: dt, Shape: []int{inner, h}, Split: Rows, Init: Init{Uniform, 1 / math.Sqrt(float64(inner))}},
		Tensor{Name: prefix + "bo", DType: dt, Shape: []int{h}, Split: Replicated, Init: Init{Uniform, 0.02}})
}
