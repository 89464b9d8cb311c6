package ir

import (
	"strings"
	"testing"
)

// TestSetAttrsPlacesInherentAttributesInProperties: MLIR reads an op's
// inherent attributes from "<{...}>" when the op has it; a unit attribute
// is its name alone.
func TestSetAttrsPlacesInherentAttributesInProperties(t *testing.T) {
	got := edited(t, func(ed *Editor, op *Op) error {
		return ed.SetAttrs(op, []string{"use_global_device_ids", "arc.reason"}, []string{"", `"r"`})
	})
	for _, want := range []string{
		`<{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>`,
		`{arc.lowering = "native", arc.codec = "int8", other = 1, arc.reason = "r"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s:\n%s", want, got)
		}
	}
}
