// Package cuda lowers all-reduces for NVIDIA GPUs. The select pass has chosen
// per operand among arc's one-shot kernel (small messages: every rank reads
// all peers and sums in rank order), its two-shot kernel (reduce-scatter then
// all-gather, optionally through a codec), the FP8 "lowprec" two-shot for PCIe
// machines (TensorRT-LLM's idea), the 2 x 4 hierarchical variant for
// cuda:pcie-2numa, and NCCL (native). This pass turns each arc choice into a
// typed-FFI custom call of arc_allreduce; the link mode in the call tells the
// runtime whether peers share device memory ("peer") or exchange through
// pinned host memory ("host", cuda:pcie-nop2p).
package cuda

import (
	"fmt"

	"github.com/arcpass/arc/lowering/arccall"
	"github.com/arcpass/arc/passes"
)

// Pass is the CUDA lowering.
var Pass = passes.Func("lower-cuda", func(s *passes.State) error {
	if s.Target.Platform != "cuda" {
		return fmt.Errorf("target %s is not a CUDA target", s.Target.Name)
	}
	return arccall.Lower(s)
})
