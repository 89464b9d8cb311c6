//go:build cgo

package xlarun

import (
	"os"
	"testing"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

func TestMain(m *testing.M) {
	code := m.Run()
	fakepjrt.Cleanup()
	os.Exit(code)
}
