package harness

import (
	"os"
	"testing"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

// TestMain removes the C builds the device tests make (fakepjrt), which
// would otherwise stay in the temporary directory.
func TestMain(m *testing.M) {
	code := m.Run()
	fakepjrt.Cleanup()
	os.Exit(code)
}
