// Command decoder runs a tensor-parallel transformer decoder with gomlx, SPMD
// over a one-axis device mesh, through arc and natively, and compares them.
//
// Tokens are embedded (token and position tables, whole on every rank), pass
// through pre-norm residual blocks of causal self-attention and a GELU MLP,
// and a final norm and LM head give the logits. Megatron's split: the q, k, v
// projections and the MLP's first weight by columns (whole heads per rank),
// the attention output and the MLP's second weight by rows, so each block
// does two all-reduces; the LM head is split by columns over the vocabulary,
// so each rank returns its block of the logits. Weights and tokens come from
// --seed.
//
//	decoder --plugin /path/to/xla_cuda_plugin.so --tp 2 --quant int8
//	decoder --dump-only --tp 8 --dump model.mlir   # no device: just write the program
package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/spf13/pflag"

	"github.com/arcpass/arc/examples/internal/harness"
	"github.com/arcpass/arc/examples/internal/megatron"
)

const summary = `Runs a tensor-parallel transformer decoder (two all-reduces per block) through arc
and natively on the GPUs of one PJRT plugin, and prints each block's and the
logits' error, arc's lowering of the all-reduces, and step times with the
all-reduce share. With --dump-only --dump FILE it writes the program on the CPU
and runs nothing.`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("decoder", pflag.ContinueOnError)
	d := &decoder{}
	fs.IntVar(&d.layers, "layers", 4, "decoder blocks")
	fs.IntVar(&d.hidden, "hidden", 2048, "hidden size")
	fs.IntVar(&d.heads, "heads", 16, "attention heads (split over the ranks)")
	fs.IntVar(&d.ffn, "ffn", 8192, "feed-forward size (split over the ranks)")
	fs.IntVar(&d.vocab, "vocab", 32768, "vocabulary size (the LM head is split over the ranks)")
	fs.IntVar(&d.batch, "batch", 4, "sequences per step")
	fs.IntVar(&d.seq, "seq", 512, "tokens per sequence")
	return harness.Main(fs, d, summary, args, stdout, stderr)
}

type decoder struct {
	layers, hidden, heads, ffn, vocab, batch, seq int
}

func (d *decoder) Name() string { return "decoder" }

func (d *decoder) Describe(s harness.Spec) string {
	return fmt.Sprintf("%d blocks, hidden %d, %d heads, ffn %d, vocab %d, %dx%d tokens, %s, tp %d",
		d.layers, d.hidden, d.heads, d.ffn, d.vocab, d.batch, d.seq, s.Elem(), s.TP)
}

func (d *decoder) Check(s harness.Spec) error {
	for _, v := range []int{d.layers, d.hidden, d.heads, d.ffn, d.vocab, d.batch, d.seq} {
		if v < 1 {
			return fmt.Errorf("--layers, --hidden, --heads, --ffn, --vocab, --batch and --seq must be positive")
		}
	}
	switch {
	case d.hidden%d.heads != 0:
		return fmt.Errorf("--hidden %d is not a whole number of --heads %d", d.hidden, d.heads)
	case d.heads%s.TP != 0:
		return fmt.Errorf("--heads %d do not split over --tp %d ranks", d.heads, s.TP)
	case d.ffn%s.TP != 0:
		return fmt.Errorf("--ffn %d does not split over --tp %d ranks", d.ffn, s.TP)
	case d.vocab%s.TP != 0:
		return fmt.Errorf("--vocab %d does not split over --tp %d ranks", d.vocab, s.TP)
	}
	return nil
}

func (d *decoder) Tensors(s harness.Spec) []megatron.Tensor {
	dt, h := s.DType, d.hidden
	whole := func(name string, shape []int, init megatron.Init) megatron.Tensor {
		return megatron.Tensor{Name: name, DType: dt, Shape: shape, Split: megatron.Replicated, Init: init}
	}
	ts := []megatron.Tensor{
		{Name: "tokens", DType: dtypes.Int32, Shape: []int{d.batch, d.seq}, Split: megatron.Replicated,
			Init: megatron.Init{Kind: megatron.Tokens, Scale: float64(d.vocab)}},
		whole("embed", []int{d.vocab, h}, megatron.Init{Kind: megatron.Uniform, Scale: math.Sqrt(3)}),
		whole("position", []int{d.seq, h}, megatron.Init{Kind: megatron.Uniform, Scale: 0.1}),
	}
	for l := 0; l < d.layers; l++ {
		p := block(l)
		ts = append(ts, megatron.NormTensors(p+"norm1.", dt, h)...)
		ts = append(ts, megatron.AttentionTensors(p+"attn.", dt, h, d.heads, h/d.heads)...)
		ts = append(ts, megatron.NormTensors(p+"norm2.", dt, h)...)
		ts = append(ts, megatron.MLPTensors(p+"mlp.", dt, h, d.ffn)...)
	}
	ts = append(ts, megatron.NormTensors("final_norm.", dt, h)...)
	return append(ts, megatron.Tensor{Name: "lm_head", DType: dt, Shape: []int{h, d.vocab}, Split: megatron.Columns,
		Init: megatron.Init{Kind: megatron.Uniform, Scale: 1 / math.Sqrt(float64(h))}})
}

func (d *decoder) Build(w megatron.Weights, s harness.Spec, reduce megatron.Reduce) []harness.Output {
	tokens := graph.InsertAxes(w.Get("tokens"), -1) // [batch, seq, 1]: one index into the table per token
	x := graph.Add(graph.Gather(w.Get("embed"), tokens), graph.InsertAxes(w.Get("position"), 0))
	x = graph.Reshape(x, d.batch*d.seq, d.hidden)
	attn := megatron.AttentionShape{Batch: d.batch, Seq: d.seq, Heads: d.heads / s.TP, HeadDim: d.hidden / d.heads}
	var outs []harness.Output
	for l := 0; l < d.layers; l++ {
		p := block(l)
		x = graph.Add(x, megatron.Attention(megatron.Norm(x, w, p+"norm1."), w, p+"attn.", attn, reduce))
		x = graph.Add(x, megatron.MLP(megatron.Norm(x, w, p+"norm2."), w, p+"mlp.", reduce))
		outs = append(outs, harness.Output{Name: fmt.Sprintf("block %d", l+1), Node: x, Split: megatron.Replicated, Reduces: 2 * (l + 1)})
	}
	logits := graph.MatMul(megatron.Norm(x, w, "final_norm."), w.Get("lm_head"))
	return append(outs, harness.Output{Name: "logits", Node: logits, Split: megatron.Columns, Reduces: 2 * d.layers})
}

func block(l int) string { return fmt.Sprintf("b%d.", l) }
