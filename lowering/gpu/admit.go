package gpu

import (
	"fmt"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/passes"
)

// Admit says why the machine would not run decision d for row under opts,
// or "" when it would (passes.Admitter): an arc_allreduce call the module
// holds, or a decision a module carries into a pipeline without select,
// is held to what select checks before it chooses: the operand's
// eligibility for arc's kernels on this machine (the op's reduction, type,
// size and groups), a kernel of this machine at the group's size, its link,
// a codec this compile allows and a cast it asked for. Only the cost model
// and --min-bytes/--max-bytes, select's policy, are left out.
func (m *Machine) Admit(row passes.Row, d passes.Decision, opts passes.Options) string {
	switch {
	case d.Lowering == "native":
		return ""
	case d.Lowering == "ring":
		return "ring is a TPU lowering"
	case !d.RunsKernel():
		return fmt.Sprintf("%s names no kernel (arc.algo)", d.Lowering)
	}
	opts.MinBytes, opts.MaxBytes = 0, 0
	if why := passes.Ineligible(row, opts, m.kernels()); why != "" {
		return why
	}
	if err := abi.CheckKernel(d.Algo, d.Codec, row.GroupSize); err != nil {
		return err.Error()
	}
	cast := d.CastBF16ToFP16 && row.DType == "bf16" && d.Codec == "fp" // the cast changes nothing else
	switch {
	case d.Algo == "hier" && !m.Hier:
		return fmt.Sprintf("%s has no hierarchical kernel (algo hier)", m.Target)
	case d.Link != m.Link:
		return fmt.Sprintf("link %s: %s's kernels reach their peers through %s", d.Link, m.Target, m.Link)
	case !opts.Allows(d.Codec):
		return fmt.Sprintf("codec %s changes more than the order of the additions, and this compile does not allow it (--quant %s)", d.Codec, d.Codec)
	case cast && !m.CastBF16ToFP16:
		return fmt.Sprintf("bf16 cast to f16 (cast = 1): %s never casts", m.Target)
	case cast && !opts.CastBF16ToFP16:
		return "bf16 cast to f16 (cast = 1) rounds the sums twice, and this compile does not allow it (--cast-bf16-to-fp16)"
	}
	return ""
}
