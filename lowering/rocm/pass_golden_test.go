package rocm_test

import (
	"testing"

	"github.com/arcpass/arc/internal/passtest"
)

// TestLowerGoldens: testdata/lower-rocm/NAME.mlir, which carries select's
// decisions, after lower-rocm alone is NAME.out.mlir (-update rewrites them).
func TestLowerGoldens(t *testing.T) { passtest.Run(t, "lower-rocm") }
