// Package rocm lowers all-reduces for AMD Instinct GPUs (MI300X gfx942,
// MI355X gfx950) the way QuickReduce does: a two-shot kernel whose both phases
// go through a codec (fp, int8, int6, int4; arc adds int4r and fp8), bf16 sent
// as fp16 by default, the one-shot kernel for small messages, and RCCL
// (native) where neither is estimated faster. vLLM's minimum sizes per codec
// live in the built-in profile. Each arc choice becomes a typed-FFI custom
// call of arc_allreduce that the runtime registers with the ROCm PJRT plugin.
package rocm

import (
	"fmt"

	"github.com/arcpass/arc/lowering/arccall"
	"github.com/arcpass/arc/passes"
)

// Pass is the ROCm lowering.
var Pass = passes.Func("lower-rocm", func(s *passes.State) error {
	if s.Target.Platform != "rocm" {
		return fmt.Errorf("target %s is not a ROCm target", s.Target.Name)
	}
	return arccall.Lower(s)
})
