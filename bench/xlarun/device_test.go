//go:build cgo

package xlarun

import (
	"bytes"
	"os"
	"testing"

	"github.com/arcpass/arc/bench"
)

// TestSwitchesOnGPU starts a client on the GPUs (ARC_PJRT_PLUGIN, ARC_GPU_LIB)
// and compiles and runs a small chain with each of XLA's switches: what
// jaxlib's CUDA plugin accepts, refuses or fails to run. One GPU is enough to
// see that (world 1). It writes the findings to $ARC_SWITCHES_OUT when set,
// and fails only if native itself fails.
func TestSwitchesOnGPU(t *testing.T) {
	if _, err := os.Stat("/dev/nvidia0"); err != nil || os.Getenv("ARC_PJRT_PLUGIN") == "" {
		t.Skip("needs a GPU and ARC_PJRT_PLUGIN set to the CUDA PJRT plugin")
	}
	t.Setenv("GOMLX_NO_AUTO_INSTALL", "1")
	checks, err := CheckSwitches(XLAOptions{Lower: bench.LowerOptions{Target: "cuda:nvlink"}, CollectiveMemory: 256 << 20}, bench.NativeLowerings)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	WriteSwitchChecks(&buf, checks)
	t.Log("\n" + buf.String())
	if out := os.Getenv("ARC_SWITCHES_OUT"); out != "" {
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	if c := checks[0]; c.CompileErr != nil || c.RunErr != nil {
		t.Errorf("native failed: %v %v", c.CompileErr, c.RunErr)
	}
}
