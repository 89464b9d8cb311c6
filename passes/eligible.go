package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
)

// Kernels describes what a target's own all-reduce kernels take, for
// Ineligible; a target that keeps the platform's collective and only
// reorders it passes nil.
type Kernels struct {
	DTypes   []string // element types the kernels sum, any count of them
	Capacity int64    // the largest operand the runtime's buffers take (0: no bound)
	// Worlds says why a group size cannot run ("" when it can).
	Worlds func(size int) string
	// Fits says why a group cannot run on this machine ("" when it can):
	// it spans hosts, or its devices cannot reach each other.
	Fits func(group []int64, opts Options) string
}

// Ineligible returns why an all-reduce row cannot take any of arc's
// lowerings on a target with kernels k, or "" when it can. The checks run
// from the op itself to the machine, so the first reason is the one a user
// can least change.
func Ineligible(row Row, opts Options, k *Kernels) string {
	switch {
	case row.Op != "all_reduce":
		return "arc lowers all-reduces only"
	case row.Collective != nil && row.Collective.Op != nil && decision.IsCall(row.Collective):
		// A plain all-reduce that carries arc's marks is decided afresh:
		// only arc's own calls are lowered already.
		return "already lowered by arc"
	case k != nil && row.Unlowerable != "":
		return row.Unlowerable
	case row.Collective != nil && !row.Collective.TypesMirror():
		return "its result types are not its operand types (a promoted element type or dynamic sizes): arc's lowerings keep the operand's type"
	case row.Collective != nil && row.Collective.Unresolved != "":
		return "groups unknown: " + row.Collective.Unresolved
	case k != nil && row.Reduction != "sum":
		return fmt.Sprintf("reduction is %s: arc's kernels only sum", row.Reduction)
	case k != nil && !slices.Contains(k.DTypes, row.DType):
		return fmt.Sprintf("dtype %s: arc's kernels take %s", row.DType, andList(k.DTypes))
	case row.Bytes < 0 && slices.Contains(row.Shape, -1):
		return "dynamic shape"
	case row.Bytes < 0:
		return fmt.Sprintf("no size known for %s (an element type of no fixed width, or more than 2^63 bytes)", ir.TensorType{Shape: row.Shape, Elem: row.DType})
	case row.Bytes == 0:
		return "empty tensor"
	case opts.MinBytes > 0 && row.Bytes < opts.MinBytes:
		return fmt.Sprintf("below --min-bytes %d", opts.MinBytes)
	case opts.MaxBytes > 0 && row.Bytes > opts.MaxBytes:
		return fmt.Sprintf("above --max-bytes %d", opts.MaxBytes)
	case k != nil && k.Capacity > 0 && row.Bytes > k.Capacity:
		return fmt.Sprintf("%s is more than the %s arc's runtime buffers hold", HumanBytes(row.Bytes), HumanBytes(k.Capacity))
	}
	if len(row.Groups) == 0 {
		if row.Unlowerable != "" {
			return row.Unlowerable
		}
		return "no replica groups, and the module does not say how many replicas the op spans"
	}
	for _, g := range row.Groups {
		if len(g) != len(row.Groups[0]) {
			return "groups of different sizes"
		}
	}
	if row.GroupSize < 2 {
		return "groups of one device: nothing to exchange"
	}
	if k == nil {
		return ""
	}
	if k.Worlds != nil {
		if why := k.Worlds(row.GroupSize); why != "" {
			return why
		}
	}
	if k.Fits != nil {
		for _, g := range row.Groups {
			if why := k.Fits(g, opts); why != "" {
				return why
			}
		}
	}
	return ""
}

// andList prints "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
