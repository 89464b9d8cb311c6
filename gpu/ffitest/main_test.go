package ffitest

import (
	"os"
	"testing"

	"github.com/arcpass/arc/internal/ctest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	ctest.Cleanup()
	os.Exit(code)
}
