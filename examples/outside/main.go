// Command outside is a program of its own that depends on arc, as yours
// would: its go.mod requires github.com/arcpass/arc and replaces it with a
// clone of arc (README.md, "Depending on arc"). It builds one
// tensor-parallel MLP block with gomlx on arc's capture backend (a CPU is
// enough), lowers the program's all-reduce with arc.Compile and prints
// what arc chose and why.
//
//	go -C examples/outside run . --target rocm:mi300x --tp 2 --tokens 4096 --quant INT8 -o /tmp/mlp.mlir
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/capture"
)

func main() {
	target := flag.String("target", "cuda:nvlink", "the arc target to lower for (arc compile --help lists them)")
	quant := flag.String("quant", "none", "the quantized codec arc may use (int8, int4, ...; vLLM's INT8 too)")
	tp := flag.Int("tp", 4, "devices the block is split over")
	tokens := flag.Int("tokens", 64, "tokens in the batch: the all-reduce carries tokens x 1024 bf16 values")
	out := flag.String("o", "", "write the lowered module to `FILE`")
	flag.Parse()
	if err := run(arc.Options{Target: *target, Quant: *quant, Strict: *quant != "none"}, *tp, *tokens, *out); err != nil {
		fmt.Fprintln(os.Stderr, "outside:", err)
		os.Exit(1)
	}
}

// run lowers the program with opt; a --quant no all-reduce can use is an
// error (opt.Strict), so that asking for a codec is never silently moot.
func run(opt arc.Options, tp, tokens int, out string) error {
	text, err := program(tp, tokens)
	if err != nil {
		return err
	}
	lowered, report, err := arc.Compile("mlp.mlir", []byte(text), opt)
	if err != nil {
		return err
	}
	if err := report.WriteTable(os.Stdout); err != nil {
		return err
	}
	if out == "" {
		return nil
	}
	return os.WriteFile(out, lowered, 0o644)
}

// program captures the StableHLO of one Megatron MLP block: x times W1
// split by columns, tanh, times W2 split by rows, and the all-reduce that
// sums the ranks' partial products.
func program(tp, tokens int) (string, error) {
	const hidden, ffn = 1024, 4096
	if tp < 1 || ffn%tp != 0 || tokens < 1 {
		return "", fmt.Errorf("--tp %d, --tokens %d: want tokens > 0 and tp dividing %d", tp, tokens, ffn)
	}
	b, err := capture.NewBackend(tp)
	if err != nil {
		return "", err
	}
	defer b.Finalize()
	mesh, err := distributed.NewDeviceMesh([]int{tp}, []string{"tp"})
	if err != nil {
		return "", err
	}
	g := graph.NewGraph(b, "mlp")
	if err := g.SetSPMD(mesh); err != nil {
		return "", err
	}
	x := graph.Parameter(g, "x", shapes.Make(dtypes.BFloat16, tokens, hidden))
	w1 := graph.Parameter(g, "w1", shapes.Make(dtypes.BFloat16, hidden, ffn/tp))
	w2 := graph.Parameter(g, "w2", shapes.Make(dtypes.BFloat16, ffn/tp, hidden))
	partial := graph.MatMul(graph.Tanh(graph.MatMul(x, w1)), w2)
	return capture.Compile(g, g.Distributed().AllReduceOne(partial, backends.ReduceOpSum))
}
