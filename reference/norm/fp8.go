package norm

import (
	"fmt"

	"github.com/arcpass/arc/reference/num"
)

// FP8 is a static-scale FP8 quantization that the program applies to y, as
// FlashInfer and TensorRT-LLM fuse it into their all-reduce + norm kernels:
// q = f8E4M3FN(clip(f32(y) op Scale, -448, 448)), each operation rounded
// once. y stays in the I/O type T and is read back to f32 exactly (a no-op
// when T is f32); op is the program's own, "div" (y / Scale, as JAX's
// quantization divides by its scale) or "mul" (y * Scale, a reciprocal the
// program computed): x / s and x * (1/s) differ in the last bit, so the
// kernel takes the op the program names, with a correctly rounded divide
// (CUDA's __fdiv_rn, not the fast division).
type FP8 struct {
	Op    string  // "div" or "mul" (abi.NormMeans' words)
	Scale float32 // the splat constant
}

// Check reports an epilogue the reference does not define.
func (e FP8) Check() error {
	if e.Op != "div" && e.Op != "mul" {
		return fmt.Errorf("norm: an FP8 epilogue applies its scale by %q, not div or mul", e.Op)
	}
	return nil
}

func (e FP8) String() string {
	return fmt.Sprintf("e4m3 %s %g, clip to [-%d, %d]", e.Op, e.Scale, num.E4M3Max, num.E4M3Max)
}

// Quantize is q for one element y (already read back to f32). The clip is
// StableHLO's clamp (or maximum and minimum, in either order): a NaN stays
// NaN, which a kernel must keep (CUDA's fmaxf and fminf return the other
// operand instead; XLA's maximum propagates it), and -0 stays -0. After the
// clip every value is a finite e4m3 magnitude at most 448, where
// num.E4M3FromF32 (round to nearest, ties to even; saturation never
// reached) and XLA's convert to f8E4M3FN agree bit for bit; NaN gives
// num.E4M3NaN (XLA gives a NaN too, 0x7F or 0xFF by its sign: arc compares
// every NaN as equal).
func (e FP8) Quantize(y float32) uint8 {
	v := float32(y * e.Scale)
	if e.Op == "div" {
		v = float32(y / e.Scale)
	}
	return num.E4M3FromF32(Clip(v, -num.E4M3Max, num.E4M3Max))
}

// Clip is StableHLO's clamp(lo, v, hi): min(max(v, lo), hi), NaN
// propagating.
func Clip(v, lo, hi float32) float32 {
	switch {
	case v != v:
		return v
	case v < lo:
		return lo
	case v > hi:
		return hi
	}
	return v
}

// QuantizeRows is Quantize for every element of y, a buffer of T.
func (e FP8) QuantizeRows(dt num.DType, y []byte) ([]byte, error) {
	if err := e.Check(); err != nil {
		return nil, err
	}
	if !dt.Valid() || len(y)%dt.Size() != 0 {
		return nil, fmt.Errorf("norm: %d bytes of %v", len(y), dt)
	}
	yf := num.Widen(dt, y)
	q := make([]byte, len(yf))
	for i, v := range yf {
		q[i] = e.Quantize(v)
	}
	return q, nil
}
