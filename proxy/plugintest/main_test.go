package plugintest

import (
	"os"
	"testing"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

func TestMain(m *testing.M) {
	code := m.Run()
	fakepjrt.Cleanup()
	if serveBin.dir != "" {
		os.RemoveAll(serveBin.dir)
	}
	os.Exit(code)
}
