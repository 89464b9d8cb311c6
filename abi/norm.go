package abi

import (
	"fmt"
	"slices"
)

// The fused kernels: an all-reduce followed, in the same kernel, by the
// residual add and the norm of each row (docs/KERNELS.md).

// NormKinds are the norms the fused kernels run, in the order of the C enum
// arc_norm_kind: "rmsnorm" scales a row by the root of its mean square
// (Llama, Gemma); "layernorm" centres it on its mean and scales it by the
// root of its variance, the mean square of its deviations (GPT-2, OPT,
// Phi); "layernorm_fast" takes the variance as mean(h*h) - mean(h)^2,
// clamped at zero (flax's use_fast_variance). A LayerNorm may add a bias.
var NormKinds = []string{"rmsnorm", "layernorm", "layernorm_fast"}

// KernelNorms are the norms this build's fused kernels run (gpu/arc_comm.cc
// refuses the others): the compiler matches and reports every kind, and
// fuses these.
var KernelNorms = []string{"rmsnorm"}

// Epilogues are what a fused kernel may apply to y after the norm:
// "fp8_e4m3" quantizes it, q = f8E4M3FN(clip(f32(y) op scale, -448, 448))
// with a static scale (reference/norm.FP8), as FlashInfer's and
// TensorRT-LLM's all-reduce + norm kernels do. KernelEpilogues are those
// this build's kernels compute: none yet, so the compiler matches and
// reports an epilogue and leaves its ops in the program, reading y.
var (
	Epilogues       = []string{"fp8_e4m3"}
	KernelEpilogues []string
)

// NormMeans are how the program turns a row's sum of squares into its
// mean, in the order of the C enum arc_norm_mean: "mul" multiplies by a
// constant (gomlx writes 1/N), "div" divides by one (jnp.mean divides by N).
var NormMeans = []string{"mul", "div"}

// NormWeights are where the program applies the norm's weight, in the order
// of arc_norm_weight: "f32" before it converts the row back to the I/O type
// (gomlx), "io" after it, in the I/O type (PyTorch's Llama, MaxText). For
// f32 I/O both are the same.
var NormWeights = []string{"f32", "io"}

// FusedAlgos are the algorithms that have a fused kernel.
var FusedAlgos = []string{"oneshot", "twoshot"}

// FusedMaxRowBytes bounds a row of the fused kernels (one kernel block
// handles a whole row, and a block's share of the exchange memory holds at
// least one). FusedRowMultiple is what a two-shot row's length must divide
// by: its rows are owned by one rank each, so they are whole codec blocks.
const (
	FusedMaxRowBytes = 64 << 10
	FusedRowMultiple = 32
)

// NormKind returns a norm's C API number, or -1.
func NormKind(name string) int { return slices.Index(NormKinds, name) }

// NormMean returns a mean's C API number, or -1.
func NormMean(name string) int { return slices.Index(NormMeans, name) }

// NormWeight returns a weight placement's C API number, or -1.
func NormWeight(name string) int { return slices.Index(NormWeights, name) }

// CheckFused reports whether a fused kernel runs rows of row elements of
// elemBytes each with the algorithm: a kernel the algorithm has, a row that
// fits, and for two-shot whole codec blocks.
func CheckFused(algo string, row int64, elemBytes int64) error {
	switch {
	case !slices.Contains(FusedAlgos, algo):
		return fmt.Errorf("%s has no fused kernel (%v have)", algo, FusedAlgos)
	case row <= 0:
		return fmt.Errorf("a row of %d elements", row)
	case row*elemBytes > FusedMaxRowBytes:
		return fmt.Errorf("a row of %d bytes is longer than the fused kernels take (%d)", row*elemBytes, FusedMaxRowBytes)
	case algo == "twoshot" && row%FusedRowMultiple != 0:
		return fmt.Errorf("twoshot's fused kernel needs rows of a multiple of %d elements, not %d", FusedRowMultiple, row)
	}
	return nil
}
