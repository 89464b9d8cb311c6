package ir

import (
	"fmt"
	"strconv"
)

// The fused form of arc's custom call: an all-reduce followed, in the same
// kernel, by the residual add and the RMSNorm of each row. Its
// backend_config holds the all-reduce's keys and these; it takes three
// operands, the all-reduce's operand, the residual x (of the same type) and
// the weight w (one row's elements), and returns h = x + sum and the
// normalised rows y, both of the operand's type.
const (
	NormKey       = "norm"   // "rmsnorm"
	NormRowKey    = "row"    // i64: the elements of a row, the last dimension
	NormMeanKey   = "mean"   // "mul" or "div"
	NormScaleKey  = "scale"  // f32: the mean's constant
	NormEpsKey    = "eps"    // f32: added to the mean
	NormWeightKey = "weight" // "f32" or "io": where the weight is applied
	// NormRMS is the one norm the kernels fuse.
	NormRMS = "rmsnorm"
)

// readNormCall checks the fused form of arc's call and leaves c the view
// of its all-reduce: the first operand and the first result (h, whose type
// is the sum's). Nothing is done for a call without the norm key.
func readNormCall(c *Collective, cfg map[string]string, errAt func(string, ...any) error) error {
	kind, ok := cfg[NormKey]
	if !ok {
		return nil
	}
	if kind != NormRMS {
		return errAt("backend_config: norm %q (arc fuses %q)", kind, NormRMS)
	}
	if len(c.Operands) != 3 || len(c.OperandTypes) != 3 || len(c.ResultTypes) != 2 {
		return errAt("the fused call takes the operand, the residual and the weight and returns h and y, not %d operands and %d results", len(c.Operands), len(c.ResultTypes))
	}
	t := c.OperandTypes[0]
	row, err := strconv.ParseInt(cfg[NormRowKey], 10, 64)
	if err != nil || row <= 0 || len(t.Shape) == 0 || t.Shape[len(t.Shape)-1] != row {
		return errAt("backend_config: row %q is not the last dimension of %s", cfg[NormRowKey], t)
	}
	for i, want := range []TensorType{t, {Elem: t.Elem, Shape: c.OperandTypes[2].Shape}} {
		if got := c.OperandTypes[i+1]; got.String() != want.String() || i == 1 && got.Elems() != row {
			return errAt("operand %d is %s: the fused call takes %s", i+1, got, []string{"the residual of the operand's type", fmt.Sprintf("a weight of %d elements of %s", row, t.Elem)}[i])
		}
	}
	for i, r := range c.ResultTypes {
		if r.String() != t.String() {
			return errAt("result %d is %s, not the operand's %s", i, r, t)
		}
	}
	c.Operands, c.OperandTypes, c.ResultTypes = c.Operands[:1], c.OperandTypes[:1], c.ResultTypes[:1]
	return nil
}
