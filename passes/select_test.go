package passes_test

import (
	"testing"

	"github.com/arcpass/arc/internal/passtest"
)

// TestSelectGoldens: testdata/select/NAME.mlir after select alone is
// NAME.out.mlir (go test ./passes -update rewrites them).
func TestSelectGoldens(t *testing.T) { passtest.Run(t, "select") }
