package exampletest

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"testing"
)

// RunOnGPUs runs the example's main (run) with args on 2 GPUs, through arc
// and natively, and requires a passing RESULT line. It skips unless the
// machine has an NVIDIA GPU and ARC_PJRT_PLUGIN names the CUDA PJRT plugin
// (ARC_GPU_LIB names libarc_gpu.so, built by make gpu).
func RunOnGPUs(t *testing.T, run func(args []string, stdout, stderr io.Writer) int, args ...string) {
	t.Helper()
	if _, err := os.Stat("/dev/nvidia0"); err != nil || os.Getenv("ARC_PJRT_PLUGIN") == "" {
		t.Skip("needs a GPU and ARC_PJRT_PLUGIN set to the CUDA PJRT plugin")
	}
	t.Setenv("GOMLX_NO_AUTO_INSTALL", "1")
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"--tp", "2", "--steps", "3", "--warmup", "1"}, args...), &stdout, &stderr)
	t.Log(stdout.String())
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !regexp.MustCompile(`(?m)^RESULT .* pass=yes$`).Match(stdout.Bytes()) {
		t.Error("no passing RESULT line")
	}
}
