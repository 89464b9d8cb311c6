// Command llama runs a Llama-shaped tensor-parallel decoder (Llama 3 70B's
// sizes by default: hidden 8192, 64 heads sharing 8 key-value heads, MLP
// 28672, vocabulary 128256) built with gomlx, SPMD over a one-axis device
// mesh with Megatron's split, on the GPUs of one PJRT client: decode steps
// and prefills, each with XLA's own all-reduce (with and without the
// switches a JAX user can turn on) and with arc's lowerings, timed in the
// same process and run, with tokens per second and each lowering's logits
// error against native.
//
//	llama --plugin /path/to/xla_cuda_plugin.so --tp 2 --layers 80
//	llama --dump-only --tp 8 --dump model.mlir   # no device: just write the program
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/spf13/pflag"

	"github.com/arcpass/arc/examples/internal/harness"
)

const summary = `Runs a Llama-shaped tensor-parallel decoder (two all-reduces per block) on the
GPUs of one PJRT plugin: for each --shapes step (decode:BATCH, one new token per
sequence after a KV cache of --context tokens; prefill:TOKENS of one sequence)
and each --variants lowering of its all-reduces, the step time and tokens per
second, the speedup over native and over the best native variant, what arc
chose, and the logits' error against native. Weights are drawn on the GPUs.

Variants: native (XLA's all-reduce, XLA's default flags), native+SWITCH
(XLA's switches: oneshot, symm, userbuf, all; per-program XLA flags), auto
(arc's policy), auto:CODEC (arc's policy, allowed CODEC, as --quant), or a
lowering forced on every all-reduce (oneshot, twoshot:CODEC, lowprec:fp8).

With --dump-only --dump FILE it writes the first shape's program on the CPU and
runs nothing.`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command line.
type options struct {
	tp, steps, warmup, jobs int
	dtype, target, plugin   string
	gpuLib, dump, csv       string
	shapes, variants        string
	seed                    uint64
	memFraction             float64
	dumpOnly, control       bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("llama", pflag.ContinueOnError)
	m := &llama{}
	var o options
	fs.IntVar(&m.layers, "layers", 2, "decoder blocks (Llama 3 70B has 80, which fit 2 x H200 at --tp 2; the default keeps the shipped program small)")
	fs.IntVar(&m.hidden, "hidden", 8192, "hidden size")
	fs.IntVar(&m.heads, "heads", 64, "query heads (split over the ranks)")
	fs.IntVar(&m.kvHeads, "kv-heads", 8, "key-value heads, each shared by heads/kv-heads query heads (split over the ranks)")
	fs.IntVar(&m.ffn, "ffn", 28672, "MLP size (split over the ranks)")
	fs.IntVar(&m.vocab, "vocab", 128256, "vocabulary size (the LM head is split over the ranks)")
	fs.Float64Var(&m.theta, "rope-theta", 500000, "rotary embedding base")
	fs.IntVar(&m.context, "context", 2048, "tokens in the KV cache before a decode step")
	fs.StringVar(&o.shapes, "shapes", "decode:1,decode:8,decode:64,prefill:2048,prefill:8192", "steps to run: decode:BATCH and prefill:TOKENS, comma separated")
	fs.StringVar(&o.variants, "variants", "native,native+oneshot,native+symm,native+userbuf,native+all,auto,auto-unfused,auto:int8,auto:int4",
		"lowerings of the all-reduces to time, comma separated (see above)")
	fs.IntVar(&o.tp, "tp", 2, "tensor-parallel ranks: the size of the device mesh")
	fs.StringVar(&o.dtype, "dtype", "bf16", "element type of weights and activations: bf16, f16 or f32")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the weights and inputs")
	fs.StringVar(&o.target, "target", "", "arc's target (default: $ARC_TARGET, else cuda:nvlink)")
	fs.IntVar(&o.steps, "steps", 10, "timed steps of each program; the median is reported")
	fs.IntVar(&o.warmup, "warmup", 3, "untimed steps of each program before the timed ones")
	fs.IntVar(&o.jobs, "jobs", 4, "programs compiled at once")
	fs.StringVar(&o.plugin, "plugin", "", "the CUDA PJRT plugin, a .so `path` (default: $ARC_PJRT_PLUGIN, else go-xla's cuda plugin)")
	fs.StringVar(&o.gpuLib, "gpu-lib", "", "arc's kernels, libarc_gpu.so (default: $ARC_GPU_LIB, else beside the executable)")
	fs.Float64Var(&o.memFraction, "memory-fraction", 0.92, "share of each GPU's memory the PJRT client takes")
	fs.BoolVar(&o.control, "control", true, "also time each shape without its all-reduces (the all-reduce share of a step; never at --tp 1)")
	fs.StringVar(&o.csv, "csv", "", "write one row per shape and variant to `FILE.csv`")
	fs.StringVar(&o.dump, "dump", "", "write the first shape's StableHLO program (before arc) to `FILE` (- for stdout)")
	fs.BoolVar(&o.dumpOnly, "dump-only", false, "write --dump and stop: build the program on a compile-only PJRT plugin, on the CPU, with no device")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: llama [flags]\n\n%s\n\nflags:\n", summary)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return harness.ExitOK
		}
		fmt.Fprintf(stderr, "llama: %v (--help lists the flags)\n", err)
		return harness.ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "llama: unexpected arguments %q\n", fs.Args())
		return harness.ExitUsage
	}
	r, err := newRunner(m, o, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "llama: %v\n", err)
		return harness.ExitUsage
	}
	if err := r.run(); err != nil {
		fmt.Fprintf(stderr, "llama: %v\n", err)
		return harness.ExitFail
	}
	return harness.ExitOK
}

// elemType is --dtype as gomlx's type.
func elemType(s string) (dtypes.DType, error) {
	switch strings.ToLower(s) {
	case "bf16":
		return dtypes.BFloat16, nil
	case "f16":
		return dtypes.Float16, nil
	case "f32":
		return dtypes.Float32, nil
	}
	return dtypes.InvalidDType, fmt.Errorf("--dtype %q: want bf16, f16 or f32", s)
}
