//go:build cgo

package xlarun

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/gomlx/go-xla/pkg/pjrt"

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
	var buf bytes.Buffer
	// NCCL user buffers come from the client's collective memory: with and without it.
	for _, mem := range []int64{256 << 20, 0} {
		checks, err := CheckSwitches(XLAOptions{Lower: bench.LowerOptions{Target: "cuda:nvlink"}, CollectiveMemory: mem,
			Client: pjrt.NamedValuesMap{"preallocate": false}}, bench.NativeLowerings)
		if err != nil {
			t.Fatalf("collective memory %d: %v", mem, err)
		}
		fmt.Fprintf(&buf, "client with collective_memory_size %d:\n", mem)
		WriteSwitchChecks(&buf, checks)
		if c := checks[0]; c.CompileErr != nil || c.RunErr != nil {
			t.Errorf("native failed: %v %v", c.CompileErr, c.RunErr)
		}
		if c := checks[len(checks)-1]; c.CompileErr == nil {
			t.Error("the plugin accepted a flag XLA does not have: the per-program flags may not reach it")
		}
	}
	t.Log("\n" + buf.String())
	if out := os.Getenv("ARC_SWITCHES_OUT"); out != "" {
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
}
