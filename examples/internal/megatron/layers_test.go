package megatron

import (
	"github.com/arcpass/arc/examples/internal/exampletest"
	"math"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/arcpass/arc/capture"
)

const (
	hidden, ffn, heads, headDim = 16, 32, 4, 4
	batch, seq                  = 2, 4
	f32                         = dtypes.Float32
)

var xTensor = Tensor{Name: "x", DType: f32, Shape: []int{batch * seq, hidden}, Init: Init{Uniform, math.Sqrt(3)}}

func cpu(t *testing.T) backends.Backend { return exampletest.CPU(t) }

// rankOutput runs build on one rank's shards of ts (drawn with seed 1, with
// x's values replaced by xValues when given) on the CPU and returns the output.
func rankOutput(t *testing.T, ts []Tensor, tp, rank int, xValues []float32, build func(Weights) *graph.Node) []float32 {
	t.Helper()
	g := graph.NewGraph(cpu(t), "layer")
	var out *graph.Node
	var w Weights
	err := capture.Catch(func() {
		var err error
		if w, err = Params(g, ts, tp); err != nil {
			panic(err)
		}
		out = build(w)
		g.Compile(out)
	})
	if err != nil {
		t.Fatal(err)
	}
	var in []any
	for _, tensor := range ts {
		v := tensor.Values(1)
		if tensor.Name == "x" && xValues != nil {
			v = xValues
		}
		shard, err := tensor.Shard(v, tp, rank)
		if err != nil {
			t.Fatal(err)
		}
		shape, _ := tensor.ShardShape(tp)
		in = append(in, tensors.FromFlatDataAndDimensions(shard, shape...))
	}
	var res []*tensors.Tensor
	if err := capture.Catch(func() { res = g.Run(in...) }); err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](res[0])
}

// splitsLikeTheWhole checks Megatron's identity for a block that ends in a
// row-parallel layer with bias b: the whole layer's output equals the sum of
// the ranks' outputs without the all-reduce, less the tp-1 extra copies of b.
func splitsLikeTheWhole(t *testing.T, ts []Tensor, bias string, build func(Weights, int) *graph.Node) {
	t.Helper()
	whole := rankOutput(t, ts, 1, 0, nil, func(w Weights) *graph.Node { return build(w, 1) })
	var b []float32
	for _, tensor := range ts {
		if tensor.Name == bias {
			b = tensor.Values(1)
		}
	}
	for _, tp := range []int{2, 4} {
		sum := make([]float64, len(whole))
		for rank := 0; rank < tp; rank++ {
			for i, v := range rankOutput(t, ts, tp, rank, nil, func(w Weights) *graph.Node { return build(w, tp) }) {
				sum[i] += float64(v)
			}
		}
		var errSq, refSq float64
		for i, v := range whole {
			d := sum[i] - float64(tp-1)*float64(b[i%hidden]) - float64(v)
			errSq += d * d
			refSq += float64(v) * float64(v)
		}
		if rel := math.Sqrt(errSq / refSq); rel > 1e-5 || refSq == 0 {
			t.Errorf("tp %d: the ranks' partial outputs sum to the whole layer's within %.3g (rel L2), want float32 rounding (1e-5)", tp, rel)
		}
	}
}

func TestMLPSplitsLikeTheWholeLayer(t *testing.T) {
	ts := append([]Tensor{xTensor}, MLPTensors("m.", f32, hidden, ffn)...)
	splitsLikeTheWhole(t, ts, "m.b2", func(w Weights, tp int) *graph.Node { return MLP(w.Get("x"), w, "m.", Skip) })
}

func TestAttentionSplitsLikeTheWholeLayer(t *testing.T) {
	ts := append([]Tensor{xTensor}, AttentionTensors("a.", f32, hidden, heads, headDim)...)
	splitsLikeTheWhole(t, ts, "a.bo", func(w Weights, tp int) *graph.Node {
		return Attention(w.Get("x"), w, "a.", AttentionShape{Batch: batch, Seq: seq, Heads: heads / tp, HeadDim: headDim}, Skip)
	})
}

// TestAttentionIsCausal: changing the last token of each sequence changes
// only that token's output.
func TestAttentionIsCausal(t *testing.T) {
	ts := append([]Tensor{xTensor}, AttentionTensors("a.", f32, hidden, heads, headDim)...)
	build := func(w Weights) *graph.Node {
		return Attention(w.Get("x"), w, "a.", AttentionShape{Batch: batch, Seq: seq, Heads: heads, HeadDim: headDim}, Skip)
	}
	x := xTensor.Values(1)
	before := rankOutput(t, ts, 1, 0, x, build)
	changed := append([]float32(nil), x...)
	for b := 0; b < batch; b++ {
		last := (b*seq + seq - 1) * hidden
		for i := last; i < last+hidden; i++ {
			changed[i] += 1
		}
	}
	after := rankOutput(t, ts, 1, 0, changed, build)
	for token := 0; token < batch*seq; token++ {
		row := func(v []float32) []float32 { return v[token*hidden : (token+1)*hidden] }
		moved := maxDiff(row(before), row(after))
		if isLast := token%seq == seq-1; isLast != (moved > 1e-6) {
			t.Errorf("token %d (last of its sequence: %v) moved by %.3g", token, isLast, moved)
		}
	}
}

func maxDiff(a, b []float32) float64 {
	m := 0.0
	for i := range a {
		m = max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

func TestLayerNormAndGELU(t *testing.T) {
	ts := append([]Tensor{xTensor}, NormTensors("n.", f32, hidden)...)
	y := rankOutput(t, ts, 1, 0, nil, func(w Weights) *graph.Node { return Norm(graph.MulScalar(w.Get("x"), 3), w, "n.") })
	for r := 0; r < batch*seq; r++ {
		var sum, sq float64
		for _, v := range y[r*hidden : (r+1)*hidden] {
			sum += float64(v)
			sq += float64(v) * float64(v)
		}
		if mean, variance := sum/hidden, sq/hidden-(sum/hidden)*(sum/hidden); math.Abs(mean) > 1e-5 || math.Abs(variance-1) > 1e-3 {
			t.Errorf("row %d after layer norm: mean %.3g, variance %.5f, want 0 and 1", r, mean, variance)
		}
	}

	in := Tensor{Name: "x", DType: f32, Shape: []int{3}}
	got := rankOutput(t, []Tensor{in}, 1, 0, []float32{0, 1, -1}, func(w Weights) *graph.Node { return GELU(w.Get("x")) })
	// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) at 0, 1, -1.
	for i, want := range []float64{0, 0.8411920, -0.1588080} {
		if math.Abs(float64(got[i])-want) > 1e-6 {
			t.Errorf("GELU(%v) = %v, want %v", []float32{0, 1, -1}[i], got[i], want)
		}
	}
}

// TestBiasAfterReduce: a row-parallel layer adds its bias once, after the
// reduction, so a reduction that yields zeros leaves exactly the bias.
func TestBiasAfterReduce(t *testing.T) {
	ts := append([]Tensor{xTensor}, MLPTensors("m.", f32, hidden, ffn)...)
	zero := func(partial *graph.Node) *graph.Node { return graph.ZerosLike(partial) }
	got := rankOutput(t, ts, 2, 0, nil, func(w Weights) *graph.Node { return MLP(w.Get("x"), w, "m.", zero) })
	b2 := MLPTensors("m.", f32, hidden, ffn)[3]
	if b2.Name != "m.b2" {
		t.Fatalf("MLPTensors()[3] is %s, want m.b2", b2.Name)
	}
	bias := b2.Values(1)
	for i, v := range got {
		if v != bias[i%hidden] {
			t.Fatalf("element %d is %v, want the bias %v", i, v, bias[i%hidden])
		}
	}
}
