package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"

	"github.com/arcpass/arc/examples/internal/harness"
	"github.com/arcpass/arc/examples/internal/megatron"
)

// llama is a Llama-shaped decoder: token embeddings, pre-norm blocks of
// grouped-query self-attention with rotary position embeddings and a SwiGLU
// MLP, RMSNorm, and an LM head; no biases. Megatron's split over the tp
// ranks: q, k, v and the MLP's gate and up weights by columns (whole heads,
// whole key-value heads per rank), the attention output and the MLP's down
// weight by rows, so each block does two all-reduces; the LM head by columns
// over the vocabulary. The embedding table is whole on every rank, as in
// examples/decoder.
//
// One program is one step of one shape (step): a decode step of batch B,
// each sequence adding one token after a KV cache of context tokens, or a
// prefill of S tokens of one sequence. Both return the logits of the last
// token of each sequence, which is what a server samples from.
type llama struct {
	layers, hidden, heads, kvHeads, ffn, vocab, context int
	theta                                               float64
	step                                                step // the program's shape
}

// step is one program shape: a decode step of Batch sequences, or a
// prefill of Tokens tokens.
type step struct {
	Prefill bool
	N       int // decode: sequences; prefill: tokens
}

func (s step) String() string {
	if s.Prefill {
		return "prefill:" + strconv.Itoa(s.N)
	}
	return "decode:" + strconv.Itoa(s.N)
}

// Tokens is how many tokens one step processes.
func (s step) Tokens() int { return s.N }

// parseSteps reads --shapes: decode:B and prefill:S, comma separated.
func parseSteps(list string) ([]step, error) {
	var out []step
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		kind, n, ok := strings.Cut(f, ":")
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 1 || (kind != "decode" && kind != "prefill") {
			return nil, fmt.Errorf("--shapes: %q: want decode:BATCH or prefill:TOKENS", f)
		}
		out = append(out, step{Prefill: kind == "prefill", N: v})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--shapes: no shape given")
	}
	return out, nil
}

func (m *llama) Name() string { return "llama" }

func (m *llama) headDim() int { return m.hidden / m.heads }

func (m *llama) Describe(s harness.Spec) string {
	return fmt.Sprintf("%d blocks, hidden %d, %d heads (%d key-value) of %d, MLP %d, vocab %d, %s (context %d), %s, tp %d",
		m.layers, m.hidden, m.heads, m.kvHeads, m.headDim(), m.ffn, m.vocab, m.step, m.context, s.Elem(), s.TP)
}

func (m *llama) Check(s harness.Spec) error {
	for _, v := range []int{m.layers, m.hidden, m.heads, m.kvHeads, m.ffn, m.vocab, m.context} {
		if v < 1 {
			return fmt.Errorf("--layers, --hidden, --heads, --kv-heads, --ffn, --vocab and --context must be positive")
		}
	}
	switch {
	case m.hidden%m.heads != 0:
		return fmt.Errorf("--hidden %d is not a whole number of --heads %d", m.hidden, m.heads)
	case m.headDim()%2 != 0:
		return fmt.Errorf("head size %d (--hidden / --heads) is odd: rotary embeddings turn pairs", m.headDim())
	case m.heads%m.kvHeads != 0:
		return fmt.Errorf("--heads %d do not share --kv-heads %d evenly", m.heads, m.kvHeads)
	case m.kvHeads%s.TP != 0:
		return fmt.Errorf("--kv-heads %d do not split over --tp %d ranks", m.kvHeads, s.TP)
	case m.ffn%s.TP != 0:
		return fmt.Errorf("--ffn %d does not split over --tp %d ranks", m.ffn, s.TP)
	case m.vocab%s.TP != 0:
		return fmt.Errorf("--vocab %d does not split over --tp %d ranks", m.vocab, s.TP)
	case m.theta <= 1:
		return fmt.Errorf("--rope-theta %g: want more than 1", m.theta)
	}
	return nil
}

// weights are the model's parameters, the same for every shape and in the
// same order, so that one set of buffers serves every program.
func (m *llama) weights(dt dtypes.DType) []megatron.Tensor {
	h, hd := m.hidden, m.headDim()
	uniform := func(fanIn int) megatron.Init {
		return megatron.Init{Kind: megatron.Uniform, Scale: 1 / math.Sqrt(float64(fanIn))}
	}
	ones := megatron.Init{Kind: megatron.Const, Scale: 1}
	ts := []megatron.Tensor{{Name: "embed", DType: dt, Shape: []int{m.vocab, h}, Split: megatron.Replicated,
		Init: megatron.Init{Kind: megatron.Uniform, Scale: math.Sqrt(3)}}}
	for l := 0; l < m.layers; l++ {
		p := block(l)
		ts = append(ts,
			megatron.Tensor{Name: p + "attn_norm", DType: dt, Shape: []int{h}, Split: megatron.Replicated, Init: ones},
			megatron.Tensor{Name: p + "wq", DType: dt, Shape: []int{h, m.heads * hd}, Split: megatron.Columns, Init: uniform(h)},
			megatron.Tensor{Name: p + "wk", DType: dt, Shape: []int{h, m.kvHeads * hd}, Split: megatron.Columns, Init: uniform(h)},
			megatron.Tensor{Name: p + "wv", DType: dt, Shape: []int{h, m.kvHeads * hd}, Split: megatron.Columns, Init: uniform(h)},
			megatron.Tensor{Name: p + "wo", DType: dt, Shape: []int{m.heads * hd, h}, Split: megatron.Rows, Init: uniform(m.heads * hd)},
			megatron.Tensor{Name: p + "mlp_norm", DType: dt, Shape: []int{h}, Split: megatron.Replicated, Init: ones},
			megatron.Tensor{Name: p + "w_gate", DType: dt, Shape: []int{h, m.ffn}, Split: megatron.Columns, Init: uniform(h)},
			megatron.Tensor{Name: p + "w_up", DType: dt, Shape: []int{h, m.ffn}, Split: megatron.Columns, Init: uniform(h)},
			megatron.Tensor{Name: p + "w_down", DType: dt, Shape: []int{m.ffn, h}, Split: megatron.Rows, Init: uniform(m.ffn)},
		)
	}
	return append(ts,
		megatron.Tensor{Name: "final_norm", DType: dt, Shape: []int{h}, Split: megatron.Replicated, Init: ones},
		megatron.Tensor{Name: "lm_head", DType: dt, Shape: []int{h, m.vocab}, Split: megatron.Columns, Init: uniform(h)})
}

// inputs are the step's own inputs, after the weights: the tokens, and for
// a decode step each block's KV cache, [batch, context, kv-heads x head
// size], split by whole key-value heads like wk and wv.
func (m *llama) inputs(dt dtypes.DType) []megatron.Tensor {
	tokens := []int{1, m.step.N}
	if !m.step.Prefill {
		tokens = []int{m.step.N, 1}
	}
	ts := []megatron.Tensor{{Name: "tokens", DType: dtypes.Int32, Shape: tokens, Split: megatron.Replicated,
		Init: megatron.Init{Kind: megatron.Tokens, Scale: float64(m.vocab)}}}
	if m.step.Prefill {
		return ts
	}
	cache := []int{m.step.N, m.context, m.kvHeads * m.headDim()}
	for l := 0; l < m.layers; l++ {
		for _, kv := range []string{"k_cache", "v_cache"} {
			ts = append(ts, megatron.Tensor{Name: block(l) + kv, DType: dt, Shape: cache, Split: megatron.Columns,
				Init: megatron.Init{Kind: megatron.Uniform, Scale: 1}})
		}
	}
	return ts
}

func (m *llama) Tensors(s harness.Spec) []megatron.Tensor {
	return append(m.weights(s.DType), m.inputs(s.DType)...)
}

// attn is one rank's attention geometry.
type attn struct {
	batch, seq     int // queries: batch sequences of seq new tokens
	heads, kvHeads int // this rank's
	dim            int
	past           int // cached tokens before the new ones (decode), 0 for a prefill
}

func (m *llama) Build(w megatron.Weights, s harness.Spec, reduce megatron.Reduce) []harness.Output {
	tokens := w.Get("tokens")
	batch, seq := tokens.Shape().Dimensions[0], tokens.Shape().Dimensions[1]
	x := graph.Gather(w.Get("embed"), graph.InsertAxes(tokens, -1)) // [batch, seq, hidden]
	x = graph.Reshape(x, batch*seq, m.hidden)
	a := attn{batch: batch, seq: seq, heads: m.heads / s.TP, kvHeads: m.kvHeads / s.TP, dim: m.headDim()}
	if !m.step.Prefill {
		a.past = m.context
	}
	for l := 0; l < m.layers; l++ {
		p := block(l)
		x = graph.Add(x, m.attention(rmsNorm(x, w.Get(p+"attn_norm")), w, p, a, reduce))
		x = graph.Add(x, swiGLU(rmsNorm(x, w.Get(p+"mlp_norm")), w, p, reduce))
	}
	if seq > 1 { // the logits of each sequence's last token
		x = graph.Reshape(x, batch, seq, m.hidden)
		x = graph.Reshape(graph.SliceAxis(x, 1, graph.AxisRange(seq-1, seq)), batch, m.hidden)
	}
	logits := graph.MatMul(rmsNorm(x, w.Get("final_norm")), w.Get("lm_head"))
	return []harness.Output{{Name: "logits", Node: logits, Split: megatron.Columns, Reduces: 2 * m.layers}}
}

func block(l int) string { return fmt.Sprintf("b%d.", l) }

// rmsNorm is x / sqrt(mean(x^2) + eps) * gain over the last axis, in float32.
func rmsNorm(x, gain *graph.Node) *graph.Node {
	const eps = 1e-5
	dt := x.DType()
	x32 := graph.ConvertDType(x, dtypes.Float32)
	y := graph.Mul(x32, graph.Rsqrt(graph.AddScalar(graph.ReduceAndKeep(graph.Square(x32), graph.ReduceMean, -1), eps)))
	return graph.ConvertDType(graph.Mul(y, graph.InsertAxes(graph.ConvertDType(gain, dtypes.Float32), 0)), dt)
}

// swiGLU is Llama's MLP: (silu(x·w_gate) * x·w_up)·w_down, gate and up split
// by columns and down by rows, ending in one all-reduce.
func swiGLU(x *graph.Node, w megatron.Weights, p string, reduce megatron.Reduce) *graph.Node {
	dt := x.DType()
	gate := graph.ConvertDType(graph.MatMul(x, w.Get(p+"w_gate")), dtypes.Float32)
	up := graph.ConvertDType(graph.MatMul(x, w.Get(p+"w_up")), dtypes.Float32)
	h := graph.ConvertDType(graph.Mul(graph.Mul(gate, graph.Sigmoid(gate)), up), dt)
	return reduce(graph.MatMul(h, w.Get(p+"w_down")))
}

// attention is grouped-query causal self-attention with rotary embeddings:
// this rank's heads, in groups that share one of its key-value heads. A
// decode step's queries attend to the block's KV cache (keys already
// rotated) and to their own key; a prefill's to the tokens up to theirs.
// Scores and softmax in float32; the output projection ends in one all-reduce.
func (m *llama) attention(x *graph.Node, w megatron.Weights, p string, a attn, reduce megatron.Reduce) *graph.Node {
	dt := x.DType()
	g := x.Graph()
	group := a.heads / a.kvHeads
	proj := func(name string, heads int) *graph.Node { // [tokens, heads*dim] -> [batch, seq, heads, dim]
		return graph.Reshape(graph.MatMul(x, w.Get(p+name)), a.batch, a.seq, heads, a.dim)
	}
	positions := graph.AddScalar(graph.Iota(g, shapes.Make(dtypes.Float32, a.seq), 0), float64(a.past))
	q := rope(proj("wq", a.heads), positions, m.theta)
	k := rope(proj("wk", a.kvHeads), positions, m.theta)
	v := proj("wv", a.kvHeads)
	q = graph.Reshape(q, a.batch, a.seq, a.kvHeads, group, a.dim)
	scale := 1 / math.Sqrt(float64(a.dim))
	scores := func(keys *graph.Node) *graph.Node { // [batch, kv, group, q, k] in float32
		return graph.MulScalar(graph.ConvertDType(graph.Einsum("bqngd,bknd->bngqk", q, keys), dtypes.Float32), scale)
	}
	values := func(probs, vals *graph.Node) *graph.Node { // -> [batch, q, kv, group, dim]
		return graph.Einsum("bngqk,bknd->bqngd", graph.ConvertDType(probs, dt), vals)
	}
	var ctx *graph.Node
	if a.past == 0 { // prefill: causal over the new tokens
		s := scores(k)
		mask := graph.Where(graph.LowerTriangular(g, a.seq), graph.Scalar(g, dtypes.Float32, 0), graph.Scalar(g, dtypes.Float32, -1e9))
		probs := graph.Softmax(graph.Add(s, graph.Reshape(mask, 1, 1, 1, a.seq, a.seq)), -1)
		ctx = values(probs, v)
	} else { // decode: the cache, then the token itself
		cache := func(name string) *graph.Node {
			return graph.Reshape(w.Get(p+name), a.batch, a.past, a.kvHeads, a.dim)
		}
		kc, vc := cache("k_cache"), cache("v_cache")
		probs := graph.Softmax(graph.Concatenate([]*graph.Node{scores(kc), scores(k)}, -1), -1)
		past := graph.SliceAxis(probs, -1, graph.AxisRange(0, a.past))
		own := graph.SliceAxis(probs, -1, graph.AxisRange(a.past, a.past+a.seq))
		ctx = graph.Add(values(past, vc), values(own, v))
	}
	ctx = graph.Reshape(ctx, a.batch*a.seq, a.heads*a.dim)
	return reduce(graph.MatMul(ctx, w.Get(p+"wo")))
}

// rope turns each head's halves (x1, x2) by the angle position *
// theta^(-2i/dim), as Llama does (rotate_half): x1 cos - x2 sin, x2 cos + x1 sin.
// x is [batch, seq, heads, dim]; positions [seq], float32.
func rope(x, positions *graph.Node, theta float64) *graph.Node {
	dt := x.DType()
	g := x.Graph()
	dims := x.Shape().Dimensions
	half := dims[3] / 2
	exponent := graph.MulScalar(graph.Iota(g, shapes.Make(dtypes.Float32, half), 0), -2/float64(dims[3]))
	freq := graph.Exp(graph.MulScalar(exponent, math.Log(theta)))                  // theta^(-2i/dim)
	angle := graph.Mul(graph.InsertAxes(positions, -1), graph.InsertAxes(freq, 0)) // [seq, half]
	cos, sin := graph.Reshape(graph.Cos(angle), 1, dims[1], 1, half), graph.Reshape(graph.Sin(angle), 1, dims[1], 1, half)
	x32 := graph.ConvertDType(x, dtypes.Float32)
	x1 := graph.SliceAxis(x32, 3, graph.AxisRange(0, half))
	x2 := graph.SliceAxis(x32, 3, graph.AxisRange(half, 2*half))
	out := graph.Concatenate([]*graph.Node{
		graph.Sub(graph.Mul(x1, cos), graph.Mul(x2, sin)),
		graph.Add(graph.Mul(x2, cos), graph.Mul(x1, sin)),
	}, 3)
	return graph.ConvertDType(out, dt)
}
