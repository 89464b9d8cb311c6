package tpu_test

import (
	"testing"

	"github.com/arcpass/arc/internal/passtest"
)

// TestLowerGoldens: testdata/lower-tpu/NAME.mlir, which carries select's
// decisions, after lower-tpu alone is NAME.out.mlir (-update rewrites them).
func TestLowerGoldens(t *testing.T) { passtest.Run(t, "lower-tpu") }
