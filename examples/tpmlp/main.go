// Command tpmlp runs a stack of tensor-parallel MLP blocks with gomlx, SPMD
// over a one-axis device mesh, through arc and natively, and compares them.
//
// Each block is pre-norm and residual: x + MLP(LayerNorm(x)), with the MLP's
// first weight split by columns and its second by rows (Megatron), so each
// block does exactly one all-reduce. Weights and inputs come from --seed.
//
//	tpmlp --plugin /path/to/xla_cuda_plugin.so --tp 2 --quant int8
//	tpmlp --dump-only --tp 8 --dump model.mlir   # no device: just write the program
package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/spf13/pflag"

	"github.com/arcpass/arc/examples/internal/harness"
	"github.com/arcpass/arc/examples/internal/megatron"
)

const summary = `Runs a stack of tensor-parallel MLP blocks (one all-reduce each) through arc and
natively on the GPUs of one PJRT plugin, and prints each block's output error,
arc's lowering of the all-reduces, and step times with the all-reduce share.
With --dump-only --dump FILE it writes the program on the CPU and runs nothing.`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("tpmlp", pflag.ContinueOnError)
	m := &mlpStack{}
	fs.IntVar(&m.layers, "layers", 4, "MLP blocks")
	fs.IntVar(&m.hidden, "hidden", 4096, "hidden size")
	fs.IntVar(&m.ffn, "ffn", 16384, "feed-forward size (split over the ranks)")
	fs.IntVar(&m.batch, "batch", 8, "sequences per step")
	fs.IntVar(&m.seq, "seq", 256, "tokens per sequence")
	return harness.Main(fs, m, summary, args, stdout, stderr)
}

type mlpStack struct {
	layers, hidden, ffn, batch, seq int
}

func (m *mlpStack) Name() string { return "tpmlp" }

func (m *mlpStack) Describe(s harness.Spec) string {
	return fmt.Sprintf("%d MLP blocks, hidden %d, ffn %d, %dx%d tokens, %s, tp %d", m.layers, m.hidden, m.ffn, m.batch, m.seq, s.Elem(), s.TP)
}

func (m *mlpStack) Check(s harness.Spec) error {
	if m.layers < 1 || m.hidden < 1 || m.ffn < 1 || m.batch < 1 || m.seq < 1 {
		return fmt.Errorf("--layers, --hidden, --ffn, --batch and --seq must be positive")
	}
	if m.ffn%s.TP != 0 {
		return fmt.Errorf("--ffn %d does not split over --tp %d ranks", m.ffn, s.TP)
	}
	return nil
}

func (m *mlpStack) Tensors(s harness.Spec) []megatron.Tensor {
	ts := []megatron.Tensor{{Name: "x", DType: s.DType, Shape: []int{m.batch * m.seq, m.hidden},
		Split: megatron.Replicated, Init: megatron.Init{Kind: megatron.Uniform, Scale: math.Sqrt(3)}}}
	for l := 0; l < m.layers; l++ {
		ts = append(ts, megatron.NormTensors(layer(l)+"norm.", s.DType, m.hidden)...)
		ts = append(ts, megatron.MLPTensors(layer(l)+"mlp.", s.DType, m.hidden, m.ffn)...)
	}
	return ts
}

func (m *mlpStack) Build(w megatron.Weights, s harness.Spec, reduce megatron.Reduce) []harness.Output {
	x := w.Get("x")
	var outs []harness.Output
	for l := 0; l < m.layers; l++ {
		x = graph.Add(x, megatron.MLP(megatron.Norm(x, w, layer(l)+"norm."), w, layer(l)+"mlp.", reduce))
		outs = append(outs, harness.Output{Name: fmt.Sprintf("layer %d", l+1), Node: x, Split: megatron.Replicated, Reduces: l + 1})
	}
	return outs
}

func layer(l int) string { return fmt.Sprintf("l%d.", l) }
